// One ECIES request/response exchange (docs/protocols/powerauth.md §9.2–§9.3): the client's single-use
// encryptor and response decryptor, and the server's request decryptor and response encryptor.
// Every decryption failure is the one `decryptionFailed` error.

public import CryptoPrimitives
public import ProtocolSupport

extension PowerAuth.ECIES {
    /// The request object (§9.2); which optional fields are present follows the version.
    public struct Request: Sendable, Equatable {
        /// The 3.3 temporary key id, else `nil`.
        public var temporaryKeyID: String?
        /// The ephemeral public key exactly as sent (the SDK sends 33-byte compressed points).
        public var ephemeralPublicKey: [UInt8]
        /// The AES-CBC-PKCS7 ciphertext.
        public var encryptedData: [UInt8]
        /// The HMAC-SHA256 tag.
        public var mac: [UInt8]
        /// 3.1+.
        public var nonce: [UInt8]?
        /// 3.2+, Unix milliseconds.
        public var timestamp: UInt64?

        /// Creates a request value.
        public init(temporaryKeyID: String?, ephemeralPublicKey: [UInt8], encryptedData: [UInt8], mac: [UInt8], nonce: [UInt8]?, timestamp: UInt64?) {
            self.temporaryKeyID = temporaryKeyID
            self.ephemeralPublicKey = ephemeralPublicKey
            self.encryptedData = encryptedData
            self.mac = mac
            self.nonce = nonce
            self.timestamp = timestamp
        }

        /// The JSON body: `temporaryKeyId` (3.3), `ephemeralPublicKey`, `encryptedData`, `mac`,
        /// `nonce` (3.1+), `timestamp` (3.2+, a number); Base64 fields standard with padding.
        public var json: JSONText {
            var members: [(String, JSONText)] = []
            if let temporaryKeyID { members.append(("temporaryKeyId", .string(temporaryKeyID))) }
            members += [("ephemeralPublicKey", .string(Base64.encode(ephemeralPublicKey))), ("encryptedData", .string(Base64.encode(encryptedData))),
                        ("mac", .string(Base64.encode(mac)))]
            if let nonce { members.append(("nonce", .string(Base64.encode(nonce)))) }
            // The exact UInt64 the MAC covers (§9.2): clamping to Int64 would send another value.
            if let timestamp { members.append(("timestamp", .number(String(timestamp)))) }
            return .object(members)
        }
    }

    /// The response object (§9.3).
    public struct Response: Sendable, Equatable {
        /// The AES-CBC-PKCS7 ciphertext.
        public var encryptedData: [UInt8]
        /// The HMAC-SHA256 tag.
        public var mac: [UInt8]
        /// 3.2+.
        public var nonce: [UInt8]?
        /// 3.2+, Unix milliseconds.
        public var timestamp: UInt64?

        /// Creates a response value.
        public init(encryptedData: [UInt8], mac: [UInt8], nonce: [UInt8]?, timestamp: UInt64?) {
            self.encryptedData = encryptedData
            self.mac = mac
            self.nonce = nonce
            self.timestamp = timestamp
        }

        /// Parses `{"encryptedData","mac"[,"nonce","timestamp"]}`; malformed JSON or Base64 is
        /// `ProtocolError.Code.malformedInput`.
        public init(jsonBytes: some Sequence<UInt8>) throws(ProtocolError) {
            try self.init(wire: try JSONResponse.decode(Wire.self, from: jsonBytes, what: "ECIES response"))
        }

        /// The response from its JSON fields as text (also when it is nested in another object,
        /// as the layer-2 answer of an activation is).
        package init(wire: Wire) throws(ProtocolError) {
            let (data, mac) = try ProtocolError.converting("ECIES response fields") { () throws(CryptoError) in
                (try Base64.decode(wire.encryptedData), try Base64.decode(wire.mac))
            }
            var nonce: [UInt8]?
            if let text = wire.nonce {
                nonce = try ProtocolError.converting("ECIES nonce") { () throws(CryptoError) in try Base64.decode(text) }
            }
            self.init(encryptedData: data, mac: mac, nonce: nonce, timestamp: wire.timestamp)
        }

