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
/// The store key is `HMAC-SHA256(K_token, "SwiftMFA store key v1" ‖ storeIdentifier)`
/// (`CKM_SHA256_HMAC`, a single `C_Sign`), where `K_token` is a 32-byte secret key in the
/// token, found by the URI's `object` label (default ``defaultKeyLabel``) and `id` when it has
/// one: a `CKK_GENERIC_SECRET` this provider generates (`CKM_GENERIC_SECRET_KEY_GEN`) with
/// `CKA_TOKEN`, `CKA_PRIVATE`, `CKA_SENSITIVE` true, `CKA_EXTRACTABLE` false and `CKA_SIGN` true,
/// or a `CKK_SHA256_HMAC` key made by the token's own tool.
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
/// The key is created on first use only when the store is new: when the store directory
/// already holds its generations file or any record, a token without the key object is an
/// error (``SecureStoreError/Kind/keyUnavailable``), never a fresh key that would make every
/// record unreadable. `createIfMissing: false` never creates one.
public struct PKCS11KeyProvider: StoreKeyProvider {
    /// The label of the token key when the URI names no `object`.
    public static let defaultKeyLabel = "swiftmfa-store-key"
    /// The fixed prefix of the HMAC input.
    static let derivationLabel = Array("SwiftMFA store key v1".utf8)

    /// The token, the key object and the module (`module-path` is required).
    public let uri: PKCS11URI
    /// Distinguishes stores that share one token key.
    public let storeIdentifier: String
    /// Whether a missing token key may be generated for a new, empty store.
    public let createIfMissing: Bool
    /// The PIN, when there is one (read by ``status()`` and ``PKCS11PossessionKeySource``).
    let pin: SecretBytes?

    /// A provider for the token and object `uri` names. The PIN is `pin`, else the URI's
    /// `pin-value`, else the contents of its `pin-source` file (one trailing newline dropped),
    /// else none (a token that needs no login). Throws ``PKCS11Error/Kind/invalidArgument`` when
    /// the URI has no `module-path` and ``PKCS11Error/Kind/invalidURI`` for an unreadable
    /// `pin-source`.
    public init(uri: PKCS11URI, pin: SecretBytes? = nil, storeIdentifier: String = "default", createIfMissing: Bool = true) throws(PKCS11Error) {
        guard let modulePath = uri.modulePath, !modulePath.isEmpty else {
            throw PKCS11Error(.invalidArgument, "the URI names no module-path (module-name lookup is not supported)")
        }
        self.uri = uri
        self.storeIdentifier = storeIdentifier
        self.createIfMissing = createIfMissing
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
    /// ``SecureStoreError/Kind/keyUnavailable`` with the PKCS #11 error in its reason.
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

    /// Opens the module, logs in, finds (or, when `mayCreate`, generates) the token key and
    /// returns the 32-byte HMAC. Throws ``PKCS11Error/Kind/objectNotFound`` when the key is
    /// absent and may not be created.
    public func derivedKey(mayCreate: Bool) throws(PKCS11Error) -> SecretBytes {
        let module = try PKCS11Module(path: uri.modulePath ?? "")
        defer { module.finalize() }
        let session = try module.openSession(slot: module.slot(matching: uri))
        defer { session.close() }
        if let pin { try session.login(pin: pin) }
        let key = try tokenKey(in: session, mayCreate: mayCreate)
        var message = Self.derivationLabel
        message += Array(storeIdentifier.utf8)
        let secret = try session.sign(message, key: key, mechanism: .sha256HMAC)
        guard secret.count == 32 else {
            throw PKCS11Error(.unexpectedOutput, "CKM_SHA256_HMAC gave \(secret.count) bytes, not 32", function: "C_Sign")
        }
        return secret
    }

    /// The handle of the token key, generated when absent and `mayCreate`.
    func tokenKey(in session: PKCS11Session, mayCreate: Bool) throws(PKCS11Error) -> UInt {
        let label = uri.object ?? Self.defaultKeyLabel
        var template: [PKCS11Attribute] = [.class(.secretKey), .label(label)]
        if let id = uri.id { template.append(.id(id)) }
        let found = try session.findObjects(template, limit: 2)
        guard found.count <= 1 else { throw PKCS11Error(.invalidArgument, "several secret keys are labelled \(label)") }
        if let key = found.first { return key }
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

    /// Runs `body` holding the store's `flock` (`<store>/.lock`, the lock SecureStore takes),
    /// so two processes opening a new store do not both generate a token key.
    static func withDirectoryLock<R>(_ directory: String, _ body: () throws(PKCS11Error) -> R) throws(PKCS11Error) -> R {
        let descriptor = open(directory + "/.lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw PKCS11Error(.invalidArgument, "cannot open the store's lock file (errno \(errno))") }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw PKCS11Error(.invalidArgument, "cannot lock the store (errno \(errno))") }
        }
        return try body()
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
