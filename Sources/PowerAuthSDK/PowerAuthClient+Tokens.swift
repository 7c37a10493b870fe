// The token store (`PowerAuthSDK.tokenStore`, docs/protocols/powerauth.md §11; docs/protocols/sdk-surfaces.md §1.11): named
// MAC tokens created on demand with a signed, encrypted `/pa/v3/token/create`, kept in the
// secure store, turned into `X-PowerAuth-Token` headers with the server-synchronised time, and
// removed on the server and locally.

import CryptoPrimitives
public import PowerAuth
public import ProtocolSupport

extension PowerAuthClient {
    /// The token called `name`: the stored one, or a new one created on the server with
    /// `authentication`'s factors (`requestAccessToken`). Concurrent requests for one name share
    /// one creation.
    public func requestAccessToken(name: String, authentication: Authentication) async throws(PowerAuthSDKError) -> PowerAuth.Token {
        if let stored = try tokenRecords.token(named: name) { return stored }
        if let running = tokenRequests[name] { return try await Self.result(of: running) }
        let creation = Task { () async throws -> PowerAuth.Token in
            try await self.createToken(name: name, authentication: authentication)
        }
        tokenRequests[name] = creation
        defer { tokenRequests[name] = nil }
        return try await Self.result(of: creation)
    }

    /// Whether a token called `name` is stored (`hasLocalToken`).
    public func hasLocalToken(name: String) throws(PowerAuthSDKError) -> Bool { try tokenRecords.token(named: name) != nil }

    /// The stored token called `name` (`localToken`).
    public func localToken(name: String) throws(PowerAuthSDKError) -> PowerAuth.Token? { try tokenRecords.token(named: name) }

    /// The `X-PowerAuth-Token` header for the token called `name` (`generateHeader`, §11.3):
    /// a fresh nonce and the server-synchronised time. `PowerAuthSDKError.Reason.invalidToken`
    /// when no such token is stored.
    public func tokenHeader(name: String) async throws(PowerAuthSDKError) -> HTTPHeader {
        guard let token = try tokenRecords.token(named: name) else { throw PowerAuthSDKError(.invalidToken, "no token called \(name)") }
        let version = try storedActivation().protocolVersion
        let timestamp = try await serverTime(version: version)
        var random = randomSource
        do { return HTTPHeader("X-PowerAuth-Token", try token.headerValue(timestamp: timestamp, version: version, using: &random)) } catch {
            throw PowerAuthSDKError(.signing, "the random source failed")
        }
    }

    /// Removes the token called `name` on the server (a signed `/pa/v3/token/remove` with
    /// `authentication`, §11.2) and locally — locally even when the server call fails, as the
    /// SDK does; the server error is still thrown.
    public func removeAccessToken(name: String, authentication: Authentication) async throws(PowerAuthSDKError) {
        guard let token = try tokenRecords.token(named: name) else { throw PowerAuthSDKError(.invalidToken, "no token called \(name)") }
        let body = JSONText.object([("requestObject", .object([("tokenId", .string(token.id))]))]).bytes
        var serverFailure: PowerAuthSDKError?
        do {
            _ = try await standardSignedCall(path: "pa/v3/token/remove", uriID: "/pa/token/remove", body: body, factors: authentication.factors,
                                             authentication: authentication)
        } catch {
            serverFailure = error
        }
        try tokenRecords.remove(named: name)
        if let serverFailure { throw serverFailure }
    }

    /// Forgets the token called `name` here only (`removeLocalToken`); the server's stays.
    public func removeLocalToken(name: String) throws(PowerAuthSDKError) { try tokenRecords.remove(named: name) }

    /// Forgets every token of this instance here only (`removeAllLocalTokens`).
    public func removeAllLocalTokens() throws(PowerAuthSDKError) { try tokenRecords.removeAll() }

    private func createToken(name: String, authentication: Authentication) async throws(PowerAuthSDKError) -> PowerAuth.Token {
        let factors = authentication.factors
        let plaintext = try await standardEncryptedCall(factors: factors, authentication: authentication) { inputs, random throws(ProtocolError) in
            try PowerAuth.createTokenRequest(activation: inputs.activation, factors: factors, keys: inputs.keys, transportKey: inputs.transportKey,
                                             configuration: inputs.configuration, encryptionKey: inputs.encryptionKey, version: inputs.version,
                                             timestamp: inputs.timestamp, using: &random)
        }
        let token: PowerAuth.Token
        do { token = try PowerAuth.token(from: plaintext) } catch {
            throw PowerAuthSDKError(.invalidResponse, "the token answer is not valid", protocolError: error)
        }
        try tokenRecords.save(token, as: name)
        return token
    }

    private static func result(of task: Task<PowerAuth.Token, any Error>) async throws(PowerAuthSDKError) -> PowerAuth.Token {
        do { return try await task.value } catch let error as PowerAuthSDKError { throw error } catch {
            throw PowerAuthSDKError(.cancelled, "the token creation was cancelled")
        }
    }
}
