// A SecureStore key that exists only while a token answers: the store key is an HMAC computed
// inside a PKCS #11 token under a key that never leaves it. Nothing on disk suffices to open
// the store; a store copied to another machine (or another token) cannot be opened.

public import CryptoPrimitives
public import SecureStore
#if canImport(Glibc)
import Glibc
#endif

/// Derives a store's key inside a PKCS #11 token.
///
/// The store key is `HMAC-SHA256(K_token, "SwiftMFA store key v2" ‖ storeIdentifier)`
/// (`CKM_SHA256_HMAC`, a single `C_Sign`), where `storeIdentifier` is the store's 16 random
/// bytes (``PKCS11StoreIdentifier``, kept in its provider setting, so two stores on one token
/// never share a key) and `K_token` is a 32-byte secret key in the
/// token, found by the URI's `object` label (default ``defaultKeyLabel``) and `id` when it has
/// one: a `CKK_GENERIC_SECRET` this provider generates (`CKM_GENERIC_SECRET_KEY_GEN`) with
/// `CKA_TOKEN`, `CKA_PRIVATE`, `CKA_SENSITIVE` true, `CKA_EXTRACTABLE` false and `CKA_SIGN` true,
/// or a `CKK_SHA256_HMAC` key made by the token's own tool. A key under that label that is
/// extractable, not sensitive, not allowed to sign or of another type is refused
/// (``PKCS11Error/Kind/keyNotProtected``): its value could be read out of the token.
///
/// The first format (unreleased) derived with "SwiftMFA store key v1" and no identifier, so
/// every store on a token shared one key; a setting in that format is refused with
/// ``PKCS11Error/Kind/storeIdentifierMissing``.
///
/// Why HMAC-SHA256: it is a deterministic function of a secret key, so the same token gives
/// the same store key every time with no state outside the token, and it is the mechanism that
/// the software token (SoftHSM2) and the TPM-backed token (tpm2-pkcs11, which lists
/// "SHA256-HMAC") both implement, so the same provider works on both. Wrapping a random key
/// with AES would need a stored blob and an AES mode both modules share.
///
/// On tpm2-pkcs11 (1.9), which implements `CKM_SHA256_HMAC` but not
/// `CKM_GENERIC_SECRET_KEY_GEN`, the key is made once with
/// `tpm2_ptool addkey --algorithm=hmac:sha256 --key-label=swiftmfa-store-key` (a
/// `CKK_SHA256_HMAC` key, sensitive and never extractable); the provider then finds it by label.
///
/// The provider is also the store's rollback anchor (``rollbackAnchor(directory:)``): the token
/// keeps the store's generations epoch, so a whole store directory put back from an older copy is
/// refused (``Anchoring``; off on SoftHSM2 by default).
///
/// The key is created on first use only when the store is new: when the store directory
/// already holds its generations file or any record, a token without the key object is an
/// error (`SecureStoreError.Kind.keyUnavailable`), never a fresh key that would make every
/// record unreadable. `createIfMissing: false` never creates one.
public struct PKCS11KeyProvider: StoreKeyProvider {
    /// The label of the token key when the URI names no `object`.
    public static let defaultKeyLabel = "swiftmfa-store-key"
    /// The fixed prefix of the HMAC input.
    static let derivationLabel = Array("SwiftMFA store key v2".utf8)

    /// The token, the key object and the module (`module-path` is required).
    public let uri: PKCS11URI
    /// Distinguishes stores that share one token key (bound into both derivations).
    public let storeIdentifier: PKCS11StoreIdentifier
    /// Whether a missing token key may be generated for a new, empty store.
    public let createIfMissing: Bool
    /// Whether the token keeps the store's rollback epoch (``Anchoring``).
    public let anchoring: Anchoring
    /// The URI query attribute that sets ``anchoring`` (`automatic`, `on` or `off`).
    public static let anchoringAttributeName = "x-swiftmfa-anchor"
    /// The PIN, when there is one (read by ``status()`` and ``PKCS11PossessionKeySource``).
    let pin: SecretBytes?

