// What a MIRACL platform or MIRACL Trust error answer means (docs/protocols/mpin.md §7.1 item 6, §7.3), read in
// the context of the request it answers: the one mapping the MIRACL MFA client's errors and the
// recorded-traffic checks of the vector runner share.

extension MPinPlatform {
    /// The request an answer belongs to, which decides what its status means.
    public enum Step: String, Sendable, CaseIterable {
        /// `GET /rps/clientSettings`.
        case clientSettings
        /// `GET /service`: the service details.
        case service
        /// `POST /rps/codeStatus`: the browser session of an access code.
        case session
        /// `POST /authorize`: an access code for this device.
        case authorize
        /// `PUT /rps/user`: registration.
        case register
        /// `GET /rps/signature/{mpinId}`: the first client-secret share.
        case signature
        /// The second client-secret share from the secret server.
        case clientSecret
        /// A time permit.
        case timePermit
        /// `POST /rps/pass1`.
        case pass1
        /// `POST /rps/pass2`.
        case pass2
        /// `POST /rps/authenticate`.
        case authenticate
        /// The DVS key registration.
        case dvsRegister
        /// MIRACL Trust's verification (registration by e-mail or a quick code).
        case verification
        /// A MIRACL Trust signing session.
        case signingSession
        /// The platform's JWKS.
        case jwks
    }

    /// What a non-2xx answer means for the client.
    public enum Failure: String, Sendable, CaseIterable {
        /// Wrong PIN or factor (HTTP 401 on authenticate, `UNSUCCESSFUL_AUTHENTICATION`).
        case incorrectPIN
        /// Wrong PIN and the identity is now blocked (HTTP 410 on authenticate,
        /// `REVOKED_MPINID` on authenticate).
        case userBlocked
        /// The identity is revoked (HTTP 410 on a time permit, `REVOKED_MPINID`).
        case revoked
        /// The identity is not verified yet (HTTP 400/401 on the signature request).
        case identityNotVerified
        /// The registration expired (HTTP 404 on the signature or register request,
        /// `EXPIRED_MPINID`).
        case registrationExpired
        /// The access code or session is invalid or expired (HTTP 412).
        case invalidAccessCode
        /// The request expired (HTTP 408, `REQUEST_BACKOFF`).
        case requestExpired
        /// Not authorized (HTTP 403, `INVALID_ACTIVATION_TOKEN`, `UNSUCCESSFUL_VERIFICATION`).
        case notAuthorized
        /// Any other error answer.
        case server
    }

    /// The meaning of an error answer with `status` and `body` to the request of `step`, and
    /// MIRACL Trust's error code when the body is its v2 error object (docs/protocols/mpin.md §7.3).
    public static func failure(status: Int, step: Step, body: [UInt8]) -> (failure: Failure, platformCode: String?) {
        if let code = MPinTrust.errorCode(in: body) {
            return (trustFailure(code, step: step), code)
        }
        switch (status, step) {   // docs/protocols/mpin.md §7.1 item 6
        case (401, .authenticate): return (.incorrectPIN, nil)
        case (410, .authenticate): return (.userBlocked, nil)
        case (410, .timePermit): return (.revoked, nil)
        case (400, .signature), (401, .signature): return (.identityNotVerified, nil)
        case (404, .signature), (404, .register): return (.registrationExpired, nil)
        case (412, _): return (.invalidAccessCode, nil)
        case (408, _): return (.requestExpired, nil)
        case (403, _): return (.notAuthorized, nil)
        default: return (.server, nil)
        }
    }

    /// MIRACL Trust's error codes (docs/protocols/mpin.md §7.3).
    private static func trustFailure(_ code: String, step: Step) -> Failure {
        switch code {
        case "UNSUCCESSFUL_AUTHENTICATION": return .incorrectPIN
        case "REVOKED_MPINID" where step == .authenticate: return .userBlocked
        case "REVOKED_MPINID": return .revoked
        case "EXPIRED_MPINID": return .registrationExpired
        case "INVALID_ACTIVATION_TOKEN", "UNSUCCESSFUL_VERIFICATION": return .notAuthorized
        case "REQUEST_BACKOFF": return .requestExpired
        default: return .server
        }
    }

    /// The access code in the text of a QR code or deep link (`…#<code>`), or nil when it
    /// holds none.
    public static func accessCode(inQRText text: String) -> String? {
        let parts = text.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[1].isEmpty else { return nil }
        return String(parts[1])
    }
}
