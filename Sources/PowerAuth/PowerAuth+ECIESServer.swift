// The server half of one ECIES exchange (docs/protocols/powerauth.md §9.2–§9.3 seen from the server): decrypt
// a request with the scope's private key, then encrypt the response. Used by PowerAuthServer,
// the vectors and the tests.

public import CryptoPrimitives
public import ProtocolSupport

extension PowerAuth.ECIES.Request {
    /// Parses a request body (the server's side of §9.2); malformed JSON or Base64 is
    /// `ProtocolError.Code.malformedInput`.
    public init(jsonBytes: some Sequence<UInt8>) throws(ProtocolError) {
        try self.init(wire: try JSONResponse.decode(Wire.self, from: jsonBytes, what: "ECIES request"))
    }

    /// The request from its JSON fields as text (also when nested, as an activation's layer 2 is).
    package init(wire: Wire) throws(ProtocolError) {
        let (e, data, mac) = try ProtocolError.converting("ECIES request fields") { () throws(CryptoError) in
            (try Base64.decode(wire.ephemeralPublicKey), try Base64.decode(wire.encryptedData), try Base64.decode(wire.mac))
        }
        var nonce: [UInt8]?
        if let text = wire.nonce {
            nonce = try ProtocolError.converting("ECIES nonce") { () throws(CryptoError) in try Base64.decode(text) }
        }
        self.init(temporaryKeyID: wire.temporaryKeyId, ephemeralPublicKey: e, encryptedData: data, mac: mac, nonce: nonce, timestamp: wire.timestamp)
    }

    /// The request's JSON fields as text.
    package struct Wire: Codable, Sendable {
        package let temporaryKeyId: String?
        package let ephemeralPublicKey: String
        package let encryptedData: String
        package let mac: String
        package let nonce: String?
        package let timestamp: UInt64?
    }
}

extension PowerAuth.ECIES {
    /// Decrypts requests made to one private key under one set of parameters.
    public struct RequestDecryptor: Sendable {
        let privateKey: P256.KeyAgreement.PrivateKey
        let parameters: Parameters

        /// A decryptor for `privateKey` (master, server or temporary key).
        public init(privateKey: P256.KeyAgreement.PrivateKey, parameters: Parameters) {
            self.privateKey = privateKey
            self.parameters = parameters
        }

        /// Checks the MAC in constant time and decrypts. Every failure — a field missing for the
        /// version, an invalid ephemeral point, a wrong MAC, bad padding — is the one
        /// `ProtocolError.decryptionFailure(file:line:)`.
        public func decrypt(_ request: Request) throws(ProtocolError) -> (plaintext: [UInt8], responseEncryptor: ResponseEncryptor) {
            let version = parameters.version
            guard version < .v3_1 || request.nonce?.count == 16, version < .v3_2 || request.timestamp != nil,
                  request.temporaryKeyID == parameters.temporaryKeyID else { throw .decryptionFailure() }
            let envelope: EnvelopeKey
            do {
                let ephemeral = try P256.KeyAgreement.PublicKey(sec1Representation: request.ephemeralPublicKey)
                let shared = try privateKey.sharedSecretFromKeyAgreement(with: ephemeral)
                envelope = try EnvelopeKey(sharedSecret: shared, kdfInfo: parameters.kdfInfo, ephemeralPublicKey: request.ephemeralPublicKey)
            } catch {
                throw .decryptionFailure()  // every cause is the one decryption error (§9.3)
            }
            let iv = envelope.iv(nonce: request.nonce, version: version)
            let plaintext = try envelope.open(request.encryptedData, mac: request.mac, iv: iv,
                                              sharedInfo2: parameters.sharedInfo2(nonce: request.nonce, timestamp: request.timestamp,
                                                                                  ephemeralPublicKey: request.ephemeralPublicKey))
            return (plaintext, ResponseEncryptor(envelope: envelope, parameters: parameters, requestIV: iv))
        }
    }

    /// Encrypts the one response to a decrypted request.
    public struct ResponseEncryptor: Sendable {
        let envelope: EnvelopeKey
        let parameters: Parameters
        let requestIV: [UInt8]

        /// Encrypts with the given response nonce and timestamp (3.2+; ignored before: 3.0 uses a
        /// zero IV, 3.1 the request's IV).
        public func encrypt(_ plaintext: some Sequence<UInt8>, nonce: [UInt8]?, timestamp: UInt64?) throws(ProtocolError) -> Response {
            let version = parameters.version
            let (n, ts): ([UInt8]?, UInt64?) = version >= .v3_2 ? (nonce, timestamp) : (nil, nil)
            guard version < .v3_2 || (n?.count == 16 && ts != nil) else {
                throw ProtocolError(.invalidArgument, "3.2+ responses need a 16-byte nonce and a timestamp")
            }
            let iv = version >= .v3_2 ? envelope.iv(nonce: n, version: version) : requestIV
            let (ciphertext, mac) = try ProtocolError.converting("ECIES response") { () throws(CryptoError) in
                try envelope.seal(plaintext, iv: iv, sharedInfo2: parameters.sharedInfo2(nonce: n, timestamp: ts, ephemeralPublicKey: []))
            }
            return Response(encryptedData: ciphertext, mac: mac, nonce: n, timestamp: ts)
        }

        /// Encrypts with a fresh nonce from `random` and `timestamp` (ms).
        public func encrypt(_ plaintext: some Sequence<UInt8>, timestamp: UInt64, using random: inout some RandomSource) throws(ProtocolError) -> Response {
            let nonce = try ProtocolError.converting("nonce") { () throws(CryptoError) in try random.bytes(count: 16) }
            return try encrypt(plaintext, nonce: nonce, timestamp: timestamp)
        }
    }
}
