// The `saltedge` service of mfa-server:
// one Salt Edge v2 provider under `/saltedge/` — its configuration, create
// connection (the client's public key decrypted with the provider key), a login page whose body
// is the redirect with the RSA-encrypted access token (docs/protocols/saltedge-v2.md §4), and every endpoint of
// §6 with `Access-Token` checks and the detached JWS of every signed request verified over the
// exact body with the connection's key. Authorizations and consents are encrypted to the
// connection's key (§3). Admin endpoints are in SaltEdgeStandIn+Admin.swift. State in memory.

import CryptoPrimitives
import Foundation
import ProtocolSupport
import SaltEdge

/// One Salt Edge provider, answering by path below `saltedge/`.
public actor SaltEdgeStandIn {
    struct Connection {
        let id: Int
        let publicKey: RSA.Signing.PublicKey
        let returnURL: String
        let accessToken: String
        var revoked = false
    }

    struct Authorization {
        let id: Int
        let connectionID: Int
        let title: String
        let code: String
        let createdAt: Date
        let expiresAt: Date
        var status = "pending"
        /// The decrypted decision payload, for tests: `user_authorization_type` and `geolocation`.
        var decision: [String: Any]?
    }

    struct Consent {
        let id: Int
        let connectionID: Int
        let tppName: String
    }

    let providerKey: RSA.Encryption.PrivateKey
    var baseURL = ""
    var connections: [Int: Connection] = [:]
    var authorizations: [Int: Authorization] = [:]
    var consents: [Int: Consent] = [:]
    /// Instant actions by id, with their provider id.
    var actions: [String: String] = [:]
    var nextID = 1
    /// When set, every `/saltedge/` answer is 200 with a body that is not JSON (admin `fault`).
    var garbage = false
    var random = SystemRandomSource()
    /// The provider id in the configuration and the links.
    let providerID = "1"

    /// A provider with `providerKey`, or a fresh RSA-2048 key when it is nil.
    public init(providerKey: RSA.Signing.PrivateKey? = nil) throws {
        self.providerKey = RSA.Encryption.PrivateKey(sameKeyAs: try providerKey ?? RSA.Signing.PrivateKey(keySize: .bits2048))
    }

    /// The URL the server listens on (`http://127.0.0.1:PORT`), for the links it hands out.
    public func setBaseURL(_ url: String) { baseURL = url }

    /// Answers `request` (path below the server root without the leading slash); nil for a path
    /// it does not serve.
    public func handle(_ request: HTTPRequest) -> HTTPResponse? {
        do {
            if request.path.hasPrefix("integration/saltedge/") { return try admin(request) }
            guard request.path.hasPrefix("saltedge/") else { return nil }
            if garbage { return HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")], body: Array("<html>oops".utf8)) }
            let path = String(request.path.dropFirst("saltedge/".count))
            switch (request.method, path) {
            case (.get, "configuration"): return configuration()
            case (.post, SaltEdge.apiPath + "/connections"): return try createConnection(request)
            case (.get, "authenticate"): return try authenticate(request)
            default: break
            }
            guard path.hasPrefix(SaltEdge.apiPath + "/") else { return nil }
            return try api(request, route: path.dropFirst(SaltEdge.apiPath.count + 1).split(separator: "/").map(String.init))
        } catch let error as StandInError {
            return Self.error(error.status, error.errorClass, error.message)
        } catch {
            return Self.error(400, "WrongRequestFormat", "\(error)")
        }
    }

    struct StandInError: Error {
        let status: Int
        let errorClass: String
        let message: String
        init(_ status: Int, _ errorClass: String, _ message: String) {
            self.status = status
            self.errorClass = errorClass
            self.message = message
        }
    }

    private func configuration() -> HTTPResponse {
        Self.data([
            "sca_service_url": baseURL + "/saltedge", "api_version": "2", "provider_id": Int(providerID) ?? 1,
            "provider_name": "mfa-server bank", "provider_support_email": "support@example.com",
            "provider_public_key": providerKey.publicKey.pemRepresentation, "geolocation_required": false,
        ])
    }

    /// §6.2: decrypts the connection's public key with the provider key.
    private func createConnection(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try Self.object(request.body ?? [])
        guard let data = body["data"] as? [String: Any], let encrypted = data["enc_rsa_public_key"],
              data["provider_id"] as? String == providerID, let returnURL = data["return_url"] as? String else {
            throw StandInError(400, "WrongRequestFormat", "create-connection fields")
        }
        let bundle = try SaltEdge.EncryptedBundle(jsonBytes: Array(try JSONSerialization.data(withJSONObject: encrypted)))
        let pem = String(decoding: try bundle.decrypt(with: providerKey), as: UTF8.self)
        let publicKey = try RSA.Signing.PublicKey(pemRepresentation: pem)
        let id = nextID
        nextID += 1
        let token = Hex.encode(try random.bytes(count: 24))
        connections[id] = Connection(id: id, publicKey: publicKey, returnURL: returnURL, accessToken: token)
        return Self.data(["connection_id": id, "authentication_url": baseURL + "/saltedge/authenticate?connection_id=\(id)"])
    }

    /// The bank's login page, already logged in: its body is the redirect to the return URL with
    /// `id` and the access token RSA-encrypted to the connection's key (§4).
    private func authenticate(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let id = request.query.first(where: { $0.name == "connection_id" }).flatMap({ Int($0.value) }), let connection = connections[id] else {
            throw StandInError(404, "ConnectionNotFound", "no such connection")
        }
        let plaintext = Array(#"{"access_token":"\#(connection.accessToken)"}"#.utf8)
        let encrypted = try RSA.Encryption.PublicKey(sameKeyAs: connection.publicKey).encrypt(plaintext, padding: .insecurePKCS1v1_5, using: &random)
        let redirect = connection.returnURL + "?id=\(id)&access_token=" + URLText.percentEncoded(Base64.encode(encrypted))
        return HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "text/plain")], body: Array(redirect.utf8))
    }

    static func data(_ object: Any) -> HTTPResponse {
        json(["data": object])
    }

    static func json(_ object: [String: Any], status: Int = 200) -> HTTPResponse {
        let body: Data
        do { body = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) } catch {
            preconditionFailure("internal error: the stand-in built a value JSON cannot hold")
        }
        return HTTPResponse(status: status, headers: [HTTPHeader("Content-Type", "application/json")], body: Array(body))
    }

    /// §10's error body.
    static func error(_ status: Int, _ errorClass: String, _ message: String) -> HTTPResponse {
        json(["error_class": errorClass, "error_message": message], status: status)
    }

    static func object(_ body: [UInt8]) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
            throw StandInError(400, "WrongRequestFormat", "not a JSON object")
        }
        return object
    }

    static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