    /// A provider for the token and object `uri` names. The PIN is `pin`, else the URI's
    /// `pin-value`, else the contents of its `pin-source` file (one trailing newline dropped),
    /// else none (used only when the token requires login, `CKF_LOGIN_REQUIRED`). The store
    /// identifier is `storeIdentifier`, else the URI's `x-swiftmfa-store`. Anchoring is
    /// `anchoring`, else the URI's `x-swiftmfa-anchor`, else ``Anchoring/automatic``. Throws
    /// ``PKCS11Error/Kind/invalidArgument`` when the URI has no `module-path`,
    /// ``PKCS11Error/Kind/storeIdentifierMissing`` when there is no store identifier, and
    /// ``PKCS11Error/Kind/invalidURI`` for an unreadable `pin-source` or an `x-swiftmfa-anchor`
    /// other than `automatic`, `on` and `off`.
    public init(uri: PKCS11URI, pin: SecretBytes? = nil, storeIdentifier: PKCS11StoreIdentifier? = nil,
                createIfMissing: Bool = true, anchoring: Anchoring? = nil) throws(PKCS11Error) {
        guard let modulePath = uri.modulePath, !modulePath.isEmpty else {
            throw PKCS11Error(.invalidArgument, "the URI names no module-path (module-name lookup is not supported)")
        }
        let identifier: PKCS11StoreIdentifier? = if let storeIdentifier { storeIdentifier } else { try uri.storeIdentifier() }
        guard let identifier else {
            throw PKCS11Error(.storeIdentifierMissing,
                              "the store's token setting has no \(PKCS11StoreIdentifier.attributeName): it was written by an earlier, unreleased format whose key every store on the token shared, and it is not opened by this version")
        }
        self.uri = uri
        self.storeIdentifier = identifier
        self.createIfMissing = createIfMissing
        if let anchoring {
            self.anchoring = anchoring
        } else if let attribute = uri.query.first(where: { $0.name == Self.anchoringAttributeName }) {
            guard let value = Anchoring(rawValue: String(decoding: attribute.value, as: UTF8.self)) else {
                throw PKCS11Error(.invalidURI, "\(Self.anchoringAttributeName) is automatic, on or off")
            }
            self.anchoring = value
        } else {
            self.anchoring = .automatic
        }
        if let pin {
            self.pin = pin
        } else if let value = uri.pinValue {
            self.pin = SecretBytes(Array(value.utf8))
        } else if let source = uri.pinSource {
            self.pin = try Self.readPIN(source)
        } else {
            self.pin = nil
        }
    }

    /// The store key for `directory`; every PKCS #11 failure becomes
    /// `SecureStoreError.Kind.keyUnavailable` with the PKCS #11 error in its message.
    public func storeKey(directory: String) throws(SecureStoreError) -> StoreKey {
        let secret: SecretBytes
        do {
            secret = try Self.withDirectoryLock(directory) { () throws(PKCS11Error) in
                try derivedKey(mayCreate: createIfMissing && !Self.storeHasState(directory))
            }
        } catch {
            throw SecureStoreError(.keyUnavailable, "PKCS #11: " + error.description, path: directory)
        }
        return try StoreKey(secret)
    }

    /// Opens the module, logs in when the token requires it, finds (or, when `mayCreate`,
    /// generates) the token key and returns the 32-byte HMAC. Throws
    /// ``PKCS11Error/Kind/objectNotFound`` when the key is absent and may not be created.
    public func derivedKey(mayCreate: Bool) throws(PKCS11Error) -> SecretBytes {
        try withSession(readWrite: true) { (session) throws(PKCS11Error) in
            let key = try tokenKey(in: session, mayCreate: mayCreate)
            let secret = try session.sign(Self.derivationLabel + storeIdentifier.bytes, key: key, mechanism: .sha256HMAC)
            guard secret.count == 32 else {
                throw PKCS11Error(.unexpectedOutput, "CKM_SHA256_HMAC gave \(secret.count) bytes, not 32", function: "C_Sign")
            }
            return secret
        }
    }

    /// Runs `body` on a session with the URI's token: the module loaded (shared with the
    /// process's other users), the slot found, and the user logged in only when the token says
    /// it requires login (`CKF_LOGIN_REQUIRED`, PKCS #11 v2.40 §3.2 `CK_TOKEN_INFO`). A token
    /// that requires login when no PIN was given throws `.returned(.userNotLoggedIn)`.
    func withSession<R>(readWrite: Bool, _ body: (PKCS11Session) throws(PKCS11Error) -> R) throws(PKCS11Error) -> R {
        let module = try PKCS11Module(path: uri.modulePath ?? "")
        defer { module.finalize() }
        let slot = try module.slot(matching: uri)
        let info = try module.tokenInfo(slot: slot)
        let session = try module.openSession(slot: slot, readWrite: readWrite)
        defer { session.close() }
        if info.requiresLogin {
            guard let pin else {
                throw PKCS11Error(.returned(.userNotLoggedIn), "the token requires login (CKF_LOGIN_REQUIRED) and no PIN was given", function: "C_Login")
            }
            try session.login(pin: pin)
        }
        return try body(session)
    }

