// Authenticated requests in v2 (docs/protocols/saltedge-v2.md §5): the body `{"data":…,"exp":now+300}` is
// serialised once; a detached RS256 JWS over exactly those bytes goes in `x-jws-signature`.

public import CryptoPrimitives
public import ProtocolSupport

extension SaltEdge {
    /// Who the client says it is, for the common headers (docs/protocols/saltedge-v2.md §5.1).
    public struct ClientDescription: Sendable, Equatable {
        /// `Accept-Language`, e.g. `en`.
        public var acceptLanguage: String
        /// `User-Agent`. The assumed Linux shape of §5.1 is `<App> / <ver>(<build>); (Linux; <distro/kernel>)`.
        public var userAgent: String

        /// Creates a description.
        public init(acceptLanguage: String = "en", userAgent: String) {
            self.acceptLanguage = acceptLanguage
            self.userAgent = userAgent
        }

        /// The §5.1-assumed Linux user agent: `<app> / <version>(<build>); (Linux; <system>)`.
        public static func linux(app: String, version: String, build: String, system: String) -> ClientDescription {
            ClientDescription(userAgent: "\(app) / \(version)(\(build)); (Linux; \(system))")
        }

        var headers: [HTTPHeader] {
            [HTTPHeader("Content-Type", "application/json"), HTTPHeader("Accept", "application/json"),
             HTTPHeader("Accept-Language", acceptLanguage), HTTPHeader("User-Agent", userAgent)]
        }
    }

    /// The protected header of every request signature: exactly `{"alg":"RS256"}` (§5.2).
    public static let jwsProtectedHeader = "{\"alg\":\"RS256\"}"

    /// The body of a signed request, `{"data":<data>,"exp":<expiresAt>}` in that order, compact
    /// (docs/protocols/saltedge-v2.md §5.2, Android's field order).
    public static func signedBody(data: JSONText, expiresAt: Int64) -> [UInt8] {
        JSONText.object([("data", data), ("exp", .integer(expiresAt))]).bytes
    }

    /// The detached JWS of `body` (docs/protocols/saltedge-v2.md §5.2): `<b64url header>..<b64url signature>`,
    /// the signature RSASSA-PKCS1-v1_5 / SHA-256 over `b64url(header) "." b64url(body)`.
    public static func detachedSignature(for body: [UInt8], with connectionKey: ConnectionKey) throws(ProtocolError) -> String {
        let header = Base64.encode(Array(jwsProtectedHeader.utf8), alphabet: .urlSafe, padded: false)
        let signingInput = header + "." + Base64.encode(body, alphabet: .urlSafe, padded: false)
        let signature = try connectionKey.signature(for: Array(signingInput.utf8))
        return header + ".." + Base64.encode(signature.rawRepresentation, alphabet: .urlSafe, padded: false)
    }

    /// Whether `jws` is a valid detached RS256 signature of `body` under `publicKey`. The server
    /// side of §5.2, for tests and verifiers: the header must be exactly `{"alg":"RS256"}`.
    public static func isValidDetachedSignature(_ jws: String, for body: [UInt8], publicKey: RSA.Signing.PublicKey) -> Bool {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[1].isEmpty,
              let header = try? Base64.decode(parts[0], alphabet: .urlSafe, padded: false),
              header == Array(jwsProtectedHeader.utf8),
              let signature = try? Base64.decode(parts[2], alphabet: .urlSafe, padded: false) else { return false }
        let signingInput = parts[0] + "." + Base64.encode(body, alphabet: .urlSafe, padded: false)
        return publicKey.isValidSignature(RSA.Signing.RSASignature(rawRepresentation: signature), for: Array(signingInput.utf8), padding: .pkcs1v1_5)
    }
}
