// The MIRACL MFA client's one error (docs/protocols/sdk-surfaces.md §3.8 `MpinStatus`, §3.11 naming map):
// the SDK's status values as codes a caller switches on, plus the transport, store and
// response failures a Linux SDK adds, each with the error behind it.

public import AuthNetworking
public import ProtocolSupport
public import SecureStore
package import MPinPlatform

/// The MIRACL MFA client's errors: what they carry beyond the shared shape is whether the user
/// is blocked and MIRACL Trust's error code; they compare and print the blocked flag too.
public enum MPinErrorDomain: ClientErrorDomain {
    /// `MPinError.userBlocked` and `MPinError.platformCode`.
    public struct Extra: Sendable {
        /// ``MPinError/userBlocked``.
        var userBlocked: Bool
        /// ``MPinError/platformCode``.
        var platformCode: String?
    }

    /// Not blocked, no platform code.
    public static var noExtra: Extra { Extra(userBlocked: false, platformCode: nil) }

    /// The platform's error code: MIRACL Trust's, when it sent one.
    public static func serverCode(of error: MPinError) -> String? { error.platformCode }

    /// Errors are equal when their codes and the blocked flag are.
    public static func areEqual(_ a: MPinError, _ b: MPinError) -> Bool { a.code == b.code && a.userBlocked == b.userBlocked }

    /// `code: message [HTTP n] [platform code] (cause)`, and whether the user is blocked.
    public static func description(of error: MPinError) -> String {
        error.standardDescription + (error.userBlocked ? " [user blocked]" : "")
    }
}

/// Why a MIRACL MFA operation failed (`OK` is a normal return).
public typealias MPinError = SDKError<MPinErrorDomain>

extension SDKError where Domain == MPinErrorDomain {
    /// The store's error.
    public var storeError: SecureStoreError? { cause as? SecureStoreError }
    /// With `Code.incorrectPIN`: the platform blocked the identity (HTTP 410); its token is
    /// deleted and the user is ``MPinUser/State/blocked``.
    public var userBlocked: Bool { extra.userBlocked }
    /// MIRACL Trust's error code (`UNSUCCESSFUL_AUTHENTICATION`, `REVOKED_MPINID`, …), when the
    /// platform sent one.
    public internal(set) var platformCode: String? {
        get { extra.platformCode }
        set { extra.platformCode = newValue }
    }

    /// Creates an error; `protocolError`, `transportError` or `storeError` is its cause.
    public init(_ code: Code, _ message: String, userBlocked: Bool = false, httpStatus: Int? = nil, protocolError: ProtocolError? = nil,
                transportError: TransportError? = nil, storeError: SecureStoreError? = nil, file: String = #fileID, line: UInt = #line) {
        self.init(code, message, cause: firstCause(protocolError, transportError, storeError), httpStatus: httpStatus,
                  extra: MPinErrorDomain.Extra(userBlocked: userBlocked, platformCode: nil), file: file, line: line)
    }

    /// The error for a non-2xx answer, read in the context of `step` (the mapping is
    /// ``MPinPlatform/failure(status:step:body:)``, docs/protocols/mpin.md §7.1 item 6 and §7.3).
    package static func status(_ status: Int, step: Step, body: [UInt8]) -> MPinError {
        let text = String(decoding: body.prefix(200), as: UTF8.self).filter { !$0.isNewline }
        let message = "\(step.rawValue): " + (text.isEmpty ? "HTTP \(status)" : text)
        let (failure, platformCode) = MPinPlatform.failure(status: status, step: step, body: body)
        let code: Code
        switch failure {
        case .incorrectPIN, .userBlocked: code = .incorrectPIN
        case .revoked: code = .revoked
        case .identityNotVerified: code = .identityNotVerified
        case .registrationExpired: code = .registrationExpired
        case .invalidAccessCode: code = .invalidAccessCode
        case .requestExpired: code = .requestExpired
        case .notAuthorized: code = .notAuthorized
        case .server: code = .server
        }
        var error = MPinError(code, message, userBlocked: failure == .userBlocked, httpStatus: status)
        error.platformCode = platformCode
        return error
    }

    /// The request an answer belongs to, which decides what its status means.
    package typealias Step = MPinPlatform.Step
}

/// The codes of ``MPinError``, besides the shared `urlRefused`, `cancelled` and `transport`.
extension ClientErrorCodeOf where Client == MPinError {
    /// The user is in the wrong state for the call, no backend is set, or the user cannot
    /// sign (`FLOW_ERROR`).
    public static var flowError: Self { Self(rawValue: "flowError") }
    /// A URL outside the trusted domains, or not https while trusted domains are set
    /// (`UNTRUSTED_DOMAIN_ERROR`). Without trusted domains the URL policy decides, and its
    /// refusal is the shared `urlRefused`.
    public static var untrustedDomain: Self { Self(rawValue: "untrustedDomain") }
    /// The identity has not been verified yet; retry `confirmRegistration` later
    /// (`IDENTITY_NOT_VERIFIED`; HTTP 400/401 on the signature request).
    public static var identityNotVerified: Self { Self(rawValue: "identityNotVerified") }
    /// The registration expired (HTTP 404 on the signature or register request).
    public static var registrationExpired: Self { Self(rawValue: "registrationExpired") }
    /// Time permits could not be obtained: the identity is revoked (`REVOKED`, HTTP 410).
    public static var revoked: Self { Self(rawValue: "revoked") }
    /// Wrong PIN or factor (`INCORRECT_PIN`, HTTP 401); see ``MPinError/userBlocked``.
    public static var incorrectPIN: Self { Self(rawValue: "incorrectPIN") }
    /// The access code or session is invalid or expired (HTTP 412).
    public static var invalidAccessCode: Self { Self(rawValue: "invalidAccessCode") }
    /// The request expired (HTTP 408).
    public static var requestExpired: Self { Self(rawValue: "requestExpired") }
    /// The identity is not authorized for this (HTTP 403).
    public static var notAuthorized: Self { Self(rawValue: "notAuthorized") }
    /// A cryptographic step failed (`CRYPTO_ERROR`).
    public static var crypto: Self { Self(rawValue: "crypto") }
    /// The platform answered with another error status.
    public static var server: Self { Self(rawValue: "server") }
    /// The answer could not be parsed or holds invalid values.
    public static var invalidResponse: Self { Self(rawValue: "invalidResponse") }
    /// Input that cannot be used (a QR text, a URL, an empty identity).
    public static var invalidInput: Self { Self(rawValue: "invalidInput") }
    /// The secure store failed or holds a record that cannot be trusted.
    public static var store: Self { Self(rawValue: "store") }
}
