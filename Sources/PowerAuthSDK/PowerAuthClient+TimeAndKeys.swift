// What encrypted requests need before they can be built: the server-synchronised time (3.2+,
// docs/protocols/powerauth.md §11.4) fetched from `/pa/v3/status` the first time a call needs it, and the
// 3.3 temporary encryption keys (§10) fetched lazily per scope, verified, and cached in memory
// until they are about to expire.

import CryptoPrimitives
public import PowerAuth
import ProtocolSupport

extension PowerAuthClient {
    /// The server's time in milliseconds, synchronising first when `version` is 3.2+ and no
    /// observation has been accepted yet (§11.4). Before 3.2 the local clock is enough.
    ///
    /// - Parameter version: The protocol version of the call the time is for; 3.2 and later use the server's
    ///   time.
    /// - Returns: Milliseconds since 1970: the server's time from 3.2, the local clock's before.
    /// - Throws: When a synchronisation is needed, `PowerAuthSDKError` with code `transport` when no answer
    ///   arrives, `server` (`authenticationFailed` for HTTP 401) when the server answers with an error,
    ///   `invalidResponse` when the answer is not valid.
    public func serverTime(version: PowerAuth.ProtocolVersion) async throws(PowerAuthSDKError) -> UInt64 {
        if version >= .v3_2 && !time.isSynchronized { try await synchronizeTime() }
        return UInt64(clamping: time.serverTime(atLocal: Int64(clamping: now())))
    }

    /// Asks `/pa/v3/status` for the server's time and feeds the round trip to the §11.4 rule.
    ///
    /// - Throws: `PowerAuthSDKError` with code `transport` when no answer arrives, `server`
    ///   (`authenticationFailed` for HTTP 401) when the server answers with an error, `invalidResponse` when
    ///   the answer is not valid or its time is outside 1970–9999.
    public func synchronizeTime() async throws(PowerAuthSDKError) {
        let start = Int64(clamping: now())
        let response = try await send(HTTPRequest(method: .post, path: "pa/v3/status",
                                                  headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("Accept", "application/json")],
                                                  body: Array("{}".utf8)))
        let end = Int64(clamping: now())
        struct Wire: Decodable { struct Body: Decodable { let serverTime: Int64 }; let responseObject: Body }
        let serverTime: Int64
        do {
            try PowerAuth.requireSuccess(response)
            serverTime = try JSONResponse.decode(Wire.self, from: response.body, what: "server status").responseObject.serverTime
        } catch {
            throw Self.failure(error, response: response)
        }
        // The answer is unauthenticated: a time outside 1970…9999 is refused before any
        // arithmetic (§11.4), so `Int64.max` or `.min` from the server cannot trap.
        guard PowerAuth.TimeSynchronization.plausibleServerTimes.contains(serverTime) else {
            throw PowerAuthSDKError(.invalidResponse, "the server time \(serverTime) is outside 1970…9999", httpStatus: response.status)
        }
        time.observe(serverTime: serverTime, requestStart: start, responseEnd: end)
    }

    /// Forgets the time adjustment (after a resume or a wall-clock jump, §11.4).
    public func resetTimeSynchronization() { time.reset() }

    /// The application-scope ECIES target: the master key before 3.3, a temporary key after.
    func applicationEncryptionKey(version: PowerAuth.ProtocolVersion) async throws(PowerAuthSDKError) -> PowerAuth.EncryptionKey {
        guard version >= .v3_3 else {
            return PowerAuth.EncryptionKey(publicKey: P256.KeyAgreement.PublicKey(sameKeyAs: configuration.core.masterServerPublicKey))
        }
        return try await temporaryKey(scope: nil, verifiedWith: configuration.core.masterServerPublicKey).encryptionKey
    }

    /// The activation-scope ECIES target: nil before 3.3 (the core uses the activation's
    /// server key), a temporary key verified with that server key after.
    func activationEncryptionKey(_ activation: PowerAuth.ActivationData, transportKey: SymmetricKey) async throws(PowerAuthSDKError) -> PowerAuth.EncryptionKey? {
        guard activation.protocolVersion >= .v3_3 else { return nil }
        let serverKey: P256.Signing.PublicKey
        do { serverKey = try P256.Signing.PublicKey(sec1Representation: activation.serverPublicKey) } catch {
            throw PowerAuthSDKError(.store, "the stored server key is not a P-256 point")
        }
        return try await temporaryKey(scope: (activation.activationID, transportKey), verifiedWith: serverKey).encryptionKey
    }

    /// A cached temporary key of `scope` that is not about to expire, or a fresh one from
    /// `/pa/v3/keystore/create` whose JWT verifies with `serverKey` (§10).
    private func temporaryKey(scope: (id: String, transportKey: SymmetricKey)?,
                              verifiedWith serverKey: P256.Signing.PublicKey) async throws(PowerAuthSDKError) -> PowerAuth.TemporaryKey {
        let name = scope?.id ?? "application"
        let current = try await serverTime(version: .v3_3)
        if let cached = temporaryKeys[name], !cached.isExpired(atMilliseconds: current) { return cached }
        var random = randomSource
        let request: PowerAuth.PendingKeystore
        do { request = try PowerAuth.PendingKeystore(configuration: configuration.core, activation: scope, using: &random) } catch {
            throw PowerAuthSDKError(.encryption, "the keystore request cannot be built", protocolError: error)
        }
        let response = try await send(request.request)
        let key: PowerAuth.TemporaryKey
        do { key = try request.process(response, serverKey: serverKey) } catch {
            throw response.isSuccess ? PowerAuthSDKError(.encryption, "the temporary key does not verify", protocolError: error)
                                     : Self.failure(error, response: response)
        }
        temporaryKeys[name] = key
        return key
    }
}
