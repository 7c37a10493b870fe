// Hybrid encryption both ways (docs/protocols/saltedge-v2.md §3): AES-256-CBC/PKCS#7 over the payload; the AES
// key and the IV each a separate RSA PKCS#1 v1.5 block; Base64 read leniently (the server wraps
// lines every 60 characters, either alphabet).

public import CryptoPrimitives
public import ProtocolSupport

extension SaltEdge {
    /// The `{key, iv, data}` object of docs/protocols/saltedge-v2.md §3.1.
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

        /// Encrypts `plaintext` to `recipient` with a fresh AES-256 key and IV (docs/protocols/saltedge-v2.md
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
        /// Known-answer tests only (a fresh key per bundle is the rule), so not public.
        package static func encrypt(_ plaintext: some Sequence<UInt8>, to recipient: RSA.Encryption.PublicKey,
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
                throw ProtocolError(error, "bundle encryption")
            }
        }

        /// Decrypts the payload with the connection's key (docs/protocols/saltedge-v2.md §3.3) and returns its
        /// bytes.
        ///
        /// One pass whatever the input: both RSA blocks are always decrypted (a software key with
        /// implicit rejection, so a non-conforming block yields a random-looking key instead of
        /// an error) and AES always runs; every check is folded into one verdict, and every
        /// failure — malformed Base64, a block that is not exactly one modulus long, padding
        /// that does not conform, bad CBC padding — throws the one
        /// `ProtocolError.decryptionFailure(file:line:)`. An `algorithm` other than
        /// AES-256-CBC throws `ProtocolError.Code.unsupported` before anything is decrypted; a
        /// key held in a token that cannot be used throws `ProtocolError.Code.keyUnavailable`.
        /// Prefer `decrypt(_:with:)`, which folds the JSON parse into the same verdict.
        public func decrypt(with connectionKey: ConnectionKey) throws(ProtocolError) -> [UInt8] {
            let (plaintext, isValid) = try decryptFolded(with: connectionKey)
            guard isValid else { throw .decryptionFailure() }
            return plaintext
        }

        /// Decrypts the payload and parses it as `Payload` (docs/protocols/saltedge-v2.md §3.3), with the parse
        /// folded into the one verdict of ``decrypt(with:)-(SaltEdge.ConnectionKey)``: a payload that
        /// decrypts but is not the expected JSON throws the same decryption error as one that
        /// does not decrypt, so the error says nothing about the padding. (The parser's time
        /// still depends on the plaintext; unauthenticated CBC, which the protocol mandates,
        /// cannot hide that.)
        public func decrypt<Payload: Decodable>(_ type: Payload.Type, with connectionKey: ConnectionKey) throws(ProtocolError) -> Payload {
            let (plaintext, isValid) = try decryptFolded(with: connectionKey)
            // The parse runs whatever the verdict, so a bad pad costs what a bad payload does.
            let payload: Payload?
            do {
                payload = try JSONResponse.decode(Payload.self, from: plaintext, what: "encrypted payload")
            } catch {
                payload = nil  // folded into the one verdict below; its cause would be an oracle
            }
            guard isValid, let payload else { throw .decryptionFailure() }
            return payload
        }

        /// Decrypts with a software RSA key (the provider's side, tests).
        public func decrypt(with privateKey: RSA.Encryption.PrivateKey) throws(ProtocolError) -> [UInt8] {
            try decrypt(with: ConnectionKey(privateKey: RSA.Signing.PrivateKey(sameKeyAs: privateKey)))
        }

        /// Decrypts and parses with a software RSA key.
        public func decrypt<Payload: Decodable>(_ type: Payload.Type, with privateKey: RSA.Encryption.PrivateKey) throws(ProtocolError) -> Payload {
            try decrypt(type, with: ConnectionKey(privateKey: RSA.Signing.PrivateKey(sameKeyAs: privateKey)))
        }

        /// The whole pass, returning the plaintext (meaningless when invalid) and the verdict.
        /// Exactly two RSA private operations and one AES pass, whatever the input.
        private func decryptFolded(with connectionKey: ConnectionKey) throws(ProtocolError) -> (plaintext: [UInt8], isValid: Bool) {
            if let algorithm, algorithm != Self.supportedAlgorithm {
                throw ProtocolError(.unsupported, "bundle algorithm \(algorithm)")
            }
            let k = (connectionKey.keySizeInBits + 7) / 8
            let (aesKey, keyIsWellFormed) = try SaltEdge.unwrapBlock(key, byteCount: 32, modulusByteCount: k, with: connectionKey)
            let (iv, ivIsWellFormed) = try SaltEdge.unwrapBlock(self.iv, byteCount: 16, modulusByteCount: k, with: connectionKey)
            // Base64 and length are public properties of the ciphertext; a malformed one is
            // replaced by one block so that the AES pass still runs.
            var ciphertext: [UInt8]
            do { ciphertext = try Base64.decodeLenient(data) } catch { ciphertext = [] }  // its verdict is the next line
            let dataIsWellFormed = !ciphertext.isEmpty && ciphertext.count % 16 == 0
            if !dataIsWellFormed { ciphertext = [UInt8](repeating: 0, count: 16) }
            let decrypted: (plaintext: [UInt8], hasValidPadding: Bool)
            do {
                decrypted = try iv.withUnsafeBytes { iv throws(CryptoError) in
                    try AES.UnauthenticatedCBC.decryptDeferringPaddingCheck(ciphertext, using: SymmetricKey(secret: aesKey), iv: iv)
                }
            } catch {
                // Key, IV and ciphertext lengths are fixed above, so AES cannot refuse them.
                preconditionFailure("internal error: AES-CBC refused normalised input")
            }
            let isValid = keyIsWellFormed && ivIsWellFormed && dataIsWellFormed && decrypted.hasValidPadding
            return (decrypted.plaintext, isValid)
        }
    }

    /// One RSA block (docs/protocols/saltedge-v2.md §3.3: the AES key and the IV are each exactly one block)
    /// decrypted to `byteCount` bytes. Always one private operation: text that is not Base64 or
    /// not exactly one modulus long is replaced by a fixed in-range block (c = 2), and the
    /// verdict on its form is returned beside the bytes.
    static func unwrapBlock(_ text: String, byteCount: Int, modulusByteCount k: Int,
                            with connectionKey: ConnectionKey) throws(ProtocolError) -> (bytes: SecretBytes, isWellFormed: Bool) {
        var block: [UInt8]
        do { block = try Base64.decodeLenient(text) } catch { block = [] }  // its verdict is the next line
        let isWellFormed = block.count == k
        if !isWellFormed { block = [UInt8](repeating: 0, count: k - 1) + [2] }
        let (bytes, decrypted) = try connectionKey.unwrapBlock(block, byteCount: byteCount)
        return (bytes, isWellFormed && decrypted)
    }

    /// Base64 (lenient) → RSA PKCS#1 v1.5 decryption, one block or several modulus-sized blocks
    /// concatenated (docs/protocols/saltedge-v2.md §3.3: iOS decrypts long ciphertexts in chunks).
    static func decryptRSA(_ text: String, with connectionKey: ConnectionKey) throws(ProtocolError) -> SecretBytes {
        let k = (connectionKey.keySizeInBits + 7) / 8
        let ciphertext: [UInt8]
        do { ciphertext = try Base64.decodeLenient(text) } catch { throw .decryptionFailure() }
        guard !ciphertext.isEmpty, ciphertext.count % k == 0 else { throw .decryptionFailure() }
        guard let plaintext = try connectionKey.decryptBlocks(ciphertext) else { throw .decryptionFailure() }
        return plaintext
    }
}
