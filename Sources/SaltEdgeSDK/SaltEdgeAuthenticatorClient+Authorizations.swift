// Authorizations, polling, instant actions and consents (docs/protocols/saltedge-v2.md §6.6–§6.9, §8, §9;
// docs/protocols/sdk-surfaces.md §5.4–§5.5): lists are decrypted with the connection key, final and expired
// authorizations are hidden, decisions echo the decrypted authorization code, and the poller is
// the shared `Polling` sequence, which de-duplicates, backs off on errors and stops on
// cancellation or when the connection is gone.

public import AuthNetworking
import CryptoPrimitives
import FoundationEssentials
import ProtocolSupport
public import SaltEdge

extension SaltEdgeAuthenticatorClient {
    /// The pending authorizations of a connection, decrypted (`getEncryptedAuthorizations`):
    /// final ones and those past `expires_at` are left out (§9). One that does not decrypt is an
    /// error, not a silent omission.
    ///
    /// - Parameter connectionID: The id of the stored connection.
    /// - Throws: `SaltEdgeClientError` with code `unknownConnection` when no connection is stored under
    ///   `connectionID`, `urlRefused` when the URL policy refuses the URL, `transport` when no answer
    ///   arrives, `server` (with the server's error class) when the server answers with an error,
    ///   `invalidResponse` when the answer is not usable or an authorization does not decrypt, `deviceKey`
    ///   when the connection's key in the device key store cannot be used, `store` when the secure store
    ///   fails or holds an unusable record (also when a connection the server says is gone cannot be marked
    ///   inactive).
    public func authorizations(connectionID: String) async throws(SaltEdgeClientError) -> [SaltEdge.Authorization] {
        let connection = try existingConnection(id: connectionID)
        let response = try await send(requests(connection).listAuthorizations(), to: connection.connection.scaServiceURL, connectionID: connectionID)
        let clock = now()
        do {
            return try SaltEdge.EncryptedAuthorization.list(from: response)
                .filter { !$0.status.isFinal && $0.status != .closed }
                .map { (item) throws(ProtocolError) in try item.decrypt(with: connection.connection.key) }
                .filter { !$0.isExpired(at: clock) }
        } catch {
            throw SaltEdgeClientError(.invalidResponse, "an authorization does not decrypt", protocolError: error)
        }
    }

    /// One authorization by id, decrypted (`getEncryptedAuthorization`).
    ///
    /// - Parameters:
    ///   - id: The authorization's id.
    ///   - connectionID: The id of the stored connection.
    /// - Throws: `SaltEdgeClientError` with code `unknownConnection` when no connection is stored under
    ///   `connectionID`, `urlRefused` when the URL policy refuses the URL, `transport` when no answer
    ///   arrives, `server` (with the server's error class) when the server answers with an error or the
    ///   authorization is already final or closed, `invalidResponse` when the answer is not usable or does
    ///   not decrypt, `deviceKey` when the connection's key in the device key store cannot be used, `store`
    ///   when the secure store fails or holds an unusable record (also when a connection the server says is
    ///   gone cannot be marked inactive).
    public func authorization(id: String, connectionID: String) async throws(SaltEdgeClientError) -> SaltEdge.Authorization {
        let connection = try existingConnection(id: connectionID)
        let response = try await send(requests(connection).showAuthorization(id: id), to: connection.connection.scaServiceURL, connectionID: connectionID)
        let encrypted: SaltEdge.EncryptedAuthorization
        do { encrypted = try SaltEdge.EncryptedAuthorization.single(from: response) } catch {
            throw SaltEdgeClientError(.invalidResponse, "the authorization answer is not usable", protocolError: error)
        }
        // A decided, expired or closed one carries no payload (§9): say so rather than "does not decrypt".
        guard !encrypted.status.isFinal, encrypted.status != .closed else {
            throw SaltEdgeClientError(.server, "authorization \(id) is already \(encrypted.status.rawValue)", httpStatus: response.status)
        }
        do { return try encrypted.decrypt(with: connection.connection.key) } catch {
            throw SaltEdgeClientError(.invalidResponse, "the authorization does not decrypt", protocolError: error)
        }
    }

