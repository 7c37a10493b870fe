// The store's rollback epoch kept in the token (SecureStore's `StoreRollbackAnchor`): a private
// data object (`CKO_DATA`, PKCS #11 v2.40 §4.5) labelled `swiftmfa-epoch-<store identifier>`
// whose `CKA_VALUE` is the epoch, 8 bytes big-endian. A token whose objects live outside the
// store directory keeps its epoch when the directory is put back from an older copy, and the
// store then refuses to open.
//
// The object is replaced, not modified: the new one is created before the old one is destroyed,
// so a crash between the two leaves both and the larger counts. `C_CreateObject` and
// `C_DestroyObject` are what SoftHSM2 and tpm2-pkcs11 both implement for data objects; a token
// that refuses data objects keeps no epoch, and a store never anchored opens without one.

import CryptoPrimitives
public import SecureStore

extension PKCS11KeyProvider: StoreRollbackAnchor {
    /// Whether the token keeps this store's rollback epoch.
    public enum Anchoring: String, Sendable {
        /// Anchored, except on SoftHSM2 (its token manufacturer is "SoftHSM project"): SoftHSM2
        /// rewrites its token file in place, and a process killed while it adds or removes an
        /// object can leave that file empty and the token, with the store's key, gone. On it
        /// an anchor would risk the key on every write; it protects only what SoftHSM2 keeps
        /// apart from the store directory anyway.
        case automatic
        /// Always anchored (a test of the mechanism on SoftHSM2).
        case on
        /// Never anchored: a whole store directory put back from an older copy opens.
        case off
    }

    /// The token, when anchoring applies to it (``Anchoring``); nil otherwise. `automatic` reads
    /// the token's manufacturer (`C_GetTokenInfo`, no login).
    public func rollbackAnchor(directory: String) throws(SecureStoreError) -> (any StoreRollbackAnchor)? {
        switch anchoring {
        case .on: return self
        case .off: return nil
        case .automatic:
            let info = try mappingErrors(directory) { () throws(PKCS11Error) in try Self.tokenInfo(uri: uri) }
            return anchors(on: info) ? self : nil
        }
    }

    /// Whether this provider anchors on the token `info` describes: always for `on`, never for
    /// `off`, and for `automatic` unless its manufacturer is SoftHSM2's ("SoftHSM project").
    func anchors(on info: PKCS11TokenInfo) -> Bool {
        switch anchoring {
        case .on: true
        case .off: false
        case .automatic: info.manufacturer != "SoftHSM project"
        }
    }

    /// The label of this store's epoch object.
    var epochLabel: String { "swiftmfa-epoch-" + storeIdentifier.text }

    /// What an epoch object is: a private token data object with this store's label.
    private var epochTemplate: [PKCS11Attribute] {
        [.class(.data), .label(epochLabel), .bool(.token, true), .bool(.private, true)]
    }

    /// The largest epoch on the token for this store, or nil when it has none. Every PKCS #11
    /// failure, and an object whose value is not 8 bytes, becomes
    /// `SecureStoreError.Kind.keyUnavailable`.
    public func anchoredEpoch(directory: String) throws(SecureStoreError) -> UInt64? {
        try mappingErrors(directory) { () throws(PKCS11Error) in
            try withSession(readWrite: false) { (session) throws(PKCS11Error) in try epochs(in: session).map(\.epoch).max() }
        }
    }

    /// Creates an object holding `epoch`, then destroys the older ones, and returns the largest
    /// epoch the token held before; does nothing else when that is `epoch` or more. A token that
    /// holds no epoch object yet and refuses to create one (its return value says it cannot
    /// hold such an object: `CKR_TEMPLATE_INCONSISTENT`, `CKR_FUNCTION_NOT_SUPPORTED`,
    /// `CKR_USER_NOT_LOGGED_IN` without a PIN, …) throws `SecureStoreError.Kind.anchorUnsupported`.
    @discardableResult
    public func advanceAnchor(to epoch: UInt64, directory: String) throws(SecureStoreError) -> UInt64? {
        var refusal: PKCS11Error?
        let previous = try mappingErrors(directory) { () throws(PKCS11Error) in
            try withSession(readWrite: true) { (session) throws(PKCS11Error) -> UInt64? in
                let existing = try epochs(in: session)
                let previous = existing.map(\.epoch).max()
                if let previous, previous >= epoch { return previous }
                do throws(PKCS11Error) {
                    _ = try session.createObject(epochTemplate + [PKCS11Attribute(.value, bytes: BigEndian.bytes(epoch))])
                } catch where existing.isEmpty && error.returnValue.map(Self.refusesObject) == true {
                    refusal = error
                    return nil
                }
                for old in existing { try session.destroyObject(old.handle) }
                return previous
            }
        }
        if let refusal {
            throw SecureStoreError(.anchorUnsupported, "the token refuses a private data object for the store's epoch: " + refusal.description, path: directory)
        }
        return previous
    }

    /// Whether `value`, from `C_CreateObject`, says the token cannot hold a private data object
    /// at all (PKCS #11 v2.40 §5.7, §11.1), rather than that something failed this time.
    static func refusesObject(_ value: CKReturnValue) -> Bool {
        // CKR_ATTRIBUTE_READ_ONLY, _TYPE_INVALID, _VALUE_INVALID, CKR_ACTION_PROHIBITED,
        // CKR_DEVICE_MEMORY, CKR_FUNCTION_NOT_SUPPORTED, CKR_TEMPLATE_INCOMPLETE, _INCONSISTENT,
        // CKR_USER_NOT_LOGGED_IN.
        [0x10, 0x12, 0x13, 0x1B, 0x31, 0x54, 0xD0, 0xD1, 0x101].contains(value.rawValue)
    }

    /// This store's epoch objects and their values (at most 8: more is not one store's).
    func epochs(in session: PKCS11Session) throws(PKCS11Error) -> [(handle: UInt, epoch: UInt64)] {
        // Private token objects only: a public one (made without the PIN) is not ours.
        let found = try session.findObjects(epochTemplate, limit: 9)
        guard found.count <= 8 else { throw PKCS11Error(.unexpectedOutput, "more than 8 objects are labelled \(epochLabel)") }
        var result: [(handle: UInt, epoch: UInt64)] = []
        for handle in found {
            let value = try session.attribute(.value, of: handle).withUnsafeBytes { Array($0) }
            guard value.count == 8 else {
                throw PKCS11Error(.unexpectedOutput, "the object labelled \(epochLabel) holds \(value.count) bytes, not an 8-byte epoch", function: "C_GetAttributeValue")
            }
            result.append((handle, BigEndian.value(value)))
        }
        return result
    }

    private func mappingErrors<R>(_ directory: String, _ body: () throws(PKCS11Error) -> R) throws(SecureStoreError) -> R {
        do { return try body() } catch {
            throw SecureStoreError(.keyUnavailable, "PKCS #11 epoch: " + error.description, path: directory)
        }
    }
}
