// The store's rollback epoch kept in the token (SecureStore's `StoreRollbackAnchor`): a private
// data object (`CKO_DATA`, PKCS #11 v2.40 §4.5) labelled `swiftmfa-epoch-<store identifier>`
// whose `CKA_VALUE` is the epoch, 8 bytes big-endian. The token lives outside the store
// directory (in hardware, or in SoftHSM2's own token directory), so putting back an older copy of
// the directory leaves the token's epoch ahead of it, and the store refuses to open.
//
// The object is replaced, not modified: the new one is created before the old one is destroyed,
// so a crash between the two leaves both and the larger counts. Creating and destroying objects
// is what every token implements; `C_SetAttributeValue` on a data object's value is not.

import CryptoPrimitives
public import SecureStore

extension PKCS11KeyProvider: StoreRollbackAnchor {
    /// The token keeps this store's rollback epoch.
    public var rollbackAnchor: (any StoreRollbackAnchor)? { self }

    /// The label of this store's epoch object.
    var epochLabel: String { "swiftmfa-epoch-" + storeIdentifier.text }

    /// The largest epoch on the token for this store, or nil when it has none. Every PKCS #11
    /// failure, and an object whose value is not 8 bytes, becomes
    /// `SecureStoreError.Kind.keyUnavailable`.
    public func anchoredEpoch(directory: String) throws(SecureStoreError) -> UInt64? {
        try mappingErrors(directory) { () throws(PKCS11Error) in
            try withSession(readWrite: false) { (session) throws(PKCS11Error) in try epochs(in: session).map(\.epoch).max() }
        }
    }

    /// Creates an object holding `epoch`, then destroys the older ones; does nothing when the
    /// token already holds `epoch` or more.
    public func advanceAnchor(to epoch: UInt64, directory: String) throws(SecureStoreError) {
        try mappingErrors(directory) { () throws(PKCS11Error) in
            try withSession(readWrite: true) { (session) throws(PKCS11Error) in
                let existing = try epochs(in: session)
                guard existing.allSatisfy({ $0.epoch < epoch }) else { return }
                let value = (0..<8).map { UInt8(truncatingIfNeeded: epoch >> UInt64(56 - 8 * $0)) }
                _ = try session.createObject([
                    .class(.data), .label(epochLabel), .bool(.token, true), .bool(.private, true),
                    PKCS11Attribute(.value, bytes: value),
                ])
                for old in existing { try session.destroyObject(old.handle) }
            }
        }
    }

    /// This store's epoch objects and their values (at most 8: more is not one store's).
    private func epochs(in session: PKCS11Session) throws(PKCS11Error) -> [(handle: UInt, epoch: UInt64)] {
        let found = try session.findObjects([.class(.data), .label(epochLabel)], limit: 9)
        guard found.count <= 8 else { throw PKCS11Error(.unexpectedOutput, "more than 8 objects are labelled \(epochLabel)") }
        var result: [(handle: UInt, epoch: UInt64)] = []
        for handle in found {
            let value = try session.attribute(.value, of: handle).withUnsafeBytes { Array($0) }
            guard value.count == 8 else {
                throw PKCS11Error(.unexpectedOutput, "the object labelled \(epochLabel) holds \(value.count) bytes, not an 8-byte epoch", function: "C_GetAttributeValue")
            }
            result.append((handle, value.reduce(0) { $0 << 8 | UInt64($1) }))
        }
        return result
    }

    private func mappingErrors<R>(_ directory: String, _ body: () throws(PKCS11Error) -> R) throws(SecureStoreError) -> R {
        do { return try body() } catch {
            throw SecureStoreError(.keyUnavailable, "PKCS #11 epoch: " + error.description, path: directory)
        }
    }
}
