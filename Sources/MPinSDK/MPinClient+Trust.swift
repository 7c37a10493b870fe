// The MIRACL Trust API v2 behind the same verbs (docs/protocols/mpin.md
// §7.3): verification and quick codes at `/verification/*`, registration at `/rps/v2/user` with a
// key pair made here (every identity can sign), authentication at `/rps/v2/pass1|pass2|
// authenticate` with a scope — `oidc` for a browser session, `jwt` for the app's own backend,
// `reg-code` for a quick code, `dvs-auth` before a signature — and signing sessions at
// `/dvs/session`. JWTs are checked against the platform's JWKS.

import CryptoPrimitives
import FoundationEssentials
public import MPin
import ProtocolSupport
public import MPinPlatform

extension MPinClient {
    var trustProjectID: String? {
        if case .trust(let projectID) = configuration.platform { return projectID }
        return nil
    }

    /// The platform's JWKS (`/.well-known/jwks`), the keys its JWTs are signed with.
    func trustKeySet(_ url: String) async throws(MPinError) -> MPinTrust.KeySet {
        let base = url.hasSuffix("/") ? String(url.dropLast()) : url
        let response = try await send(.get, base + "/.well-known/jwks", step: .jwks)
        do { return try MPinTrust.KeySet(jsonBytes: response.body) } catch {
            throw MPinError(.invalidResponse, "the platform's JWKS is not usable", protocolError: error)
        }
    }

    func trustStartVerification(_ user: MPinUser, projectID: String, clientID: String?, redirectURI: String?, accessCode: String?) async throws(MPinError) {
        var members: [(String, JSONText)] = [("projectId", .string(projectID)), ("userId", .string(user.identity)),
                                             ("deviceName", .string(user.deviceName ?? "Linux"))]
        if let accessCode { members.append(("accessId", .string(accessCode))) }
        if let clientID { members.append(("clientId", .string(clientID))) }
        if let redirectURI { members.append(("redirectURI", .string(redirectURI))) }
        _ = try await send(.post, try activeBackend() + "/verification/email", body: .object(members), step: .verification)
    }

    /// `PUT /rps/v2/user`: needs the activation token of a verification or a quick code.
    func trustStartRegistration(_ record: inout UserRecord, activationToken: String?, pushToken: String?) async throws(MPinError) {
        guard let activationToken else { throw MPinError(.flowError, "MIRACL Trust registers with an activation token or a quick code") }
        let body = MPinTrust.registerBody(userID: record.identity, deviceName: record.deviceName ?? "Linux", activationToken: activationToken,
                                          pushToken: pushToken)
        let wire = try read(try await send(.put, try activeBackend() + "/rps/v2/user", body: body, step: .register),
                            "registration answer", MPinTrust.RegisterWire.init(body:))
        guard MPinPlatform.isHexMPinID(wire.mpinId) else {   // it goes into the URL path of the signature request
            throw MPinError(.invalidResponse, "the registration answer's mpinId is not hex")
        }
        record.mpinID = wire.mpinId
        record.secrets.regOTT = wire.regOTT
        record.customerID = wire.projectId ?? record.customerID
    }

