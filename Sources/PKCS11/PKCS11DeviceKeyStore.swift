// The clients' factor keys in a PKCS #11 token (DeviceKeyStore): an RSA-2048 key pair generated
// in the token (Salt Edge, docs/protocols/saltedge-v2.md §2) and an imported HMAC-SHA256 key (CM, the HS256
// environment secret). Every operation opens the token of a PKCS11KeyProvider as the store key
// does (same module, slot and PIN handling), finds the key by label, makes one C_Sign or
// C_Decrypt and closes: nothing secret is cached, and no key value can be read out.

public import CryptoPrimitives
public import SecureStore

/// A `DeviceKeyStore` in the token of a ``PKCS11KeyProvider``.
///
/// A key's token label is `swiftmfa-device-<store identifier>-<label>` (its `CKA_ID` the same
/// bytes), so two stores on one token never share a key. RSA key pairs are generated with
/// `CKM_RSA_PKCS_KEY_PAIR_GEN` (2048 bits, e = 65537), the private half `CKA_TOKEN`,
/// `CKA_PRIVATE`, `CKA_SENSITIVE`, not `CKA_EXTRACTABLE`; it signs with `CKM_SHA256_RSA_PKCS`
/// and decrypts with `CKM_RSA_PKCS`. HMAC keys are imported with `C_CreateObject`
/// (`CKK_GENERIC_SECRET`, else `CKK_SHA256_HMAC`) with the same flags and sign with
/// `CKM_SHA256_HMAC`. A key under the label that is not protected so is refused
/// (`DeviceKeyError/Code/keyNotProtected`).
///
/// SoftHSM2 implements all of it. tpm2-pkcs11 1.9 generates, signs with and decrypts with RSA
/// keys, but refuses to import a secret key (`C_CreateObject` with `CKK_GENERIC_SECRET`): on it
/// ``makeHMACKey(label:secret:)`` throws `DeviceKeyError/Code/unsupported`.
public struct PKCS11DeviceKeyStore: DeviceKeyStore {
    /// The first part of every token label this store makes.
    public static let labelPrefix = "swiftmfa-device-"

    /// The token, its PIN and the store identifier.
    public let provider: PKCS11KeyProvider

    /// A store in the token `provider` reaches.
    public init(provider: PKCS11KeyProvider) {
        self.provider = provider
    }

    /// True: keys live in the token; a client keeps only their label.
    public var holdsKeys: Bool { true }

    // MARK: RSA

    /// Generates an RSA-2048 key pair in the token (docs/protocols/saltedge-v2.md §2.1).
    public func makeRSAKey(label: String) throws(DeviceKeyError) -> any DeviceRSAKey {
        let tokenLabel = try tokenLabel(label)
        let publicKey = try run("generating the RSA key \(label)", readWrite: true) { (session) throws(PKCS11Error) -> RSA.Signing.PublicKey? in
            guard try session.findObjects([.class(.privateKey), .label(tokenLabel)], limit: 1).isEmpty else { return nil }
            for stale in try session.findObjects([.class(.publicKey), .label(tokenLabel)]) { try session.destroyObject(stale) }
            let id = Array(tokenLabel.utf8)
            let common: [PKCS11Attribute] = [.keyType(.rsa), .label(tokenLabel), .id(id), .bool(.token, true)]
            let pair = try session.generateKeyPair(.rsaKeyPairGeneration, publicTemplate: common + [
                .class(.publicKey), .bool(.private, false), .ulong(.modulusBits, 2048),
                PKCS11Attribute(.publicExponent, bytes: [0x01, 0x00, 0x01]), .bool(.verify, true), .bool(.encrypt, true),
            ], privateTemplate: common + [
                .class(.privateKey), .bool(.private, true), .bool(.sensitive, true), .bool(.extractable, false),
                .bool(.sign, true), .bool(.decrypt, true),
            ])
            do throws(PKCS11Error) { return try Self.publicKey(of: pair.publicKey, in: session) } catch {
                // The unusable pair is destroyed and the first error reported; should a destroy fail
                // too, the pair stays and the next makeRSAKey for this label reports .keyExists.
                _ = try? session.destroyObject(pair.privateKey)
                _ = try? session.destroyObject(pair.publicKey)
                throw error
            }
        }
        guard let publicKey else { throw DeviceKeyError(.keyExists, "the token already has an RSA key labelled \(label)") }
        return PKCS11RSAKey(store: self, tokenLabel: tokenLabel, publicKey: publicKey)
    }

