// MAC tokens (docs/protocols/powerauth.md §11.3): the digest over nonce and timestamp (and, from 3.2, the
// version), and the `X-PowerAuth-Token` header. Time comes from the caller's synchronised clock.

public import CryptoPrimitives
import ProtocolSupport

extension PowerAuth {
    /// A MAC token as the server issued it (docs/protocols/powerauth.md §11.1).
    public struct Token: Sendable, CustomStringConvertible {
        /// The token id (UUID text).
        public let id: String
        /// The 16-byte token secret.
        public let secret: SymmetricKey

        /// Wraps an id and secret.
        public init(id: String, secret: SymmetricKey) {
            self.id = id
            self.secret = secret
        }

        /// digest = HMAC-SHA256(secret, nonce ‖ "&" ‖ ts [‖ "&" ‖ version from 3.2]) (§11.3).
        public func digest(nonce: [UInt8], timestamp: UInt64, version: ProtocolVersion) -> [UInt8] {
            var data = nonce + Array("&\(timestamp)".utf8)
            if version >= .v3_2 { data += Array("&\(version.rawValue)".utf8) }
            return HMAC<SHA256>.authenticationCode(for: data, using: secret).bytes
        }

        /// The `X-PowerAuth-Token` header value for `timestamp` (server-synchronised ms) with a
        /// fresh nonce from `random` (§11.3).
        public func headerValue(timestamp: UInt64, version: ProtocolVersion = .v3_3,
                                using random: inout some RandomSource) throws(CryptoError) -> String {
            let nonce = try random.bytes(count: 16)
            return headerValue(nonce: nonce, timestamp: timestamp, version: version)
        }

        /// The header value for a given nonce.
        public func headerValue(nonce: [UInt8], timestamp: UInt64, version: ProtocolVersion) -> String {
            let digest = Base64.encode(digest(nonce: nonce, timestamp: timestamp, version: version))
            return "PowerAuth version=\"\(version.rawValue)\", token_id=\"\(id)\", token_digest=\"\(digest)\", nonce=\"\(Base64.encode(nonce))\", timestamp=\"\(timestamp)\""
        }

        /// Shows the id only.
        public var description: String { "PowerAuth.Token(\(id), redacted)" }
    }

    /// The keystore request of protocol 3.3 (docs/protocols/powerauth.md §10).
    public enum Keystore {
        /// The HS256 key: APP_SECRET's raw 16 bytes (application scope) or
        /// KDF_INTERNAL(KEY_TRANSPORT, raw APP_SECRET) (activation scope).
        public static func requestKey(applicationSecretBytes: [UInt8], transportKey: SymmetricKey? = nil) -> SymmetricKey {
            guard let transportKey else { return SymmetricKey(data: applicationSecretBytes) }
            return KeyDerivation.deriveInternal(transportKey, index: applicationSecretBytes)
        }

        /// The request JWT: header `{"alg":"HS256","typ":"JWT"}`, payload
        /// `{"applicationKey":…,"challenge":…[,"activationId":…]}`, HS256 under `key`.
        public static func requestJWT(applicationKey: String, challenge: [UInt8], activationID: String? = nil, key: SymmetricKey) -> String {
            var claims: [(String, JSONText)] = [("applicationKey", .string(applicationKey)), ("challenge", .string(Base64.encode(challenge)))]
            if let activationID { claims.append(("activationId", .string(activationID))) }
            let input = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9." + Base64.encode(JSONText.object(claims).bytes, alphabet: .urlSafe, padded: false)
            let mac = HMAC<SHA256>.authenticationCode(for: Array(input.utf8), using: key).bytes
            return input + "." + Base64.encode(mac, alphabet: .urlSafe, padded: false)
        }
    }
}
