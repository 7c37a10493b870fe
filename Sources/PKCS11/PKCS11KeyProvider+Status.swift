// What `mfa keys status` shows of a PKCS #11 provider: the token it reaches (label,
// manufacturer, model, serial from C_GetTokenInfo), whether the key object is there, and whether
// the token keeps the store's rollback epoch, at which value. Never creates anything: a status
// query on a fresh token leaves it fresh.

/// The token behind a ``PKCS11KeyProvider`` and whether its key object exists.
public struct PKCS11KeyStatus: Sendable, Equatable {
    /// The token the URI matched.
    public let token: PKCS11TokenInfo
    /// The label of the key object looked for.
    public let keyLabel: String
    /// Whether exactly one secret key with that label (and the URI's `id`) is on the token.
    public let keyPresent: Bool
    /// Whether the token keeps the store's rollback epoch (``PKCS11KeyProvider/Anchoring``).
    public let anchors: Bool
    /// The epoch the token holds for the store, nil when it holds none (yet, or not anchoring).
    public let anchoredEpoch: UInt64?
}

extension PKCS11KeyProvider {
    /// Opens the module, finds the token, logs in when the token requires it, and looks for the key
    /// object and the store's epoch object without creating either. Throws ``PKCS11Error/Kind/tokenNotFound`` when no token
    /// matches, the module's return value for a wrong PIN, and
    /// ``PKCS11Error/Kind/keyNotProtected`` for a key under the label that could leave the token.
    public func status() throws(PKCS11Error) -> PKCS11KeyStatus {
        let module = try PKCS11Module(path: uri.modulePath ?? "")
        defer { module.finalize() }  // the module stays loaded for the session below (one registry entry)
        let info = try module.tokenInfo(slot: module.slot(matching: uri))
        let anchors = anchors(on: info)
        let (present, epoch) = try withSession(readWrite: false) { (session) throws(PKCS11Error) -> (Bool, UInt64?) in
            let epoch = anchors ? try epochs(in: session).map(\.epoch).max() : nil
            do throws(PKCS11Error) {
                _ = try tokenKey(in: session, mayCreate: false)
                return (true, epoch)
            } catch where error.kind == .objectNotFound {
                return (false, epoch)
            }
        }
        return PKCS11KeyStatus(token: info, keyLabel: uri.object ?? Self.defaultKeyLabel, keyPresent: present, anchors: anchors,
                               anchoredEpoch: epoch)
    }
}
