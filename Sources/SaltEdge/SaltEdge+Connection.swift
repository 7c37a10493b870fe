// What the caller persists per connection once the redirect delivered the token, and the
// request context built from it (docs/protocols/saltedge-v2.md §13: keep it in an encrypted local store).

public import CryptoPrimitives
import FoundationEssentials
import ProtocolSupport

extension SaltEdge {
    /// An active connection: everything an authenticated request needs.
    public struct Connection: Sendable, CustomStringConvertible {
        /// The server's connection id (sent as a string).
        public let id: String
        /// The provider id (instant actions are matched on it, §6.8).
        public let providerID: String
        /// The base URL of every call, from the configuration.
        public let scaServiceURL: String
        /// The connection's key pair.
        public let key: ConnectionKey
        /// The access token from the redirect.
        public let accessToken: AccessToken
        /// The provider key that client → server bundles are encrypted to.
        public let providerPublicKey: RSA.Encryption.PublicKey

        /// Assembles a connection.
        public init(id: String, providerID: String, scaServiceURL: String, key: ConnectionKey,
                    accessToken: AccessToken, providerPublicKey: RSA.Encryption.PublicKey) {
            self.id = id
            self.providerID = providerID
            self.scaServiceURL = scaServiceURL
            self.key = key
            self.accessToken = accessToken
            self.providerPublicKey = providerPublicKey
        }

        /// Shows the ids only; key and token are redacted.
        public var description: String { "SaltEdge.Connection(id: \(id), provider: \(providerID), redacted)" }
    }

    /// Builds the requests of one connection (docs/protocols/saltedge-v2.md §6, rows 3–12).
    public struct Requests: Sendable {
        /// The connection.
        public let connection: Connection
        /// The common headers' values.
        public let client: ClientDescription

        /// Creates a request builder.
        public init(connection: Connection, client: ClientDescription) {
            self.connection = connection
            self.client = client
        }

        /// An unsigned request with `Access-Token` (rows 3, 6, 7, 11).
        func unsigned(_ method: HTTPMethod, _ path: String, query: [HTTPHeader] = []) -> HTTPRequest {
            HTTPRequest(method: method, path: SaltEdge.apiPath + "/" + path, query: query,
                        headers: client.headers + [connection.accessToken.headerField])
        }

        /// A signed request: the body serialised once, its detached JWS in `x-jws-signature`
        /// (§5.2), `exp` = `now` + 300 s.
        func signed(_ method: HTTPMethod, _ path: String, data: JSONText, now: Date) throws(ProtocolError) -> HTTPRequest {
            let body = SaltEdge.signedBody(data: data, expiresAt: unixSeconds(now) + SaltEdge.signedRequestLifetime)
            let signature = try SaltEdge.detachedSignature(for: body, with: connection.key)
            var request = unsigned(method, path)
            request.headers.append(HTTPHeader("x-jws-signature", signature))
            request.body = body
            return request
        }
    }
}