        /// The response's JSON fields as text.
        package struct Wire: Codable, Sendable {
            package let encryptedData: String
            package let mac: String
            package let nonce: String?
            package let timestamp: UInt64?
        }

        /// The JSON body, fields in the order above.
        public var json: JSONText {
            var members: [(String, JSONText)] = [("encryptedData", .string(Base64.encode(encryptedData))), ("mac", .string(Base64.encode(mac)))]
            if let nonce { members.append(("nonce", .string(Base64.encode(nonce)))) }
            // The exact UInt64 the MAC covers (§9.2): clamping to Int64 would send another value.
            if let timestamp { members.append(("timestamp", .number(String(timestamp)))) }
            return .object(members)
        }
    }

    /// The client side of one exchange (§9.2): encrypt a request, then decrypt its response.
    public struct Encryptor: Sendable {
        let publicKey: P256.KeyAgreement.PublicKey
        let parameters: Parameters

        /// An encryptor to `publicKey` (master, server or temporary key per scope and version).
        public init(publicKey: P256.KeyAgreement.PublicKey, parameters: Parameters) {
            self.publicKey = publicKey
            self.parameters = parameters
        }

        /// Encrypts `plaintext` with a fresh ephemeral key and nonce from `random`; `timestamp`
        /// is the server-synchronised time in milliseconds (used from 3.2).
        public func encryptRequest(_ plaintext: some Sequence<UInt8>, timestamp: UInt64,
                                   using random: inout some RandomSource) throws(ProtocolError) -> (request: Request, responseDecryptor: ResponseDecryptor) {
            let version = parameters.version
            do {
                // The ephemeral key is used for this one agreement: one call draws it and shares
                // one field inversion between its public key and the shared secret.
                let (ephemeralPublicKey, sharedSecret) = try P256.KeyAgreement.ephemeralAgreement(with: publicKey, using: &random)
                let e = ephemeralPublicKey.compressedRepresentation
                let envelope = try EnvelopeKey(sharedSecret: sharedSecret, kdfInfo: parameters.kdfInfo, ephemeralPublicKey: e)
                let nonce = version >= .v3_1 ? try random.bytes(count: 16) : nil
                let ts = version >= .v3_2 ? timestamp : nil
                let iv = envelope.iv(nonce: nonce, version: version)
                let (ciphertext, mac) = try envelope.seal(plaintext, iv: iv,
                                                          sharedInfo2: parameters.sharedInfo2(nonce: nonce, timestamp: ts, ephemeralPublicKey: e))
                let request = Request(temporaryKeyID: parameters.temporaryKeyID, ephemeralPublicKey: e, encryptedData: ciphertext,
                                      mac: mac, nonce: nonce, timestamp: ts)
                return (request, ResponseDecryptor(envelope: envelope, parameters: parameters, requestIV: iv))
            } catch {
                throw ProtocolError(.cryptoFailure, "ECIES request encryption failed")
            }
        }
    }

    /// Decrypts the one response that belongs to a request (§9.3).
    public struct ResponseDecryptor: Sendable {
        let envelope: EnvelopeKey
        let parameters: Parameters
        let requestIV: [UInt8]

        /// Creates a decryptor from an envelope key directly (vectors, tests).
        public init(envelope: EnvelopeKey, parameters: Parameters, requestIV: [UInt8]) {
            self.envelope = envelope
            self.parameters = parameters
            self.requestIV = requestIV
        }

        /// Checks the MAC in constant time, then decrypts. Every failure is the one
        /// `ProtocolError.decryptionFailure(file:line:)`.
        public func decrypt(_ response: Response) throws(ProtocolError) -> [UInt8] {
            let version = parameters.version
            if version >= .v3_2, response.nonce?.count != 16 || response.timestamp == nil { throw .decryptionFailure() }
            // 3.1 reuses the request IV; 3.2+ derives one from the response nonce; 3.0 is zero.
            let iv = version >= .v3_2 ? envelope.iv(nonce: response.nonce, version: version) : requestIV
            return try envelope.open(response.encryptedData, mac: response.mac, iv: iv,
                                     sharedInfo2: parameters.sharedInfo2(nonce: response.nonce, timestamp: response.timestamp, ephemeralPublicKey: []))
        }
    }
}
