// Verification and registration (docs/protocols/sdk-surfaces.md §3.4–§3.5; docs/protocols/mpin.md §7.1 items 3–5, §7.2):
// the platform issues an M-Pin ID, the two D-TAs each issue a share of the client secret once
// the identity is verified, and the PIN is extracted from it so that only the token is stored.

import CryptoPrimitives
public import MPin
import ProtocolSupport
import MPinPlatform

/// What a finished identity verification returns (`VerificationResult`, docs/protocols/sdk-surfaces.md §3.9).
public struct MPinVerificationResult: Sendable, Equatable {
    /// Proves the verified identity; pass it as the registration code.
    public let activationToken: String
    /// The session the verification belongs to, usable with session details and abort.
    public let accessCode: String?
}

extension MPinClient {
    /// Asks the platform to e-mail a verification link to the user (`StartVerification`;
    /// docs/protocols/mpin.md §7.2 — the wire names are MIRACL Trust's `/verification/email`, assumed).
    /// The user moves to ``MPinUser/State/startedVerification``.
    ///
    /// - Parameters:
    ///   - user: The user, in state `invalid` or `startedVerification`.
    ///   - clientID: The client id to send; the configured one when `nil`.
    ///   - redirectURI: Where the verification link leads back to, if anywhere.
    ///   - accessCode: The browser session's access code, if any.
    /// - Throws: `MPinError` with code `flowError` when the user is not stored, is in another state or
    ///   changed meanwhile, or no backend is set, `invalidInput` when a URL is not absolute,
    ///   `untrustedDomain` when the trusted domains refuse it, `urlRefused` when the URL policy does, `transport` when no answer
    ///   arrives, `server` (or the code its status means, such as `notAuthorized` or `requestExpired`) when
    ///   the platform answers with an error, `store` when the secure store fails or holds an unusable record.
    public func startVerification(for user: MPinUser, clientID: String? = nil, redirectURI: String? = nil,
                                  accessCode: String? = nil) async throws(MPinError) {
        let started = try storedRecord(user, allowed: [.invalid, .startedVerification])
        if let projectID = trustProjectID {
            try await trustStartVerification(user, projectID: projectID, clientID: clientID ?? configuration.clientID, redirectURI: redirectURI,
                                             accessCode: accessCode)
        } else {
            let body = MPinPlatform.verificationBody(userID: user.identity, clientID: clientID ?? configuration.clientID, redirectURI: redirectURI,
                                                     accessCode: accessCode, deviceName: user.deviceName)
            _ = try await send(.post, try activeBackend() + "/verification/email", body: body, step: .verification)
        }
        _ = try updateRegistration(of: started, allowed: [.invalid, .startedVerification]) { $0.state = .startedVerification }
    }

    /// Confirms the verification with the code of the e-mailed link (`FinishVerification`;
    /// `/verification/confirmation`, assumed as above).
    ///
    /// - Parameters:
    ///   - user: The user, in state `startedVerification`.
    ///   - code: The code of the e-mailed link.
    /// - Returns: The activation token to register with, and the session's access code.
    /// - Throws: `MPinError` with code `flowError` when the user is not stored or in another state, or no
    ///   backend is set, `invalidInput` when a URL is not absolute, `untrustedDomain` when the trusted
    ///   domains refuse it, `urlRefused` when the URL policy does, `transport` when no answer arrives, `server` (or the code its
    ///   status means, such as `notAuthorized` or `requestExpired`) when the platform answers with an error,
    ///   `invalidResponse` when the answer is not the expected JSON, `store` when the secure store fails or
    ///   holds an unusable record.
    public func finishVerification(for user: MPinUser, code: String) async throws(MPinError) -> MPinVerificationResult {
        _ = try storedRecord(user, allowed: [.startedVerification])
        let response = try await send(.post, try activeBackend() + "/verification/confirmation",
                                      body: MPinPlatform.confirmationBody(userID: user.identity, code: code), step: .verification)
        let wire = try decode(MPinPlatform.ConfirmationWire.self, response, "verification confirmation")
        return MPinVerificationResult(activationToken: wire.activationToken, accessCode: wire.accessId)
    }