    /// Whether the token `uri` names requires login (`CKF_LOGIN_REQUIRED`): the PIN is asked
    /// for only then. Throws ``PKCS11Error/Kind/tokenNotFound`` when no token matches.
    public static func tokenRequiresLogin(uri: PKCS11URI) throws(PKCS11Error) -> Bool {
        try tokenInfo(uri: uri).requiresLogin
    }

    /// What `C_GetTokenInfo` says of the token `uri` names (no session, no login).
    static func tokenInfo(uri: PKCS11URI) throws(PKCS11Error) -> PKCS11TokenInfo {
        guard let modulePath = uri.modulePath, !modulePath.isEmpty else {
            throw PKCS11Error(.invalidArgument, "the URI names no module-path (module-name lookup is not supported)")
        }
        let module = try PKCS11Module(path: modulePath)
        defer { module.finalize() }
        return try module.tokenInfo(slot: module.slot(matching: uri))
    }

    /// The handle of the token key, generated when absent and `mayCreate`.
    package func tokenKey(in session: PKCS11Session, mayCreate: Bool) throws(PKCS11Error) -> UInt {
        let label = uri.object ?? Self.defaultKeyLabel
        var template: [PKCS11Attribute] = [.class(.secretKey), .label(label)]
        if let id = uri.id { template.append(.id(id)) }
        let found = try session.findObjects(template, limit: 2)
        guard found.count <= 1 else { throw PKCS11Error(.invalidArgument, "several secret keys are labelled \(label)") }
        if let key = found.first {
            try Self.requireProtected(key, in: session, label: label)
            return key
        }
        guard mayCreate else {
            throw PKCS11Error(.objectNotFound, "the token has no secret key labelled \(label); the store was keyed by another token (or the key was deleted), and a new key would not open it")
        }
        do {
            return try session.generateKey(.genericSecretKeyGeneration, template: template + [
                .keyType(.genericSecret), .valueLength(32), .bool(.token, true), .bool(.private, true),
                .bool(.sensitive, true), .bool(.extractable, false), .bool(.sign, true), .bool(.verify, false),
                .bool(.encrypt, false), .bool(.decrypt, false),
            ])
        } catch let error where error.returnValue == .mechanismInvalid || error.returnValue == .functionNotSupported {
            // tpm2-pkcs11 1.9 signs with CKM_SHA256_HMAC but generates only AES keys (it
            // answers CKR_FUNCTION_NOT_SUPPORTED); the return value is kept.
            throw PKCS11Error(error.kind,
                              "the token cannot generate a generic secret key; create \(label) beforehand (tpm2-pkcs11: tpm2_ptool addkey --algorithm=hmac:sha256 --key-label=\(label))",
                              function: "C_GenerateKey")
        }
    }

