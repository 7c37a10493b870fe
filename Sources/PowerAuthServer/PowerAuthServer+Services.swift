// The server's encrypted and token services (docs/protocols/powerauth.md §9–§12 from the other side):
// activation-scope ECIES, token issue and verification with a timestamp window, vault unlock,
// recovery confirm, and keystore answers signed ES256.

public import CryptoPrimitives
public import PowerAuth
public import ProtocolSupport

extension PowerAuthServer.Activation {
    /// Activation-scope ECIES parameters for `sharedInfo1`.
    public func activationScope(_ sharedInfo1: PowerAuth.ECIES.SharedInfo1, application: PowerAuthServer.Application,
                                temporaryKeyID: String? = nil) -> PowerAuth.ECIES.Parameters {
        .activationScope(sharedInfo1, version: version, applicationKey: application.applicationKey, applicationSecret: application.applicationSecret,
                         transportKey: keys.transport, activationID: id, temporaryKeyID: temporaryKeyID)
    }

    /// Decrypts an activation-scope request body with the server key (3.0–3.2) or a 3.3
    /// temporary key; every failure is the one decryption error.
    public func decrypt(_ body: [UInt8], sharedInfo1: PowerAuth.ECIES.SharedInfo1, application: PowerAuthServer.Application,
                        temporaryKey: (key: P256.KeyAgreement.PrivateKey, id: String)? = nil) throws(ProtocolError) -> (plaintext: [UInt8], responseEncryptor: PowerAuth.ECIES.ResponseEncryptor) {
        let request = try PowerAuth.ECIES.Request(jsonBytes: body)
        return try PowerAuth.ECIES.RequestDecryptor(privateKey: temporaryKey?.key ?? serverKey,
                                                    parameters: activationScope(sharedInfo1, application: application, temporaryKeyID: temporaryKey?.id))
            .decrypt(request)
    }

    /// The server's side of `fetchEncryptionKey(index)`: KDF(KEY_ENCRYPTION_VAULT, index) (§12).
    public func encryptionKey(index: UInt64) -> SymmetricKey {
        PowerAuth.Vault.encryptionKey(vaultKey: keys.vault, index: index)
    }

    /// The vault-unlock answer plaintext (§12): KEY_ENCRYPTION_VAULT under KEY_TRANSPORT.
    public func vaultUnlockAnswer() throws(ProtocolError) -> [UInt8] {
        let wrapped = try ProtocolError.converting("vault key") { () throws(CryptoError) in
            try keys.vault.withUnsafeBytes { raw throws(CryptoError) in
                try AES.UnauthenticatedCBC.encrypt(raw, using: keys.transport, iv: [UInt8](repeating: 0, count: 16))
            }
        }
        return JSONText.object([("activationId", .string(id)), ("encryptedVaultEncryptionKey", .string(Base64.encode(wrapped)))]).bytes
    }
}

extension PowerAuthServer {
    /// Issues a token (§11.1): a fresh id text and 16-byte secret, and the answer plaintext.
    public static func issueToken(id: String, using random: inout some RandomSource) throws(ProtocolError) -> (token: PowerAuth.Token, plaintext: [UInt8]) {
        let secret = try ProtocolError.converting("secret") { () throws(CryptoError) in try random.bytes(count: 16) }
        let token = PowerAuth.Token(id: id, secret: SymmetricKey(data: secret))
        return (token, JSONText.object([("tokenId", .string(id)), ("tokenSecret", .string(Base64.encode(secret)))]).bytes)
    }

