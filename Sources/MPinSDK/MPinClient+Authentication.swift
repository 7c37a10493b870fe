// Authentication in two steps (docs/protocols/sdk-surfaces.md §3.6; docs/protocols/mpin.md §7.1 items 6–7): prepare (announce
// the user to the access-code session, fetch and cache time permits, revocation reported before
// the PIN prompt), then pass 1 → pass 2 → authenticate with the PIN, ending in a web login, an
// authorization code, an OTP or a registration code. Wrong PINs are counted; a block deletes the
// token (HTTP 410).

public import AuthNetworking
import CryptoPrimitives
public import FoundationEssentials
public import MPin
import ProtocolSupport
import MPinPlatform

/// A one-time code from the platform: an OTP or a registration code (`OTP` / `RegCode`,
/// docs/protocols/sdk-surfaces.md §3.9).
public struct MPinOneTimeCode: Sendable, Equatable, CustomStringConvertible {
    /// The code.
    public let code: String
    /// When it expires (platform clock).
    public let expiresAt: Date?
    /// Its lifetime in seconds.
    public let timeToLive: Int?
    /// The platform's time when it was issued.
    public let serverTime: Date?

    /// Redacted: the code is a credential while it lives.
    public var description: String { "MPinOneTimeCode(redacted, ttl \(timeToLive.map(String.init) ?? "?") s)" }
}

extension MPinClient {
    /// What an authentication asks the platform for.
    struct Request {
        var accessCode: String?
        var otp = false
        var authorizationCodeWanted = false
        var purpose: String?
        var signing = false
    }

    /// Step one (`StartAuthentication…`): the user must be registered; with an access code the
    /// platform is told which user is authenticating (`codeStatus` `user`); when the backend
    /// uses time permits, today's permit is fetched (or taken from the cache) — a revoked
    /// identity fails here with `MPinError.Code.revoked`, before the PIN is asked for.
    ///
    /// - Parameters:
    ///   - user: The registered user about to authenticate.
    ///   - accessCode: The browser session's access code, if any.
    /// - Throws: `MPinError` with code `flowError` when the user is not registered, no backend is set or the
    ///   backend uses time permits but names no permit URL, `revoked` when the identity is revoked,
    ///   `invalidInput` when a URL is not absolute, `untrustedDomain` when the trusted domains refuse it, `urlRefused` when the URL policy does, `transport` when no answer arrives, `server` (or the code its status means, such
    ///   as `notAuthorized` or `requestExpired`) when the platform answers with an error, `invalidResponse`
    ///   when a time permit is not usable, `store` when the secure store fails or holds an unusable record.
    public func prepareAuthentication(for user: MPinUser, accessCode: String? = nil) async throws(MPinError) {
        var record = try storedRecord(user, allowed: [.registered])
        if trustProjectID != nil { return }   // MIRACL Trust: no permits, the scope travels with pass 1
        let settings = try activeSettings()
        if let accessCode, let codeStatusURL = settings.codeStatusURL {
            _ = try await send(.post, codeStatusURL, body: MPinPlatform.codeStatusBody(status: "user", accessCode: accessCode, userID: user.identity),
                               step: .session)
        }
        if settings.usePermits { try await refreshTimePermit(&record, settings: settings) }
    }

    /// Logs the user in to the web session of `accessCode` (`FinishAuthentication:`); with no
    /// access code, authenticates the user to the backend alone (the older `Authenticate`,
    /// `authenticateURL`). `MPinError.Code.incorrectPIN` on a wrong PIN, with
    /// `MPinError.userBlocked` once the platform blocked the identity.
    ///
    /// - Parameters:
    ///   - user: The registered user.
    ///   - pin: The user's PIN.
    ///   - secondFactor: The second factor, when the user registered with one.
    ///   - accessCode: The web session's access code; `nil` to authenticate to the backend alone.
    /// - Throws: `MPinError` with code `invalidInput` when `pin` does not fit the user's PIN length,
    ///   `flowError` when the user is not registered, no backend is set or `secondFactor` does not match the
    ///   registration or the backend uses time permits but names no permit URL, `incorrectPIN` on a wrong PIN (`userBlocked` set once the platform blocked the
    ///   identity), `revoked` when the identity is revoked, `crypto` when the random source fails,
    ///   `invalidInput` when a URL is not absolute, `untrustedDomain` when the trusted domains refuse it, `urlRefused` when the URL policy does, `transport` when no answer arrives, `server` (or the code its status means, such
    ///   as `notAuthorized` or `requestExpired`) when the platform answers with an error, `invalidResponse`
    ///   when an answer is not valid, `store` when the secure store fails or holds an unusable record.
    public func authenticate(_ user: MPinUser, pin: MPin.PIN, secondFactor: MPin.PIN? = nil, accessCode: String?) async throws(MPinError) {
        if trustProjectID != nil {
            _ = try await trustAuthenticate(user, pin: pin, secondFactor: secondFactor, scope: "oidc", accessCode: accessCode)
            return
        }
        _ = try await authenticate(user, pin: pin, secondFactor: secondFactor, Request(accessCode: accessCode))
    }

