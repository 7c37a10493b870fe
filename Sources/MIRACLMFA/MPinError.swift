// The MIRACL MFA client's one error (sdk-surfaces.md §3.8 `MpinStatus`, §3.11 naming map):
// the SDK's status values as reasons a caller switches on, plus the transport, store and
// response failures a Linux SDK adds, each with the error behind it.

public import AuthNetworking
public import ProtocolSupport
public import SecureStore

/// Why a MIRACL MFA operation failed (`OK` is a normal return).
public struct MPinError: ClientError {
    /// What went wrong, for callers to switch on.
    public struct Code: ClientErrorCode {
        /// The code's name.
        public let rawValue: String
        /// A code named `rawValue` (a client may define more).
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The user is in the wrong state for the call, no backend is set, or the user cannot
        /// sign (`FLOW_ERROR`).
        public static let flowError = Code(rawValue: "flowError")
        /// A URL outside the trusted domains, or not https while trusted domains are set
        /// (`UNTRUSTED_DOMAIN_ERROR`), or refused by the URL policy.
        public static let untrustedDomain = Code(rawValue: "untrustedDomain")
        /// The identity has not been verified yet; retry `confirmRegistration` later
        /// (`IDENTITY_NOT_VERIFIED`; HTTP 400/401 on the signature request).
        public static let identityNotVerified = Code(rawValue: "identityNotVerified")
        /// The registration expired (HTTP 404 on the signature or register request).
        public static let registrationExpired = Code(rawValue: "registrationExpired")
        /// Time permits could not be obtained: the identity is revoked (`REVOKED`, HTTP 410).
        public static let revoked = Code(rawValue: "revoked")
        /// Wrong PIN or factor (`INCORRECT_PIN`, HTTP 401); see ``MPinError/userBlocked``.
        public static let incorrectPIN = Code(rawValue: "incorrectPIN")
        /// The access code or session is invalid or expired (HTTP 412).
        public static let invalidAccessCode = Code(rawValue: "invalidAccessCode")
        /// The request expired (HTTP 408).
        public static let requestExpired = Code(rawValue: "requestExpired")
        /// The identity is not authorized for this (HTTP 403).
        public static let notAuthorized = Code(rawValue: "notAuthorized")
        /// A cryptographic step failed (`CRYPTO_ERROR`).
        public static let crypto = Code(rawValue: "crypto")
        /// The platform answered with another error status.
        public static let server = Code(rawValue: "server")
        /// The answer could not be parsed or holds invalid values.
        public static let invalidResponse = Code(rawValue: "invalidResponse")
        /// Input that cannot be used (a QR text, a URL, an empty identity).
        public static let invalidInput = Code(rawValue: "invalidInput")
        /// No HTTP answer arrived.
        public static let transport = Code(rawValue: "transport")
        /// The secure store failed or holds a record that cannot be trusted.
        public static let store = Code(rawValue: "store")
    }

    /// The earlier name of ``Code``.
    public typealias Reason = Code

    /// What went wrong.
    public let code: Code
    /// What went wrong (the earlier name of ``code``).
    public var reason: Code { code }
    /// A human-readable explanation (never a secret).
    public let message: String
    /// The error behind this one: the protocol core's, the transport's or the store's.
    public let cause: (any Error & Sendable)?
    /// The HTTP status of a server error.
    public let httpStatus: Int?
    /// The store's error.
    public var storeError: SecureStoreError? { cause as? SecureStoreError }
    /// The file that raised the error.
    public let file: String
    /// The line that raised the error.
    public let line: UInt
    /// With ``Code/incorrectPIN``: the platform blocked the identity (HTTP 410); its token is
    /// deleted and the user is ``MPinUser/State/blocked``.
    public let userBlocked: Bool
    /// MIRACL Trust's error code (`UNSUCCESSFUL_AUTHENTICATION`, `REVOKED_MPINID`, …), when the
    /// platform sent one.
    public internal(set) var platformCode: String?
    /// The platform's error code: MIRACL Trust's, when it sent one.
    public var serverCode: String? { platformCode }

