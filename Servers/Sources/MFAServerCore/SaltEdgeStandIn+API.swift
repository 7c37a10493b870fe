// The authenticated endpoints of the Salt Edge stand-in (docs/protocols/saltedge-v2.md §6.3–§6.9): the
// `Access-Token` names the connection (401 `ConnectionNotFound` / `ConnectionRevoked`), every
// signed request's `x-jws-signature` must verify over the exact body with the connection's key
// and its `exp` must lie ahead (400 `InvalidSignature` / `SignatureExpired`), decisions are
// decrypted with the provider key and must echo the authorization code.

import CryptoPrimitives
import Foundation
import ProtocolSupport
import SaltEdge

extension SaltEdgeStandIn {
    func api(_ request: HTTPRequest, route: [String]) throws -> HTTPResponse? {
        let connection = try authenticated(request)
        switch (request.method, route.count, route.first) {
        case (.get, 1, "authorizations"):
            let items = try authorizations.values.filter { $0.connectionID == connection.id }.sorted { $0.id < $1.id }
                .map { try encryptedItem($0, for: connection) }
            return Self.data(items)
        case (.get, 2, "authorizations"):
            guard let id = Int(route[1]), let authorization = authorizations[id], authorization.connectionID == connection.id else {
                throw StandInError(404, "AuthorizationNotFound", "no such authorization")
            }
            return Self.data(try encryptedItem(authorization, for: connection))
        case (.put, 3, "authorizations") where route[2] == "confirm" || route[2] == "deny":
            let data = try signedData(request, connection: connection)
            guard let id = Int(route[1]), var authorization = authorizations[id], authorization.connectionID == connection.id,
                  authorization.status == "pending" else {
                throw StandInError(404, "AuthorizationNotFound", "no pending authorization \(route[1])")
            }
            let bundle = try SaltEdge.EncryptedBundle(jsonBytes: Array(try JSONSerialization.data(withJSONObject: data)))
            let decision = try Self.object(try bundle.decrypt(with: providerKey))
            guard decision["authorization_code"] as? String == authorization.code else {
                throw StandInError(400, "WrongRequestFormat", "the authorization code does not match")
            }
            authorization.status = route[2] == "confirm" ? "confirmed" : "denied"
            authorization.decision = decision
            authorizations[id] = authorization
            return Self.data(["id": id, "status": authorization.status])
        case (.post, 1, "authorizations"):
            let data = try signedData(request, connection: connection)
            guard let actionID = data["action_id"] as? String, let provider = actions[actionID], provider == data["provider_id"] as? String,
                  data["connection_id"] as? String == String(connection.id) else {
                throw StandInError(404, "ActionNotFound", "no such action")
            }
            actions[actionID] = nil
            let authorization = try createAuthorization(connectionID: connection.id, title: "Action \(actionID)", lifetime: 300)
            return Self.data(["authorization_id": authorization.id, "connection_id": connection.id])
        case (.get, 1, "consents"):
            let items = try consents.values.filter { $0.connectionID == connection.id }.sorted { $0.id < $1.id }.map { consent -> [String: Any] in
                let plaintext: [String: Any] = [
                    "id": String(consent.id), "tpp_name": consent.tppName, "consent_type": "aisp",
                    "accounts": [["name": "Current account", "iban": "DE89370400440532013000"]],
                    "shared_data": ["balance": true, "transactions": true],
                    "created_at": Self.iso8601(Date(timeIntervalSince1970: 1_700_000_000)), "expires_at": Self.iso8601(Date().addingTimeInterval(86_400 * 90)),
                ]
                return try Self.encrypted(plaintext, id: consent.id, connectionID: connection.id, to: connection.publicKey, random: &random)
            }
            return Self.data(items)
        case (.put, 3, "consents") where route[2] == "revoke":
            _ = try signedData(request, connection: connection)
            guard let id = Int(route[1]), consents[id]?.connectionID == connection.id else { throw StandInError(404, "ConsentNotFound", "no such consent") }
            consents[id] = nil
            return Self.data(["id": id])
        case (.get, 2, "connections"):
            return Self.data(["id": connection.id, "status": "valid", "public_key": connection.publicKey.pemRepresentation])
        case (.put, 3, "connections") where route[2] == "revoke" && route[1] == String(connection.id):
            _ = try signedData(request, connection: connection)
            connections[connection.id]?.revoked = true
            return Self.data(["connection_id": connection.id])
        case (.patch, 3, "connections") where route[2] == "update" && route[1] == String(connection.id):
            _ = try signedData(request, connection: connection)
            return Self.data(["connection_id": connection.id])
        default:
            return nil
        }
    }