    /// The status of one authorization as the server reports it now (show authorization, §6.6),
    /// final or not, without decrypting anything: for waiting while a decision is
    /// `confirm_processing` or `deny_processing` until it is final (§6.7, §9).
    ///
    /// - Parameters:
    ///   - id: The authorization's id.
    ///   - connectionID: The id of the stored connection.
    /// - Throws: `SaltEdgeClientError` with code `unknownConnection` when no connection is stored under
    ///   `connectionID`, `urlRefused` when the URL policy refuses the URL, `transport` when no answer
    ///   arrives, `server` (with the server's error class) when the server answers with an error,
    ///   `invalidResponse` when the answer is not usable, `deviceKey` when the connection's key in the device
    ///   key store cannot be used, `store` when the secure store fails or holds an unusable record (also when
    ///   a connection the server says is gone cannot be marked inactive).
    public func authorizationStatus(id: String, connectionID: String) async throws(SaltEdgeClientError) -> SaltEdge.AuthorizationStatus {
        let connection = try existingConnection(id: connectionID)
        let response = try await send(requests(connection).showAuthorization(id: id), to: connection.connection.scaServiceURL, connectionID: connectionID)
        do { return try SaltEdge.EncryptedAuthorization.single(from: response).status } catch {
            throw SaltEdgeClientError(.invalidResponse, "the authorization answer is not usable", protocolError: error)
        }
    }

    /// Confirms (`confirmAuthorization`, §6.7, §8): the decrypted authorization code echoed,
    /// the unlock type and the location, encrypted to the provider key and signed. Returns the
    /// status the server reports (usually `confirm_processing`).
    ///
    /// - Parameters:
    ///   - authorization: The decrypted authorization to confirm.
    ///   - type: How the user unlocked the app; a passcode by default.
    ///   - geolocation: The device's location, when the provider asks for it.
    /// - Throws: `SaltEdgeClientError` with code `unknownConnection` when the authorization's connection is
    ///   not stored, `invalidInput` when the decision cannot be encrypted and signed, `urlRefused` when
    ///   the URL policy refuses the URL, `deviceKey` when the connection's key in the device key store cannot sign,
    ///   `transport` when no answer arrives, `server` (with the server's error class) when the server answers
    ///   with an error, `invalidResponse` when the answer is not usable, `store` when the secure store fails
    ///   or holds an unusable record (also when a connection the server says is gone cannot be marked
    ///   inactive).
    public func confirm(_ authorization: SaltEdge.Authorization, unlockedWith type: SaltEdge.UserAuthorizationType = .passcode,
                        geolocation: SaltEdge.Geolocation? = nil) async throws(SaltEdgeClientError) -> SaltEdge.AuthorizationStatus {
        try await answer(.confirm(authorization, unlockedWith: type, geolocation: geolocation), connectionID: authorization.connectionID)
    }

    /// Denies (`denyAuthorization`).
    ///
    /// - Parameters:
    ///   - authorization: The decrypted authorization to deny.
    ///   - type: How the user unlocked the app; a passcode by default.
    ///   - geolocation: The device's location, when the provider asks for it.
    /// - Returns: The status the server reports (usually `deny_processing`).
    /// - Throws: `SaltEdgeClientError` with code `unknownConnection` when the authorization's connection is
    ///   not stored, `invalidInput` when the decision cannot be encrypted and signed, `urlRefused` when
    ///   the URL policy refuses the URL, `deviceKey` when the connection's key in the device key store cannot sign,
    ///   `transport` when no answer arrives, `server` (with the server's error class) when the server answers
    ///   with an error, `invalidResponse` when the answer is not usable, `store` when the secure store fails
    ///   or holds an unusable record (also when a connection the server says is gone cannot be marked
    ///   inactive).
    public func deny(_ authorization: SaltEdge.Authorization, unlockedWith type: SaltEdge.UserAuthorizationType = .passcode,
                     geolocation: SaltEdge.Geolocation? = nil) async throws(SaltEdgeClientError) -> SaltEdge.AuthorizationStatus {
        try await answer(.deny(authorization, unlockedWith: type, geolocation: geolocation), connectionID: authorization.connectionID)
    }

