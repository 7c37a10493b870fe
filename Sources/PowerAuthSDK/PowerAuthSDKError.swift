// The one public error of the PowerAuth SDK: a
// code a caller can switch on, a text for logs, and the underlying store, protocol or
// transport error kept as it was.

public import AuthNetworking
public import ProtocolSupport
public import SecureStore

/// The PowerAuth SDK's errors: what they carry beyond the shared shape is the recovery PUK index.
public enum PowerAuthErrorDomain: ClientErrorDomain {
    /// `PowerAuthSDKError.currentRecoveryPukIndex`.
    public typealias Extra = Int?
}

/// Why a PowerAuth SDK operation failed.
public typealias PowerAuthSDKError = SDKError<PowerAuthErrorDomain>

extension SDKError where Domain == PowerAuthErrorDomain {
    /// The store's error, when the store failed.
    public var storeError: SecureStoreError? { cause as? SecureStoreError }
    /// Which PUK of a recovery postcard to use next, when the server refused a recovery
    /// activation with `ERR_RECOVERY` (§13).
    public var currentRecoveryPukIndex: Int? { extra }

    /// Creates an error; `protocolError`, `transportError` or `storeError` is its cause. Its
    /// server code is the §14.2 error code (`ERR_AUTHENTICATION`, …), when a server answered
    /// with one.
    public init(_ code: Code, _ message: String, currentRecoveryPukIndex: Int? = nil, httpStatus: Int? = nil,
                protocolError: ProtocolError? = nil, transportError: TransportError? = nil, storeError: SecureStoreError? = nil,
                file: String = #fileID, line: UInt = #line) {
        self.init(code, message, cause: firstCause(protocolError, transportError, storeError), httpStatus: httpStatus,
                  extra: currentRecoveryPukIndex, file: file, line: line)
    }
}

/// The codes of ``PowerAuthSDKError``, besides the shared `urlRefused`, `cancelled` and `transport`.
extension ClientErrorCodeOf where Client == PowerAuthSDKError {
    /// There is no activation for the operation (`PA2ErrorCodeMissingActivation`).
    public static var missingActivation: Self { Self(rawValue: "missingActivation") }
    /// The operation is not allowed in the current state, for example creating an activation
    /// while one exists or is pending (`PA2ErrorCodeInvalidActivationState`).
    public static var invalidActivationState: Self { Self(rawValue: "invalidActivationState") }
    /// The configuration (keys, configuration string, protocol version) is not usable.
    public static var invalidConfiguration: Self { Self(rawValue: "invalidConfiguration") }
    /// The given authentication cannot unlock the factor keys it names, or lacks one the
    /// operation needs (a wrong password is only detected by the server: see
    /// ``authenticationFailed``).
    public static var invalidAuthentication: Self { Self(rawValue: "invalidAuthentication") }
    /// The server refused the signature or token: HTTP 401, `ERR_AUTHENTICATION` or
    /// `POWERAUTH_AUTH_FAIL` — a wrong password, for example (`PA2ErrorCodeAuthenticationFailed`).
    /// The server counted a failed attempt.
    public static var authenticationFailed: Self { Self(rawValue: "authenticationFailed") }
    /// The signature could not be computed.
    public static var signing: Self { Self(rawValue: "signing") }
    /// End-to-end encryption failed on this side: a request that cannot be built, or a 3.3
    /// temporary key that does not verify (`PA2ErrorCodeEncryption`).
    public static var encryption: Self { Self(rawValue: "encryption") }
    /// No token of that name, or a token the server no longer accepts (`PA2ErrorCodeInvalidToken`).
    public static var invalidToken: Self { Self(rawValue: "invalidToken") }
    /// The secure store failed or holds a record that cannot be trusted.
    public static var store: Self { Self(rawValue: "store") }
    /// The server answered with an error (see ``PowerAuthSDKError/protocolError`` for the
    /// §14.2 code and ``PowerAuthSDKError/httpStatus``).
    public static var server: Self { Self(rawValue: "server") }
    /// The answer did not decrypt, verify or parse — or carried a number out of any sane
    /// range (a server time beyond year 9999, for example).
    public static var invalidResponse: Self { Self(rawValue: "invalidResponse") }
    /// The activation code's `#signature` does not verify with `KEY_SERVER_MASTER_PUBLIC`
    /// (docs/protocols/powerauth.md §3.2): the code was altered or not issued by this server. Nothing was
    /// sent, so the code is still unspent on the server.
    public static var invalidActivationCode: Self { Self(rawValue: "invalidActivationCode") }
    /// The new password cannot protect the knowledge factor: shorter than
    /// ``PowerAuthClient/minimumPasswordLength`` bytes (docs/protocols/powerauth.md §4.2). Refused before any
    /// request, so no one-time code and no counter step is spent.
    public static var invalidPassword: Self { Self(rawValue: "invalidPassword") }
    /// The signature counter cannot be reconciled with the server's (docs/protocols/powerauth.md §6.4,
    /// the client-only DEADLOCK state): no signature from this device can be accepted any
    /// more, so none is sent. Remove the activation (``PowerAuthClient/removeActivationLocally()``)
    /// and activate the device again.
    public static var counterDeadlock: Self { Self(rawValue: "counterDeadlock") }
}
