// Every v2 endpoint of docs/protocols/saltedge-v2.md §6 as a request builder. Responses are parsed by the
// types in SaltEdge+Responses.swift.

public import CryptoPrimitives
public import FoundationEssentials
public import ProtocolSupport

extension SaltEdge {
    /// The unauthenticated requests that precede a connection (docs/protocols/saltedge-v2.md §6 rows 1, 1b, 2).
    public enum Enrollment {
        /// Row 1: `GET` the configuration URL from the deep link (send it to that URL as is).
        public static func providerConfiguration(client: ClientDescription) -> HTTPRequest {
            HTTPRequest(method: .get, path: "", headers: client.headers)
        }

        /// Row 1b: `GET api/authenticator/v2/configurations/{provider_id}` (Android only).
        public static func providerConfiguration(providerID: String, client: ClientDescription) -> HTTPRequest {
            HTTPRequest(method: .get, path: SaltEdge.apiPath + "/configurations/" + URLText.percentEncoded(providerID), headers: client.headers)
        }

        /// Row 2, §6.2: `POST api/authenticator/v2/connections` with the connection's public key
        /// PEM hybrid-encrypted to the provider key. No `exp`, no signature; `push_token` and
        /// `connect_query` are omitted when absent. `platform` is configurable (§13 assumes
        /// `android` for Linux).
        public static func createConnection(
            configuration: ProviderConfiguration, connectionKey: ConnectionKey, client: ClientDescription,
            connectQuery: String? = nil, pushToken: String? = nil, returnURL: String = SaltEdge.defaultReturnURL,
            platform: String = "android", using random: inout some RandomSource
        ) throws(ProtocolError) -> HTTPRequest {
            let bundle = try EncryptedBundle.encrypt(Array(connectionKey.publicKeyPEM.utf8), to: configuration.providerPublicKey, using: &random)
            return createConnection(providerID: configuration.providerID, encryptedPublicKey: bundle, client: client,
                                    connectQuery: connectQuery, pushToken: pushToken, returnURL: returnURL, platform: platform)
        }

        /// Row 2 with an already encrypted public key (for replaying recorded bundles).
        public static func createConnection(
            providerID: String, encryptedPublicKey: EncryptedBundle, client: ClientDescription,
            connectQuery: String? = nil, pushToken: String? = nil, returnURL: String = SaltEdge.defaultReturnURL,
            platform: String = "android"
        ) -> HTTPRequest {
            var data: [(String, JSONText)] = [("provider_id", .string(providerID)), ("return_url", .string(returnURL)), ("platform", .string(platform))]
            if let pushToken, !pushToken.isEmpty { data.append(("push_token", .string(pushToken))) }
            if let connectQuery, !connectQuery.isEmpty { data.append(("connect_query", .string(connectQuery))) }
            data.append(("enc_rsa_public_key", encryptedPublicKey.json))
            return HTTPRequest(method: .post, path: SaltEdge.apiPath + "/connections", headers: client.headers,
                               body: JSONText.object([("data", .object(data))]).bytes)
        }
    }
}

extension SaltEdge.Requests {
    /// Row 3, §6.3: `GET connections/{id}`.
    public func showConnection() -> HTTPRequest {
        unsigned(.get, "connections/" + URLText.percentEncoded(connection.id))
    }

    /// Row 4, §6.4: `PATCH connections/{id}/update`, signed, `{"push_token":…}`.
    public func updatePushToken(_ pushToken: String, now: Date) throws(ProtocolError) -> HTTPRequest {
        try signed(.patch, "connections/" + URLText.percentEncoded(connection.id) + "/update",
                   data: .object([("push_token", .string(pushToken))]), now: now)
    }

    /// Row 5, §6.5: `PUT connections/{id}/revoke`, signed, empty data. Afterwards delete the
    /// connection record and its key pair.
    public func revokeConnection(now: Date) throws(ProtocolError) -> HTTPRequest {
        try signed(.put, "connections/" + URLText.percentEncoded(connection.id) + "/revoke", data: .object([]), now: now)
    }

    /// Row 6, §6.6: `GET authorizations`, optionally filtered by an instant action.
    public func listAuthorizations(actionID: String? = nil) -> HTTPRequest {
        unsigned(.get, "authorizations", query: actionID.map { [HTTPHeader("action_id", $0)] } ?? [])
    }

    /// Row 7, §6.6: `GET authorizations/{id}`.
    public func showAuthorization(id: String) -> HTTPRequest {
        unsigned(.get, "authorizations/" + URLText.percentEncoded(id))
    }

    /// Rows 8 and 9, §6.7 and §8: `PUT authorizations/{id}/confirm` or `…/deny`, signed, with the
    /// decision payload encrypted to the provider key.
    public func answer(_ decision: SaltEdge.Decision, using random: inout some RandomSource, now: Date) throws(ProtocolError) -> HTTPRequest {
        let bundle = try SaltEdge.EncryptedBundle.encrypt(decision.payload.bytes, to: connection.providerPublicKey, using: &random)
        return try answer(decision, encryptedPayload: bundle, now: now)
    }

    /// Rows 8 and 9 with an already encrypted payload (for replaying recorded bundles).
    public func answer(_ decision: SaltEdge.Decision, encryptedPayload: SaltEdge.EncryptedBundle, now: Date) throws(ProtocolError) -> HTTPRequest {
        let verb = decision.isConfirmation ? "/confirm" : "/deny"
        return try signed(.put, "authorizations/" + URLText.percentEncoded(decision.authorizationID) + verb, data: encryptedPayload.json, now: now)
    }

    /// Row 10, §6.8: `POST authorizations` for an instant action, signed. The body's fields
    /// are `provider_id`, `connection_id`, `action_id`, all strings.
    public func submitInstantAction(actionID: String, providerID: String, now: Date) throws(ProtocolError) -> HTTPRequest {
        try signed(.post, "authorizations", data: .object([
            ("provider_id", .string(providerID)), ("connection_id", .string(connection.id)), ("action_id", .string(actionID)),
        ]), now: now)
    }

    /// Row 11, §6.9: `GET consents`.
    public func listConsents() -> HTTPRequest {
        unsigned(.get, "consents")
    }

    /// Row 12, §6.9: `PUT consents/{id}/revoke`, signed, empty data.
    public func revokeConsent(id: String, now: Date) throws(ProtocolError) -> HTTPRequest {
        try signed(.put, "consents/" + URLText.percentEncoded(id) + "/revoke", data: .object([]), now: now)
    }
}