    private func answer(_ decision: SaltEdge.Decision, connectionID: String) async throws(SaltEdgeClientError) -> SaltEdge.AuthorizationStatus {
        let connection = try existingConnection(id: connectionID)
        var random = randomSource
        let request: HTTPRequest
        do { request = try requests(connection).answer(decision, using: &random, now: now()) } catch {
            throw SaltEdgeClientError(.invalidInput, "the decision cannot be encrypted and signed", protocolError: error)
        }
        let response = try await send(request, to: connection.connection.scaServiceURL, connectionID: connectionID)
        do { return try SaltEdge.DecisionResult(response: response).status } catch {
            throw SaltEdgeClientError(.invalidResponse, "the decision answer is not usable", protocolError: error)
        }
    }

    /// Polls the pending authorizations every `interval` (`SEPoller`, §9: 3 s, the first fetch at
    /// once; held to `PollingInterval`) and yields the list whenever it changes
    /// (ids or statuses). A failed fetch is retried after a doubling delay (up to 60 s) and the
    /// sequence goes on; a connection the server says is gone, or one that no longer exists here,
    /// ends it with that error; cancelling the consumer ends it quietly.
    ///
    /// - Parameters:
    ///   - connectionID: The id of the stored connection.
    ///   - interval: The wait between fetches; 3 seconds by default.
    ///   - clock: The clock the waits sleep on; the continuous clock by default.
    /// - Returns: A sequence of the pending authorizations that ends with the error that stopped it.
    public nonisolated func authorizationUpdates(connectionID: String, every interval: Duration = .seconds(3),
                                                 clock: any Clock<Duration> = ContinuousClock())
        -> Polling<[SaltEdge.Authorization], SaltEdgeClientError> {
        Polling(every: interval, distinctBy: { $0.map { $0.id + ":" + $0.status.rawValue } }, clock: clock,
                isFatal: { $0.connectionIsGone || $0.code == .unknownConnection || $0.code == .store }) { () async throws(SaltEdgeClientError) in
            try await self.authorizations(connectionID: connectionID)
        }
    }

    // MARK: Instant actions and consents

    /// What an instant action needs next (§6.8).
    public enum ActionOutcome: Sendable, Equatable {
        /// Done; open `returnTo` if the link had one.
        case done(returnTo: String?)
        /// The user must confirm or deny this authorization.
        case needsDecision(authorizationID: String, connectionID: String, returnTo: String?)
    }

