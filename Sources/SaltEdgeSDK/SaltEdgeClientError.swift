// The Salt Edge client's one error (docs/protocols/sdk-surfaces.md §5.9 `SaltEdgeError`; docs/protocols/saltedge-v2.md §10):
// the server's error class and message when it sent them, the HTTP status, and the store,
// protocol or transport error behind it.

public import AuthNetworking
public import ProtocolSupport
public import SecureStore

/// The Salt Edge client's errors: what they carry beyond the shared shape is the server's
/// `error_class`, which is also their server code.
public enum SaltEdgeErrorDomain: ClientErrorDomain {
    /// `SaltEdgeClientError.errorClass`.
    public typealias Extra = String?

    /// The server's error code: its `error_class`.
    public static func serverCode(of error: SaltEdgeClientError) -> String? { error.errorClass }
}

/// Why a Salt Edge client operation failed.
public typealias SaltEdgeClientError = SDKError<SaltEdgeErrorDomain>

extension SDKError where Domain == SaltEdgeErrorDomain {
    /// The store's error.
    public var storeError: SecureStoreError? { cause as? SecureStoreError }
    /// The server's `error_class` (or the client's synthetic one, `AuthenticationError` for a
    /// refused redirect).
    public var errorClass: String? { extra }

    /// Creates an error; `protocolError`, `transportError` or `storeError` is its cause. A
    /// protocol error that says the connection's key could not be used in its token
    /// (`ProtocolError.Code.keyUnavailable`) makes a `deviceKey` error
    /// whatever `code` says, its cause the key store's `DeviceKeyError`: a missing token is
    /// never reported as a bad answer.
    public init(_ code: Code, _ message: String, errorClass: String? = nil, httpStatus: Int? = nil, protocolError: ProtocolError? = nil,
                transportError: TransportError? = nil, storeError: SecureStoreError? = nil, file: String = #fileID, line: UInt = #line) {
        if let protocolError, protocolError.code == .keyUnavailable {
            self.init(.deviceKey, protocolError.message, cause: protocolError.keyError ?? protocolError, httpStatus: httpStatus,
                      extra: errorClass, file: file, line: line)
            return
        }
        self.init(code, message, cause: firstCause(protocolError, transportError, storeError), httpStatus: httpStatus,
                  extra: errorClass, file: file, line: line)
    }

    /// The device key store's error, when a connection key in a token could not be used.
    public var deviceKeyError: DeviceKeyError? { cause as? DeviceKeyError }

    /// Whether the connection is gone on the server (`ConnectionNotFound`, `ConnectionRevoked`, or
    /// HTTP 401/410): stop polling it and offer to reconnect.
    public var connectionIsGone: Bool {
        errorClass == "ConnectionNotFound" || errorClass == "ConnectionRevoked" || httpStatus == 401 || httpStatus == 410
    }

    /// A server answer's error: its class and message (docs/protocols/saltedge-v2.md §10).
    static func server(_ error: ProtocolError, status: Int) -> SaltEdgeClientError {
        SaltEdgeClientError(.server, error.message, errorClass: error.code.rawValue, httpStatus: status, protocolError: error)
    }
}

/// The codes of ``SaltEdgeClientError``, besides the shared `urlRefused`, `cancelled` and `transport`.
extension ClientErrorCodeOf where Client == SaltEdgeClientError {
    /// No connection with that id is stored.
    public static var unknownConnection: Self { Self(rawValue: "unknownConnection") }
    /// The server answered with an error (``SaltEdgeClientError/errorClass``, e.g.
    /// `ConnectionNotFound`, `ConnectionRevoked`, `AuthorizationNotFound`).
    public static var server: Self { Self(rawValue: "server") }
    /// The answer did not decrypt, verify or parse.
    public static var invalidResponse: Self { Self(rawValue: "invalidResponse") }
    /// Input that cannot be used: a deep link, a redirect URL.
    public static var invalidInput: Self { Self(rawValue: "invalidInput") }
    /// The secure store failed or holds a record that cannot be trusted.
    public static var store: Self { Self(rawValue: "store") }
    /// The connection's key in the configured `DeviceKeyStore` (a PKCS #11 token) could not be
    /// used: no token, a refused PIN, a key that is not there
    /// (`deviceKeyError`). Nothing was sent.
    public static var deviceKey: Self { Self(rawValue: "deviceKey") }
}
