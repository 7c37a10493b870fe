// Keys a client uses without holding their bytes: an RSA key pair that signs and decrypts, an
// HMAC key that authenticates. The Salt Edge and CM clients take a `DeviceKeyStore` in their
// configuration (docs/hardware-keys.md): the software store (the key lives in the client's own
// sealed record) is the default, and a PKCS #11 token (`PKCS11DeviceKeyStore` in the PKCS11
// module) keeps the key in the token, where no operation of this protocol can read it out. The
// SDKs see only these protocols, so none of them imports PKCS11 (docs/design.md §1).

public import CryptoPrimitives

/// Why a device key operation failed.
public struct DeviceKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong; extensible.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name.
        public let name: String
        /// A code named `name`.
        public init(_ name: String) { self.name = name }
        /// The name.
        public var description: String { name }

        /// No key with that label in this store (another token, or one wiped or removed).
        public static let keyNotFound = Code("keyNotFound")
        /// A key with that label already exists; a second is never made beside it.
        public static let keyExists = Code("keyExists")
        /// The store holds a key under the label whose value could leave it (not sensitive,
        /// extractable, or of another type).
        public static let keyNotProtected = Code("keyNotProtected")
        /// The store cannot do this (a token without the mechanism, or a software store asked
        /// for a key that lives in a caller's record).
        public static let unsupported = Code("unsupported")
        /// The store is not reachable (no token, a wrong PIN, a module that refused).
        public static let unavailable = Code("unavailable")
        /// The operation ran and failed: a ciphertext that does not decrypt, a message too long.
        public static let operationFailed = Code("operationFailed")
        /// A label or argument outside what the store accepts.
        public static let invalidArgument = Code("invalidArgument")
    }

    /// What went wrong.
    public let code: Code
    /// A human-readable explanation (never key bytes).
    public let message: String
    /// The underlying error (a `PKCS11Error`, a `CryptoError`), kept whole.
    public let cause: (any Error & Sendable)?
    /// Where the error was made.
    public let file: String
    /// The line where the error was made.
    public let line: Int

    /// An error with `code`, `message` and the `cause` when there is one.
    public init(_ code: Code, _ message: String, cause: (any Error & Sendable)? = nil, file: String = #fileID, line: Int = #line) {
        self.code = code
        self.message = message
        self.cause = cause
        self.file = file
        self.line = line
    }

    /// `code: message (cause)`.
    public var description: String { "\(code): \(message)" + (cause.map { " (\($0))" } ?? "") }

    /// Errors are equal by code.
    public static func == (a: DeviceKeyError, b: DeviceKeyError) -> Bool { a.code == b.code }
}

/// An RSA key pair whose private half signs and decrypts where it lives (docs/protocols/saltedge-v2.md §2).
public protocol DeviceRSAKey: Sendable {
    /// The public half.
    var publicKey: RSA.Signing.PublicKey { get }
    /// RSASSA-PKCS1-v1_5 with SHA-256 of `message` (RFC 8017 §8.2.1; `CKM_SHA256_RSA_PKCS`).
    func signSHA256PKCS1(_ message: [UInt8]) throws(DeviceKeyError) -> RSA.Signing.RSASignature
    /// RSAES-PKCS1-v1_5 decryption of one block (RFC 8017 §7.2.2; `CKM_RSA_PKCS`). When the
    /// protocol fixes the message at `messageByteCount` bytes (the Salt Edge key and IV blocks
    /// are 32 and 16 bytes), a key that can decrypts with implicit rejection (a bad block gives a
    /// pseudo-random message of that length, no error to tell it apart); one that cannot (a
    /// token) throws the one ``DeviceKeyError/Code/operationFailed`` for every failure. With
    /// `messageByteCount` nil (the Salt Edge access token, whose length the protocol does not
    /// fix) any length is accepted and every failure is that one error.
    func decryptPKCS1v15(_ ciphertext: [UInt8], messageByteCount: Int?) throws(DeviceKeyError) -> SecretBytes
}

/// An HMAC-SHA256 key that authenticates where it lives (docs/protocols/cm-authenticator.md: the HS256 key).
public protocol DeviceHMACKey: Sendable {
    /// HMAC-SHA256 of `message` (RFC 2104; `CKM_SHA256_HMAC`), 32 bytes in wiped storage.
    func authenticationCode(for message: [UInt8]) throws(DeviceKeyError) -> SecretBytes
}

