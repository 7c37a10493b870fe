// A stand-in for PowerAuth's biometry factor on a device without biometry: the biometry unlock
// key is computed in a PKCS #11 token only after the user typed that token's PIN for this one
// operation (docs/hardware-keys.md "A PIN-gated second factor").
//
// What it protects against: a process that can use the possession factor (it runs as the user,
// and the store's token PIN is in a pin-source file it can read) cannot produce the biometry
// factor: the biometry key is a private object of a token whose PIN is never stored, and the
// login is made from a PIN the caller asks the user for, then undone. What it does not: malware
// on the device that records the PIN as it is typed can replay it while the token is present;
// and the PIN is a knowledge factor (something the user knows), not something the user is.

public import CryptoPrimitives

/// The biometry unlock key derived inside a PKCS #11 token, gated by its user PIN:
/// `HMAC-SHA256(K_biometry, "PowerAuth biometry v1" ‖ storeIdentifier ‖ instanceID)`, first 16
/// bytes (`CKM_SHA256_HMAC`, one `C_Sign`), where `K_biometry` is a protected token key (label
/// ``defaultKeyLabel`` unless the URI names an `object`) and `storeIdentifier` the possession
/// provider's, so the key is bound to one store as the possession key is.
///
/// Every derivation logs the process out of the token (`C_Logout`), asks the caller's `pin`
/// closure, logs in with it (`C_Login`, PKCS #11 v2.40 §5.6), signs and logs out again: a
/// login left by someone else is never used, and none outlives the call. (Login state is per
/// process and token, so a concurrent user of the same token in this process is logged out too.)
///
/// The PIN comes only from the closure (a terminal prompt, say): a URI with `pin-value` or
/// `pin-source` is refused, and so is a token that does not require login or that is the
/// possession provider's own token while that provider holds a PIN (its stored PIN would open
/// the biometry key too): ``PKCS11Error/Kind/invalidArgument``.
public struct PKCS11BiometryKeySource: Sendable {
    /// The fixed prefix of the HMAC input (differs from the store and possession labels in its
    /// first bytes, so no input of one derivation is an input of another).
    public static let derivationLabel = Array("PowerAuth biometry v1".utf8)
    /// The label of the biometry token key when the URI names no `object`.
    public static let defaultKeyLabel = "swiftmfa-biometry-key"

    /// The possession provider: its store identifier is bound into the key.
    public let possession: PKCS11KeyProvider
    /// The biometry token and key, with no PIN of its own.
    let token: PKCS11KeyProvider

    /// A source over the token `uri` names (its `module-path` required, its `object` the key
    /// label). Throws ``PKCS11Error/Kind/invalidArgument`` when the URI carries a PIN.
    public init(uri: PKCS11URI, possession: PKCS11KeyProvider) throws(PKCS11Error) {
        guard uri.pinValue == nil, uri.pinSource == nil else {
            throw PKCS11Error(.invalidArgument, "the biometry stand-in's PIN is asked for each use; a URI with pin-value or pin-source would store it")
        }
        var keyURI = uri
        if uri.object == nil {
            keyURI = try PKCS11URI(path: uri.path + [PKCS11URI.Attribute(name: "object", text: Self.defaultKeyLabel)], query: uri.query)
        }
        self.possession = possession
        token = try PKCS11KeyProvider(uri: keyURI.withoutStoreIdentifier, pin: nil, storeIdentifier: possession.storeIdentifier, createIfMissing: false)
    }

    /// The 16-byte biometry unlock key of the activation `instanceID`, computed after a login
    /// with the PIN `pin` returns. Throws `.returned(.pinIncorrect)` for a wrong PIN and
    /// ``PKCS11Error/Kind/objectNotFound`` when the token has no key (see ``createKey(pin:)``).
    public func biometryUnlockKey(instanceID: String, pin: () throws -> SecretBytes) throws(PKCS11Error) -> SymmetricKey {
        let mac = try withFreshLogin(readWrite: false, pin: pin) { (session) throws(PKCS11Error) -> SecretBytes in
            let key = try token.tokenKey(in: session, mayCreate: false)
            return try session.sign(Self.derivationLabel + possession.storeIdentifier.bytes + Array(instanceID.utf8), key: key, mechanism: .sha256HMAC)
        }
        guard mac.count == 32 else {
            throw PKCS11Error(.unexpectedOutput, "CKM_SHA256_HMAC gave \(mac.count) bytes, not 32", function: "C_Sign")
        }
        return SymmetricKey(secret: mac.withUnsafeBytes { SecretBytes($0.prefix(16)) })
    }

    /// Generates the biometry token key when the token has none (as ``PKCS11KeyProvider``
    /// generates the store key: a private, sensitive, unextractable generic secret), after a
    /// login with `pin`. On tpm2-pkcs11, which cannot generate one, the error names the
    /// `tpm2_ptool addkey` command that makes it.
    public func createKey(pin: () throws -> SecretBytes) throws(PKCS11Error) {
        try withFreshLogin(readWrite: true, pin: pin) { (session) throws(PKCS11Error) in
            _ = try token.tokenKey(in: session, mayCreate: true)
        }
    }

    /// Runs `body` between a login with the PIN `pin` gives, made for this call, and a logout.
    func withFreshLogin<R>(readWrite: Bool, pin: () throws -> SecretBytes, _ body: (PKCS11Session) throws(PKCS11Error) -> R) throws(PKCS11Error) -> R {
        let module = try PKCS11Module(path: token.uri.modulePath ?? "")
        defer { module.finalize() }
        let slot = try module.slot(matching: token.uri)
        guard try module.tokenInfo(slot: slot).requiresLogin else {
            throw PKCS11Error(.invalidArgument, "the biometry token does not require login (CKF_LOGIN_REQUIRED): its PIN would gate nothing")
        }
        // Matched by the token, not the module's path text: one library reached through two
        // paths (a symlink, a multiarch directory) is one module, and a token the store's URI
        // names in it is the store's token.
        if possession.pin != nil {
            try Self.refuseStoresToken(slot) { () throws(PKCS11Error) in try module.slot(matching: possession.uri) }
        }
        let session = try module.openSession(slot: slot, readWrite: readWrite)
        defer { session.close() }
        do { try session.logout() } catch where error.returnValue == .userNotLoggedIn {
            // Nobody was logged in: the login below is the only one.
        }
        let typed: SecretBytes
        do { typed = try pin() } catch {
            throw PKCS11Error(.invalidArgument, "no PIN was given: \(error)")
        }
        try session.login(pin: typed)
        defer { _ = try? session.logout() }  // a failed logout leaves the token as C_CloseSession and C_Finalize leave it
        return try body(session)
    }

    /// Throws ``PKCS11Error/Kind/invalidArgument`` when the biometry token in `slot` is the
    /// store's token, which `storeSlot` finds in the same module. Only "no such token in this
    /// module" (``PKCS11Error/Kind/tokenNotFound``) clears the check; any other failure to
    /// tell (the slot list, a token's information) is rethrown, so a module that cannot answer
    /// never lets the factor run on a token whose PIN is stored.
    package static func refuseStoresToken(_ slot: UInt, storeSlot: () throws(PKCS11Error) -> UInt) throws(PKCS11Error) {
        let found: UInt?
        do { found = try storeSlot() } catch where error.kind == .tokenNotFound {
            found = nil
        }
        if found == slot {
            throw PKCS11Error(.invalidArgument, "the biometry token is the store's token, whose PIN is stored: use a token whose PIN is never stored")
        }
    }
}
