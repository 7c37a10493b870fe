// The per-connection RSA-2048 key pair (docs/protocols/saltedge-v2.md §2.1–§2.2): one private key decrypts
// server payloads and the access token (PKCS #1 v1.5) and signs requests (RS256). The private
// half is either in memory (a software key, sealed in the client's record) or held where its
// bytes cannot be read (a PKCS #11 token), reached through `HeldConnectionKey`.

public import CryptoPrimitives
public import ProtocolSupport

extension SaltEdge {
    /// A connection's private key kept outside the process, in a token: it signs and decrypts
    /// there, and no operation gives its bytes out.
    package protocol HeldConnectionKey: Sendable {
        /// The public half.
        var publicKey: RSA.Signing.PublicKey { get }
        /// RSASSA-PKCS1-v1_5 with SHA-256 of `message` (docs/protocols/saltedge-v2.md §5.2). Throws
        /// `ProtocolError.Code.keyUnavailable` when the key cannot be used.
        func signSHA256PKCS1(_ message: [UInt8]) throws(ProtocolError) -> RSA.Signing.RSASignature
        /// RSAES-PKCS1-v1_5 decryption of one modulus-long block (docs/protocols/saltedge-v2.md §3.3): its
        /// message, or nil when the block does not decrypt (or not to `messageByteCount` bytes,
        /// when given). Throws only when the key cannot be used
        /// (`ProtocolError.Code.keyUnavailable`), never for a bad block.
        func decryptPKCS1v15(_ block: [UInt8], messageByteCount: Int?) throws(ProtocolError) -> SecretBytes?
    }

    /// A connection's RSA key pair. A software private half is a secret type; `description` and
    /// `dump` show only the key size.
    public struct ConnectionKey: Sendable, CustomStringConvertible, CustomReflectable {
        private enum Storage: Sendable {
            case software(RSA.Signing.PrivateKey)
            case held(any HeldConnectionKey)
        }

        private let storage: Storage

        /// Generates a fresh RSA-2048 key, e = 65537, from `random` (docs/protocols/saltedge-v2.md §2.1).
        public init(generatingWith random: inout some RandomSource) throws(ProtocolError) {
            do {
                storage = .software(try RSA.Signing.PrivateKey(keySize: .bits2048, using: &random))
            } catch {
                throw ProtocolError(.cryptoFailure, "RSA key generation failed: \(error)")
            }
        }

        /// Wraps a stored private key.
        public init(privateKey: RSA.Signing.PrivateKey) {
            storage = .software(privateKey)
        }

        /// Loads a stored private key from PEM (PKCS #1 or PKCS #8).
        public init(privateKeyPEM: String) throws(ProtocolError) {
            do {
                storage = .software(try RSA.Signing.PrivateKey(pemRepresentation: privateKeyPEM))
            } catch {
                throw ProtocolError(.malformedInput, "not an RSA private key PEM")
            }
        }

        /// A key held in a token.
        package init(held key: any HeldConnectionKey) {
            storage = .held(key)
        }

        /// The private key when it is in memory; nil when a token holds it.
        public var softwareKey: RSA.Signing.PrivateKey? {
            if case .software(let key) = storage { return key }
            return nil
        }

        /// The key held in a token; nil for a software key.
        package var heldKey: (any HeldConnectionKey)? {
            if case .held(let key) = storage { return key }
            return nil
        }

        /// The public key.
        public var publicKey: RSA.Signing.PublicKey {
            switch storage {
            case .software(let key): key.publicKey
            case .held(let key): key.publicKey
            }
        }

        /// The modulus size in bits.
        public var keySizeInBits: Int { publicKey.keySizeInBits }

        /// The public key exactly as the server expects it (docs/protocols/saltedge-v2.md §2.2): SPKI DER,
        /// `-----BEGIN PUBLIC KEY-----`, standard Base64 in 64-character lines, LF line ends and a
        /// trailing LF.
        public var publicKeyPEM: String { publicKey.pemRepresentation }

        /// RS256: RSASSA-PKCS1-v1_5 with SHA-256 of `message` (docs/protocols/saltedge-v2.md §5.2).
        func signature(for message: [UInt8]) throws(ProtocolError) -> RSA.Signing.RSASignature {
            switch storage {
            case .software(let key):
                do { return try key.signature(for: message, padding: .pkcs1v1_5) } catch {
                    throw ProtocolError(.cryptoFailure, "RS256 signing failed", cause: error)
                }
            case .held(let key):
                return try key.signSHA256PKCS1(message)
            }
        }

        /// One RSA block of a bundle (docs/protocols/saltedge-v2.md §3.3: the AES key, the IV) decrypted to
        /// `byteCount` bytes, with the verdict beside it. A software key decrypts with implicit
        /// rejection and always does one private operation: a block out of range is replaced by
        /// a fixed one (c = 2). A held key answers nil for a bad block, which becomes zeros and
        /// a false verdict (the token's time is the token's: no module is known to reject
        /// implicitly). Throws only when a held key cannot be used.
        func unwrapBlock(_ block: [UInt8], byteCount: Int) throws(ProtocolError) -> (bytes: SecretBytes, isValid: Bool) {
            switch storage {
            case .software(let signingKey):
                let key = RSA.Encryption.PrivateKey(sameKeyAs: signingKey)
                do { return (try key.decryptWithImplicitRejection(block, messageByteCount: byteCount), true) } catch {
                    // Out of (1, n − 1) or a failed consistency check: decrypt the fixed block
                    // instead, so the work is the same; the verdict is false.
                    let fixed = [UInt8](repeating: 0, count: (key.keySizeInBits + 7) / 8 - 1) + [2]
                    do { return (try key.decryptWithImplicitRejection(fixed, messageByteCount: byteCount), false) } catch {
                        preconditionFailure("internal error: the fixed RSA block was refused")
                    }
                }
            case .held(let key):
                guard let bytes = try key.decryptPKCS1v15(block, messageByteCount: byteCount) else {
                    return (SecretBytes(count: byteCount) { _ in }, false)
                }
                return (bytes, true)
            }
        }

        /// RSAES-PKCS1-v1_5 decryption of modulus-long `blocks` (the access token, §4, one block
        /// or several), every block decrypted even after a failure; nil when any block fails.
        /// Throws only when a held key cannot be used.
        func decryptBlocks(_ ciphertext: [UInt8]) throws(ProtocolError) -> SecretBytes? {
            let k = (keySizeInBits + 7) / 8
            var plaintext = [UInt8]()
            defer { SecretBytes.wipe(&plaintext) }
            var failed = false
            for start in stride(from: 0, to: ciphertext.count, by: k) {
                let block = Array(ciphertext[start..<start + k])
                switch storage {
                case .software(let signingKey):
                    do { plaintext += try RSA.Encryption.PrivateKey(sameKeyAs: signingKey).decrypt(block, padding: .insecurePKCS1v1_5) } catch {
                        failed = true
                    }
                case .held(let key):
                    if let message = try key.decryptPKCS1v15(block, messageByteCount: nil) {
                        message.withUnsafeBytes { plaintext += $0 }
                    } else {
                        failed = true
                    }
                }
            }
            return failed ? nil : SecretBytes(plaintext)
        }

        /// `ConnectionKey(2048 bits, redacted)`, or `ConnectionKey(2048 bits, held)`.
        public var description: String {
            "SaltEdge.ConnectionKey(\(keySizeInBits) bits, \(softwareKey == nil ? "held" : "redacted"))"
        }

        /// No children: the key is not shown by `dump`.
        public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
    }
}