/// Where a client's factor keys live: made, found and deleted by label.
public protocol DeviceKeyStore: Sendable {
    /// True when keys live in the store and a client keeps only their label; false when the
    /// client must keep the key it was given in its own sealed record (the software store).
    var holdsKeys: Bool { get }
    /// Generates an RSA-2048 key pair under `label` (`keyExists` when one is there).
    func makeRSAKey(label: String) throws(DeviceKeyError) -> any DeviceRSAKey
    /// The RSA key pair under `label` (`keyNotFound` when there is none).
    func rsaKey(label: String) throws(DeviceKeyError) -> any DeviceRSAKey
    /// Destroys the RSA key pair under `label`; nothing there is not an error.
    func deleteRSAKey(label: String) throws(DeviceKeyError)
    /// Puts the HMAC key `secret` in the store under `label` (`keyExists` when one is there).
    func makeHMACKey(label: String, secret: SecretBytes) throws(DeviceKeyError) -> any DeviceHMACKey
    /// The HMAC key under `label` (`keyNotFound` when there is none).
    func hmacKey(label: String) throws(DeviceKeyError) -> any DeviceHMACKey
    /// Destroys the HMAC key under `label`; nothing there is not an error.
    func deleteHMACKey(label: String) throws(DeviceKeyError)
    /// The RSA key pair under `label` whose public half the caller recorded as `publicKey`,
    /// without reaching the store: each operation finds the key when it runs (a missing key
    /// fails that operation with `keyNotFound`), so listing records never needs the token.
    func rsaKeyReference(label: String, publicKey: RSA.Signing.PublicKey) throws(DeviceKeyError) -> any DeviceRSAKey
    /// The HMAC key under `label`, without reaching the store: each operation finds the key
    /// when it runs.
    func hmacKeyReference(label: String) throws(DeviceKeyError) -> any DeviceHMACKey
}

/// A key a software store was asked for by label: it holds none, so every operation is
/// ``DeviceKeyError/Code/unsupported`` (the record names a key in a token this client was not
/// given).
struct MissingRSAKey: DeviceRSAKey {
    let publicKey: RSA.Signing.PublicKey
    let label: String

    func signSHA256PKCS1(_ message: [UInt8]) throws(DeviceKeyError) -> RSA.Signing.RSASignature { throw .notHeldInSoftware(label) }
    func decryptPKCS1v15(_ ciphertext: [UInt8], messageByteCount: Int?) throws(DeviceKeyError) -> SecretBytes { throw .notHeldInSoftware(label) }
}

/// The HMAC counterpart of ``MissingRSAKey``.
struct MissingHMACKey: DeviceHMACKey {
    let label: String

    func authenticationCode(for message: [UInt8]) throws(DeviceKeyError) -> SecretBytes { throw .notHeldInSoftware(label) }
}

extension DeviceKeyError {
    /// The refusal of a software store asked to use the key `label`.
    static func notHeldInSoftware(_ label: String) -> DeviceKeyError {
        DeviceKeyError(.unsupported, "the key \(label) lives in a token, and this client keeps its keys in software")
    }
}

/// A software RSA key pair, as the clients keep it in their sealed records.
public struct SoftwareRSAKey: DeviceRSAKey, CustomStringConvertible {
    /// The private key (the caller seals it in its record).
    public let privateKey: RSA.Signing.PrivateKey

    /// Wraps `privateKey`.
    public init(privateKey: RSA.Signing.PrivateKey) { self.privateKey = privateKey }

    /// The public half.
    public var publicKey: RSA.Signing.PublicKey { privateKey.publicKey }

    /// RSASSA-PKCS1-v1_5 with SHA-256 (RFC 8017 §8.2.1).
    public func signSHA256PKCS1(_ message: [UInt8]) throws(DeviceKeyError) -> RSA.Signing.RSASignature {
        do { return try privateKey.signature(for: message, padding: .pkcs1v1_5) } catch {
            throw DeviceKeyError(.operationFailed, "RSA signing failed", cause: error)
        }
    }

