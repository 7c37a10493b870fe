// The standard endpoints that are both encrypted (activation scope) and signed — token create,
// vault unlock, recovery confirm — which are encrypt-then-sign: the signature covers the ECIES
// body that is sent (docs/protocols/powerauth.md §7.7, §11.1, §12, §13); and the token removal.

public import CryptoPrimitives
public import ProtocolSupport

extension PowerAuth {
    /// An encrypted, signed request in flight and how to read its answer.
    public struct PendingEncryptedRequest: Sendable {
        /// The request to send (ECIES body, `X-PowerAuth-Authorization`, no encryption header).
        public let request: HTTPRequest
        /// The activation to persist before sending (the counter advanced).
        public let next: ActivationData
        let decryptor: ECIES.ResponseDecryptor

        /// Decrypts the answer; error envelopes become their codes (§14.2).
        public func decrypt(_ response: HTTPResponse) throws(ProtocolError) -> [UInt8] {
            try PowerAuth.requireSuccess(response)
            return try decryptor.decrypt(try ECIES.Response(jsonBytes: response.body))
        }
    }

    /// The standard encrypt-then-sign request (§7.7): activation-scope ECIES of `plaintext` to
    /// `encryptionKey` (3.3: the activation-scope temporary key; before: the activation's server
    /// key when `nil`), then a signature over the encrypted body.
    public static func encryptedRequest(path: String, uriID: String, sharedInfo1: ECIES.SharedInfo1, plaintext: [UInt8],
                                        activation: ActivationData, factors: SignatureFactors, keys: SignatureKeys, transportKey: SymmetricKey,
                                        configuration: Configuration, encryptionKey: EncryptionKey? = nil, version: ProtocolVersion = .v3_3,
                                        timestamp: UInt64, using random: inout some RandomSource) throws(ProtocolError) -> PendingEncryptedRequest {
        let key: EncryptionKey
        if let encryptionKey {
            key = encryptionKey
        } else {
            guard version < .v3_3 else { throw ProtocolError(.invalidArgument, "3.3 needs the activation-scope temporary key") }
            let server = try ProtocolError.converting("stored server public key") { () throws(CryptoError) in
                try P256.KeyAgreement.PublicKey(sec1Representation: activation.serverPublicKey)
            }
            key = EncryptionKey(publicKey: server)
        }
        let parameters = ECIES.Parameters.activationScope(sharedInfo1, version: version, applicationKey: configuration.applicationKey,
                                                          applicationSecret: configuration.applicationSecret, transportKey: transportKey,
                                                          activationID: activation.activationID, temporaryKeyID: key.temporaryKeyID)
        let (ecies, decryptor) = try ECIES.Encryptor(publicKey: key.publicKey, parameters: parameters)
            .encryptRequest(plaintext, timestamp: timestamp, using: &random)
        let body = ecies.json.bytes
        let signed = try sign(method: "POST", uriID: uriID, body: body, activation: activation, factors: factors, keys: keys,
                              configuration: configuration, version: version, using: &random)
        let request = HTTPRequest(method: .post, path: path, headers: [HTTPHeader("Content-Type", "application/json"),
                                                                     HTTPHeader("Accept", "application/json"), signed.header], body: body)
        return PendingEncryptedRequest(request: request, next: signed.next, decryptor: decryptor)
    }

    /// `POST /pa/v3/token/create` (§11.1): plaintext `{}`; read the answer with ``token(from:)``.
    public static func createTokenRequest(activation: ActivationData, factors: SignatureFactors, keys: SignatureKeys, transportKey: SymmetricKey,
                                          configuration: Configuration, encryptionKey: EncryptionKey? = nil, version: ProtocolVersion = .v3_3,
                                          timestamp: UInt64, using random: inout some RandomSource) throws(ProtocolError) -> PendingEncryptedRequest {
        try encryptedRequest(path: "pa/v3/token/create", uriID: "/pa/token/create", sharedInfo1: .createToken, plaintext: Array("{}".utf8),
                             activation: activation, factors: factors, keys: keys, transportKey: transportKey, configuration: configuration,
                             encryptionKey: encryptionKey, version: version, timestamp: timestamp, using: &random)
    }

    /// The token in a decrypted token-create answer `{"tokenId","tokenSecret"}` (16-byte secret).
    public static func token(from plaintext: [UInt8]) throws(ProtocolError) -> Token {
        struct Wire: Decodable { let tokenId: String }   // the secret is read apart, never into a String
        let wire = try JSONResponse.decode(Wire.self, from: plaintext, what: "token")
        guard let text = try JSONSecretMember.value(at: ["tokenSecret"], in: plaintext, what: "token") else {
            throw ProtocolError(.malformedInput, "token fields")
        }
        let secret = try ProtocolError.converting("token secret") { () throws(CryptoError) in try Base64.decode(secret: text) }
        guard !wire.tokenId.isEmpty, secret.count == 16 else { throw ProtocolError(.malformedInput, "token fields") }
        return Token(id: wire.tokenId, secret: SymmetricKey(secret: secret))
    }

    /// Why the vault is unlocked (§12).
    public enum VaultUnlockReason: String, Sendable {
        case addBiometry = "ADD_BIOMETRY"
        case fetchEncryptionKey = "FETCH_ENCRYPTION_KEY"
        case signWithDevicePrivateKey = "SIGN_WITH_DEVICE_PRIVATE_KEY"
        case recoveryCode = "RECOVERY_CODE"
    }

