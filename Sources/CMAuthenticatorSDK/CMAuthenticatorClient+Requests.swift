// Authentication requests (docs/protocols/cm-authenticator.md §4, §7): the open request of each environment
// (expired ones hidden), approve / deny for instant requests, OTPs shown until they expire, and
// the shared `Polling` sequence for a Linux device without push (every 3 s by default, §7
// [ASSUME]: 3–5 s), which de-duplicates, backs off on errors and stops on cancellation.

public import AuthNetworking
public import CMAuthenticator
import FoundationEssentials
import ProtocolSupport

/// An open authentication request with the environment it belongs to.
public struct PendingAuthentication: Sendable, Equatable {
    /// The environment id.
    public let environmentID: String
    /// The environment's display name.
    public let environmentName: String
    /// The request: instant (approve / deny) or an OTP to show until `AuthenticationRequest.expiresAt`.
    public let request: CMAuthenticator.AuthenticationRequest
}

extension CMAuthenticatorClient {
    /// The open request of one environment, or `nil` (§4: the first element counts; an expired
    /// one is hidden).
    ///
    /// - Parameter environmentID: The id of the stored environment.
    /// - Throws: `CMClientError` with code `unknownEnvironment` when no environment is stored under
    ///   `environmentID`, `notRegistered` when no phone number was registered, `invalidInput` when the query
    ///   cannot be signed, `deviceKey` when the environment's secret in the device key store cannot be used,
    ///   `pinning` when no certificate pin verifies or the transport refuses the peer's certificate,
    ///   `transport` when no answer arrives, `server` when the service answers with an error,
    ///   `invalidResponse` when the answer is not usable, `store` when the secure store fails or holds an
    ///   unusable record.
    public func pendingRequest(environmentID: String) async throws(CMClientError) -> PendingAuthentication? {
        let stored = try existingEnvironment(id: environmentID)
        let query: HTTPRequest
        let requests = try registeredRequests()
        do throws(ProtocolError) { query = try requests.pendingAuthentication(in: stored.environment, now: now()) } catch {
            throw CMClientError(.invalidInput, error.message, protocolError: error)
        }
        let response = try await send(query)
        let request = try parse { () throws(ProtocolError) in try CMAuthenticator.AuthenticationRequest.pending(from: response) }
        guard let request, !request.isExpired(at: now()) else { return nil }
        return PendingAuthentication(environmentID: stored.id, environmentName: stored.name, request: request)
    }

    /// The open requests of every stored environment.
    ///
    /// - Throws: `CMClientError` with code `notRegistered` when no phone number was registered,
    ///   `invalidInput` when a query cannot be signed, `deviceKey` when an environment secret in the device
    ///   key store cannot be used, `pinning` when no certificate pin verifies or the transport refuses the
    ///   peer's certificate, `transport` when no answer arrives, `server` when the service answers with an
    ///   error, `invalidResponse` when an answer is not usable, `store` when the secure store fails or holds
    ///   an unusable record.
    public func pendingRequests() async throws(CMClientError) -> [PendingAuthentication] {
        var pending: [PendingAuthentication] = []
        for environment in try environments() {
            if let request = try await pendingRequest(environmentID: environment.id) { pending.append(request) }
        }
        return pending
    }

    /// Approves an instant request (`PUT …/instant/{id}` with `approved`, §4). Returns the
    /// status the server reports, if any. An OTP request is `CMClientError.Code.invalidInput`;
    /// an expired one (locally or HTTP 410) `CMClientError.Code.requestExpired`.
    ///
    /// - Parameter pending: The instant request to approve.
    /// - Throws: `CMClientError` with code `invalidInput` for an OTP request or an answer that cannot be
    ///   signed, `requestExpired` when the request has expired (here or HTTP 410), `unknownEnvironment` when
    ///   its environment is not stored, `notRegistered` when no phone number was registered, `deviceKey` when
    ///   the environment's secret in the device key store cannot be used, `pinning` when no certificate pin
    ///   verifies or the transport refuses the peer's certificate, `transport` when no answer arrives,
    ///   `server` when the service answers with an error, `invalidResponse` when the answer is not usable,
    ///   `store` when the secure store fails or holds an unusable record.
    @discardableResult
    public func approve(_ pending: PendingAuthentication) async throws(CMClientError) -> String? {
        try await answer(.approved, pending)
    }

    /// Denies an instant request.
    ///
    /// - Parameter pending: The instant request to deny.
    /// - Returns: The status the server reports, if any.
    /// - Throws: `CMClientError` with code `invalidInput` for an OTP request or an answer that cannot be
    ///   signed, `requestExpired` when the request has expired (here or HTTP 410), `unknownEnvironment` when
    ///   its environment is not stored, `notRegistered` when no phone number was registered, `deviceKey` when
    ///   the environment's secret in the device key store cannot be used, `pinning` when no certificate pin
    ///   verifies or the transport refuses the peer's certificate, `transport` when no answer arrives,
    ///   `server` when the service answers with an error, `invalidResponse` when the answer is not usable,
    ///   `store` when the secure store fails or holds an unusable record.
    @discardableResult
    public func deny(_ pending: PendingAuthentication) async throws(CMClientError) -> String? {
        try await answer(.denied, pending)
    }

    private func answer(_ answer: CMAuthenticator.Answer, _ pending: PendingAuthentication) async throws(CMClientError) -> String? {
        let stored = try existingEnvironment(id: pending.environmentID)
        let request: HTTPRequest
        let requests = try registeredRequests()
        do throws(ProtocolError) { request = try requests.answer(answer, to: pending.request, in: stored.environment, now: now()) } catch {
            throw CMClientError(error.code == .requestExpired ? .requestExpired : .invalidInput, error.message, protocolError: error)
        }
        let response = try await send(request)
        return try parse { () throws(ProtocolError) in try CMAuthenticator.answerStatus(from: response) }
    }

    /// Polls every stored environment every `interval` (the first fetch at once; held to
    /// `PollingInterval`) and yields the open requests whenever the set changes.
    /// A failed fetch is retried after a doubling delay (up to 60 s) and the sequence goes on;
    /// an unregistered device or a broken store ends it with that error; cancelling the consumer
    /// ends it quietly.
    ///
    /// - Parameters:
    ///   - interval: The wait between fetches; 3 seconds by default.
    ///   - clock: The clock the waits sleep on; the continuous clock by default.
    /// - Returns: A sequence of the open requests that ends with the error that stopped it.
    public nonisolated func requestUpdates(every interval: Duration = .seconds(3),
                                           clock: any Clock<Duration> = ContinuousClock()) -> Polling<[PendingAuthentication], CMClientError> {
        Polling(every: interval, distinctBy: { $0.map { $0.environmentID + "/" + $0.request.id } }, clock: clock,
                isFatal: { $0.code == .notRegistered || $0.code == .store }) { () async throws(CMClientError) in
            try await self.pendingRequests()
        }
    }
}