    /// Refuses a key whose value could leave the token, could be known outside it, or that
    /// cannot make the HMAC: it must be `CKA_SENSITIVE`, `CKA_ALWAYS_SENSITIVE`, `CKA_LOCAL`,
    /// `CKA_NEVER_EXTRACTABLE`, `CKA_TOKEN`, `CKA_PRIVATE` and `CKA_SIGN` true, `CKA_EXTRACTABLE`
    /// false, and a `CKK_GENERIC_SECRET` or `CKK_SHA256_HMAC` key (PKCS #11 v2.40 §4.4, §4.10). The search is by
    /// label only, so a planted key is refused here instead of a second key being generated.
    static func requireProtected(_ key: UInt, in session: PKCS11Session, label: String) throws(PKCS11Error) {
        func flag(_ type: PKCS11AttributeType) throws(PKCS11Error) -> Bool {
            let value = try session.attribute(type, of: key)
            guard value.count == 1 else { throw PKCS11Error(.unexpectedOutput, "a CK_BBOOL of \(value.count) bytes", function: "C_GetAttributeValue") }
            return value.withUnsafeBytes { $0[0] != 0 }
        }
        let keyType = try session.attribute(.keyType, of: key)
        guard keyType.count == MemoryLayout<UInt>.size else {
            throw PKCS11Error(.unexpectedOutput, "a CK_KEY_TYPE of \(keyType.count) bytes", function: "C_GetAttributeValue")
        }
        let type = keyType.withUnsafeBytes { $0.loadUnaligned(as: UInt.self) }
        guard type == PKCS11KeyType.genericSecret.rawValue || type == PKCS11KeyType.sha256HMAC.rawValue else {
            throw PKCS11Error(.keyNotProtected, "the key labelled \(label) is not a generic-secret or SHA256-HMAC key")
        }
        guard try flag(.sensitive) else { throw PKCS11Error(.keyNotProtected, "the key labelled \(label) is not sensitive (CKA_SENSITIVE false): its value can be read out") }
        guard try !flag(.extractable) else { throw PKCS11Error(.keyNotProtected, "the key labelled \(label) is extractable (CKA_EXTRACTABLE true): it can be wrapped out of the token") }
        guard try flag(.sign) else { throw PKCS11Error(.keyNotProtected, "the key labelled \(label) may not sign (CKA_SIGN false)") }
        // A key someone imported with a value they chose, or made public so it signs without
        // the PIN, would hand them every store key: it must have been generated on the token,
        // sensitive and unextractable since, and be a private token object.
        guard try flag(.local), try flag(.alwaysSensitive), try flag(.neverExtractable) else {
            throw PKCS11Error(.keyNotProtected, "the key labelled \(label) was not generated on the token as a protected key (CKA_LOCAL, CKA_ALWAYS_SENSITIVE, CKA_NEVER_EXTRACTABLE): its value may be known outside it")
        }
        guard try flag(.token), try flag(.private) else {
            throw PKCS11Error(.keyNotProtected, "the key labelled \(label) is not a private token object (CKA_TOKEN, CKA_PRIVATE): it could be used without the PIN")
        }
    }

    /// Whether the store was opened before: its generations file (written on first open,
    /// after the key) or any record exists. Unreadable directories count as holding state.
    static func storeHasState(_ directory: String) -> Bool {
        guard let stream = opendir(directory) else { return errno != ENOENT }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == ".generations" || !name.hasPrefix(".") { return true }
        }
        return false
    }

    /// Runs `body` holding the store's lock (the one SecureStore takes, reentrant in this
    /// thread), so two processes opening a new store do not both generate a token key, and a
    /// caller that already holds the lock (a migration) does not wait for itself.
    static func withDirectoryLock<R>(_ directory: String, _ body: () throws(PKCS11Error) -> R) throws(PKCS11Error) -> R {
        var failure: PKCS11Error?
        let result: R?
        do throws(SecureStoreError) {
            result = try SecureStore.withStoreLock(in: directory) { () throws(SecureStoreError) -> R? in
                do throws(PKCS11Error) { return try body() } catch {
                    failure = error
                    return nil
                }
            }
        } catch {
            throw PKCS11Error(.invalidArgument, "cannot lock the store: " + error.description)
        }
        if let failure { throw failure }
        guard let result else { throw PKCS11Error(.invalidArgument, "the store lock gave no result") }
        return result
    }

    /// The PIN in a `pin-source` (`file:/path` or `/path`, RFC 7512 §2.3), at most 1 KiB, one
    /// trailing newline dropped.
    static func readPIN(_ source: String) throws(PKCS11Error) -> SecretBytes {
        let path = source.hasPrefix("file:") ? String(source.dropFirst(5)) : source
        guard path.hasPrefix("/") else { throw PKCS11Error(.invalidURI, "pin-source is file:/absolute/path") }
        // As ssh treats a key file, and the store its own files: a regular file of this user
        // that nobody else may read or write.
        let contents: SecretBytes
        do { contents = try SecureStore.readPrivateFile(atPath: path, maximumCount: 1024) } catch {
            throw PKCS11Error(.invalidURI, "the pin-source file cannot be used: \(error)")
        }
        let count = contents.withUnsafeBytes { bytes in
            var count = bytes.count
            if count > 0, bytes[count - 1] == 0x0A { count -= 1 }
            if count > 0, bytes[count - 1] == 0x0D { count -= 1 }
            return count
        }
        return SecretBytes(count: count) { target in
            contents.withUnsafeBytes { source in target.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[0..<count])) }
        }
    }
}
