// The networking layer's one error (powerauth.md §16 "Errors"; sdk-surfaces.md §2.5 `WPNError`):
// an extensible reason to switch on, the REST error of the server's envelope (§14.2), the HTTP
// status, and the underlying SDK or transport error.

public import AuthNetworking
public import PowerAuthSDK
import ProtocolSupport

/// Why a networking call failed.
public struct NetworkingError: Error, Sendable, CustomStringConvertible {
    /// The reason, extensible as `WPNErrorReason` is (other layers may add their own).
    public struct Reason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The reason's name.
        public let rawValue: String
        /// A reason from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The name.
        public var description: String { rawValue }

        /// A fallback.
        public static let unknown = Reason(rawValue: "unknown")
        /// The client has no activation (signed and token endpoints, activation scope).
        public static let missingActivation = Reason(rawValue: "missingActivation")
        /// An unexpected error while networking (usually a logic error).
        public static let networkUnknown = Reason(rawValue: "network_unknown")
        /// A generic network issue.
        public static let networkGeneric = Reason(rawValue: "network_generic")
        /// An HTTP status other than 2xx (see ``NetworkingError/httpStatus`` and ``NetworkingError/restAPIError``).
        public static let errorStatusCode = Reason(rawValue: "network_errorStatusCode")
        /// A 2xx answer whose content is not the expected response object.
        public static let invalidResponseObject = Reason(rawValue: "network_invalidResponseObject")
        /// The request object could not be encoded; nothing was sent.
        public static let invalidRequestObject = Reason(rawValue: "network_invalidRequestObject")
        /// The request could not be signed (a wrong password is ``errorStatusCode`` with HTTP 401).
        public static let signError = Reason(rawValue: "network_signError")
        /// No answer in time.
        public static let timeout = Reason(rawValue: "network_timeOut")
        /// The server cannot be reached.
        public static let noConnection = Reason(rawValue: "network_noInternetConnection")
        /// A malformed HTTP answer.
        public static let badServerResponse = Reason(rawValue: "network_badServerResponse")
        /// A TLS failure (see the transport error).
        public static let tlsError = Reason(rawValue: "network_sslError")
        /// End-to-end encryption failed on this side (the answer does not decrypt, or the
        /// request cannot be encrypted).
        public static let e2eeError = Reason(rawValue: "network_e2eeError")
        /// The token cannot be created or is refused after being created again.
        public static let tokenError = Reason(rawValue: "network_tokenError")
        /// The call was cancelled.
        public static let cancelled = Reason(rawValue: "network_cancelled")
        /// The service cannot be built as configured: a base URL the URL policy refuses
        /// (plain `http://`, another scheme, a bare host name); nothing was sent.
        public static let invalidConfiguration = Reason(rawValue: "network_invalidConfiguration")
    }

    /// A server's REST error envelope `{"status":"ERROR","responseObject":{"code","message"}}`.
    public struct RESTAPIError: Sendable, Equatable {
        /// `code`, for example `ERR_AUTHENTICATION` or an application's own.
        public let code: String
        /// `message`, for logs.
        public let message: String?
    }

    /// Why it failed.
    public let reason: Reason
    /// The server's error envelope, when it sent one (plain or end-to-end encrypted).
    public let restAPIError: RESTAPIError?
    /// The HTTP status, when an answer came.
    public let httpStatus: Int?
    /// The PowerAuth SDK's error behind this one.
    public let powerAuthError: PowerAuthSDKError?
    /// The transport's error behind this one.
    public let transportError: TransportError?
    /// More detail, for logs.
    public let message: String

    /// Creates an error.
    public init(_ reason: Reason, _ message: String, restAPIError: RESTAPIError? = nil, httpStatus: Int? = nil,
                powerAuthError: PowerAuthSDKError? = nil, transportError: TransportError? = nil) {
        self.reason = reason
        self.message = message
        self.restAPIError = restAPIError
        self.httpStatus = httpStatus
        self.powerAuthError = powerAuthError
        self.transportError = transportError
    }

    /// The network cannot be reached (`networkIsNotReachable`).
    public var networkIsNotReachable: Bool { reason == .noConnection }
    /// The TLS connection is not trusted (`networkConnectionIsNotTrusted`).
    public var networkConnectionIsNotTrusted: Bool { reason == .tlsError }

    /// `reason: message [HTTP n] [code]`.
    public var description: String {
        var text = "\(reason): \(message)"
        if let httpStatus { text += " [HTTP \(httpStatus)]" }
        if let restAPIError { text += " [\(restAPIError.code)\(restAPIError.message.map { ": " + $0 } ?? "")]" }
        return text
    }

    /// The networking reason for a transport failure.
    static func transport(_ error: TransportError) -> NetworkingError {
        let reason: Reason = switch error.kind {
        case .timedOut: .timeout
        case .unreachable: .noConnection
        case .tls: .tlsError
        case .cancelled: .cancelled
        case .badResponse: .badServerResponse
        case .invalidRequest: .invalidRequestObject
        case .urlRefused: .invalidConfiguration
        default: .networkGeneric
        }
        return NetworkingError(reason, "no answer from the server", transportError: error)
    }

    /// The networking reason for an SDK failure before or around sending.
    static func sdk(_ error: PowerAuthSDKError) -> NetworkingError {
        switch error.reason {
        case .transport:
            if let transport = error.transportError {
                let mapped = NetworkingError.transport(transport)
                return NetworkingError(mapped.reason, mapped.message, powerAuthError: error, transportError: transport)
            }
            return NetworkingError(.networkGeneric, error.message, powerAuthError: error)
        case .missingActivation: return NetworkingError(.missingActivation, error.message, powerAuthError: error)
        case .encryption: return NetworkingError(.e2eeError, error.message, powerAuthError: error)
        case .invalidToken: return NetworkingError(.tokenError, error.message, powerAuthError: error)
        case .cancelled: return NetworkingError(.cancelled, error.message, powerAuthError: error)
        case .server, .authenticationFailed:
            let code = error.protocolError.map { RESTAPIError(code: $0.code.rawValue, message: $0.reason) }
            return NetworkingError(.errorStatusCode, error.message, restAPIError: code, httpStatus: error.httpStatus, powerAuthError: error)
        case .invalidResponse: return NetworkingError(.invalidResponseObject, error.message, httpStatus: error.httpStatus, powerAuthError: error)
        default: return NetworkingError(.signError, error.message, powerAuthError: error)
        }
    }
}
