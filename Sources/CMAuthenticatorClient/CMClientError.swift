// The CM client's one error (sdk-surfaces.md §4, cm-authenticator.md §1, §3, §4, §6): what went
// wrong, the HTTP status and server message when there was one, and the protocol, transport or
// store error behind it.

public import AuthNetworking
import CMAuthenticator
public import ProtocolSupport
public import SecureStore

/// Why a CM Authenticator client operation failed.
public struct CMClientError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for callers to switch on.
    public enum Reason: Sendable, Equatable {
        /// The device has no id yet: register a phone number first.
        case notRegistered
        /// No environment with that id is stored here.
        case unknownEnvironment
        /// Input that cannot be used: a phone number, a QR code, a refused URL, an OTP request
        /// answered (the device never answers those, §4).
        case invalidInput
        /// The server refused the environment id or secret (HTTP 401 on register, §3).
        case environmentInvalid
        /// The authentication request has expired (HTTP 410, or past `created_at + expiry`, §4).
        case requestExpired
        /// The server answered with another error (``CMClientError/httpStatus``, its message).
        case server
        /// The answer did not parse.
        case invalidResponse
        /// No signed certificate list verified, so nothing can be pinned and the client fails
        /// closed (§6, our assumption for Linux), or the transport refused the peer's certificate.
        case pinning
        /// No HTTP answer arrived.
        case transport
        /// The secure store failed or holds a record that cannot be trusted.
        case store
    }

    /// What went wrong.
    public let reason: Reason
    /// A human-readable explanation (never a secret).
    public let message: String
    /// The HTTP status of a server error.
    public let httpStatus: Int?
    /// The protocol core's error.
    public let protocolError: ProtocolError?
    /// The transport's error.
    public let transportError: TransportError?
    /// The store's error.
    public let storeError: SecureStoreError?

    /// Creates an error.
    public init(_ reason: Reason, _ message: String, httpStatus: Int? = nil, protocolError: ProtocolError? = nil,
                transportError: TransportError? = nil, storeError: SecureStoreError? = nil) {
        self.reason = reason
        self.message = message
        self.httpStatus = httpStatus
        self.protocolError = protocolError
        self.transportError = transportError
        self.storeError = storeError
    }

    /// `reason: message [HTTP n]`.
    public var description: String {
        var text = "\(reason): \(message)"
        if let httpStatus { text += " [HTTP \(httpStatus)]" }
        if let transportError { text += " (\(transportError))" }
        return text
    }

    /// The error of a non-2xx answer (§1, §3, §4).
    static func server(_ error: ProtocolError, status: Int) -> CMClientError {
        switch error.code {
        case .requestExpired: return CMClientError(.requestExpired, error.reason, httpStatus: status, protocolError: error)
        case .environmentInvalid: return CMClientError(.environmentInvalid, error.reason, httpStatus: status, protocolError: error)
        default: return CMClientError(.server, error.reason, httpStatus: status, protocolError: error)
        }
    }
}
