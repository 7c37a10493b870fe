// The bearer JWT of environment calls (docs/protocols/cm-authenticator.md §5): HS256 keyed with the secret's
// UTF-8 bytes, `iat` = `nbf` = now, `exp` = now + 60, and — in Android's shape — `auth_id` on
// the instant answer and `sig`, the lower-case hex HMAC-SHA-256 of the exact body bytes.

import CryptoPrimitives
public import FoundationEssentials
public import ProtocolSupport

extension CMAuthenticator {
    /// Which official client's token shape to produce (§5). Both are accepted by the service.
    public struct TokenStyle: Sendable, Hashable {
        enum Kind { case android, iOS }
        let kind: Kind

        /// Header `{"alg":"HS256"}`; claims `auth_id` (when answering a request), `iat`, `nbf`,
        /// `exp`, then `sig` over a non-empty body. The recommended default (§5).
        public static let android = TokenStyle(kind: .android)
        /// Header `{"alg":"HS256","typ":"JWT"}`; claims `nbf`, `iat`, `exp` only — what iOS
        /// actually sends, kept as a fallback switch.
        public static let iOS = TokenStyle(kind: .iOS)
    }

    /// The compact HS256 JWT for one request, as text: for vectors and tools. A request carries
    /// it as ``bearerAuthorization(secret:now:authenticationID:body:style:)``, which never makes
    /// the token a `String`.
    ///
    /// - Parameters:
    ///   - secret: the environment secret (the HMAC key).
    ///   - now: the current time; `iat` = `nbf` = its whole seconds, `exp` = 60 s later.
    ///   - authenticationID: the request being answered, for `auth_id` (Android style only).
    ///   - body: the exact body bytes that will be sent; `sig` covers them when non-empty.
    ///   - style: the token shape.
    /// - Throws: `ProtocolError.Code.keyUnavailable` when a secret held in a token cannot be used.
    public static func bearerToken(secret: EnvironmentSecret, now: Date, authenticationID: String? = nil,
                                   body: [UInt8]? = nil, style: TokenStyle = .android) throws(ProtocolError) -> String {
        let token = try bearerToken(prefix: "", secret: secret, now: now, authenticationID: authenticationID, body: body, style: style)
        return String(decoding: token.unsafeExposedBytes, as: UTF8.self)
    }

    /// The `Authorization` field of one request: `Bearer ` and the token of
    /// ``bearerToken(secret:now:authenticationID:body:style:)``, its value kept secret from the
    /// signature on: the MAC and its Base64 never become a `String`.
    public static func bearerAuthorization(secret: EnvironmentSecret, now: Date, authenticationID: String? = nil,
                                           body: [UInt8]? = nil, style: TokenStyle = .android) throws(ProtocolError) -> HTTPHeader {
        HTTPHeader("Authorization", secret: try bearerToken(prefix: "Bearer ", secret: secret, now: now, authenticationID: authenticationID,
                                                            body: body, style: style))
    }

    /// `prefix` and the token, as secret bytes.
    private static func bearerToken(prefix: String, secret: EnvironmentSecret, now: Date, authenticationID: String?,
                                    body: [UInt8]?, style: TokenStyle) throws(ProtocolError) -> SecretBytes {
        // §5; clamped so `exp` = `iat` + 60 cannot overflow, whatever the clock says.
        let issued = min(unixSeconds(now), Int64.max - tokenLifetime)
        let header: JSONText
        var claims: [(String, JSONText)] = []
        switch style.kind {
        case .iOS:
            header = .object([("alg", .string("HS256")), ("typ", .string("JWT"))])
            claims = [("nbf", .integer(issued)), ("iat", .integer(issued)), ("exp", .integer(issued + tokenLifetime))]
        case .android:
            header = .object([("alg", .string("HS256"))])
            if let authenticationID { claims.append(("auth_id", .string(authenticationID))) }
            claims += [("iat", .integer(issued)), ("nbf", .integer(issued)), ("exp", .integer(issued + tokenLifetime))]
            if let body, !body.isEmpty {
                // §5, pitfall 3: lower-case hex, not Base64.
                let mac = try secret.authenticationCode(for: body)
                claims.append(("sig", .string(Hex.encode(mac))))
            }
        }
        let signingInput = base64URL(header.bytes) + "." + base64URL(JSONText.object(claims).bytes)
        var mac = try secret.authenticationCode(for: Array(signingInput.utf8))
        defer { SecretBytes.wipe(&mac) }
        let signature = Base64.encode(secret: SecretBytes(mac), alphabet: .urlSafe, padded: false)
        var token: [UInt8] = []
        token.reserveCapacity(prefix.utf8.count + signingInput.utf8.count + 1 + signature.count)
        defer { SecretBytes.wipe(&token) }
        token += prefix.utf8
        token += signingInput.utf8
        token.append(UInt8(ascii: "."))
        signature.withUnsafeBytes { token += $0 }
        return SecretBytes(token)
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Base64.encode(bytes, alphabet: .urlSafe, padded: false)
    }
}
