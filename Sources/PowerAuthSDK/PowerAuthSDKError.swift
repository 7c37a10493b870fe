// The one public error of the PowerAuth SDK (issue "PowerAuth on a real wire", point 4): a
// reason a caller can switch on, a text for logs, and the underlying store, protocol or
// transport error kept as it was.

public import AuthNetworking
public import ProtocolSupport
public import SecureStore

/// Why a PowerAuth SDK operation failed.
public struct PowerAuthSDKError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for callers to switch on.
    public enum Reason: Sendable, Equatable {
        /// There is no activation (or not a usable one) for the operation.
        case missingActivation
        /// The given authentication cannot unlock the factor keys it names.
        case invalidAuthentication
        /// The signature could not be computed.
        case signing
        /// The secure store failed or holds a record that cannot be trusted.
        case store
        /// No HTTP answer arrived (see ``PowerAuthSDKError/transportError``).
        case transport
        /// The server answered with an error (see ``PowerAuthSDKError/protocolError`` for the
        /// §14.2 code and ``PowerAuthSDKError/httpStatus``).
        case server
        /// The answer did not decrypt, verify or parse.
        case invalidResponse
    }

    /// What went wrong.
    public let reason: Reason
    /// A human-readable explanation (never a secret).
    public let message: String
    /// The store's error, when the store failed.
    public let storeError: SecureStoreError?
    /// The protocol core's error (with the server's §14.2 code for ``Reason/server``).
    public let protocolError: ProtocolError?
    /// The transport's error, for ``Reason/transport``.
    public let transportError: TransportError?
    /// The HTTP status of a server error.
    public let httpStatus: Int?

    /// Creates an error.
    public init(_ reason: Reason, _ message: String, store: SecureStoreError? = nil, protocolError: ProtocolError? = nil,
                transport: TransportError? = nil, httpStatus: Int? = nil) {
        self.reason = reason
        self.message = message
        storeError = store
        self.protocolError = protocolError
        transportError = transport
        self.httpStatus = httpStatus
    }

    /// `reason: message (cause)`.
    public var description: String {
        let cause = storeError.map { "\($0)" } ?? protocolError.map { "\($0)" } ?? transportError.map { "\($0)" }
        return "\(reason): \(message)" + (cause.map { " (\($0))" } ?? "")
    }
}
