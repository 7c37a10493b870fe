// Environments (cm-authenticator.md §3): the QR code that links one, its secret, and the list /
// register / unregister requests.

public import CryptoPrimitives
public import FoundationEssentials
public import ProtocolSupport

extension CMAuthenticator {
    /// An environment's shared secret: the HMAC key of its bearer JWTs, as the UTF-8 bytes of
    /// the text scanned from the QR code (§5: not hex- or Base64-decoded). Redacted, wiped,
    /// compared in constant time.
    public struct EnvironmentSecret: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
        /// The secret's UTF-8 bytes.
        public let rawRepresentation: SecretBytes

        /// Wraps stored secret bytes.
        public init(rawRepresentation: SecretBytes) { self.rawRepresentation = rawRepresentation }

        /// The HMAC key.
        var key: SymmetricKey { SymmetricKey(secret: rawRepresentation) }

        /// `EnvironmentSecret(redacted)`.
        public var description: String { "CMAuthenticator.EnvironmentSecret(redacted)" }

        /// No children.
        public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
    }

    /// A linked environment as the device must persist it (§8).
    public struct Environment: Sendable, Equatable {
        /// The environment id (36 characters, UUID text).
        public let id: String
        /// The secret from the QR code.
        public let secret: EnvironmentSecret

        /// Parses QR content `<environment id>,<secret>` (§3.1, the recommended rule): the first
        /// comma must be at index 36 and the secret — everything after it, commas included, as
        /// Android reads it — must not be empty. Throws `ProtocolError.Code.invalidQRCode`.
        public init(qrCode text: String) throws(ProtocolError) {
            let bytes = Array(text.utf8)
            guard let comma = bytes.firstIndex(of: UInt8(ascii: ",")), comma == 36, comma + 1 < bytes.count,
                  let id = String(validating: bytes[..<comma], as: UTF8.self) else {
                throw ProtocolError(.invalidQRCode, "expected <36-character id>,<secret>")
            }
            self.id = id
            secret = EnvironmentSecret(rawRepresentation: SecretBytes(bytes[(comma + 1)...]))
        }

        /// Wraps a stored id and secret.
        public init(id: String, secret: EnvironmentSecret) {
            self.id = id
            self.secret = secret
        }
    }

    /// An entry of the linked-environment list (§3).
    public struct EnvironmentInfo: Sendable, Equatable, Decodable {
        /// The id.
        public let id: String
        /// Display name.
        public let name: String
        /// Icon URL, if any.
        public let iconURL: String?

        enum CodingKeys: String, CodingKey { case id, name, iconURL = "icon_url" }

        /// Parses the list answer: a JSON array.
        public static func list(from response: HTTPResponse) throws(ProtocolError) -> [EnvironmentInfo] {
            try CMAuthenticator.requireSuccess(response)
            return try JSONResponse.decode([EnvironmentInfo].self, from: response.body, what: "environment list")
        }
    }
}

extension CMAuthenticator.Requests {
    /// `GET /device/{deviceId}/environment`, unauthenticated (§3).
    public func listEnvironments() -> HTTPRequest {
        HTTPRequest(method: .get, path: devicePath + "/environment", headers: client.headers)
    }

    /// `PUT /device/{deviceId}/environment/{environmentId}`, empty body, bearer JWT (§3).
    public func registerEnvironment(_ environment: CMAuthenticator.Environment, now: Date) -> HTTPRequest {
        authenticated(.put, devicePath + "/environment/" + URLText.percentEncoded(environment.id), environment: environment, now: now)
    }

    /// `DELETE /device/{deviceId}/environment/{environmentId}`, bearer JWT (§3).
    public func unregisterEnvironment(_ environment: CMAuthenticator.Environment, now: Date) -> HTTPRequest {
        authenticated(.delete, devicePath + "/environment/" + URLText.percentEncoded(environment.id), environment: environment, now: now)
    }

    /// Interprets the answer to register: any 2xx is success; 401 means the id or secret is
    /// wrong (`ProtocolError.Code.environmentInvalid`, as Android).
    public static func checkRegistration(_ response: HTTPResponse) throws(ProtocolError) {
        if response.status == 401 { throw ProtocolError(.environmentInvalid, "environment id or secret rejected") }
        try CMAuthenticator.requireSuccess(response)
    }
}