    /// Submits an instant action from its deep link (`submitAction`) with a connection of the
    /// link's provider (`connectionID`, or the only active one of that provider).
    ///
    /// - Parameters:
    ///   - deepLink: The instant action's deep link.
    ///   - connectionID: The connection to act with; `nil` for the only active one of the link's provider.
    /// - Returns: Whether the action is done or needs a decision on an authorization.
    /// - Throws: `SaltEdgeClientError` with code `invalidInput` when `deepLink` is not an API v2
    ///   instant-action link or the request cannot be signed, `urlRefused` when the URL policy refuses the URL,
    ///   `unknownConnection` when no active connection of the provider, or more than one, matches,
    ///   `deviceKey` when the connection's key in the device key store cannot be used, `transport` when no
    ///   answer arrives, `server` (with the server's error class) when the server answers with an error,
    ///   `invalidResponse` when the answer is not usable, `store` when the secure store fails or holds an
    ///   unusable record (also when a connection the server says is gone cannot be marked inactive).
    public func submitAction(deepLink: String, connectionID: String? = nil) async throws(SaltEdgeClientError) -> ActionOutcome {
        let link: SaltEdge.DeepLink
        do { link = try SaltEdge.DeepLink(parsing: deepLink, urlPolicy: urlPolicy) } catch {
            throw SaltEdgeClientError(urlRefusalIn: error) ?? SaltEdgeClientError(.invalidInput, "not an action link", protocolError: error)
        }
        guard case .instantAction(let actionID, let providerID, let returnTo) = link else {
            throw SaltEdgeClientError(.invalidInput, "not an API v2 instant-action link")
        }
        let candidates = try connections().filter { $0.isActive && $0.connection.providerID == providerID && (connectionID == nil || $0.id == connectionID) }
        guard candidates.count == 1, let connection = candidates.first else {
            throw SaltEdgeClientError(.unknownConnection, candidates.isEmpty ? "no active connection of provider \(providerID)"
                                                                           : "several connections of provider \(providerID): choose one")
        }
        let request: HTTPRequest
        do { request = try requests(connection).submitInstantAction(actionID: actionID, providerID: providerID, now: now()) } catch {
            throw SaltEdgeClientError(.invalidInput, "the action request cannot be signed", protocolError: error)
        }
        let response = try await send(request, to: connection.connection.scaServiceURL, connectionID: connection.id)
        let result: SaltEdge.InstantActionResult
        do { result = try SaltEdge.InstantActionResult(response: response) } catch {
            throw SaltEdgeClientError(.invalidResponse, "the action answer is not usable", protocolError: error)
        }
        if let authorization = result.authorizationID, let connectionID = result.connectionID {
            return .needsDecision(authorizationID: authorization, connectionID: connectionID, returnTo: returnTo)
        }
        return .done(returnTo: returnTo)
    }

    /// The connection's consents, decrypted (`getEncryptedConsents`).
    ///
    /// - Parameter connectionID: The id of the stored connection.
    /// - Throws: `SaltEdgeClientError` with code `unknownConnection` when no connection is stored under
    ///   `connectionID`, `urlRefused` when the URL policy refuses the URL, `transport` when no answer
    ///   arrives, `server` (with the server's error class) when the server answers with an error,
    ///   `invalidResponse` when the answer is not usable or a consent does not decrypt, `deviceKey` when the
    ///   connection's key in the device key store cannot be used, `store` when the secure store fails or
    ///   holds an unusable record (also when a connection the server says is gone cannot be marked inactive).
    public func consents(connectionID: String) async throws(SaltEdgeClientError) -> [SaltEdge.Consent] {
        let connection = try existingConnection(id: connectionID)
        let response = try await send(requests(connection).listConsents(), to: connection.connection.scaServiceURL, connectionID: connectionID)
        do {
            return try SaltEdge.EncryptedConsent.list(from: response).map { (item) throws(ProtocolError) in try item.decrypt(with: connection.connection.key) }
        } catch {
            throw SaltEdgeClientError(.invalidResponse, "a consent does not decrypt", protocolError: error)
        }
    }

    /// Revokes a consent (`revokeConsent`).
    ///
    /// - Parameters:
    ///   - id: The consent's id.
    ///   - connectionID: The id of the stored connection.
    /// - Throws: `SaltEdgeClientError` with code `unknownConnection` when no connection is stored under
    ///   `connectionID`, `invalidInput` when the request cannot be signed, `urlRefused` when the URL policy refuses the URL,
    ///   `deviceKey` when the connection's key in the device key store cannot sign, `transport` when no
    ///   answer arrives, `server` (with the server's error class) when the server answers with an error,
    ///   `store` when the secure store fails or holds an unusable record (also when a connection the server
    ///   says is gone cannot be marked inactive).
    public func revokeConsent(id: String, connectionID: String) async throws(SaltEdgeClientError) {
        let connection = try existingConnection(id: connectionID)
        let request: HTTPRequest
        do { request = try requests(connection).revokeConsent(id: id, now: now()) } catch {
            throw SaltEdgeClientError(.invalidInput, "the revoke request cannot be signed", protocolError: error)
        }
        _ = try await send(request, to: connection.connection.scaServiceURL, connectionID: connectionID)
    }
}