    /// Creates an error; `protocolError`, `transportError` or `storeError` is its cause.
    public init(_ code: Code, _ message: String, userBlocked: Bool = false, httpStatus: Int? = nil, protocolError: ProtocolError? = nil,
                transportError: TransportError? = nil, storeError: SecureStoreError? = nil, file: String = #fileID, line: UInt = #line) {
        self.code = code
        self.message = message
        self.userBlocked = userBlocked
        self.httpStatus = httpStatus
        cause = firstCause(protocolError, transportError, storeError)
        platformCode = nil
        self.file = file
        self.line = line
    }

    /// Errors are equal when their codes and the blocked flag are.
    public static func == (a: MPinError, b: MPinError) -> Bool { a.code == b.code && a.userBlocked == b.userBlocked }

    /// `code: message [HTTP n] [platform code] (cause)`, and whether the user is blocked.
    public var description: String {
        var text = "\(code): \(message)"
        if let httpStatus { text += " [HTTP \(httpStatus)]" }
        if let platformCode { text += " [\(platformCode)]" }
        if userBlocked { text += " [user blocked]" }
        return text
    }

    /// The error for a non-2xx answer (mpin.md §7.1 item 6: 401 wrong PIN, 410 blocked or
    /// revoked, 412 invalid access code or authOTT, 408 expired, 403 not authorized, 404 expired
    /// registration), read in the context of `step`.
    package static func status(_ status: Int, step: Step, body: [UInt8]) -> MPinError {
        let text = String(decoding: body.prefix(200), as: UTF8.self).filter { !$0.isNewline }
        let message = "\(step.rawValue): " + (text.isEmpty ? "HTTP \(status)" : text)
        if let code = MPinTrust.errorCode(in: body) {   // MIRACL Trust's v2 error body (mpin.md §7.3)
            var error = trust(code, status: status, step: step, message: message)
            error.platformCode = code
            return error
        }
        switch (status, step) {
        case (401, .authenticate): return MPinError(.incorrectPIN, message, httpStatus: status)
        case (410, .authenticate): return MPinError(.incorrectPIN, message, userBlocked: true, httpStatus: status)
        case (410, .timePermit): return MPinError(.revoked, message, httpStatus: status)
        case (400, .signature), (401, .signature): return MPinError(.identityNotVerified, message, httpStatus: status)
        case (404, .signature), (404, .register): return MPinError(.registrationExpired, message, httpStatus: status)
        case (412, _): return MPinError(.invalidAccessCode, message, httpStatus: status)
        case (408, _): return MPinError(.requestExpired, message, httpStatus: status)
        case (403, _): return MPinError(.notAuthorized, message, httpStatus: status)
        default: return MPinError(.server, message, httpStatus: status)
        }
    }

    private static func trust(_ code: String, status: Int, step: Step, message: String) -> MPinError {
        switch code {
        case "UNSUCCESSFUL_AUTHENTICATION": return MPinError(.incorrectPIN, message, httpStatus: status)
        case "REVOKED_MPINID" where step == .authenticate: return MPinError(.incorrectPIN, message, userBlocked: true, httpStatus: status)
        case "REVOKED_MPINID": return MPinError(.revoked, message, httpStatus: status)
        case "EXPIRED_MPINID": return MPinError(.registrationExpired, message, httpStatus: status)
        case "INVALID_ACTIVATION_TOKEN", "UNSUCCESSFUL_VERIFICATION": return MPinError(.notAuthorized, message, httpStatus: status)
        case "REQUEST_BACKOFF": return MPinError(.requestExpired, message, httpStatus: status)
        default: return MPinError(.server, message, httpStatus: status)
        }
    }

    /// The request an answer belongs to, which decides what its status means.
    package enum Step: String, Sendable {
        case clientSettings, service, session, authorize, register, signature, clientSecret, timePermit
        case pass1, pass2, authenticate, dvsRegister, verification, signingSession, jwks
    }
}