    /// Starts registration (`StartRegistration:`): the platform issues the M-Pin ID. With a
    /// registration code (an activation token or a code from another device) the identity
    /// counts as verified. The user moves to ``MPinUser/State/startedRegistration``.
    ///
    /// - Parameters:
    ///   - user: The user, in state `invalid` or `startedVerification`.
    ///   - accessCode: The browser session's access code, if any.
    ///   - registrationCode: An activation token or a code from another device, which makes the identity
    ///     count as verified; MIRACL Trust needs one.
    ///   - pushToken: A push token to register, if any.
    /// - Returns: The user, in state `startedRegistration`.
    /// - Throws: `MPinError` with code `flowError` when the user is not stored, is in another state or
    ///   changed meanwhile, no backend is set, or MIRACL Trust has no `registrationCode`,
    ///   `registrationExpired` when the registration expired, `invalidInput` when a URL is not absolute,
    ///   `untrustedDomain` when the trusted domains refuse it, `urlRefused` when the URL policy does, `transport` when no answer
    ///   arrives, `server` (or the code its status means, such as `notAuthorized` or `requestExpired`) when
    ///   the platform answers with an error, `invalidResponse` when the answer holds no hex M-Pin ID, `store`
    ///   when the secure store fails or holds an unusable record.
    public func startRegistration(for user: MPinUser, accessCode: String?, registrationCode: String? = nil,
                                  pushToken: String? = nil) async throws(MPinError) -> MPinUser {
        let started = try storedRecord(user, allowed: [.invalid, .startedVerification])
        if trustProjectID != nil {
            var issued = started
            try await trustStartRegistration(&issued, activationToken: registrationCode, pushToken: pushToken)
            return try updateRegistration(of: started, allowed: [.invalid, .startedVerification]) { fresh in
                fresh.mpinID = issued.mpinID
                fresh.secrets.regOTT = issued.secrets.regOTT
                fresh.customerID = issued.customerID
                fresh.state = .startedRegistration
            }.user
        }
        let settings = try activeSettings()
        let body = MPinPlatform.registerBody(userID: user.identity, deviceName: user.deviceName, accessCode: accessCode,
                                             activationCode: registrationCode, pushToken: pushToken)
        return try await register(started, at: settings.registerURL, body: body, allowed: [.invalid, .startedVerification]) { fresh in
            fresh.secrets.accessCode = accessCode
        }
    }

    /// Restarts registration with the same M-Pin ID, e.g. to send the e-mail again
    /// (`RestartRegistration:`; `PUT registerURL/{mpinId}` with `regOTT`).
    ///
    /// - Parameter user: The user, in state `startedRegistration` or `activated`.
    /// - Returns: The user, in state `startedRegistration`.
    /// - Throws: `MPinError` with code `flowError` when the user is not stored, is in another state or
    ///   changed meanwhile, no backend is set, or on MIRACL Trust, `registrationExpired` when the
    ///   registration expired, `invalidInput` when a URL is not absolute, `untrustedDomain` when the trusted
    ///   domains refuse it, `urlRefused` when the URL policy does, `transport` when no answer arrives, `server` (or the code its
    ///   status means, such as `notAuthorized` or `requestExpired`) when the platform answers with an error,
    ///   `invalidResponse` when the answer holds no hex M-Pin ID, `store` when the secure store fails or
    ///   holds an unusable record.
    public func restartRegistration(for user: MPinUser) async throws(MPinError) -> MPinUser {
        let started = try storedRecord(user, allowed: [.startedRegistration, .activated])
        guard trustProjectID == nil else { throw MPinError(.flowError, "MIRACL Trust restarts by verifying again") }
        let settings = try activeSettings()
        let body = MPinPlatform.registerBody(userID: user.identity, deviceName: user.deviceName, accessCode: started.secrets.accessCode,
                                             activationCode: nil, pushToken: nil, regOTT: started.secrets.regOTT)
        return try await register(started, at: settings.registerURL + "/" + started.mpinID, body: body,
                                  allowed: [.startedRegistration, .activated]) { fresh in
            fresh.secrets.pendingClientSecret = nil
        }
    }