    /// A key pair made here, Pa sent with the signature request, both DVS shares combined and
    /// multiplied by z (docs/protocols/mpin.md §7.3 Register; §5.3).
    func trustConfirmRegistration(_ record: inout UserRecord) async throws(MPinError) {
        var random = randomSource
        let privateKey: MPin.DVS.PrivateKey
        do { privateKey = try MPin.DVS.PrivateKey(using: &random) } catch {
            throw MPinError(.crypto, "no randomness for the key pair", protocolError: ProtocolError(error, "DVS key"))
        }
        let publicKey = privateKey.publicKey
        guard MPinPlatform.isHexMPinID(record.mpinID) else { throw MPinError(.store, "the stored mpinId is not hex") }
        let query = [HTTPHeader("regOTT", secret: record.secrets.regOTT ?? SecretBytes([])), HTTPHeader("publicKey", Hex.encode(publicKey.rawRepresentation))]
        let first = try read(try await send(.get, try activeBackend() + "/rps/v2/signature/" + record.mpinID, query: query, step: .signature),
                             "signature answer", MPinTrust.SignatureWire.init(body:))
        guard first.curve == nil || first.curve == "BN254CX" else { throw MPinError(.invalidResponse, "the platform uses curve \(first.curve ?? ""), not BN254CX") }
        let second = try read(try await send(.get, first.cs2url, step: .clientSecret), "client secret", MPinPlatform.ClientSecretWire.init(body:))
        let clientSecret: MPin.ClientSecret
        do {
            let shares = [try MPin.ClientSecretShare(rawRepresentation: first.dvsClientSecretShare),
                          try MPin.ClientSecretShare(rawRepresentation: try requiredShare(second.dvsClientSecret))]
            clientSecret = MPin.DVS.clientSecret(shares, privateKey: privateKey)
        } catch {
            throw MPinError(.invalidResponse, "a DVS share is not a BN254CX point", protocolError: ProtocolError(error, "DVS share"))
        }
        guard !clientSecret.isInfinity else { throw MPinError(.invalidResponse, "the client-secret shares cancel out (their sum is the point at infinity)") }
        record.secrets.pendingClientSecret = clientSecret.rawRepresentation
        record.secrets.signingMPinID = record.mpinID
        record.secrets.signingPublicKey = Hex.encode(publicKey.rawRepresentation)
        record.secrets.signingDTAs = first.dtas
    }

    /// pass 1 (with the scope and Pa) → pass 2 → authenticate, always as the DVS identity.
    func trustAuthenticate(_ user: MPinUser, pin: MPin.PIN, secondFactor: MPin.PIN?, scope: String,
                           accessCode: String?) async throws(MPinError) -> MPinTrust.AuthenticateWire {
        var record = try storedRecord(user, allowed: [.registered])
        try checkPIN(pin, of: record)   // before any request: a misfit PIN never counts as wrong
        let credential = try credential(of: record, signing: true, secondFactor: secondFactor)
        let backend = try activeBackend()
        var random = randomSource
        let first: MPin.Client.FirstPass
        do { first = try MPin.Client.firstPass(identity: credential.identity, pin: pin, token: credential.token, using: &random) } catch {
            throw MPinError(.crypto, "no randomness for x", protocolError: ProtocolError(error, "pass 1"))
        }
        let pass1 = try decode(MPinTrust.Pass1Wire.self, try await send(.post, backend + "/rps/v2/pass1", body: MPinTrust.pass1Body(
            mpinID: credential.mpinID, dtas: credential.dtas ?? "", u: first.u.uncompressedRepresentation, scope: scope,
            publicKey: credential.publicKey ?? []), step: .pass1), "pass 1 answer")
        let yBytes: [UInt8]
        do { yBytes = try Hex.decode(pass1.y) } catch { throw MPinError(.invalidResponse, "pass 1: y is not hex") }
        guard yBytes.count == 32 else { throw MPinError(.invalidResponse, "pass 1: y is not 32 bytes") }
        let v = MPin.Client.secondPass(first, challenge: BN254CX.Scalar(reducing: yBytes))
        let pass2 = try read(try await send(.post, backend + "/rps/v2/pass2", body: MPinTrust.pass2Body(
            mpinID: credential.mpinID, v: v.uncompressedRepresentation, accessID: accessCode), step: .pass2), "pass 2 answer",
                             MPinTrust.Pass2Wire.init(body:))
        let body = JSONText.object([("authOTT", .secret(pass2.authOTT)), ("wam", .string("dvs"))])
        let response = try await sendAuthenticate(to: backend + "/rps/v2/authenticate", body: body, record: &record)
        let answer = try decode(MPinTrust.AuthenticateWire.self, response, "authenticate answer")
        if answer.dvsRegisterToken != nil {
            throw MPinError(.flowError, "the platform asks this device for a new signing key (dvsRegister): register the user again")
        }
        return answer
    }