    /// The connection of the request's `Access-Token`.
    private func authenticated(_ request: HTTPRequest) throws -> Connection {
        guard let token = request.header("Access-Token"), let connection = connections.values.first(where: { $0.accessToken == token }) else {
            throw StandInError(401, "ConnectionNotFound", "unknown access token")
        }
        guard !connection.revoked else { throw StandInError(401, "ConnectionRevoked", "the connection was revoked") }
        return connection
    }

    /// The `data` of a signed body whose detached JWS verifies with the connection's key and
    /// whose `exp` (seconds) lies ahead (§5.2).
    private func signedData(_ request: HTTPRequest, connection: Connection) throws -> [String: Any] {
        let body = request.body ?? []
        guard let signature = request.header("x-jws-signature") else { throw StandInError(400, "SignatureMissing", "no x-jws-signature") }
        guard SaltEdge.isValidDetachedSignature(signature, for: body, publicKey: connection.publicKey) else {
            throw StandInError(400, "InvalidSignature", "the signature does not verify over the body")
        }
        let object = try Self.object(body)
        guard let exp = object["exp"] as? Int, exp > Int(Date().timeIntervalSince1970) else {
            throw StandInError(400, "SignatureExpired", "exp is missing or past")
        }
        return object["data"] as? [String: Any] ?? [:]
    }

    private func encryptedItem(_ authorization: Authorization, for connection: Connection) throws -> [String: Any] {
        let plaintext: [String: Any] = [
            "id": String(authorization.id), "connection_id": String(connection.id), "title": authorization.title,
            "description": ["text": "Please confirm: \(authorization.title)"], "authorization_code": authorization.code,
            "created_at": Self.iso8601(authorization.createdAt), "expires_at": Self.iso8601(authorization.expiresAt),
        ]
        var item = try Self.encrypted(plaintext, id: authorization.id, connectionID: connection.id, to: connection.publicKey, random: &random)
        item["status"] = authorization.status
        return item
    }

    /// `{"id","connection_id","key","iv","data"}`: `plaintext` hybrid-encrypted to the connection (§3).
    static func encrypted(_ plaintext: [String: Any], id: Int, connectionID: Int, to key: RSA.Signing.PublicKey,
                          random: inout SystemRandomSource) throws -> [String: Any] {
        let bytes = try JSONSerialization.data(withJSONObject: plaintext, options: [.sortedKeys])
        let bundle = try SaltEdge.EncryptedBundle.encrypt(Array(bytes), to: RSA.Encryption.PublicKey(sameKeyAs: key), using: &random)
        return ["id": id, "connection_id": connectionID, "key": bundle.key, "iv": bundle.iv, "data": bundle.data]
    }

    func createAuthorization(connectionID: Int, title: String, lifetime: TimeInterval) throws -> Authorization {
        let id = nextID
        nextID += 1
        let now = Date()
        let authorization = Authorization(id: id, connectionID: connectionID, title: title,
                                          code: Base64.encode(try random.bytes(count: 24), alphabet: .urlSafe, padded: false),
                                          createdAt: now, expiresAt: now.addingTimeInterval(lifetime))
        authorizations[id] = authorization
        return authorization
    }
}