    /// The RSA key pair under `label`; its private half must be protected. The public key is
    /// the private object's own (`CKA_MODULUS`, `CKA_PUBLIC_EXPONENT`); a module that does not
    /// show them there gives the public object under the label, accepted only when a signature
    /// the private key makes in the token verifies under it — a public object planted beside
    /// the key is refused.
    public func rsaKey(label: String) throws(DeviceKeyError) -> any DeviceRSAKey {
        let tokenLabel = try tokenLabel(label)
        let publicKey = try run("finding the RSA key \(label)", readWrite: false) { (session) throws(PKCS11Error) -> RSA.Signing.PublicKey in
            let key = try Self.privateKey(tokenLabel, in: session)
            do throws(PKCS11Error) { return try Self.publicKey(of: key, in: session) } catch {
                guard let publicHalf = try session.findObjects([.class(.publicKey), .label(tokenLabel)], limit: 1).first else { throw error }
                let candidate = try Self.publicKey(of: publicHalf, in: session)
                let probe = Array("SwiftMFA key pair check".utf8) + tokenLabel.utf8
                let signature = try session.sign(probe, key: key, mechanism: .sha256RSAPKCS)
                guard candidate.isValidSignature(RSA.Signing.RSASignature(rawRepresentation: signature.unsafeExposedBytes), for: probe, padding: .pkcs1v1_5) else {
                    throw PKCS11Error(.keyNotProtected, "the public key labelled \(tokenLabel) is not the private key's")
                }
                return candidate
            }
        }
        return PKCS11RSAKey(store: self, tokenLabel: tokenLabel, publicKey: publicKey)
    }

    /// A handle on the RSA key pair under `label` whose public half the caller recorded: no
    /// session now; each operation finds the private key (with the protection checks of
    /// ``rsaKey(label:)``) in its own session.
    public func rsaKeyReference(label: String, publicKey: RSA.Signing.PublicKey) throws(DeviceKeyError) -> any DeviceRSAKey {
        PKCS11RSAKey(store: self, tokenLabel: try tokenLabel(label), publicKey: publicKey)
    }

    /// A handle on the HMAC key under `label`: no session now; each operation finds the key.
    public func hmacKeyReference(label: String) throws(DeviceKeyError) -> any DeviceHMACKey {
        PKCS11HMACKey(store: self, tokenLabel: try tokenLabel(label))
    }

    /// Destroys both halves of the key pair under `label`.
    public func deleteRSAKey(label: String) throws(DeviceKeyError) {
        let tokenLabel = try tokenLabel(label)
        try run("deleting the RSA key \(label)", readWrite: true) { (session) throws(PKCS11Error) in
            for objectClass in [PKCS11ObjectClass.privateKey, .publicKey] {
                for object in try session.findObjects([.class(objectClass), .label(tokenLabel)]) { try session.destroyObject(object) }
            }
        }
    }

    // MARK: HMAC

    /// Imports `secret` as a sensitive, unextractable HMAC key (docs/protocols/cm-authenticator.md: the
    /// environment secret that keys HS256).
    public func makeHMACKey(label: String, secret: SecretBytes) throws(DeviceKeyError) -> any DeviceHMACKey {
        let tokenLabel = try tokenLabel(label)
        guard secret.count >= 1, secret.count <= 4096 else { throw DeviceKeyError(.invalidArgument, "an HMAC key is 1…4096 bytes") }
        let value = Self.hmacKeyValue(secret)
        let made = try run("importing the HMAC key \(label)", readWrite: true) { (session) throws(PKCS11Error) -> Bool in
            guard try session.findObjects([.class(.secretKey), .label(tokenLabel)], limit: 1).isEmpty else { return false }
            var failure: PKCS11Error?
            for keyType in [PKCS11KeyType.genericSecret, .sha256HMAC] {
                do throws(PKCS11Error) {
                    _ = try session.createObject([
                        .class(.secretKey), .keyType(keyType), .label(tokenLabel), .id(Array(tokenLabel.utf8)), .bool(.token, true),
                        .bool(.private, true), .bool(.sensitive, true), .bool(.extractable, false), .bool(.sign, true),
                        .bool(.verify, false), .bool(.encrypt, false), .bool(.decrypt, false), PKCS11Attribute(.value, secret: value),
                    ])
                    return true
                } catch {
                    failure = failure ?? error  // the first refusal says most; the second type is a fallback
                }
            }
            throw failure ?? PKCS11Error(.unexpectedOutput, "no key type was tried")
        }
        guard made else { throw DeviceKeyError(.keyExists, "the token already has a secret key labelled \(label)") }
        return PKCS11HMACKey(store: self, tokenLabel: tokenLabel)
    }