    /// Sends the register request (`PUT registerURL`) and applies its answer to the freshest
    /// record of `started`, which must still be in one of `allowed`: the issued M-Pin ID and
    /// `regOTT`, then `finish`, and the user moves to ``MPinUser/State/startedRegistration``.
    private func register(_ started: UserRecord, at url: String, body: JSONText, allowed: Set<MPinUser.State>,
                          _ finish: (inout UserRecord) -> Void) async throws(MPinError) -> MPinUser {
        let response = try await send(.put, url, body: body, step: .register)
        let wire = try read(response, "registration answer", MPinPlatform.RegisterWire.init(body:))
        return try updateRegistration(of: started, allowed: allowed) { (fresh: inout UserRecord) throws(MPinError) in
            try apply(wire, to: &fresh)
            finish(&fresh)
            fresh.state = .startedRegistration
        }.user
    }

    /// Fetches the client secret once the identity is verified (`ConfirmRegistration:`): the
    /// first D-TA's share from `signatureURL`, the second's from `certivoxURL` with the
    /// parameters the first signed; both must be BN254CX points. Throws
    /// `MPinError.Code.identityNotVerified` until the identity is verified (poll) and
    /// `MPinError.Code.registrationExpired` when it is too late. The user moves to
    /// ``MPinUser/State/activated``.
    ///
    /// - Parameter user: The user, in state `startedRegistration` or `activated`.
    /// - Returns: The user, in state `activated`.
    /// - Throws: `MPinError` with code `identityNotVerified` until the identity is verified,
    ///   `registrationExpired` when it is too late, `flowError` when the user is not stored, is in another
    ///   state or changed meanwhile, or no backend is set, `crypto` when the random source fails (MIRACL
    ///   Trust), `invalidInput` when a URL is not absolute, `untrustedDomain` when the trusted domains refuse it, `urlRefused` when the URL policy does, `transport` when no answer arrives, `server` (or the code its status means,
    ///   such as `notAuthorized` or `requestExpired`) when the platform answers with an error,
    ///   `invalidResponse` when a client-secret share is not a BN254CX point, `store` when the secure store
    ///   fails or holds an unusable record.
    public func confirmRegistration(for user: MPinUser) async throws(MPinError) -> MPinUser {
        let record = try storedRecord(user, allowed: [.startedRegistration, .activated])
        if trustProjectID != nil {
            var confirmed = record
            try await trustConfirmRegistration(&confirmed)
            return try updateRegistration(of: record, allowed: [.startedRegistration, .activated]) { fresh in
                fresh.secrets.pendingClientSecret = confirmed.secrets.pendingClientSecret
                fresh.secrets.signingMPinID = confirmed.secrets.signingMPinID
                fresh.secrets.signingPublicKey = confirmed.secrets.signingPublicKey
                fresh.secrets.signingDTAs = confirmed.secrets.signingDTAs
                fresh.state = .activated
            }.user
        }
        let settings = try activeSettings()
        let first = try read(try await send(.get, settings.signatureURL + "/" + record.mpinID,
                                            query: [HTTPHeader("regOTT", secret: record.secrets.regOTT ?? SecretBytes([]))], step: .signature),
                             "signature answer", MPinPlatform.SignatureWire.init(body:))
        let second = try read(try await send(.get, settings.certivoxURL + "clientSecret?" + first.params, step: .clientSecret), "client secret",
                              MPinPlatform.ClientSecretWire.init(body:))
        let clientSecret: MPin.ClientSecret
        do {
            let shares = [try MPin.ClientSecretShare(rawRepresentation: first.clientSecretShare),
                          try MPin.ClientSecretShare(rawRepresentation: try requiredShare(second.clientSecret))]
            clientSecret = MPin.Issuer.combine(shares)   // docs/protocols/mpin.md §7.1 item 5: RECOMBINE_G1
        } catch {
            throw MPinError(.invalidResponse, "a client-secret share is not a BN254CX point",
                            protocolError: ProtocolError(error, "client-secret share"))
        }
        guard !clientSecret.isInfinity else { throw MPinError(.invalidResponse, "the client-secret shares cancel out (their sum is the point at infinity)") }
        let pending = clientSecret.rawRepresentation
        return try updateRegistration(of: record, allowed: [.startedRegistration, .activated]) { fresh in
            fresh.secrets.pendingClientSecret = pending
            fresh.state = .activated
        }.user
    }

