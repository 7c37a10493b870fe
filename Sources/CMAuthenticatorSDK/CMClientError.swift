// The CM client's one error (docs/protocols/sdk-surfaces.md §4, docs/protocols/cm-authenticator.md §1, §3, §4, §6): what went
// wrong, the HTTP status and server message when there was one, and the protocol, transport or
// store error behind it.

public import AuthNetworking
import CMAuthenticator
public import ProtocolSupport
public import SecureStore

/// The CM Authenticator client's errors: nothing beyond the shared shape; the server code is
/// the protocol core's, when a server answered.
public enum CMErrorDomain: ClientErrorDomain {}

/// Why a CM Authenticator client operation failed.
public typealias CMClientError = SDKError<CMErrorDomain>

extension SDKError where Domain == CMErrorDomain {
    /// The store's error.
    public var storeError: SecureStoreError? { cause as? SecureStoreError }

    /// Creates an error; `protocolError`, `transportError` or `storeError` is its cause. A
    /// protocol error that says the environment secret could not be used in its token
    /// (`ProtocolError.Code.keyUnavailable`) makes a `deviceKey` error
    /// whatever `code` says, its cause the key store's `DeviceKeyError`.
    public init(_ code: Code, _ message: String, httpStatus: Int? = nil, protocolError: ProtocolError? = nil,
                transportError: TransportError? = nil, storeError: SecureStoreError? = nil, file: String = #fileID, line: UInt = #line) {
        if let protocolError, protocolError.code == .keyUnavailable {
            self.init(.deviceKey, protocolError.message, cause: protocolError.keyError ?? protocolError, httpStatus: httpStatus, extra: (),
                      file: file, line: line)
            return
        }
        self.init(code, message, cause: firstCause(protocolError, transportError, storeError), httpStatus: httpStatus, extra: (),
                  file: file, line: line)
    }

    /// The device key store's error, when an environment secret in a token could not be used.
    public var deviceKeyError: DeviceKeyError? { cause as? DeviceKeyError }

    /// The error of a non-2xx answer (§1, §3, §4).
    static func server(_ error: ProtocolError, status: Int) -> CMClientError {
        switch error.code {
        case .requestExpired: return CMClientError(.requestExpired, error.message, httpStatus: status, protocolError: error)
        case .environmentInvalid: return CMClientError(.environmentInvalid, error.message, httpStatus: status, protocolError: error)
        default: return CMClientError(.server, error.message, httpStatus: status, protocolError: error)
        }
    }
}

/// The codes of ``CMClientError``, besides the shared `urlRefused`, `cancelled` and `transport`.
extension ClientErrorCodeOf where Client == CMClientError {
    /// The device has no id yet: register a phone number first.
    public static var notRegistered: Self { Self(rawValue: "notRegistered") }
    /// No environment with that id is stored here.
    public static var unknownEnvironment: Self { Self(rawValue: "unknownEnvironment") }
    /// Input that cannot be used: a phone number, a QR code, an OTP request
    /// answered (the device never answers those, §4).
    public static var invalidInput: Self { Self(rawValue: "invalidInput") }
    /// The server refused the environment id or secret (HTTP 401 on register, §3).
    public static var environmentInvalid: Self { Self(rawValue: "environmentInvalid") }
    /// The authentication request has expired (HTTP 410, or past `created_at + expiry`, §4).
    public static var requestExpired: Self { Self(rawValue: "requestExpired") }
    /// The server answered with another error (``CMClientError/httpStatus``, its message).
    public static var server: Self { Self(rawValue: "server") }
    /// The answer did not parse.
    public static var invalidResponse: Self { Self(rawValue: "invalidResponse") }
    /// No signed certificate list verified, so nothing can be pinned and the client fails
    /// closed (§6, our assumption for Linux), or the transport refused the peer's certificate.
    public static var pinning: Self { Self(rawValue: "pinning") }
    /// The environment secret in the configured `DeviceKeyStore` (a PKCS #11 token) could not
    /// be used: no token, a refused PIN, a key that is not there (`deviceKeyError`).
    /// Nothing was sent.
    public static var deviceKey: Self { Self(rawValue: "deviceKey") }
    /// The secure store failed or holds a record that cannot be trusted.
    public static var store: Self { Self(rawValue: "store") }
}
