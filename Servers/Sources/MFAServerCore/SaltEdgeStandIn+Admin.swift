// The Salt Edge stand-in's admin API under `/integration/saltedge/` — what a test or a demo
// drives: the connect deep link, new authorizations (optionally already expired), consents,
// instant actions, and what the provider recorded about a decision.

import Foundation
import ProtocolSupport

extension SaltEdgeStandIn {
    func admin(_ request: HTTPRequest) throws -> HTTPResponse? {
        let input = (request.body ?? []).isEmpty ? [:] : try Self.object(request.body ?? [])
        func connectionID() throws -> Int {
            guard let id = (input["connection_id"] as? Int) ?? (input["connection_id"] as? String).flatMap(Int.init), connections[id] != nil else {
                throw StandInError(404, "ConnectionNotFound", "no such connection")
            }
            return id
        }
        switch request.path.dropFirst("integration/saltedge/".count) {
        case "connect-link":
            return Self.json(["deep_link": "authenticator://saltedge.com/connect?configuration=" + URLText.percentEncoded(baseURL + "/saltedge/configuration")])
        case "authorization":
            // {"connection_id", "title"?, "expires_in"? (seconds; ≤ 0: already expired)}
            let lifetime = (input["expires_in"] as? Int).map(TimeInterval.init) ?? 300
            let authorization = try createAuthorization(connectionID: try connectionID(), title: input["title"] as? String ?? "Payment of 10.00 EUR",
                                                        lifetime: lifetime)
            return Self.json(["authorization_id": authorization.id, "authorization_code": authorization.code])
        case "authorization/status":
            guard let id = input["authorization_id"] as? Int, let authorization = authorizations[id] else {
                throw StandInError(404, "AuthorizationNotFound", "no such authorization")
            }
            var answer: [String: Any] = ["status": authorization.status]
            if let decision = authorization.decision { answer["decision"] = decision }
            return Self.json(answer)
        case "consent":
            let id = nextID
            nextID += 1
            consents[id] = Consent(id: id, connectionID: try connectionID(), tppName: input["tpp_name"] as? String ?? "Example TPP")
            return Self.json(["consent_id": id])
        case "action":
            let actionID = "action-\(nextID)"
            nextID += 1
            actions[actionID] = providerID
            return Self.json(["action_id": actionID,
                              "deep_link": "authenticator://saltedge.com/action?api_version=2&action_id=\(actionID)&provider_id=\(providerID)"])
        case "fault":
            // {"garbage": true|false}
            garbage = input["garbage"] as? Bool ?? false
            return Self.json(["garbage": garbage])
        case "connection":
            // {"connection_id", "revoke"?: true}: the connection's state, revoked first when asked (the bank side).
            let id = try connectionID()
            if input["revoke"] as? Bool == true { connections[id]?.revoked = true }
            return Self.json(["connection_id": id, "revoked": connections[id]?.revoked ?? false])
        default:
            return nil
        }
    }
}
