// The token store (`PowerAuthSDK.tokenStore`, docs/protocols/powerauth.md §11; docs/protocols/sdk-surfaces.md §1.11): named
// MAC tokens created on demand with a signed, encrypted `/pa/v3/token/create`, kept in the
// secure store, turned into `X-PowerAuth-Token` headers with the server-synchronised time, and
// removed on the server and locally.

public import AuthNetworking
import CryptoPrimitives
public import PowerAuth
public import ProtocolSupport

extension PowerAuthClient {
    /// The token called `name`: the stored one, or a new one created on the server with
    /// `authentication`'s factors (`requestAccessToken`). Concurrent requests for one name share
    /// one creation.
    ///
    /// - Parameters:
    ///   - name: The token's name, under which it is stored.
    ///   - authentication: The factors that create the token when none is stored.
    /// - Throws: `PowerAuthSDKError` with code `store` when the secure store cannot be read or written,
    ///   `cancelled` when the shared creation was cancelled; when the token is created, `missingActivation`
    ///   when no activation is stored, `counterDeadlock` when its counter cannot be reconciled with the
    ///   server's, `invalidAuthentication` when `authentication` cannot unlock the factor keys, `encryption`
    ///   when the request cannot be built or a 3.3 temporary key does not verify, `transport` when no answer
    ///   arrives, `authenticationFailed` when the server refuses the signature, `server` when it answers with
    ///   another error, `invalidResponse` when the answer is not valid or does not decrypt.
    public func requestAccessToken(named name: String, authentication: Authentication) async throws(PowerAuthSDKError) -> PowerAuth.Token {
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
    ///
    /// - Parameter name: The token's name.
    /// - Throws: `PowerAuthSDKError` with code `store` when the token record cannot be read or is damaged.
    public func hasLocalToken(named name: String) throws(PowerAuthSDKError) -> Bool { try tokenRecords.token(named: name) != nil }

    /// The stored token called `name` (`localToken`).
    ///
    /// - Parameter name: The token's name.
    /// - Returns: The token, or `nil` when none is stored under `name`.
    /// - Throws: `PowerAuthSDKError` with code `store` when the token record cannot be read or is damaged.
    public func localToken(named name: String) throws(PowerAuthSDKError) -> PowerAuth.Token? { try tokenRecords.token(named: name) }

    /// The `X-PowerAuth-Token` header for the token called `name` (`generateHeader`, §11.3):
    /// a fresh nonce and the server-synchronised time. `PowerAuthSDKError.Code.invalidToken`
    /// when no such token is stored.
    ///
    /// - Parameter name: The token's name.
    /// - Throws: `PowerAuthSDKError` with code `invalidToken` when no token called `name` is stored,
    ///   `missingActivation` when no activation is stored, `signing` when the random source fails, `store`
    ///   when a record cannot be read; from 3.2, when the server's time is fetched, `transport` when no
    ///   answer arrives, `server` (`authenticationFailed` for HTTP 401) when the server answers with an
    ///   error, `invalidResponse` when the answer is not valid.
    public func tokenHeader(named name: String) async throws(PowerAuthSDKError) -> HTTPHeader {
        guard let token = try tokenRecords.token(named: name) else { throw PowerAuthSDKError(.invalidToken, "no token called \(name)") }
        let version = try storedActivation().protocolVersion
        let timestamp = try await serverTime(version: version)
        var random = randomSource
        do { return HTTPHeader("X-PowerAuth-Token", try token.headerValue(timestamp: timestamp, version: version, using: &random)) } catch {
            throw PowerAuthSDKError(.signing, "the random source failed", protocolError: ProtocolError(error, "token nonce"))
        }
    }

    /// Removes the token called `name` on the server (a signed `/pa/v3/token/remove` with
    /// `authentication`, §11.2) and locally — locally even when the server call fails, as the
    /// SDK does; the server error is still thrown.
    ///
    /// - Parameters:
    ///   - name: The token's name.
    ///   - authentication: The factors that sign the removal.
    /// - Throws: `PowerAuthSDKError` with code `invalidToken` when no token called `name` is stored; after
    ///   the local removal, the signed call's `missingActivation` when no activation is stored,
    ///   `counterDeadlock` when its counter cannot be reconciled with the server's, `invalidAuthentication`
    ///   when `authentication` cannot unlock the factor keys, `signing` when the signature cannot be
    ///   computed, `transport` when no answer arrives, `authenticationFailed` when the server refuses the
    ///   signature, `server` when it answers with another error, `invalidResponse` when the answer is not
    ///   valid, `store` when the secure store cannot be read or written.
    public func removeAccessToken(named name: String, authentication: Authentication) async throws(PowerAuthSDKError) {
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
    ///
    /// - Parameter name: The token's name.
    /// - Throws: `PowerAuthSDKError` with code `store` when the token record cannot be read or written.
    public func removeLocalToken(named name: String) throws(PowerAuthSDKError) { try tokenRecords.remove(named: name) }

    /// Forgets every token of this instance here only (`removeAllLocalTokens`).
    ///
    /// - Throws: `PowerAuthSDKError` with code `store` when the token record cannot be read or written.
    public func removeAllLocalTokens() throws(PowerAuthSDKError) { try tokenRecords.removeAll() }

    private func createToken(name: String, authentication: Authentication) async throws(PowerAuthSDKError) -> PowerAuth.Token {
        let factors = authentication.factors
        var plaintext = try await standardEncryptedCall(factors: factors, authentication: authentication) { inputs, random throws(ProtocolError) in
            try PowerAuth.createTokenRequest(activation: inputs.activation, factors: factors, keys: inputs.keys, transportKey: inputs.transportKey,
                                             configuration: inputs.configuration, encryptionKey: inputs.encryptionKey, version: inputs.version,
                                             timestamp: inputs.timestamp, using: &random)
        }
        defer { SecretBytes.wipe(&plaintext) }   // it holds the token secret
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