    /// Authenticates for the app's own backend and returns the platform's JWT (scope `jwt`),
    /// verified here against the platform's JWKS before it is handed out (MIRACL Trust only).
    ///
    /// - Parameters:
    ///   - user: The registered user.
    ///   - pin: The user's PIN.
    ///   - secondFactor: The second factor, when the user registered with one.
    /// - Throws: `MPinError` with code `flowError` also when the backend is not MIRACL Trust; `invalidInput`
    ///   when `pin` does not fit the user's PIN length, `flowError` when the user is not registered, no
    ///   backend is set or `secondFactor` does not match the registration, `incorrectPIN` on a wrong PIN
    ///   (`userBlocked` set once the platform blocked the identity), `revoked` when the identity is revoked,
    ///   `crypto` when the random source fails, `invalidInput` when a URL is not absolute, `untrustedDomain`
    ///   when the trusted domains refuse it, `urlRefused` when the URL policy does, `transport` when no answer arrives, `server`
    ///   (or the code its status means, such as `notAuthorized` or `requestExpired`) when the platform
    ///   answers with an error, `invalidResponse` when an answer is not valid, `store` when the secure store
    ///   fails or holds an unusable record (`invalidResponse` also when no JWT came or it does not verify).
    public func authenticationJWT(for user: MPinUser, pin: MPin.PIN, secondFactor: MPin.PIN? = nil) async throws(MPinError) -> String {
        guard trustProjectID != nil else { throw MPinError(.flowError, "JWT authentication is MIRACL Trust's (use authorizationCode on the MFA platform)") }
        let answer = try await trustAuthenticate(user, pin: pin, secondFactor: secondFactor, scope: "jwt", accessCode: nil)
        guard let jwt = answer.jwt else { throw MPinError(.invalidResponse, "the platform sent no JWT") }
        try verify(jwt)
        return jwt
    }

    /// Checks a platform JWT against the JWKS fetched by ``setBackend(_:)``.
    ///
    /// - Parameter jwt: The platform's JWT.
    /// - Throws: `MPinError` with code `flowError` when no MIRACL Trust backend (and its JWKS) is set,
    ///   `invalidResponse` when the JWT does not verify: its signature, issuer, audience or validity.
    public func verify(_ jwt: String) throws(MPinError) {
        guard let keySet, let projectID = trustProjectID else { throw MPinError(.flowError, "no JWKS: set a MIRACL Trust backend first") }
        let expected = MPinTrust.ExpectedClaims(issuer: try activeBackend(), audience: projectID)
        do { _ = try keySet.verifiedClaims(of: jwt, expected: expected, now: now()) } catch {
            throw MPinError(.invalidResponse, "the platform's JWT does not verify", protocolError: error)
        }
    }

    /// A quick code for another device: authenticate with scope `reg-code`, then
    /// `POST /verification/quickcode` with the JWT (docs/protocols/mpin.md §7.3).
    func trustQuickCode(_ user: MPinUser, pin: MPin.PIN, secondFactor: MPin.PIN?, projectID: String) async throws(MPinError) -> MPinOneTimeCode {
        let answer = try await trustAuthenticate(user, pin: pin, secondFactor: secondFactor, scope: "reg-code", accessCode: nil)
        guard let jwt = answer.jwt else { throw MPinError(.invalidResponse, "the platform sent no JWT for the quick code") }
        let body = JSONText.object([("projectId", .string(projectID)), ("jwt", .string(jwt)), ("deviceName", .string(user.deviceName ?? "Linux"))])
        let wire = try decode(MPinTrust.QuickCodeWire.self, try await send(.post, try activeBackend() + "/verification/quickcode", body: body,
                                                                           step: .verification), "quick code")
        return MPinOneTimeCode(code: wire.code, expiresAt: wire.expireTime?.date, timeToLive: try checkedTimeToLive(wire.ttlSeconds), serverTime: now())
    }

    // MARK: Signing sessions (MIRACL Trust)

