// The one public error of the PowerAuth SDK: a
// reason a caller can switch on, a text for logs, and the underlying store, protocol or
// transport error kept as it was.

public import AuthNetworking
public import ProtocolSupport
public import SecureStore

/// Why a PowerAuth SDK operation failed.
public struct PowerAuthSDKError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for callers to switch on.
    public enum Reason: Sendable, Equatable {
        /// There is no activation for the operation (`PA2ErrorCodeMissingActivation`).
        case missingActivation
        /// The operation is not allowed in the current state, for example creating an activation
        /// while one exists or is pending (`PA2ErrorCodeInvalidActivationState`).
        case invalidActivationState
        /// The configuration (keys, configuration string, protocol version) is not usable.
        case invalidConfiguration
        /// The given authentication cannot unlock the factor keys it names, or lacks one the
        /// operation needs (a wrong password is only detected by the server: see
        /// ``authenticationFailed``).
        case invalidAuthentication
        /// The server refused the signature or token: HTTP 401, `ERR_AUTHENTICATION` or
        /// `POWERAUTH_AUTH_FAIL` — a wrong password, for example (`PA2ErrorCodeAuthenticationFailed`).
        /// The server counted a failed attempt.
        case authenticationFailed
        /// The signature could not be computed.
        case signing
        /// End-to-end encryption failed on this side: a request that cannot be built, or a 3.3
        /// temporary key that does not verify (`PA2ErrorCodeEncryption`).
        case encryption
        /// No token of that name, or a token the server no longer accepts (`PA2ErrorCodeInvalidToken`).
        case invalidToken
        /// The secure store failed or holds a record that cannot be trusted.
        case store
        /// No HTTP answer arrived (see ``PowerAuthSDKError/transportError``).
        case transport
        /// The server answered with an error (see ``PowerAuthSDKError/protocolError`` for the
        /// §14.2 code and ``PowerAuthSDKError/httpStatus``).
        case server
        /// The operation was cancelled (`PA2ErrorCodeOperationCancelled`).
        case cancelled
        /// The answer did not decrypt, verify or parse — or carried a number out of any sane
        /// range (a server time beyond year 9999, for example).
        case invalidResponse
        /// The activation code's `#signature` does not verify with `KEY_SERVER_MASTER_PUBLIC`
        /// (powerauth.md §3.2): the code was altered or not issued by this server. Nothing was
        /// sent, so the code is still unspent on the server.
        case invalidActivationCode
        /// The new password cannot protect the knowledge factor: shorter than
        /// ``PowerAuthClient/minimumPasswordLength`` bytes (powerauth.md §4.2). Refused before any
        /// request, so no one-time code and no counter step is spent.
        case invalidPassword
        /// The signature counter cannot be reconciled with the server's (powerauth.md §6.4,
        /// the client-only DEADLOCK state): no signature from this device can be accepted any
        /// more, so none is sent. Remove the activation (``PowerAuthClient/removeActivationLocal()``)
        /// and activate the device again.
        case counterDeadlock
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
    /// Which PUK of a recovery postcard to use next, when the server refused a recovery
    /// activation with `ERR_RECOVERY` (§13).
    public let currentRecoveryPukIndex: Int?

    /// Creates an error.
    public init(_ reason: Reason, _ message: String, store: SecureStoreError? = nil, protocolError: ProtocolError? = nil,
                transport: TransportError? = nil, httpStatus: Int? = nil, currentRecoveryPukIndex: Int? = nil) {
        self.reason = reason
        self.message = message
        storeError = store
        self.protocolError = protocolError
        transportError = transport
        self.httpStatus = httpStatus
        self.currentRecoveryPukIndex = currentRecoveryPukIndex
    }

    /// `reason: message (cause)`.
    public var description: String {
        let cause = storeError.map { "\($0)" } ?? protocolError.map { "\($0)" } ?? transportError.map { "\($0)" }
        return "\(reason): \(message)" + (cause.map { " (\($0))" } ?? "")
    }
}
