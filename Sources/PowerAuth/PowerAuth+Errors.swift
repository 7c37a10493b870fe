// The error envelope of docs/protocols/powerauth.md §14.2 as typed errors: the codes of the standard endpoints,
// and the `currentRecoveryPukIndex` a failed recovery activation carries (§13).

public import ProtocolSupport

extension ProtocolError.Code {
    /// `ERR_AUTHENTICATION`: a signature, token or header problem (HTTP 401, §14.2).
    public static let powerAuthAuthentication = Self(rawValue: "ERR_AUTHENTICATION")
    /// `POWERAUTH_AUTH_FAIL`: the authentication-failure code of application servers (§14.2).
    public static let powerAuthAuthFail = Self(rawValue: "POWERAUTH_AUTH_FAIL")
    /// `ERR_ACTIVATION`: the activation is unknown, in the wrong state, or could not be created.
    public static let powerAuthActivation = Self(rawValue: "ERR_ACTIVATION")
    /// `ERR_ENCRYPTION`: the server could not decrypt or process an ECIES request.
    public static let powerAuthEncryption = Self(rawValue: "ERR_ENCRYPTION")
    /// `ERR_SECURE_VAULT`: the vault unlock was refused.
    public static let powerAuthSecureVault = Self(rawValue: "ERR_SECURE_VAULT")
    /// `ERR_UPGRADE`: the protocol upgrade failed (§14.1; not implemented by this client).
    public static let powerAuthUpgrade = Self(rawValue: "ERR_UPGRADE")
    /// `ERR_RECOVERY`: a recovery code or PUK was refused; see
    /// ``PowerAuth/ErrorResponse/currentRecoveryPukIndex``.
    public static let powerAuthRecovery = Self(rawValue: "ERR_RECOVERY")
    /// `ERR_USER_INFO`: the user-info endpoint failed.
    public static let powerAuthUserInfo = Self(rawValue: "ERR_USER_INFO")
    /// `ERR_TEMPORARY_KEY`: the keystore refused or the temporary key is unknown or expired (§10).
    public static let powerAuthTemporaryKey = Self(rawValue: "ERR_TEMPORARY_KEY")
    /// `ERROR_GENERIC`: any other failure, and every non-2xx answer whose body is not the envelope.
    public static let powerAuthGeneric = Self(rawValue: "ERROR_GENERIC")
}

extension PowerAuth {
    /// A server's error answer (§14.2):
    /// `{"status":"ERROR","responseObject":{"code":…,"message":…}}`, with the optional
    /// `currentRecoveryPukIndex` of `ERR_RECOVERY` (§13).
    public struct ErrorResponse: Sendable, Equatable {
        /// The HTTP status (400 or 401 from a PowerAuth server).
        public let httpStatus: Int
        /// The envelope's `code`; `ProtocolError.Code.powerAuthGeneric` when the body is not
        /// the envelope. Codes this type has no constant for keep their text.
        public let code: ProtocolError.Code
        /// The envelope's `message`, for logs.
        public let message: String?
        /// Which PUK of a recovery postcard to use next (`ERR_RECOVERY` only).
        public let currentRecoveryPukIndex: Int?

        /// Reads `response`; `nil` for a 2xx answer. Never throws: a malformed error body is
        /// still an error, with the generic code.
        public init?(_ response: HTTPResponse) {
            guard !response.isSuccess else { return nil }
            let envelope = try? JSONResponse.decode(Envelope.self, from: response.body, what: "error envelope")
            httpStatus = response.status
            code = envelope?.responseObject?.code.map { ProtocolError.Code(rawValue: $0) } ?? .powerAuthGeneric
            message = envelope?.responseObject?.message
            currentRecoveryPukIndex = envelope?.responseObject?.currentRecoveryPukIndex
        }

        /// The error to throw: the envelope's code, its message (or `HTTP <status>`) as message.
        public var error: ProtocolError {
            ProtocolError(code, message ?? "HTTP \(httpStatus)")
        }

        private struct Envelope: Decodable {
            /// Each field on its own: a field of an unexpected type is dropped, not the envelope.
            struct Body: Decodable {
                let code: String?
                let message: String?
                let currentRecoveryPukIndex: Int?

                init(from decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: Keys.self)
                    // §14.2 envelope read leniently: a member of another type carries no code,
                    // message or index, and the error is still reported by its HTTP status.
                    code = try? container.decodeIfPresent(String.self, forKey: .code)
                    message = try? container.decodeIfPresent(String.self, forKey: .message)
                    currentRecoveryPukIndex = try? container.decodeIfPresent(Int.self, forKey: .currentRecoveryPukIndex)
                }

                enum Keys: String, CodingKey { case code, message, currentRecoveryPukIndex }
            }
            let status: String?
            let responseObject: Body?
        }
    }

    /// Checks the status and, for an error, throws ``ErrorResponse/error`` (§14.2). Callers that
    /// need the PUK index of a refused recovery activation read ``ErrorResponse`` themselves.
    public static func requireSuccess(_ response: HTTPResponse) throws(ProtocolError) {
        if let failure = ErrorResponse(response) { throw failure.error }
    }
}