    /// Logs in to the app itself (`FinishAuthentication: … authzCode:`): `accessCode` comes
    /// from ``accessCode(authorizationURL:)``; the returned OIDC authorization code goes to the
    /// app's backend.
    ///
    /// - Parameters:
    ///   - user: The registered user.
    ///   - pin: The user's PIN.
    ///   - secondFactor: The second factor, when the user registered with one.
    ///   - accessCode: The access code from `accessCode(authorizationURL:)`.
    /// - Throws: `MPinError` with code `flowError` also on MIRACL Trust; `invalidInput` when `pin` does not
    ///   fit the user's PIN length, `flowError` when the user is not registered, no backend is set or
    ///   `secondFactor` does not match the registration or the backend uses time permits but names no permit URL, `incorrectPIN` on a wrong PIN (`userBlocked` set
    ///   once the platform blocked the identity), `revoked` when the identity is revoked, `crypto` when the
    ///   random source fails, `invalidInput` when a URL is not absolute, `untrustedDomain` when the trusted
    ///   domains refuse it, `urlRefused` when the URL policy does, `transport` when no answer arrives, `server` (or the code its
    ///   status means, such as `notAuthorized` or `requestExpired`) when the platform answers with an error,
    ///   `invalidResponse` when an answer is not valid, `store` when the secure store fails or holds an
    ///   unusable record (`invalidResponse` also when it holds no authorization code).
    public func authorizationCode(for user: MPinUser, pin: MPin.PIN, secondFactor: MPin.PIN? = nil,
                                  accessCode: String) async throws(MPinError) -> String {
        guard trustProjectID == nil else { throw MPinError(.flowError, "MIRACL Trust logs in to an app with a JWT (authenticationJWT)") }
        let (answer, _) = try await authenticate(user, pin: pin, secondFactor: secondFactor,
                                                 Request(accessCode: accessCode, authorizationCodeWanted: true))
        guard let code = answer.code, !code.isEmpty else { throw MPinError(.invalidResponse, "the platform sent no authorization code") }
        return code
    }

    /// Asks the platform for a one-time password (`FinishAuthenticationOTP:`; docs/protocols/mpin.md §7.1 item
    /// 7: the server generates it, pass 2 carries it, authenticate its lifetime).
    ///
    /// - Parameters:
    ///   - user: The registered user.
    ///   - pin: The user's PIN.
    ///   - secondFactor: The second factor, when the user registered with one.
    /// - Returns: The OTP with its lifetime and expiry.
    /// - Throws: `MPinError` with code `flowError` also on MIRACL Trust; `invalidInput` when `pin` does not
    ///   fit the user's PIN length, `flowError` when the user is not registered, no backend is set or
    ///   `secondFactor` does not match the registration or the backend uses time permits but names no permit URL, `incorrectPIN` on a wrong PIN (`userBlocked` set
    ///   once the platform blocked the identity), `revoked` when the identity is revoked, `crypto` when the
    ///   random source fails, `invalidInput` when a URL is not absolute, `untrustedDomain` when the trusted
    ///   domains refuse it, `urlRefused` when the URL policy does, `transport` when no answer arrives, `server` (or the code its
    ///   status means, such as `notAuthorized` or `requestExpired`) when the platform answers with an error,
    ///   `invalidResponse` when an answer is not valid, `store` when the secure store fails or holds an
    ///   unusable record (`invalidResponse` also when it holds no OTP).
    public func generateOTP(for user: MPinUser, pin: MPin.PIN, secondFactor: MPin.PIN? = nil) async throws(MPinError) -> MPinOneTimeCode {
        guard trustProjectID == nil else { throw MPinError(.flowError, "MIRACL Trust issues no OTPs") }
        let (answer, pass2) = try await authenticate(user, pin: pin, secondFactor: secondFactor, Request(otp: true))
        guard let otp = pass2.OTP, !otp.isEmpty else { throw MPinError(.invalidResponse, "the platform sent no OTP") }
        return MPinOneTimeCode(code: otp, expiresAt: answer.expireTime?.date, timeToLive: try checkedTimeToLive(answer.ttlSeconds), serverTime: answer.nowTime?.date)
    }

