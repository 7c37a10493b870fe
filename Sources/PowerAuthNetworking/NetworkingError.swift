// The networking layer's one error (docs/protocols/powerauth.md §16 "Errors"; docs/protocols/sdk-surfaces.md §2.5 `WPNError`)
// in the shared shape of every client's errors (docs/design.md §1 "Layer 3 has one shape"):
// `SDKError<NetworkingErrorDomain>`, its codes the `WPNErrorReason` values, what it carries
// beyond the shared shape the REST error of the server's envelope (§14.2), whose code is the
// error's server code. The cause is the PowerAuth SDK's or the transport's error, kept whole.

public import AuthNetworking
public import PowerAuthSDK
import ProtocolSupport

/// A server's REST error envelope `{"status":"ERROR","responseObject":{"code","message"}}`
/// (docs/protocols/powerauth.md §14.2), as `NetworkingError.restAPIError` carries it.
public struct NetworkingRESTAPIError: Sendable, Equatable {
    /// `code`, for example `ERR_AUTHENTICATION` or an application's own.
    public let code: String
    /// `message`, for logs.
    public let message: String?

    /// An envelope's code and message.
    public init(code: String, message: String?) {
        self.code = code
        self.message = message
    }
}

/// The networking service's errors: what they carry beyond the shared shape is the server's
/// REST error envelope, whose `code` is also their server code.
public enum NetworkingErrorDomain: ClientErrorDomain {
    /// `NetworkingError.restAPIError`.
    public typealias Extra = NetworkingRESTAPIError?

    /// The server's error code: the `code` of its REST error envelope (docs/protocols/powerauth.md §14.2).
    public static func serverCode(of error: NetworkingError) -> String? { error.restAPIError?.code }

    /// The shared mapping (`urlRefused`, `cancelled`), with `WPNErrorReason`'s finer codes in
    /// place of `transport` (docs/protocols/sdk-surfaces.md §2.5).
    public static func code(forNoAnswer error: TransportError) -> NetworkingError.Code {
        switch error.kind {
        case .urlRefused, .cancelled: sharedCode(forNoAnswer: error)
        case .timedOut: .timeout
        case .unreachable: .noConnection
        case .tls: .tlsError
        case .badResponse: .badServerResponse
        case .invalidRequest: .invalidRequestObject
        default: .networkGeneric
        }
    }
}

/// Why a networking call failed (`WPNError`).
public typealias NetworkingError = SDKError<NetworkingErrorDomain>

extension SDKError where Domain == NetworkingErrorDomain {
    /// The server's error envelope, when it sent one (plain or end-to-end encrypted, §16).
    public var restAPIError: NetworkingRESTAPIError? { extra }
    /// The PowerAuth SDK's error behind this one.
    public var powerAuthError: PowerAuthSDKError? { cause as? PowerAuthSDKError }
    /// The transport's error behind this one, directly or behind the PowerAuth SDK's error.
    public var transportError: TransportError? { (cause as? TransportError) ?? powerAuthError?.transportError }

    /// The network cannot be reached (`networkIsNotReachable`).
    public var networkIsNotReachable: Bool { code == .noConnection }
    /// The TLS connection is not trusted (`networkConnectionIsNotTrusted`).
    public var networkConnectionIsNotTrusted: Bool { code == .tlsError }

    /// Creates an error raised at `file`:`line`; `powerAuthError`, `transportError` or `cause` is
    /// its cause (the first given), `restAPIError` the server's envelope when it sent one.
    public init(_ code: Code, _ message: String, restAPIError: NetworkingRESTAPIError? = nil, httpStatus: Int? = nil,
                powerAuthError: PowerAuthSDKError? = nil, transportError: TransportError? = nil, cause: (any Error & Sendable)? = nil,
                file: String = #fileID, line: UInt = #line) {
        self.init(code, message, cause: firstCause(powerAuthError, transportError, cause), httpStatus: httpStatus,
                  extra: restAPIError, file: file, line: line)
    }

    /// The networking code for a transport failure; the transport's error is the cause.
    static func transport(_ error: TransportError, file: String = #fileID, line: UInt = #line) -> NetworkingError {
        NetworkingError(noAnswer: error, "no answer from the server", file: file, line: line)
    }

    /// The networking code for an SDK failure before or around sending; the SDK's error is the
    /// cause, and a server's §14.2 code in it becomes the REST error.
    static func sdk(_ error: PowerAuthSDKError, file: String = #fileID, line: UInt = #line) -> NetworkingError {
        let code: Code
        var rest: NetworkingRESTAPIError?
        switch error.code {
        case .transport: code = error.transportError.map(NetworkingErrorDomain.code(forNoAnswer:)) ?? .networkGeneric
        case .urlRefused: code = .urlRefused
        case .missingActivation: code = .missingActivation
        case .encryption: code = .e2eeError
        case .invalidToken: code = .tokenError
        case .cancelled: code = .cancelled
        case .server, .authenticationFailed:
            code = .errorStatusCode
            rest = error.protocolError.map { NetworkingRESTAPIError(code: $0.code.rawValue, message: $0.message) }
        case .invalidResponse: code = .invalidResponseObject
        default: code = .signError
        }
        return NetworkingError(code, error.message, restAPIError: rest, httpStatus: error.httpStatus, powerAuthError: error, file: file, line: line)
    }
}

/// The codes of ``NetworkingError`` (`WPNErrorReason`; other layers may add their own), besides
/// the shared `urlRefused` and `cancelled` (a networking error is never plain `transport`).
extension ClientErrorCodeOf where Client == NetworkingError {
    /// A fallback.
    public static var unknown: Self { Self(rawValue: "unknown") }
    /// The client has no activation (signed and token endpoints, activation scope).
    public static var missingActivation: Self { Self(rawValue: "missingActivation") }
    /// An unexpected error while networking (usually a logic error).
    public static var networkUnknown: Self { Self(rawValue: "network_unknown") }
    /// A generic network issue.
    public static var networkGeneric: Self { Self(rawValue: "network_generic") }
    /// An HTTP status other than 2xx, or an envelope whose status is not `OK` (see
    /// ``NetworkingError/httpStatus`` and ``NetworkingError/serverCode``).
    public static var errorStatusCode: Self { Self(rawValue: "network_errorStatusCode") }
    /// A 2xx answer whose content is not the expected response object.
    public static var invalidResponseObject: Self { Self(rawValue: "network_invalidResponseObject") }
    /// The request object could not be encoded; nothing was sent.
    public static var invalidRequestObject: Self { Self(rawValue: "network_invalidRequestObject") }
    /// The request could not be signed (a wrong password is ``errorStatusCode`` with HTTP 401).
    public static var signError: Self { Self(rawValue: "network_signError") }
    /// No answer in time.
    public static var timeout: Self { Self(rawValue: "network_timeOut") }
    /// The server cannot be reached.
    public static var noConnection: Self { Self(rawValue: "network_noInternetConnection") }
    /// A malformed HTTP answer.
    public static var badServerResponse: Self { Self(rawValue: "network_badServerResponse") }
    /// A TLS failure (see ``NetworkingError/transportError``).
    public static var tlsError: Self { Self(rawValue: "network_sslError") }
    /// End-to-end encryption failed on this side (the answer does not decrypt, or the
    /// request cannot be encrypted).
    public static var e2eeError: Self { Self(rawValue: "network_e2eeError") }
    /// The token cannot be created or is refused after being created again.
    public static var tokenError: Self { Self(rawValue: "network_tokenError") }
}
