// Environments (docs/protocols/cm-authenticator.md §3): the QR code that links one, its secret, and the list /
// register / unregister requests.

public import CryptoPrimitives
public import FoundationEssentials
public import ProtocolSupport

extension CMAuthenticator {
    /// An environment secret kept outside the process, in a token: it computes HMAC-SHA256
    /// there (§5) and no operation gives its bytes out.
    package protocol HeldEnvironmentKey: Sendable {
        /// The key's name where it is held (a token label): two held secrets are the same
        /// secret when their labels are.
        var keyLabel: String { get }
        /// HMAC-SHA256 of `message` under the secret (RFC 2104), 32 bytes. Throws
        /// `ProtocolError.Code.keyUnavailable` when the key cannot be used.
        func authenticationCode(for message: [UInt8]) throws(ProtocolError) -> SecretBytes
    }

    /// An environment's shared secret: the HMAC key of its bearer JWTs, as the UTF-8 bytes of
    /// the text scanned from the QR code (§5: not hex- or Base64-decoded), in memory — redacted,
    /// wiped, compared in constant time — or held in a token.
    public struct EnvironmentSecret: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
        private enum Storage: Sendable {
            case software(SecretBytes)
            case held(any HeldEnvironmentKey)
        }

        private let storage: Storage

        /// Wraps stored secret bytes.
        public init(rawRepresentation: SecretBytes) { storage = .software(rawRepresentation) }

        /// A secret held in a token.
        package init(held key: any HeldEnvironmentKey) { storage = .held(key) }

        /// The secret's UTF-8 bytes when it is in memory; nil when a token holds it.
        public var softwareSecret: SecretBytes? {
            if case .software(let bytes) = storage { return bytes }
            return nil
        }

        /// The key held in a token; nil for a secret in memory.
        package var heldKey: (any HeldEnvironmentKey)? {
            if case .held(let key) = storage { return key }
            return nil
        }

        /// HMAC-SHA256 of `message` under the secret (§5), wherever it lives.
        func authenticationCode(for message: [UInt8]) throws(ProtocolError) -> [UInt8] {
            switch storage {
            case .software(let bytes):
                return HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(secret: bytes)).bytes
            case .held(let key):
                let mac = try key.authenticationCode(for: message)
                guard mac.count == 32 else { throw ProtocolError(.cryptoFailure, "the token's HMAC-SHA256 is \(mac.count) bytes, not 32") }
                return mac.unsafeExposedBytes
            }
        }

        /// Two secrets in memory are equal when their bytes are (compared in constant time), two
        /// held ones when their labels are; a secret in memory never equals a held one (its
        /// bytes are unknown).
        public static func == (a: EnvironmentSecret, b: EnvironmentSecret) -> Bool {
            switch (a.storage, b.storage) {
            case (.software(let left), .software(let right)): left == right
            case (.held(let left), .held(let right)): left.keyLabel == right.keyLabel
            default: false
            }
        }

        /// `EnvironmentSecret(redacted)`, or `EnvironmentSecret(held)`.
        public var description: String { "CMAuthenticator.EnvironmentSecret(\(softwareSecret == nil ? "held" : "redacted"))" }

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

    /// `PUT /device/{deviceId}/environment/{environmentId}`, empty body, bearer JWT (§3). Throws
    /// `ProtocolError.Code.keyUnavailable` when a secret held in a token cannot be used.
    public func registerEnvironment(_ environment: CMAuthenticator.Environment, now: Date) throws(ProtocolError) -> HTTPRequest {
        try authenticated(.put, devicePath + "/environment/" + URLText.percentEncoded(environment.id), environment: environment, now: now)
    }

    /// `DELETE /device/{deviceId}/environment/{environmentId}`, bearer JWT (§3); throws as
    /// ``registerEnvironment(_:now:)``.
    public func unregisterEnvironment(_ environment: CMAuthenticator.Environment, now: Date) throws(ProtocolError) -> HTTPRequest {
        try authenticated(.delete, devicePath + "/environment/" + URLText.percentEncoded(environment.id), environment: environment, now: now)
    }

    /// Interprets the answer to register: any 2xx is success; 401 means the id or secret is
    /// wrong (`ProtocolError.Code.environmentInvalid`, as Android).
    public static func checkRegistration(_ response: HTTPResponse) throws(ProtocolError) {
        if response.status == 401 { throw ProtocolError(.environmentInvalid, "environment id or secret rejected") }
        try CMAuthenticator.requireSuccess(response)
    }
}