    /// Asks the platform for a one-time registration code for another device
    /// (`FinishAuthenticationRegCode:`; docs/protocols/mpin.md §7.2 `{otp, expireTime, ttlSeconds, nowTime}`;
    /// the purpose `reg-code` travels both as the pass-1 scope of §7.3 and as `wam` on
    /// authenticate, so a platform reading either finds it — see docs/architecture.md).
    ///
    /// - Parameters:
    ///   - user: The registered user.
    ///   - pin: The user's PIN.
    ///   - secondFactor: The second factor, when the user registered with one.
    /// - Returns: The registration code with its lifetime and expiry.
    /// - Throws: `MPinError` with code `invalidInput` when `pin` does not fit the user's PIN length,
    ///   `flowError` when the user is not registered, no backend is set or `secondFactor` does not match the
    ///   registration or the backend uses time permits but names no permit URL, `incorrectPIN` on a wrong PIN (`userBlocked` set once the platform blocked the
    ///   identity), `revoked` when the identity is revoked, `crypto` when the random source fails,
    ///   `invalidInput` when a URL is not absolute, `untrustedDomain` when the trusted domains refuse it, `urlRefused` when the URL policy does, `transport` when no answer arrives, `server` (or the code its status means, such
    ///   as `notAuthorized` or `requestExpired`) when the platform answers with an error, `invalidResponse`
    ///   when an answer is not valid, `store` when the secure store fails or holds an unusable record
    ///   (`invalidResponse` also when it holds no code).
    public func generateRegistrationCode(for user: MPinUser, pin: MPin.PIN, secondFactor: MPin.PIN? = nil) async throws(MPinError) -> MPinOneTimeCode {
        if let projectID = trustProjectID { return try await trustQuickCode(user, pin: pin, secondFactor: secondFactor, projectID: projectID) }
        let (answer, _) = try await authenticate(user, pin: pin, secondFactor: secondFactor, Request(purpose: "reg-code"))
        guard let code = answer.otp ?? answer.code, !code.isEmpty else { throw MPinError(.invalidResponse, "the platform sent no registration code") }
        return MPinOneTimeCode(code: code, expiresAt: answer.expireTime?.date, timeToLive: try checkedTimeToLive(answer.ttlSeconds), serverTime: answer.nowTime?.date)
    }

    // MARK: The passes

    /// pass 1 → pass 2 → authenticate (docs/protocols/mpin.md §7.1 item 6) for the login or the signing identity.
    func authenticate(_ user: MPinUser, pin: MPin.PIN, secondFactor: MPin.PIN?,
                      _ request: Request) async throws(MPinError) -> (MPinPlatform.AuthenticateWire, MPinPlatform.Pass2Wire) {
        var record = try storedRecord(user, allowed: [.registered])
        if !request.signing { try checkPIN(pin, of: record) }   // before any request: a misfit PIN never counts as wrong
        let settings = try activeSettings()
        let credential = try credential(of: record, signing: request.signing, secondFactor: secondFactor)
        var permit: MPin.Client.DatedPermit?
        if settings.usePermits && !request.signing {
            try await refreshTimePermit(&record, settings: settings)
            permit = try cachedPermit(record)
        }
        var random = randomSource
        let first: MPin.Client.FirstPass
        do { first = try MPin.Client.firstPass(identity: credential.identity, pin: pin, token: credential.token, permit: permit, using: &random) } catch {
            throw MPinError(.crypto, "no randomness for x", protocolError: ProtocolError(error, "pass 1"))
        }
        let pass1Body = MPinPlatform.pass1Body(mpinID: credential.mpinID, u: first.u.uncompressedRepresentation, ut: first.ut?.uncompressedRepresentation,
                                               dtas: credential.dtas, publicKey: credential.publicKey, scope: request.purpose)
        let pass1 = try decode(MPinPlatform.Pass1Wire.self, try await send(.post, settings.authServerURL + "/pass1", body: pass1Body, step: .pass1), "pass 1 answer")
        let yBytes: [UInt8]
        do { yBytes = try Hex.decode(pass1.y) } catch { throw MPinError(.invalidResponse, "pass 1: y is not hex") }
        guard yBytes.count == 32 else { throw MPinError(.invalidResponse, "pass 1: y is not 32 bytes") }
        let v = MPin.Client.secondPass(first, challenge: BN254CX.Scalar(reducing: yBytes))   // docs/protocols/mpin.md §9 trap 5: (x + y) mod r
        let pass2Body = MPinPlatform.pass2Body(mpinID: credential.mpinID, v: v.uncompressedRepresentation, accessCode: request.accessCode, otp: request.otp)
        let pass2 = try read(try await send(.post, settings.authServerURL + "/pass2", body: pass2Body, step: .pass2),
                             "pass 2 answer", MPinPlatform.Pass2Wire.init(body:))
        let url = request.accessCode == nil ? settings.authenticateURL : settings.mobileAuthenticateURL
        let body = MPinPlatform.authenticateBody(authOTT: pass2.authOTT, authorizationCodeWanted: request.authorizationCodeWanted, purpose: request.purpose)
        let response = try await sendAuthenticate(to: url, body: body, record: &record)
        // An empty body is a plain success on the older servers (the 2016 recordings); any other
        // body must be a JSON object (every member is optional).
        guard !response.body.isEmpty else {
            return (MPinPlatform.AuthenticateWire(code: nil, otp: nil, expireTime: nil, ttlSeconds: nil, nowTime: nil, dvsRegisterToken: nil), pass2)
        }
        return (try decode(MPinPlatform.AuthenticateWire.self, response, "authenticate answer"), pass2)
    }

