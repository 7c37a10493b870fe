// Temporary encryption keys of protocol 3.3 (docs/protocols/powerauth.md §10): the keystore request with its
// HS256 JWT and 18-byte challenge, and the server's ES256 JWT answer, verified with the master
// key (application scope) or the activation's server key (activation scope).

public import CryptoPrimitives
public import ProtocolSupport

extension PowerAuth {
    /// A temporary ECIES key from the keystore (3.3). Held in memory only.
    public struct TemporaryKey: Sendable {
        /// The key id (`sub`), sent as `temporaryKeyId`.
        public let id: String
        /// The P-256 key requests are encrypted to.
        public let publicKey: P256.KeyAgreement.PublicKey
        /// Issue time, Unix ms (the SDK also uses it to synchronise time).
        public let issuedAt: UInt64
        /// Expiry, Unix ms.
        public let expiresAt: UInt64

        /// The key as an ECIES target.
        public var encryptionKey: EncryptionKey { EncryptionKey(publicKey: publicKey, temporaryKeyID: id) }

        /// Expired as the SDK counts it: at `expiresAt` − 10 s (§10).
        /// Both numbers may come from a server, so the margin is subtracted from `expiresAt`
        /// without wrapping (an `expiresAt` under 10 s is expired) and `now` is never added to.
        public func isExpired(atMilliseconds now: UInt64) -> Bool { expiresAt <= 10_000 || now >= expiresAt - 10_000 }
    }

    /// A keystore request in flight (§10).
    public struct PendingKeystore: Sendable {
        /// `POST /pa/v3/keystore/create` with `{"requestObject":{"jwt":…}}`.
        public let request: HTTPRequest
        let challenge: String
        let applicationKey: String
        let activationID: String?

        /// Builds the request: application scope when `activation` is `nil`, else activation
        /// scope keyed with KDF_INTERNAL(KEY_TRANSPORT, raw APP_SECRET).
        public init(configuration: Configuration, activation: (id: String, transportKey: SymmetricKey)? = nil,
                    using random: inout some RandomSource) throws(ProtocolError) {
            let challengeBytes = try ProtocolError.converting("challengeBytes") { () throws(CryptoError) in try random.bytes(count: 18) }
            challenge = Base64.encode(challengeBytes)
            applicationKey = configuration.applicationKey
            activationID = activation?.id
            let key = Keystore.requestKey(applicationSecretBytes: configuration.applicationSecretBytes, transportKey: activation?.transportKey)
            let jwt = Keystore.requestJWT(applicationKey: configuration.applicationKey, challenge: challengeBytes, activationID: activation?.id, key: key)
            request = HTTPRequest(method: .post, path: "pa/v3/keystore/create",
                                  headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("Accept", "application/json")],
                                  body: JSONText.object([("requestObject", .object([("jwt", .string(jwt))]))]).bytes)
        }

        /// Verifies the answer's ES256 JWT with `serverKey` (the master key for application
        /// scope, the activation's server key for activation scope) and checks `challenge`,
        /// `applicationKey` and `activationId` against the request. A bad signature is
        /// `ProtocolError.Code.invalidSignature`; anything malformed `ProtocolError.Code.malformedInput`.
        public func process(_ response: HTTPResponse, serverKey: P256.Signing.PublicKey) throws(ProtocolError) -> TemporaryKey {
            try PowerAuth.requireSuccess(response)
            struct Envelope: Decodable { struct Body: Decodable { let jwt: String }; let responseObject: Body }
            let jwt = try JSONResponse.decode(Envelope.self, from: response.body, what: "keystore response").responseObject.jwt
            let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 3 else { throw ProtocolError(.malformedInput, "keystore JWT is not three parts") }
            let (headerBytes, payloadBytes, signatureBytes) = try ProtocolError.converting("keystore JWT") { () throws(CryptoError) in
                (try Base64.decode(parts[0], alphabet: .urlSafe, padded: false), try Base64.decode(parts[1], alphabet: .urlSafe, padded: false),
                 try Base64.decode(parts[2], alphabet: .urlSafe, padded: false))
            }
            struct Header: Decodable { let alg: String; let typ: String? }
            let header = try JSONResponse.decode(Header.self, from: headerBytes, what: "keystore JWT header")
            guard header.alg == "ES256", header.typ == nil || header.typ == "JWT" else { throw ProtocolError(.malformedInput, "keystore JWT algorithm") }
            // A signature that does not even decode is as invalid as one that does not verify.
            let signature: P256.Signing.ECDSASignature?
            do { signature = try P256.Signing.ECDSASignature(rawRepresentation: signatureBytes) } catch { signature = nil }
            guard let signature, serverKey.isValidSignature(signature, for: Array((parts[0] + "." + parts[1]).utf8)) else {
                throw ProtocolError(.invalidSignature, "keystore JWT signature")
            }
            struct Claims: Decodable {
                let sub: String; let applicationKey: String; let activationId: String?; let challenge: String; let publicKey: String
                let iat_ms: UInt64?; let exp_ms: UInt64?; let iat: UInt64?; let exp: UInt64?
            }
            let claims = try JSONResponse.decode(Claims.self, from: payloadBytes, what: "keystore JWT claims")
            let key = try ProtocolError.converting("keystore JWT public key") { () throws(CryptoError) in
                try P256.KeyAgreement.PublicKey(sec1Representation: Base64.decode(claims.publicKey))
            }
            guard claims.challenge == challenge, claims.applicationKey == applicationKey, claims.activationId == activationID,
                  !claims.sub.isEmpty, let issued = claims.iat_ms ?? claims.iat.flatMap(Self.milliseconds), let expires = claims.exp_ms ?? claims.exp.flatMap(Self.milliseconds) else {
                throw ProtocolError(.malformedInput, "keystore JWT claims do not match the request")
            }
            return TemporaryKey(id: claims.sub, publicKey: key, issuedAt: issued, expiresAt: expires)
        }

        /// Seconds as milliseconds, or nil when that does not fit 64 bits (a server-signed JWT is
        /// still external data: a huge `iat` must be malformed input, not a crash).
        static func milliseconds(_ seconds: UInt64) -> UInt64? {
            let (product, overflow) = seconds.multipliedReportingOverflow(by: 1000)
            return overflow ? nil : product
        }
    }
}