    /// What a signing session asks the user to sign (`POST /dvs/session/details`).
    ///
    /// - Parameter id: The signing session's id.
    /// - Throws: `MPinError` with code `flowError` when no backend is set, `invalidInput` when a URL is not
    ///   absolute, `untrustedDomain` when the trusted domains refuse it, `urlRefused` when the URL policy does, `transport` when
    ///   no answer arrives, `server` (or the code its status means, such as `notAuthorized` or
    ///   `requestExpired`) when the platform answers with an error, `invalidResponse` when the session is not
    ///   the expected JSON.
    public func signingSession(id: String) async throws(MPinError) -> MPinTrust.SigningSession {
        let response = try await send(.post, try activeBackend() + "/dvs/session/details", body: .object([("id", .string(id))]), step: .signingSession)
        return try decode(MPinTrust.SigningSession.self, response, "signing session")
    }

    /// Signs the session's document hash and hands the signature to the platform
    /// (`PUT /dvs/session`); returns the signature.
    ///
    /// - Parameters:
    ///   - id: The signing session's id.
    ///   - user: The user whose signing identity signs.
    ///   - pin: The signing PIN.
    ///   - secondFactor: The signing identity's second factor, when it has one.
    /// - Throws: `MPinError` with code `invalidInput` when `pin` does not fit the user's PIN length or the
    ///   session's hash is not 32 bytes, `flowError` when the user is not registered or cannot sign, or no
    ///   backend is set, `incorrectPIN` on a wrong PIN (`userBlocked` set once the platform blocked the
    ///   identity), `crypto` when the signature cannot be made, `invalidInput` when a URL is not absolute,
    ///   `untrustedDomain` when the trusted domains refuse it, `urlRefused` when the URL policy does, `transport` when no answer
    ///   arrives, `server` (or the code its status means, such as `notAuthorized` or `requestExpired`) when
    ///   the platform answers with an error, `invalidResponse` when the session or an answer is not valid,
    ///   `store` when the secure store fails or holds an unusable record.
    public func completeSigningSession(id: String, for user: MPinUser, pin: MPin.PIN,
                                       secondFactor: MPin.PIN? = nil) async throws(MPinError) -> MPinDVSSignature {
        try checkPIN(pin, of: try storedRecord(user, allowed: [.registered]))   // before the first request
        let session = try await signingSession(id: id)
        let hash: [UInt8]
        do { hash = try Hex.decode(session.hash) } catch { throw MPinError(.invalidResponse, "the session's hash is not hex") }
        let timestamp = Int32(truncatingIfNeeded: unixSeconds())
        let signature = try await sign(documentHash: hash, timestamp: timestamp, for: user, pin: pin, secondFactor: secondFactor)
        let body = JSONText.object([("id", .string(id)), ("signature", Self.signatureJSON(signature)), ("timestamp", .integer(Int64(timestamp)))])
        _ = try await send(.put, try activeBackend() + "/dvs/session", body: body, step: .signingSession)
        return signature
    }

    /// Declines a signing session (`DELETE /dvs/session`).
    ///
    /// - Parameter id: The signing session's id.
    /// - Throws: `MPinError` with code `flowError` when no backend is set, `invalidInput` when a URL is not
    ///   absolute, `untrustedDomain` when the trusted domains refuse it, `urlRefused` when the URL policy does, `transport` when
    ///   no answer arrives, `server` (or the code its status means, such as `notAuthorized` or
    ///   `requestExpired`) when the platform answers with an error.
    public func abortSigningSession(id: String) async throws(MPinError) {
        _ = try await send(.delete, try activeBackend() + "/dvs/session", body: .object([("id", .string(id))]), step: .signingSession)
    }

    /// The signature object of docs/protocols/mpin.md §5.4 / §7.4.
    static func signatureJSON(_ signature: MPinDVSSignature) -> JSONText {
        .object([("hash", .string(Hex.encode(signature.hash))), ("mpinId", .string(signature.mpinID)), ("u", .string(Hex.encode(signature.u))),
                 ("v", .string(Hex.encode(signature.v))), ("publicKey", .string(Hex.encode(signature.publicKey))), ("dtas", .string(signature.dtas))])
    }
}
