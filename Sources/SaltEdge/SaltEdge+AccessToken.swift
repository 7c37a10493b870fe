// The redirect after web authentication (docs/protocols/saltedge-v2.md §4): `id` and an RSA-encrypted
// `{"access_token":…}` (v2), or `error_class` / `error_message`.

public import CryptoPrimitives
public import ProtocolSupport

extension SaltEdge {
    /// A connection's access token, sent in the `Access-Token` header. A secret: redacted in
    /// `description` and `dump`, compared in constant time.
    public struct AccessToken: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
        /// The token's UTF-8 bytes.
        public let rawRepresentation: SecretBytes

        /// Wraps a stored token.
        public init(rawRepresentation: SecretBytes) { self.rawRepresentation = rawRepresentation }

        /// The `Access-Token` header field, its value kept secret on the way to the wire.
        public var headerField: HTTPHeader { HTTPHeader("Access-Token", secret: rawRepresentation) }

        /// `AccessToken(redacted)`.
        public var description: String { "SaltEdge.AccessToken(redacted)" }

        /// No children.
        public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
    }

    /// The parsed `return_url` redirect.
    public enum AccessTokenRedirect: Sendable, Equatable {
        /// Success: the connection id and the still-encrypted token.
        case success(connectionID: String, encryptedAccessToken: String)
        /// The provider refused; `errorClass` defaults to `AuthenticationError` (§4, as Android).
        case failure(connectionID: String?, errorClass: String, errorMessage: String?)

        /// Parses `url`, which must start with `returnURL`. Query values are percent-decoded;
        /// `+` is kept (it is Base64 data). Throws `ProtocolError.Code.malformedInput` for
        /// another URL or an undecodable query.
        public init(parsing url: String, returnURL: String = SaltEdge.defaultReturnURL) throws(ProtocolError) {
            let trimmed = url.trimmingASCIIWhitespace
            guard let (base, query) = URLText.split(trimmed), base == returnURL || base == returnURL + "/" else {
                throw ProtocolError(.malformedInput, "not the expected return URL")
            }
            func value(_ name: String) -> String? {
                query.first { $0.name == name }.flatMap { $0.value.isEmpty ? nil : $0.value }
            }
            if let token = value("access_token"), let id = value("id") {
                self = .success(connectionID: id, encryptedAccessToken: token)
            } else {
                let errorClass = value("error_class") ?? "AuthenticationError"
                self = .failure(connectionID: value("id"), errorClass: errorClass, errorMessage: value("error_message"))
            }
        }

        /// Decrypts the token with the connection key: Base64 in either alphabet, padded or not,
        /// one RSA PKCS#1 v1.5 block or several, then the JSON `{"access_token":"…"}`.
        ///
        /// A failure redirect throws `ProtocolError.Code.authenticationFailed` with its class
        /// and message; a token that does not decrypt or parse throws the one decryption error.
        public func accessToken(with connectionKey: ConnectionKey) throws(ProtocolError) -> AccessToken {
            switch self {
            case .failure(_, let errorClass, let message):
                throw ProtocolError(.authenticationFailed, "\(errorClass): \(message ?? "")")
            case .success(_, let encrypted):
                var plaintext = try SaltEdge.decryptRSA(encrypted, with: connectionKey).unsafeExposedBytes
                defer { SecretBytes.wipe(&plaintext) }
                // The token goes from the plaintext straight into secret bytes (never a String);
                // JSONDecoder judges the whole payload as JSON, the token left out of its model. A
                // payload that is not the token JSON is the one decryption error, like a bad block.
                let token: SecretBytes?
                do throws(ProtocolError) {
                    _ = try JSONResponse.decode(TokenJSON.self, from: plaintext, what: "token")
                    token = try JSONSecretMember.value(at: ["access_token"], in: plaintext, what: "token")
                } catch {
                    throw .decryptionFailure()
                }
                guard let token, token.count > 0 else { throw .decryptionFailure() }
                return AccessToken(rawRepresentation: token)
            }
        }

        /// The payload's shape; `access_token` itself is read by `JSONSecretMember`.
        private struct TokenJSON: Decodable {}
    }
}