    /// The key the token is given for the HMAC key `secret`: tokens take 32 bytes or more
    /// (SoftHSM2 refuses a shorter `CKM_SHA256_HMAC` key with `CKR_KEY_SIZE_RANGE`), and a CM
    /// secret is whatever string the QR code held. HMAC-SHA256 pads a key shorter than its
    /// 64-byte block with zeros and replaces a longer one by its SHA-256 (RFC 2104 §2), so the
    /// key zero-padded to 32 bytes, or hashed, gives the same MAC as `secret` itself.
    static func hmacKeyValue(_ secret: SecretBytes) -> SecretBytes {
        if secret.count > 64 { return secret.withUnsafeBytes { SecretBytes(SHA256.hash(data: $0)) } }  // RFC 2104 §2: K = H(K)
        guard secret.count < 32 else { return secret }
        return SecretBytes(count: 32) { target in  // zero-initialised, then the secret over its start
            secret.withUnsafeBytes { source in target.copyMemory(from: source) }
        }
    }

    /// The HMAC key under `label`; it must be protected.
    public func hmacKey(label: String) throws(DeviceKeyError) -> any DeviceHMACKey {
        let tokenLabel = try tokenLabel(label)
        try run("finding the HMAC key \(label)", readWrite: false) { (session) throws(PKCS11Error) in _ = try Self.secretKey(tokenLabel, in: session) }
        return PKCS11HMACKey(store: self, tokenLabel: tokenLabel)
    }

    /// Destroys the HMAC key under `label`.
    public func deleteHMACKey(label: String) throws(DeviceKeyError) {
        let tokenLabel = try tokenLabel(label)
        try run("deleting the HMAC key \(label)", readWrite: true) { (session) throws(PKCS11Error) in
            for object in try session.findObjects([.class(.secretKey), .label(tokenLabel)]) { try session.destroyObject(object) }
        }
    }

    // MARK: Plumbing

