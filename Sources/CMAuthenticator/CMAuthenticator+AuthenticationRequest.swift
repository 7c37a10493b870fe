// Authentication requests (docs/protocols/cm-authenticator.md §4): fetch the open one of an environment, show
// an OTP until it expires, answer an instant one with approved / denied.

public import CryptoPrimitives
public import FoundationEssentials
public import ProtocolSupport

extension CMAuthenticator {
    /// An OTP the server generated (`pin`, §4.1): shown to the user, never computed or stored by
    /// us. Redacted in `description` and `dump`.
    public struct OneTimePIN: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
        /// The PIN's UTF-8 bytes.
        public let rawRepresentation: SecretBytes

        /// The PIN text, for display. Exposes the secret.
        public var displayText: String { String(decoding: rawRepresentation.unsafeExposedBytes, as: UTF8.self) }  // shown to the user

        /// `OneTimePIN(redacted)`.
        public var description: String { "CMAuthenticator.OneTimePIN(redacted)" }

        /// No children.
        public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
    }

    /// The answer a device may give (§4: only `approved` or `denied`, only to instant requests).
    public enum Answer: String, Sendable {
        case approved
        case denied
    }

    /// An open authentication request (§4).
    public struct AuthenticationRequest: Sendable, Equatable {
        /// Instant (approve / deny) or OTP (show the PIN).
        public enum Kind: Sendable, Equatable {
            case instant
            case oneTimePIN(OneTimePIN)
        }

        /// The request id.
        public let id: String
        /// What the user must do.
        public let kind: Kind
        /// Seconds it stays open after ``createdAt`` (§4: a duration, not a timestamp).
        public let expiry: Int64
        /// Creation time.
        public let createdAt: Date
        /// The requester's IP address, if given.
        public let ip: String?
        /// The requester's location, if given (`country_code`, `region`, `city`, `latitude`, `longitude`).
        public let geoIP: [String: JSONScalar]?
        /// The status, when the server includes it.
        public let status: String?

        /// When it stops being answerable: ``createdAt`` + ``expiry`` seconds.
        public var expiresAt: Date { createdAt.addingTimeInterval(Double(expiry)) }

        /// Whether it has expired at `now`.
        public func isExpired(at now: Date) -> Bool { now >= expiresAt }

        /// Parses `GET …/auth`: a JSON array of which the first element counts; `nil` when empty
        /// (nothing pending). An OTP request without `pin`, or an unknown `auth_type`, is malformed.
        public static func pending(from response: HTTPResponse) throws(ProtocolError) -> AuthenticationRequest? {
            try CMAuthenticator.requireSuccess(response)
            // Only the first element counts (both SDKs); the rest is not even decoded.
            let first = try JSONResponse.decode(FirstElement.self, from: response.body, what: "authentication requests").value
            return try first.map(AuthenticationRequest.init)
        }

        private init(_ wire: Wire) throws(ProtocolError) {
            switch wire.auth_type {
            case "instant": kind = .instant
            case "otp":
                guard let pin = wire.pin, !pin.isEmpty else { throw ProtocolError(.malformedInput, "OTP request without pin") }
                kind = .oneTimePIN(OneTimePIN(rawRepresentation: SecretBytes(pin.utf8)))
            default: throw ProtocolError(.malformedInput, "unknown auth_type")
            }
            guard (wire.expiry ?? defaultRequestExpiry) > 0 else { throw ProtocolError(.malformedInput, "expiry must be positive") }
            id = wire.id
            // §4: a duration from the server, clamped before any date arithmetic uses it.
            expiry = min(wire.expiry ?? defaultRequestExpiry, maximumRequestExpiry)
            createdAt = wire.created_at.date
            ip = wire.ip
            geoIP = wire.geoip
            status = wire.auth_status
        }

        private struct FirstElement: Decodable {
            let value: Wire?

            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                value = container.isAtEnd ? nil : try container.decode(Wire.self)
            }
        }

        private struct Wire: Decodable {
            let id: String
            let auth_type: String
            let expiry: Int64?
            let pin: String?
            let ip: String?
            let geoip: [String: JSONScalar]?
            let created_at: ISO8601Date
            let auth_status: String?
        }
    }

    /// Interprets the answer to ``Requests/answer(_:to:in:now:)``: any 2xx is success and its
    /// `auth_status` (if any) is returned; 410 is `ProtocolError.Code.requestExpired`. The 2xx is
    /// the answer (docs/protocols/cm-authenticator.md §4): the server has taken the decision, so a
    /// body that is empty, not JSON or without a text `auth_status` reports no status rather
    /// than failing an approval that took effect.
    public static func answerStatus(from response: HTTPResponse) throws(ProtocolError) -> String? {
        try requireSuccess(response)
        struct Status: Decodable { let auth_status: String? }
        do {
            return try JSONResponse.decode(Status.self, from: response.body, what: "answer").auth_status
        } catch {
            return nil  // informational only, as above
        }
    }
}

extension CMAuthenticator.Requests {
    /// `GET /device/{deviceId}/environment/{environmentId}/auth`, bearer JWT (§4). Throws
    /// `ProtocolError.Code.keyUnavailable` when a secret held in a token cannot be used.
    public func pendingAuthentication(in environment: CMAuthenticator.Environment, now: Date) throws(ProtocolError) -> HTTPRequest {
        try authenticated(.get, devicePath + "/environment/" + URLText.percentEncoded(environment.id) + "/auth", environment: environment, now: now)
    }

    /// `PUT /device/{deviceId}/instant/{authId}` with `{"auth_status":"approved"|"denied"}`,
    /// bearer JWT with `auth_id` and `sig` in Android style (§4, §5). Throws
    /// `ProtocolError.Code.invalidArgument` for an OTP request (the device never answers those)
    /// and `ProtocolError.Code.requestExpired` when it has expired at `now`.
    public func answer(_ answer: CMAuthenticator.Answer, to request: CMAuthenticator.AuthenticationRequest,
                       in environment: CMAuthenticator.Environment, now: Date) throws(ProtocolError) -> HTTPRequest {
        guard request.kind == .instant else { throw ProtocolError(.invalidArgument, "only instant requests are answered") }
        guard !request.isExpired(at: now) else { throw ProtocolError(.requestExpired, "the request has expired") }
        return try self.answer(answer, toRequestID: request.id, in: environment, now: now)
    }

    /// The same request from the id alone (e.g. a push action), without the local checks;
    /// throws `ProtocolError.Code.keyUnavailable` when a secret held in a token cannot be used.
    public func answer(_ answer: CMAuthenticator.Answer, toRequestID id: String, in environment: CMAuthenticator.Environment,
                       now: Date) throws(ProtocolError) -> HTTPRequest {
        let body = JSONText.object([("auth_status", .string(answer.rawValue))]).bytes
        return try authenticated(.put, devicePath + "/instant/" + URLText.percentEncoded(id), environment: environment, now: now,
                             authenticationID: id, body: body)
    }
}
