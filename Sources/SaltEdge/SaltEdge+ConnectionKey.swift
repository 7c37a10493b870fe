// The per-connection RSA-2048 key pair (saltedge-v2.md §2.1–§2.2): one private key decrypts
// server payloads and the access token (PKCS #1 v1.5) and signs requests (RS256).

public import CryptoPrimitives
public import ProtocolSupport

extension SaltEdge {
    /// A connection's RSA key pair. The private half is a secret type; `description` and `dump`
    /// show only the key size.
    public struct ConnectionKey: Sendable, CustomStringConvertible, CustomReflectable {
        /// The private key, as used for RS256 signatures.
        public let signingKey: RSA.Signing.PrivateKey

        /// Generates a fresh RSA-2048 key, e = 65537, from `random` (saltedge-v2.md §2.1).
        public init(generatingWith random: inout some RandomSource) throws(ProtocolError) {
            do {
                signingKey = try RSA.Signing.PrivateKey(keySize: .bits2048, using: &random)
            } catch {
                throw ProtocolError(.cryptoFailure, "RSA key generation failed: \(error)")
            }
        }

        /// Wraps a stored private key.
        public init(privateKey: RSA.Signing.PrivateKey) {
            signingKey = privateKey
        }

        /// Loads a stored private key from PEM (PKCS #1 or PKCS #8).
        public init(privateKeyPEM: String) throws(ProtocolError) {
            do {
                signingKey = try RSA.Signing.PrivateKey(pemRepresentation: privateKeyPEM)
            } catch {
                throw ProtocolError(.malformedInput, "not an RSA private key PEM")
            }
        }

        /// The same key for PKCS #1 v1.5 decryption of server payloads.
        public var decryptionKey: RSA.Encryption.PrivateKey { RSA.Encryption.PrivateKey(sameKeyAs: signingKey) }

        /// The public key.
        public var publicKey: RSA.Signing.PublicKey { signingKey.publicKey }

        /// The public key exactly as the server expects it (saltedge-v2.md §2.2): SPKI DER,
        /// `-----BEGIN PUBLIC KEY-----`, standard Base64 in 64-character lines, LF line ends and a
        /// trailing LF.
        public var publicKeyPEM: String { signingKey.publicKey.pemRepresentation }

        /// `ConnectionKey(2048 bits, redacted)`.
        public var description: String { "SaltEdge.ConnectionKey(\(signingKey.keySizeInBits) bits, redacted)" }

        /// No children: the key is not shown by `dump`.
        public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
    }
}