    /// RSAES-PKCS1-v1_5 decryption of one block (RFC 8017 §7.2.2). With `messageByteCount`,
    /// with implicit rejection (draft-irtf-cfrg-rsa-guidance): a block that does not decrypt to
    /// that many bytes gives a pseudo-random message of that length, so the answer is no padding
    /// oracle, and only a ciphertext of the wrong size throws. Without, the one
    /// ``DeviceKeyError/Code/operationFailed`` for every failure.
    public func decryptPKCS1v15(_ ciphertext: [UInt8], messageByteCount: Int?) throws(DeviceKeyError) -> SecretBytes {
        let key = RSA.Encryption.PrivateKey(sameKeyAs: privateKey)
        do {
            guard let messageByteCount else {
                var message = try key.decrypt(ciphertext, padding: .insecurePKCS1v1_5)
                defer { SecretBytes.wipe(&message) }
                return SecretBytes(message)
            }
            return try key.decryptWithImplicitRejection(ciphertext, messageByteCount: messageByteCount)
        } catch {
            throw DeviceKeyError(.operationFailed, "the block does not decrypt")
        }
    }

    /// The key size only.
    public var description: String { "SoftwareRSAKey(\(privateKey.keySizeInBits) bits, redacted)" }
}

/// A software HMAC-SHA256 key, as the clients keep it in their sealed records.
public struct SoftwareHMACKey: DeviceHMACKey, CustomStringConvertible {
    /// The key (the caller seals it in its record).
    public let key: SymmetricKey

    /// Wraps `key`.
    public init(key: SymmetricKey) { self.key = key }

    /// HMAC-SHA256 (RFC 2104).
    public func authenticationCode(for message: [UInt8]) throws(DeviceKeyError) -> SecretBytes {
        SecretBytes(HMAC<SHA256>.authenticationCode(for: message, using: key))
    }

    /// Redacted.
    public var description: String { "SoftwareHMACKey(redacted)" }
}

/// Today's behaviour, the default of every client: keys are made in memory and handed to the
/// client, which seals them in its own record (``holdsKeys`` is false). The store holds
/// nothing, so finding a key by label is ``DeviceKeyError/Code/unsupported``: the caller reads
/// its record instead.
public struct SoftwareDeviceKeyStore: DeviceKeyStore {
    /// A software store.
    public init() {}

    /// False: the caller keeps the key.
    public var holdsKeys: Bool { false }

    /// A fresh RSA-2048 key pair, e = 65537, from the system random source (docs/protocols/saltedge-v2.md §2.1).
    public func makeRSAKey(label: String) throws(DeviceKeyError) -> any DeviceRSAKey {
        do { return SoftwareRSAKey(privateKey: try RSA.Signing.PrivateKey(keySize: .bits2048)) } catch {
            throw DeviceKeyError(.operationFailed, "RSA key generation failed", cause: error)
        }
    }

    /// Always ``DeviceKeyError/Code/unsupported``: the key is in the caller's record.
    public func rsaKey(label: String) throws(DeviceKeyError) -> any DeviceRSAKey {
        throw DeviceKeyError(.unsupported, "a software key lives in its client's record, not in the store")
    }

    /// Always ``DeviceKeyError/Code/unsupported``: this store holds no key, so a label names one
    /// in a token this client was not given, and removing the record would orphan it there.
    public func deleteRSAKey(label: String) throws(DeviceKeyError) {
        throw Self.notHere(label)
    }

    /// `secret` as a software key.
    public func makeHMACKey(label: String, secret: SecretBytes) throws(DeviceKeyError) -> any DeviceHMACKey {
        SoftwareHMACKey(key: SymmetricKey(secret: secret))
    }

    /// Always ``DeviceKeyError/Code/unsupported``: the key is in the caller's record.
    public func hmacKey(label: String) throws(DeviceKeyError) -> any DeviceHMACKey {
        throw DeviceKeyError(.unsupported, "a software key lives in its client's record, not in the store")
    }

    /// A key whose every operation is ``DeviceKeyError/Code/unsupported``: this store holds none.
    public func rsaKeyReference(label: String, publicKey: RSA.Signing.PublicKey) throws(DeviceKeyError) -> any DeviceRSAKey {
        MissingRSAKey(publicKey: publicKey, label: label)
    }

    /// A key whose every operation is ``DeviceKeyError/Code/unsupported``: this store holds none.
    public func hmacKeyReference(label: String) throws(DeviceKeyError) -> any DeviceHMACKey {
        MissingHMACKey(label: label)
    }

    /// Always ``DeviceKeyError/Code/unsupported``, as ``deleteRSAKey(label:)``.
    public func deleteHMACKey(label: String) throws(DeviceKeyError) {
        throw Self.notHere(label)
    }

    private static func notHere(_ label: String) -> DeviceKeyError {
        DeviceKeyError(.unsupported, "the key \(label) lives in a token, and this client keeps its keys in software: configure it with that token")
    }
}