    /// Verifies an `X-PowerAuth-Token` value (§11.3) against `token` at server time `now` (ms):
    /// the id, a 16-byte nonce, a 9–15-digit timestamp within `window` ms of now (past or
    /// future), a known version, and the digest compared in constant time.
    public static func isValidTokenHeader(_ header: String, token: PowerAuth.Token, now: UInt64, window: UInt64 = 60_000) -> Bool {
        guard let fields = Activation.fields(of: header), fields["token_id"] == token.id,
              let nonce = fields["nonce"].flatMap({ try? Base64.decode($0) }), nonce.count == 16,
              let text = fields["timestamp"], (9...15).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }),
              let timestamp = UInt64(text), let version = fields["version"].flatMap(PowerAuth.ProtocolVersion.init(rawValue:)),
              let digest = fields["token_digest"].flatMap({ try? Base64.decode($0) }), digest.count == 32 else { return false }
        guard (timestamp > now ? timestamp - now : now - timestamp) <= window else { return false }
        return ConstantTimeComparison.isEqual(token.digest(nonce: nonce, timestamp: timestamp, version: version), digest)
    }

    /// Answers `POST /pa/v3/keystore/create` (§10): checks the request JWT's HS256 (raw
    /// APP_SECRET, or KDF_INTERNAL(KEY_TRANSPORT, raw APP_SECRET) for `activation`), and returns
    /// an ES256 JWT naming `temporaryKey` signed with the master key or the activation's server
    /// key. `nil` when the request JWT does not verify.
    public static func keystoreAnswer(_ request: HTTPRequest, application: Application, activation: Activation? = nil,
                                      temporaryKey: P256.KeyAgreement.PublicKey, temporaryKeyID: String, now: UInt64,
                                      lifetime: UInt64 = 300_000) throws(ProtocolError) -> HTTPResponse? {
        struct Body: Decodable { struct Inner: Decodable { let jwt: String }; let requestObject: Inner }
        struct Claims: Decodable { let applicationKey: String; let challenge: String; let activationId: String? }
        let jwt = try JSONResponse.decode(Body.self, from: request.body ?? [], what: "keystore request").requestObject.jwt
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        let key = PowerAuth.Keystore.requestKey(applicationSecretBytes: application.applicationSecretBytes, transportKey: activation?.keys.transport)
        guard parts.count == 3, let mac = try? Base64.decode(parts[2], alphabet: .urlSafe, padded: false),
              HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: Array((parts[0] + "." + parts[1]).utf8), using: key),
              let payload = try? Base64.decode(parts[1], alphabet: .urlSafe, padded: false) else { return nil }
        let claims = try JSONResponse.decode(Claims.self, from: payload, what: "keystore claims")
        guard claims.applicationKey == application.applicationKey, claims.activationId == activation?.id else { return nil }
        let expires = now.addingReportingOverflow(lifetime).overflow ? UInt64.max : now + lifetime
        var answer: [(String, JSONText)] = [("sub", .string(temporaryKeyID)), ("applicationKey", .string(claims.applicationKey))]
        if let id = activation?.id { answer.append(("activationId", .string(id))) }
        answer += [("challenge", .string(claims.challenge)), ("publicKey", .string(Base64.encode(temporaryKey.compressedRepresentation))),
                   ("iat", .integer(Int64(clamping: now / 1000))), ("iat_ms", .integer(Int64(clamping: now))),
                   ("exp", .integer(Int64(clamping: expires / 1000))), ("exp_ms", .integer(Int64(clamping: expires)))]
        let header = Base64.encode(Array(#"{"alg":"ES256","typ":"JWT"}"#.utf8), alphabet: .urlSafe, padded: false)
        let input = header + "." + Base64.encode(JSONText.object(answer).bytes, alphabet: .urlSafe, padded: false)
        let signer: P256.Signing.PrivateKey
        signer = activation.map { P256.Signing.PrivateKey(sameKeyAs: $0.serverKey) } ?? application.masterSigningKey
        let signature = try ProtocolError.converting("keystore JWT signature") { () throws(CryptoError) in try signer.signature(for: Array(input.utf8)) }
        let token = input + "." + Base64.encode(signature.rawRepresentation, alphabet: .urlSafe, padded: false)
        return HTTPResponse(status: 200, body: JSONText.object([("status", .string("OK")),
                                                                ("responseObject", .object([("jwt", .string(token))]))]).bytes)
    }
}
