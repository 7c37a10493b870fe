// One record of a PowerAuth SDK instance in the secure store, `powerauth.<instance>.<kind>`
// (docs/protocols/sdk-surfaces.md §1.11: one namespace per `instanceId`), read, written and removed with the
// store's failures reported as `PowerAuthSDKError.Code.store` ("the <kind> record cannot be
// read"), and the store's exclusive lock for a read-modify-write whose step throws SDK errors.
// The activation, its deadlock mark and the token list all go through here.

import CryptoPrimitives
import SecureStore

/// The record `powerauth.<instance>.<kind>` of one SDK instance.
struct InstanceRecord: Sendable {
    /// The secure store holding the record.
    let store: SecureStore
    /// The namespace of the instance's records (`PowerAuthConfiguration.instanceId`).
    let instanceID: String
    /// What the record holds (`activation`, `deadlock`, `tokens`): the last part of its name.
    let kind: String

    /// The `kind` record of `instanceID` in `store`, not yet checked.
    init(_ kind: String, of instanceID: String, in store: SecureStore) {
        self.store = store
        self.instanceID = instanceID
        self.kind = kind
    }

    /// The `kind` record of `instanceID` in `store`. Throws ``SecureStoreError/Kind/invalidName``
    /// for an instance id that cannot name a record, and the store's error for a stored record
    /// that does not open.
    init(checking kind: String, of instanceID: String, in store: SecureStore) throws(SecureStoreError) {
        self.init(kind, of: instanceID, in: store)
        _ = try store.read(name)  // validates the name, and the record if there is one
    }

    /// `powerauth.<instance>.<kind>`.
    var name: String { "powerauth." + instanceID + "." + kind }

    /// The record's bytes, or nil when there is none.
    func read() throws(PowerAuthSDKError) -> SecretBytes? {
        do { return try store.read(name) } catch { throw failure("read", error) }
    }

    /// Replaces the record with `bytes` (durable when this returns).
    func write(_ bytes: SecretBytes) throws(PowerAuthSDKError) {
        do { try store.write(bytes, to: name) } catch { throw failure("written", error) }
    }

    /// Removes the record (durable when this returns).
    func remove() throws(PowerAuthSDKError) {
        do { try store.remove(name) } catch { throw failure("removed", error) }
    }

    /// Removes the record if there is one; no directory fsync in the usual case of none.
    func removeIfPresent() throws(PowerAuthSDKError) {
        do {
            guard try store.read(name) != nil else { return }
            try store.remove(name)
        } catch {
            throw failure("removed", error)
        }
    }

    /// Runs `body` under the store's exclusive lock: another process sharing the store cannot
    /// interleave. `body`'s error is thrown as it is; a lock that cannot be taken is a store error.
    func withExclusiveAccess<Output>(_ body: () throws(PowerAuthSDKError) -> Output) throws(PowerAuthSDKError) -> Output {
        let outcome: Result<Output, PowerAuthSDKError>
        do {
            outcome = try store.withExclusiveAccess { () throws(SecureStoreError) -> Result<Output, PowerAuthSDKError> in
                Result { () throws(PowerAuthSDKError) -> Output in try body() }
            }
        } catch {
            throw PowerAuthSDKError(.store, "the store cannot be locked", storeError: error)
        }
        return try outcome.get()
    }

    private func failure(_ verb: String, _ error: SecureStoreError) -> PowerAuthSDKError {
        PowerAuthSDKError(.store, "the \(kind) record cannot be \(verb)", storeError: error)
    }
}