    /// Sends the authenticate request that ends pass 2 (docs/protocols/mpin.md §7.1 item 6): a wrong PIN is
    /// counted against `record` (``recordFailure(_:record:)``) before the error is thrown, and a
    /// success clears an earlier count. Both go to the store before this returns.
    func sendAuthenticate(to url: String, body: JSONText, record: inout UserRecord) async throws(MPinError) -> HTTPResponse {
        let response: HTTPResponse
        do { response = try await send(.post, url, body: body, step: .authenticate) } catch {
            try recordFailure(error, record: &record)
            throw error
        }
        if record.failedAuthentications != 0 {
            // Under the store's lock on the freshest record: only the count changes.
            record = try records.update(identity: record.identity, backend: record.backend) { (stored: inout UserRecord?) throws(MPinError) in
                stored?.failedAuthentications = 0
                return stored ?? record
            }
        }
        return response
    }

    /// Counts a wrong PIN; on a block (HTTP 410) deletes the token and marks the user blocked
    /// (docs/protocols/mpin.md §7.1 item 6), written before the error reaches the caller.
    func recordFailure(_ error: MPinError, record: inout UserRecord) throws(MPinError) {
        guard error.code == .incorrectPIN else { return }
        // Under the store's lock on the freshest record, so a failure counted by another
        // process at the same time is not lost (and a removed user is not brought back).
        record = try records.update(identity: record.identity, backend: record.backend) { (stored: inout UserRecord?) throws(MPinError) in
            guard var fresh = stored else { return record }
            // A stored count is data: saturated, never an overflow trap (a negative one restarts).
            let count = max(0, fresh.failedAuthentications)
            fresh.failedAuthentications = count < Int.max ? count + 1 : count
            if error.userBlocked {
                fresh.state = .blocked
                fresh.secrets.token = nil
                fresh.secrets.signingToken = nil
                fresh.secrets.permit = nil
            }
            stored = fresh
            return fresh
        }
    }

    /// The identity, token and wire fields to authenticate with.
    func credential(of record: UserRecord, signing: Bool,
                            secondFactor: MPin.PIN?) throws(MPinError) -> (identity: MPin.Identity, token: MPin.Token, mpinID: String,
                                                                             dtas: String?, publicKey: [UInt8]?) {
        let tokenBytes = signing ? record.secrets.signingToken : record.secrets.token
        let factor = signing ? record.secrets.signingHasSecondFactor : record.secrets.hasSecondFactor
        guard let tokenBytes else { throw MPinError(.flowError, signing ? "the user cannot sign (no signing registration)" : "no token is stored") }
        guard factor == (secondFactor != nil) else {
            throw MPinError(.flowError, factor ? "this token needs its second factor" : "this token has no second factor")
        }
        var identity = try identity(of: record)
        var mpinID = record.mpinID
        var publicKeyBytes: [UInt8]?
        if signing {
            guard let signingID = record.secrets.signingMPinID, let keyHex = record.secrets.signingPublicKey else { throw MPinError(.store, "the signing set is incomplete") }
            do {
                let key = try MPin.DVS.PublicKey(rawRepresentation: try Hex.decode(keyHex))
                identity = MPin.Identity(mpinID: try Hex.decode(signingID), dvsPublicKey: key)   // docs/protocols/mpin.md §5.2: mpinId ‖ Pa
                publicKeyBytes = key.rawRepresentation
            } catch { throw MPinError(.store, "the stored signing key is not a G2 point") }
            mpinID = signingID
        }
        var token: MPin.Token
        do { token = try tokenBytes.withUnsafeBytes { bytes throws(CryptoError) in try MPin.Token(rawRepresentation: bytes) } } catch {
            throw MPinError(.store, "the stored token is not a point")
        }
        if let secondFactor {
            token = MPin.Client.restoreFactor(secondFactor.value, bitCount: MPin.pinBitCount, identity: identity, token: token)
        }
        return (identity, token, mpinID, signing ? record.secrets.signingDTAs : nil, publicKeyBytes)
    }
}
