// The Salt Edge client's one error (sdk-surfaces.md §5.9 `SaltEdgeError`; saltedge-v2.md §10):
// the server's error class and message when it sent them, the HTTP status, and the store,
// protocol or transport error behind it.

public import AuthNetworking
public import ProtocolSupport
public import SecureStore

/// Why a Salt Edge client operation failed.
public struct SaltEdgeClientError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for callers to switch on.
    public enum Reason: Sendable, Equatable {
        /// No connection with that id is stored.
        case unknownConnection
        /// The server answered with an error (``SaltEdgeClientError/errorClass``, e.g.
        /// `ConnectionNotFound`, `ConnectionRevoked`, `AuthorizationNotFound`).
        case server
        /// The answer did not decrypt, verify or parse.
        case invalidResponse
        /// Input that cannot be used: a deep link, a redirect URL, a refused URL scheme.
        case invalidInput
        /// No HTTP answer arrived.
        case transport
        /// The secure store failed or holds a record that cannot be trusted.
        case store
    }

    /// What went wrong.
    public let reason: Reason
    /// A human-readable explanation (never a secret).
    public let message: String
    /// The server's `error_class` (or the client's synthetic one, `AuthenticationError` for a
    /// refused redirect).
    public let errorClass: String?
    /// The HTTP status of a server error.
    public let httpStatus: Int?
    /// The protocol core's error.
    public let protocolError: ProtocolError?
    /// The transport's error.
    public let transportError: TransportError?
    /// The store's error.
    public let storeError: SecureStoreError?

    /// Creates an error.
    public init(_ reason: Reason, _ message: String, errorClass: String? = nil, httpStatus: Int? = nil, protocolError: ProtocolError? = nil,
                transportError: TransportError? = nil, storeError: SecureStoreError? = nil) {
        self.reason = reason
        self.message = message
        self.errorClass = errorClass
        self.httpStatus = httpStatus
        self.protocolError = protocolError
        self.transportError = transportError
        self.storeError = storeError
    }

    /// Whether the connection is gone on the server (`ConnectionNotFound`, `ConnectionRevoked`, or
    /// HTTP 401/410): stop polling it and offer to reconnect.
    public var connectionIsGone: Bool {
        errorClass == "ConnectionNotFound" || errorClass == "ConnectionRevoked" || httpStatus == 401 || httpStatus == 410
    }

    /// `reason: message [HTTP n] [class]`.
    public var description: String {
        var text = "\(reason): \(message)"
        if let httpStatus { text += " [HTTP \(httpStatus)]" }
        if let errorClass { text += " [\(errorClass)]" }
        if let protocolError, errorClass == nil { text += " (\(protocolError))" }
        return text
    }

    /// A server answer's error: its class and message (saltedge-v2.md §10).
    static func server(_ error: ProtocolError, status: Int) -> SaltEdgeClientError {
        SaltEdgeClientError(.server, error.reason, errorClass: error.code.rawValue, httpStatus: status, protocolError: error)
    }
}
