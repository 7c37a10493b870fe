// One typed record over the secure store (docs/design.md §1, layer 3 "State"): JSON in, JSON out,
// and every change a read-modify-write under the store's lock from the freshest copy on disk, so
// two updaters (tasks or processes) never lose each other's changes and a stale copy held in
// memory is never written back over a newer one.
//
// JSON coding is FoundationEssentials' (the toolchain's Foundation core: no networking, no ICU);
// the rest of the store stays Glibc-only. It lives here rather than in a target of its own so
// the clients reach it through the one import they already have.

package import CryptoPrimitives
import FoundationEssentials

/// A `Codable` value kept as one encrypted record of a ``SecureStore``.
///
/// ```swift
/// let device = try RecordStore<DeviceRecord>(store: store, name: "cm.device")
/// try device.update({ record in record = record ?? DeviceRecord(); record?.pinsFetchedAt = now },
///                   storeError: { CMClientError(.store, "cm.device cannot be written", storeError: $0) })
/// ```
///
/// The plaintext buffers of every encode and decode are wiped after use (the `String`s inside
/// a decoded value are Swift's and cannot be: a value that holds secrets conforms to
/// ``SealedRecordValue`` and keeps them as `SecretBytes` outside the JSON).
public struct RecordStore<Value: Codable>: Sendable {
    /// The store holding the record.
    public let store: SecureStore
    /// The record name.
    public let name: String

    /// The record `name` of `store`; throws ``SecureStoreError/Kind/invalidName`` for a bad name.
    public init(store: SecureStore, name: String) throws(SecureStoreError) {
        try SecureStore.check(name)
        self.store = store
        self.name = name
    }

    /// The stored value, or nil when there is none. A record that authenticates but does not
    /// decode as `Value` is ``SecureStoreError/Kind/corrupt`` (never a silent reset).
    public func read() throws(SecureStoreError) -> Value? {
        guard let plaintext = try store.read(name) else { return nil }
        return try Self.decode(plaintext, name: name)
    }

    /// Replaces the stored value with `value` (under the lock, durable when this returns).
    public func write(_ value: Value) throws(SecureStoreError) {
        try store.withExclusiveAccess { () throws(SecureStoreError) in
            try store.write(Self.encode(value, name: name), to: name)
        }
    }

    /// Removes the record (nothing happens when it is absent).
    public func remove() throws(SecureStoreError) {
        try store.remove(name)
    }

    /// Reads the freshest value under the store's exclusive lock, lets `body` change it (nil:
    /// no record; setting nil removes it), and writes the result before the lock is released.
    /// Nothing is written when `body` throws or leaves the value unchanged in absence (nil in,
    /// nil out). Store failures become `E` through `storeError`.
    public func update<R, E: Error>(_ body: (inout Value?) throws(E) -> R,
                                    storeError: (SecureStoreError) -> E) throws(E) -> R {
        var failure: E?
        let result: R?
        do throws(SecureStoreError) {
            result = try store.withExclusiveAccess { () throws(SecureStoreError) -> R? in
                let before = try read()
                var value = before
                let output: R
                do throws(E) { output = try body(&value) } catch {
                    failure = error
                    return nil
                }
                if let value {
                    try store.write(Self.encode(value, name: name), to: name)
                } else if before != nil {
                    try store.remove(name)
                }
                return output
            }
        } catch {
            throw storeError(error)
        }
        if let failure { throw failure }
        guard let result else { throw storeError(SecureStoreError(.io, "an update returned neither a value nor an error", path: name)) }
        return result
    }

    /// The JSON of `value` in wiped storage; the encoder's buffer is wiped. A
    /// ``SealedRecordValue`` gets its secrets appended in the binary section (SealedRecord.swift).
    package static func encode(_ value: Value, name: String) throws(SecureStoreError) -> SecretBytes {
        var data: Data
        do { data = try JSONEncoder().encode(value) } catch {
            throw SecureStoreError(.corrupt, "the value cannot be encoded as JSON", path: name)
        }
        defer { data.withUnsafeMutableBytes { SecretBytes.wipe($0) } }
        guard let sealed = value as? any SealedRecordValue else { return SecretBytes(data) }
        var secrets = RecordSecrets()
        sealed.sealSecrets(into: &secrets)
        let encoded: Result<SecretBytes, SecureStoreError> = data.withUnsafeBytes { json in
            Result { () throws(SecureStoreError) in try SealedRecordFormat.encode(json: json, secrets: secrets, name: name) }
        }
        return try encoded.get()
    }

    /// `Value` from the JSON in `plaintext`; the decoder's input copy is wiped. A
    /// ``SealedRecordValue`` takes its secrets from the binary section (none for a record of the
    /// old all-JSON form, which still reads and is rewritten in the sealed form on its next write).
    package static func decode(_ plaintext: SecretBytes, name: String) throws(SecureStoreError) -> Value {
        guard Value.self is any SealedRecordValue.Type else { return try decodeJSON(plaintext, range: 0..<plaintext.count, name: name) }
        let split = plaintext.withUnsafeBytes { bytes in
            Result { () throws(SecureStoreError) in try SealedRecordFormat.decode(bytes, name: name) }
        }
        let (range, secrets) = try split.get() ?? (0..<plaintext.count, RecordSecrets())
        let value = try decodeJSON(plaintext, range: range, name: name)
        guard let sealed = value as? any SealedRecordValue, let unsealed = try sealed.unsealed(from: secrets) as? Value else {
            throw SecureStoreError(.corrupt, "the record does not decode as \(Value.self)", path: name)
        }
        return unsealed
    }

    /// `Value` from the JSON at `range` of `plaintext`; the decoder's input copy is wiped.
    private static func decodeJSON(_ plaintext: SecretBytes, range: Range<Int>, name: String) throws(SecureStoreError) -> Value {
        var data = plaintext.withUnsafeBytes { Data(UnsafeRawBufferPointer(rebasing: $0[range])) }   // one exact-size copy
        defer { data.withUnsafeMutableBytes { SecretBytes.wipe($0) } }
        do { return try JSONDecoder().decode(Value.self, from: data) } catch {
            throw SecureStoreError(.corrupt, "the record does not decode as \(Value.self)", path: name)
        }
    }
}
