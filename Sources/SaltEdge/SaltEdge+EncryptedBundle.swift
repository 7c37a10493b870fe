// Hybrid encryption both ways (saltedge-v2.md §3): AES-256-CBC/PKCS#7 over the payload; the AES
// key and the IV each a separate RSA PKCS#1 v1.5 block; Base64 read leniently (the server wraps
// lines every 60 characters, either alphabet).

public import CryptoPrimitives
public import ProtocolSupport

extension SaltEdge {
    /// The `{key, iv, data}` object of saltedge-v2.md §3.1.
    public struct EncryptedBundle: Sendable, Equatable, Decodable {
        /// Base64 of the RSA-encrypted 32-byte AES key.
        public var key: String
        /// Base64 of the RSA-encrypted 16-byte IV.
        public var iv: String
        /// Base64 of the AES-256-CBC ciphertext.
        public var data: String
        /// The optional `algorithm` member; only `"AES-256-CBC"` is supported (§3.3).
        public var algorithm: String?

        /// The AES mode every bundle uses.
        public static let supportedAlgorithm = "AES-256-CBC"

        /// Wraps the three fields.
        public init(key: String, iv: String, data: String, algorithm: String? = nil) {
            self.key = key
            self.iv = iv
            self.data = data
            self.algorithm = algorithm
        }

        /// Parses a bundle from a JSON object's bytes.
        public init(jsonBytes: some Sequence<UInt8>) throws(ProtocolError) {
            self = try JSONResponse.decode(EncryptedBundle.self, from: jsonBytes, what: "encrypted bundle")
        }

        /// The bundle as a request member: `{"key":…,"iv":…,"data":…}` in that order (§6.7).
        public var json: JSONText {
            .object([("key", .string(key)), ("iv", .string(iv)), ("data", .string(data))])
        }

        /// Encrypts `plaintext` to `recipient` with a fresh AES-256 key and IV (saltedge-v2.md
        /// §3.2). Zero bytes in the key or IV are fine (the iOS rejection loop is not copied).
        public static func encrypt(_ plaintext: some Sequence<UInt8>, to recipient: RSA.Encryption.PublicKey,
                                   using random: inout some RandomSource) throws(ProtocolError) -> EncryptedBundle {
            let aesKey: SymmetricKey
            let iv: [UInt8]
            do {
                aesKey = try SymmetricKey(byteCount: 32, using: &random)
                iv = try random.bytes(count: 16)
            } catch {
                throw ProtocolError(.cryptoFailure, "random source failed")
            }
            return try encrypt(plaintext, to: recipient, aesKey: aesKey, iv: iv, using: &random)
        }

        /// Encrypts with a given AES key and IV; the RSA padding still draws from `random`.
        /// For vectors and tests; a fresh key per bundle is the rule.
        public static func encrypt(_ plaintext: some Sequence<UInt8>, to recipient: RSA.Encryption.PublicKey,
                                   aesKey: SymmetricKey, iv: [UInt8],
                                   using random: inout some RandomSource) throws(ProtocolError) -> EncryptedBundle {
            guard aesKey.byteCount == 32, iv.count == 16 else {
                throw ProtocolError(.invalidArgument, "AES-256-CBC needs a 32-byte key and a 16-byte IV")
            }
            do {
                let ciphertext = try AES.UnauthenticatedCBC.encrypt(plaintext, using: aesKey, iv: iv, padding: .pkcs7)
                let wrappedKey = try aesKey.withUnsafeBytes { raw throws(CryptoError) in
                    try recipient.encrypt(Array(raw), padding: .insecurePKCS1v1_5, using: &random)
                }
                let wrappedIV = try recipient.encrypt(iv, padding: .insecurePKCS1v1_5, using: &random)
                return EncryptedBundle(key: Base64.encode(wrappedKey), iv: Base64.encode(wrappedIV), data: Base64.encode(ciphertext))
            } catch {
                throw ProtocolError(.cryptoFailure, "encryption failed: \(error)")
            }
        }

        /// Decrypts the payload with the connection's private key (saltedge-v2.md §3.3).
        ///
        /// Every failure — malformed Base64, an RSA block that does not decrypt, a key or IV of the
        /// wrong length, bad CBC padding — throws the one ``ProtocolError/decryptionFailure(file:line:)``
        /// error. An `algorithm` other than AES-256-CBC throws ``ProtocolError/Code/unsupported``
        /// before anything is decrypted.
        public func decrypt(with privateKey: RSA.Encryption.PrivateKey) throws(ProtocolError) -> [UInt8] {
            if let algorithm, algorithm != Self.supportedAlgorithm {
                throw ProtocolError(.unsupported, "bundle algorithm \(algorithm)")
            }
            guard let keyBytes = try? SaltEdge.decryptRSA(key, with: privateKey), keyBytes.count == 32,
                  let ivBytes = try? SaltEdge.decryptRSA(iv, with: privateKey), ivBytes.count == 16,
                  let ciphertext = try? Base64.decodeLenient(data),
                  let plaintext = try? AES.UnauthenticatedCBC.decrypt(ciphertext, using: SymmetricKey(secret: keyBytes), iv: ivBytes.unsafeExposedBytes, padding: .pkcs7)
            else { throw .decryptionFailure() }
            return plaintext
        }

        /// Decrypts with a connection key.
        public func decrypt(with connectionKey: ConnectionKey) throws(ProtocolError) -> [UInt8] {
            try decrypt(with: connectionKey.decryptionKey)
        }
    }

    /// Base64 (lenient) → RSA PKCS#1 v1.5 decryption, one block or several modulus-sized blocks
    /// concatenated (saltedge-v2.md §3.3: iOS decrypts long ciphertexts in chunks).
    static func decryptRSA(_ text: String, with privateKey: RSA.Encryption.PrivateKey) throws(ProtocolError) -> SecretBytes {
        let k = (privateKey.keySizeInBits + 7) / 8
        guard let ciphertext = try? Base64.decodeLenient(text), !ciphertext.isEmpty, ciphertext.count % k == 0 else {
            throw .decryptionFailure()
        }
        var plaintext = [UInt8]()
        var failed = false
        for start in stride(from: 0, to: ciphertext.count, by: k) {
            // Every block is decrypted even after a failure, so the time does not say which failed.
            if let block = try? privateKey.decrypt(ciphertext[start..<start + k], padding: .insecurePKCS1v1_5) {
                plaintext += block
            } else {
                failed = true
            }
        }
        let secret = SecretBytes(plaintext)
        plaintext.withUnsafeMutableBytes { SecretBytes.wipe($0) }
        guard !failed else { throw .decryptionFailure() }
        return secret
    }
}