    /// Finishes registration (`FinishRegistration:`): TOKEN = CS − PIN·A (and − factor·A for
    /// an optional second factor), stored; the PIN and the client secret are not. The user moves
    /// to ``MPinUser/State/registered``. `pinLength` is what the app shows the user next time
    /// and what later PINs are held to: by default the digits of a PIN read from text, else 4.
    /// A PIN that does not fit it (``checkPIN(_:length:)``) is `MPinError.Code.invalidInput`
    /// and the pending client secret stays for the next try.
    ///
    /// - Parameters:
    ///   - user: The user, in state `activated`.
    ///   - pin: The PIN the user chose.
    ///   - pinLength: The PIN's length in digits; by default the digits of a PIN read from text, else 4.
    ///   - secondFactor: An optional second factor, extracted from the token too.
    /// - Returns: The user, in state `registered`.
    /// - Throws: `MPinError` with code `invalidInput` when `pin` does not fit `pinLength`, `flowError` when
    ///   the user is not stored, is in another state or changed meanwhile, or holds no client secret, `store`
    ///   when the secure store fails or holds an unusable record.
    public func finishRegistration(for user: MPinUser, pin: MPin.PIN, pinLength: Int? = nil,
                                   secondFactor: MPin.PIN? = nil) throws(MPinError) -> MPinUser {
        let pinLength = pinLength ?? (pin.digitCount == 0 ? 4 : pin.digitCount)
        try Self.checkPIN(pin, length: pinLength)   // docs/protocols/mpin.md §3, §6: before the client secret is used
        let started = try storedRecord(user, allowed: [.activated])
        // The whole step on the freshest record, under the store's lock.
        return try updateRegistration(of: started, allowed: [.activated]) { (record: inout UserRecord) throws(MPinError) in
            try extractToken(into: &record, pin: pin, pinLength: pinLength, secondFactor: secondFactor)
        }.user
    }