    /// `POST /pa/v3/vault/unlock` (§12), 2FA: plaintext `{"reason":…}`; read the answer with
    /// ``vaultKey(from:transportKey:)``.
    public static func vaultUnlockRequest(reason: VaultUnlockReason, activation: ActivationData, factors: SignatureFactors = .possessionKnowledge,
                                          keys: SignatureKeys, transportKey: SymmetricKey, configuration: Configuration,
                                          encryptionKey: EncryptionKey? = nil, version: ProtocolVersion = .v3_3, timestamp: UInt64,
                                          using random: inout some RandomSource) throws(ProtocolError) -> PendingEncryptedRequest {
        try encryptedRequest(path: "pa/v3/vault/unlock", uriID: "/pa/vault/unlock", sharedInfo1: .vaultUnlock,
                             plaintext: JSONText.object([("reason", .string(reason.rawValue))]).bytes, activation: activation, factors: factors,
                             keys: keys, transportKey: transportKey, configuration: configuration, encryptionKey: encryptionKey,
                             version: version, timestamp: timestamp, using: &random)
    }

    /// KEY_ENCRYPTION_VAULT from a decrypted vault-unlock answer (§12).
    public static func vaultKey(from plaintext: [UInt8], transportKey: SymmetricKey) throws(ProtocolError) -> SymmetricKey {
        struct Wire: Decodable { let encryptedVaultEncryptionKey: String }
        let wire = try JSONResponse.decode(Wire.self, from: plaintext, what: "vault unlock")
        let encrypted = try ProtocolError.converting("vault key field") { () throws(CryptoError) in try Base64.decode(wire.encryptedVaultEncryptionKey) }
        return try Vault.vaultKey(encryptedVaultEncryptionKey: encrypted, transportKey: transportKey)
    }

    /// `POST /pa/v3/recovery/confirm` (§13), possession_knowledge: `{"recoveryCode":…}` without `R:`.
    public static func confirmRecoveryCodeRequest(_ code: String, activation: ActivationData, keys: SignatureKeys, transportKey: SymmetricKey,
                                                  configuration: Configuration, encryptionKey: EncryptionKey? = nil, version: ProtocolVersion = .v3_3,
                                                  timestamp: UInt64, using random: inout some RandomSource) throws(ProtocolError) -> PendingEncryptedRequest {
        let code = try recoveryCode(parsing: code)
        return try encryptedRequest(path: "pa/v3/recovery/confirm", uriID: "/pa/recovery/confirm", sharedInfo1: .confirmRecoveryCode,
                                    plaintext: JSONText.object([("recoveryCode", .string(code))]).bytes, activation: activation,
                                    factors: .possessionKnowledge, keys: keys, transportKey: transportKey, configuration: configuration,
                                    encryptionKey: encryptionKey, version: version, timestamp: timestamp, using: &random)
    }

    /// Reads the decrypted recovery-confirm answer `{"alreadyConfirmed":bool}` (§13): whether
    /// the code had been confirmed before this request.
    public static func alreadyConfirmed(from plaintext: [UInt8]) throws(ProtocolError) -> Bool {
        struct Wire: Decodable { let alreadyConfirmed: Bool }
        return try JSONResponse.decode(Wire.self, from: plaintext, what: "recovery confirm").alreadyConfirmed
    }

    /// A signed standard request with a plain body (§11.2 token remove, §13 activation remove).
    public static func signedRequest(path: String, uriID: String, body: [UInt8], activation: ActivationData, factors: SignatureFactors,
                                     keys: SignatureKeys, configuration: Configuration, version: ProtocolVersion = .v3_3,
                                     using random: inout some RandomSource) throws(ProtocolError) -> (request: HTTPRequest, next: ActivationData) {
        let signed = try sign(method: "POST", uriID: uriID, body: body, activation: activation, factors: factors, keys: keys,
                              configuration: configuration, version: version, using: &random)
        return (HTTPRequest(method: .post, path: path, headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("Accept", "application/json"),
                                                                 signed.header], body: body), signed.next)
    }

    /// `POST /pa/v3/token/remove` with `{"requestObject":{"tokenId":…}}` (§11.2).
    public static func removeTokenRequest(_ token: Token, activation: ActivationData, factors: SignatureFactors, keys: SignatureKeys,
                                          configuration: Configuration, version: ProtocolVersion = .v3_3,
                                          using random: inout some RandomSource) throws(ProtocolError) -> (request: HTTPRequest, next: ActivationData) {
        try signedRequest(path: "pa/v3/token/remove", uriID: "/pa/token/remove",
                          body: JSONText.object([("requestObject", .object([("tokenId", .string(token.id))]))]).bytes,
                          activation: activation, factors: factors, keys: keys, configuration: configuration, version: version, using: &random)
    }

    /// `POST /pa/v3/activation/remove` with `{}` (§13); wipe local data afterwards.
    public static func removeActivationRequest(activation: ActivationData, factors: SignatureFactors = .possessionKnowledge, keys: SignatureKeys,
                                               configuration: Configuration, version: ProtocolVersion = .v3_3,
                                               using random: inout some RandomSource) throws(ProtocolError) -> (request: HTTPRequest, next: ActivationData) {
        try signedRequest(path: "pa/v3/activation/remove", uriID: "/pa/activation/remove", body: Array("{}".utf8), activation: activation,
                          factors: factors, keys: keys, configuration: configuration, version: version, using: &random)
    }
}