    /// `swiftmfa-device-<store identifier>-<label>`; a label is 1…128 bytes without control characters.
    package func tokenLabel(_ label: String) throws(DeviceKeyError) -> String {
        guard !label.isEmpty, label.utf8.count <= 128, !label.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw DeviceKeyError(.invalidArgument, "a device key label is 1…128 bytes without control characters")
        }
        return Self.labelPrefix + provider.storeIdentifier.text + "-" + label
    }

    /// Runs `body` on a session with the provider's token, every PKCS #11 failure typed.
    func run<R>(_ what: String, readWrite: Bool, _ body: (PKCS11Session) throws(PKCS11Error) -> R) throws(DeviceKeyError) -> R {
        do { return try provider.withSession(readWrite: readWrite, body) } catch {
            throw Self.deviceKeyError(error, what)
        }
    }

    /// The device-key code of a PKCS #11 failure, the failure kept as the cause.
    static func deviceKeyError(_ error: PKCS11Error, _ what: String) -> DeviceKeyError {
        let code: DeviceKeyError.Code
        switch error.kind {
        case .objectNotFound: code = .keyNotFound
        case .keyNotProtected: code = .keyNotProtected
        case .invalidArgument: code = .invalidArgument
        case .returned(let value) where [.mechanismInvalid, .functionNotSupported, .attributeValueInvalid, .attributeTypeInvalid,
                                         .templateInconsistent, .keyTypeInconsistent].contains(value):
            code = .unsupported
        default: code = .unavailable
        }
        return DeviceKeyError(code, what + ": " + error.description, cause: error)
    }

    /// The one private RSA key under `tokenLabel`, refused unless it was generated in the token
    /// and never left it: `CKK_RSA`, `CKA_SENSITIVE`, `CKA_ALWAYS_SENSITIVE`, `CKA_LOCAL`,
    /// `CKA_NEVER_EXTRACTABLE`, `CKA_TOKEN`, `CKA_PRIVATE`, `CKA_SIGN`, `CKA_DECRYPT` true and
    /// `CKA_EXTRACTABLE` false (PKCS #11 v2.40 §4.9).
    static func privateKey(_ tokenLabel: String, in session: PKCS11Session) throws(PKCS11Error) -> UInt {
        let key = try onlyObject(.privateKey, tokenLabel, in: session)
        guard try session.ulong(.keyType, of: key) == PKCS11KeyType.rsa.rawValue else {
            throw PKCS11Error(.keyNotProtected, "the private key labelled \(tokenLabel) is not an RSA key")
        }
        for required in [PKCS11AttributeType.sensitive, .alwaysSensitive, .local, .neverExtractable, .token, .private, .sign, .decrypt] {
            guard try session.flag(required, of: key) else { throw PKCS11Error(.keyNotProtected, "the private key labelled \(tokenLabel) lacks attribute 0x\(String(required.rawValue, radix: 16))") }
        }
        guard try !session.flag(.extractable, of: key) else { throw PKCS11Error(.keyNotProtected, "the private key labelled \(tokenLabel) is extractable") }
        return key
    }

    /// The one secret key under `tokenLabel`, refused unless it is a sensitive, unextractable,
    /// private token HMAC key (`CKK_GENERIC_SECRET` or `CKK_SHA256_HMAC`, `CKA_SIGN`). It was
    /// imported, so it is neither `CKA_LOCAL` nor `CKA_ALWAYS_SENSITIVE`.
    static func secretKey(_ tokenLabel: String, in session: PKCS11Session) throws(PKCS11Error) -> UInt {
        let key = try onlyObject(.secretKey, tokenLabel, in: session)
        let keyType = try session.ulong(.keyType, of: key)
        guard keyType == PKCS11KeyType.genericSecret.rawValue || keyType == PKCS11KeyType.sha256HMAC.rawValue else {
            throw PKCS11Error(.keyNotProtected, "the secret key labelled \(tokenLabel) is not an HMAC key")
        }
        for required in [PKCS11AttributeType.sensitive, .token, .private, .sign] {
            guard try session.flag(required, of: key) else { throw PKCS11Error(.keyNotProtected, "the secret key labelled \(tokenLabel) lacks attribute 0x\(String(required.rawValue, radix: 16))") }
        }
        guard try !session.flag(.extractable, of: key) else { throw PKCS11Error(.keyNotProtected, "the secret key labelled \(tokenLabel) is extractable") }
        return key
    }

    /// The single object of `objectClass` labelled `tokenLabel` (searched by label only, so a
    /// planted object of another type is refused, not passed over).
    static func onlyObject(_ objectClass: PKCS11ObjectClass, _ tokenLabel: String, in session: PKCS11Session) throws(PKCS11Error) -> UInt {
        let found = try session.findObjects([.class(objectClass), .label(tokenLabel)], limit: 2)
        guard found.count <= 1 else { throw PKCS11Error(.invalidArgument, "several keys are labelled \(tokenLabel)") }
        guard let key = found.first else { throw PKCS11Error(.objectNotFound, "the token has no key labelled \(tokenLabel)") }
        return key
    }

    /// The RSA public key of `object` (`CKA_MODULUS`, `CKA_PUBLIC_EXPONENT`).
    static func publicKey(of object: UInt, in session: PKCS11Session) throws(PKCS11Error) -> RSA.Signing.PublicKey {
        let modulus = try session.attribute(.modulus, of: object).unsafeExposedBytes
        let exponent = try session.attribute(.publicExponent, of: object).unsafeExposedBytes
        do { return try RSA.Signing.PublicKey(modulus: modulus, publicExponent: exponent) } catch {
            throw PKCS11Error(.unexpectedOutput, "the token's RSA public key is not usable", function: "C_GetAttributeValue")
        }
    }
}