    /// TOKEN = CS − PIN·A (− factor·A) into `record`, which moves to ``MPinUser/State/registered``.
    private func extractToken(into record: inout UserRecord, pin: MPin.PIN, pinLength: Int, secondFactor: MPin.PIN?) throws(MPinError) {
        guard let pending = record.secrets.pendingClientSecret else { throw MPinError(.flowError, "no client secret: confirm the registration first") }
        var identity = try identity(of: record)
        if trustProjectID != nil {   // every Trust identity is mpinId ‖ Pa (docs/protocols/mpin.md §5.7)
            do { identity = MPin.Identity(mpinID: try Hex.decode(record.mpinID),
                                          dvsPublicKey: try MPin.DVS.PublicKey(rawRepresentation: try Hex.decode(record.secrets.signingPublicKey ?? ""))) } catch {
                throw MPinError(.store, "the stored public key is not a G2 point")
            }
        }
        let clientSecret: MPin.ClientSecret
        do { clientSecret = try pending.withUnsafeBytes { bytes throws(CryptoError) in try MPin.ClientSecret(rawRepresentation: bytes) } } catch {
            throw MPinError(.store, "the stored client secret is not a point")
        }
        var token = MPin.Client.extractPIN(pin, identity: identity, clientSecret: clientSecret)   // docs/protocols/mpin.md §4 EXTRACT_PIN
        if let secondFactor {
            token = MPin.Client.extractFactor(secondFactor.value, bitCount: MPin.pinBitCount, identity: identity, token: token)
        }
        record.secrets.token = token.rawRepresentation
        record.secrets.hasSecondFactor = secondFactor != nil
        if trustProjectID != nil {   // the login token is the signing token
            record.secrets.signingToken = record.secrets.token
            record.secrets.signingHasSecondFactor = secondFactor != nil
        }
        record.secrets.pendingClientSecret = nil
        record.secrets.regOTT = nil
        record.pinLength = pinLength
        record.failedAuthentications = 0
        record.state = .registered
    }

    // MARK: Records

    /// Applies what a registration step produced to the freshest stored record, under the
    /// store's lock (docs/design.md §1 "State"): the awaits of the step let another process delete,
    /// restart or finish the same user, so the record must still exist, be in one of `allowed`
    /// and hold the M-Pin ID the step started from — else ``MPinError/Code/flowError`` and
    /// nothing is written.
    func updateRegistration(of started: UserRecord, allowed: Set<MPinUser.State>,
                            _ change: (inout UserRecord) throws(MPinError) -> Void) throws(MPinError) -> UserRecord {
        try records.update(identity: started.identity, backend: started.backend) { (stored: inout UserRecord?) throws(MPinError) -> UserRecord in
            guard var fresh = stored else { throw MPinError(.flowError, "\(started.identity) was deleted during the registration") }
            guard allowed.contains(fresh.state), fresh.mpinID == started.mpinID else {
                throw MPinError(.flowError, "\(started.identity) changed during the registration (now \(fresh.state.rawValue))")
            }
            try change(&fresh)
            stored = fresh
            return fresh
        }
    }

    /// The stored record of `user`, required to be in one of `allowed` (else `FLOW_ERROR`).
    func storedRecord(_ user: MPinUser, allowed: Set<MPinUser.State>) throws(MPinError) -> UserRecord {
        guard let record = try records.read(identity: user.identity, backend: user.backend) else {
            throw MPinError(.flowError, "\(user.identity) is not stored (makeUser first, or it was deleted)")
        }
        guard allowed.contains(record.state) else {
            throw MPinError(.flowError, "\(user.identity) is \(record.state.rawValue); this needs \(allowed.map(\.rawValue).sorted().joined(separator: " or "))")
        }
        return record
    }

    /// The identity A is computed from: the M-Pin ID's bytes exactly as issued (docs/protocols/mpin.md §7.1 item 3).
    func identity(of record: UserRecord) throws(MPinError) -> MPin.Identity {
        do { return MPin.Identity(try Hex.decode(record.mpinID)) } catch {
            throw MPinError(.store, "the stored M-Pin ID is not hex")
        }
    }

    private func apply(_ wire: MPinPlatform.RegisterWire, to record: inout UserRecord) throws(MPinError) {
        guard MPinPlatform.isHexMPinID(wire.mpinId) else {
            throw MPinError(.invalidResponse, "the registration answer holds no hex M-Pin ID")
        }
        record.mpinID = wire.mpinId   // used exactly as issued (docs/protocols/mpin.md §7.1 item 3)
        record.secrets.regOTT = wire.regOTT
        record.customerID = wire.customerId ?? record.customerID
        record.appID = wire.appId ?? record.appID
        if let expires = wire.expireTime, let now = wire.nowTime {
            record.registrationExpiration = MPinUser.Expiration(expiresAt: expires.date, serverTime: now.date)
        }
    }
}
