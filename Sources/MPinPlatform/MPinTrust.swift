// The current MIRACL Trust API v2 (docs/protocols/mpin.md §7.3), the second platform the client speaks: every
// identity is a DVS identity (a key pair made at registration, the secret multiplied by z, the
// identity mpinId ‖ Pa), authentication scopes instead of separate endpoints, JWTs signed by the
// platform and checked against its JWKS, quick codes, and signing sessions. Wire bodies and
// answers here; the verbs in MPinClient+Trust.swift.

package import CryptoPrimitives
public import FoundationEssentials
public import ProtocolSupport

/// Requests and answers of the MIRACL Trust API v2 (docs/protocols/mpin.md §7.3).
public enum MPinTrust {
    /// `PUT /rps/v2/user` (§7.3 Register, iOS shape).
    package static func registerBody(userID: String, deviceName: String, activationToken: String, pushToken: String?) -> JSONText {
        var members: [(String, JSONText)] = [("userId", .string(userID)), ("deviceName", .string(deviceName)), ("activateCode", .string(activationToken))]
        if let pushToken { members.append(("pushToken", .string(pushToken))) }
        return .object(members)
    }

    /// `POST /rps/v2/pass1 {mpin_id, dtas, U, scope, publicKey}`.
    package static func pass1Body(mpinID: String, dtas: String, u: [UInt8], scope: String, publicKey: [UInt8]) -> JSONText {
        .object([("mpin_id", .string(mpinID)), ("dtas", .string(dtas)), ("U", .string(Hex.encode(u))), ("scope", .array([.string(scope)])),
                 ("publicKey", .string(Hex.encode(publicKey)))])
    }

    /// `POST /rps/v2/pass2 {mpin_id, V, WID}`.
    package static func pass2Body(mpinID: String, v: [UInt8], accessID: String?) -> JSONText {
        .object([("mpin_id", .string(mpinID)), ("V", .string(Hex.encode(v))), ("WID", .string(accessID ?? ""))])
    }

    /// `PUT /rps/v2/user` answer.
    package struct RegisterWire {
        package let mpinId: String, regOTT: SecretBytes, projectId: String?

        /// The members, and `regOTT` read straight into secret bytes.
        package init(body: [UInt8]) throws(ProtocolError) {
            struct Members: Decodable { let mpinId: String, projectId: String? }
            let members = try JSONResponse.decode(Members.self, from: body, what: "registration answer")
            let regOTT = try MPinPlatform.requiredSecret("regOTT", in: body, what: "registration answer")
            (mpinId, self.regOTT, projectId) = (members.mpinId, regOTT, members.projectId)
        }
    }
    /// `POST /rps/v2/pass1` answer.
    package struct Pass1Wire: Decodable { package let y: String }
    /// `POST /rps/v2/pass2` answer.
    package struct Pass2Wire {
        package let authOTT: SecretBytes

        /// `authOTT`, read straight into secret bytes.
        package init(body: [UInt8]) throws(ProtocolError) {
            struct Members: Decodable {}
            _ = try JSONResponse.decode(Members.self, from: body, what: "pass 2 answer")
            authOTT = try MPinPlatform.requiredSecret("authOTT", in: body, what: "pass 2 answer")
        }
    }
    /// `POST /rps/v2/authenticate` answer.
    package struct AuthenticateWire: Decodable {
        package let jwt: String?
        /// `dvsRegister: {token}` (§7.3) or `dvs-register-token` (§7.2).
        package let dvsRegisterToken: String?

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: SpelledKey.self)
            jwt = try container.decode(String.self, spelled: ["jwt"])
            dvsRegisterToken = try container.dvsRegisterToken()
        }
    }
    /// `POST /verification/quickcode` answer.
    package struct QuickCodeWire: Decodable { package let code: String; package let expireTime: MPinPlatform.FlexibleTime?; package let ttlSeconds: Int? }
    /// The v2 error body `{"error": {"code", "info"}}`.
    package struct ErrorWire: Decodable {
        struct Detail: Decodable { let code: String; let info: String? }
        let error: Detail
    }

    /// The platform's error code in a v2 error body, if it is one.
    package static func errorCode(in body: [UInt8]) -> String? {
        guard !body.isEmpty else { return nil }
        do { return try JSONResponse.decode(ErrorWire.self, from: body, what: "error").error.code } catch { return nil }
    }

    /// A signing session (`POST /dvs/session/details`, §7.3).
    public struct SigningSession: Sendable, Equatable, Decodable {
        /// The user the document is for.
        public let userID: String
        /// The document hash to sign (hex).
        public let hash: String
        /// What the user is asked to sign.
        public let description: String
        /// `active`, `signed`, `aborted`, …
        public let status: String
        /// When the session expires.
        public let expireTime: MPinPlatform.FlexibleTime?
    }

    // MARK: JWTs and the JWKS

    /// The platform's signing keys (`/.well-known/jwks`): ES256 (P-256) and RS256 keys by `kid`.
    public struct KeySet: Sendable {
        struct Key: Sendable {
            let kid: String
            let p256: P256.Signing.PublicKey?
            let rsa: RSA.Signing.PublicKey?
        }
        let keys: [Key]

        /// Parses a JWKS document; keys of other types are ignored, malformed ones refused.
        public init(jsonBytes: [UInt8]) throws(ProtocolError) {
            struct Wire: Decodable {
                struct Key: Decodable { let kty: String; let kid: String?; let crv: String?; let x: String?; let y: String?; let n: String?; let e: String? }
                let keys: [Key]
            }
            var keys: [Key] = []
            for key in try JSONResponse.decode(Wire.self, from: jsonBytes, what: "JWKS").keys {
                do {
                    switch (key.kty, key.crv) {
                    case ("EC", "P-256"):
                        let x = try Base64.decode(key.x ?? "", alphabet: .urlSafe, padded: false)
                        let y = try Base64.decode(key.y ?? "", alphabet: .urlSafe, padded: false)
                        keys.append(Key(kid: key.kid ?? "", p256: try P256.Signing.PublicKey(rawRepresentation: x + y), rsa: nil))
                    case ("RSA", _):
                        let n = try Base64.decode(key.n ?? "", alphabet: .urlSafe, padded: false)
                        let e = try Base64.decode(key.e ?? "", alphabet: .urlSafe, padded: false)
                        keys.append(Key(kid: key.kid ?? "", p256: nil, rsa: try RSA.Signing.PublicKey(modulus: n, publicExponent: e)))
                    default:
                        continue
                    }
                } catch {
                    throw ProtocolError(error, "JWKS key \(key.kid ?? "?")")
                }
            }
            self.keys = keys
        }

        /// The claims of `jwt` when its ES256 or RS256 signature verifies under the key its
        /// header names, it carries a numeric `exp` that has not passed at `now`, any `nbf` has
        /// passed, and `iss` and `aud` are `expected`'s; otherwise a typed error.
        public func verifiedClaims(of jwt: String, expected: ExpectedClaims, now: Date = Date()) throws(ProtocolError) -> [String: JSONText] {
            let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 3 else { throw ProtocolError(.malformedInput, "a JWT has three parts") }
            struct Header: Decodable { let alg: String; let kid: String? }
            let header: Header
            let signature: [UInt8]
            let payload: [UInt8]
            do {
                header = try JSONResponse.decode(Header.self, from: try Base64.decode(parts[0], alphabet: .urlSafe, padded: false), what: "JWT header")
                payload = try Base64.decode(parts[1], alphabet: .urlSafe, padded: false)
                signature = try Base64.decode(parts[2], alphabet: .urlSafe, padded: false)
            } catch let error as ProtocolError { throw error } catch {
                throw ProtocolError(.malformedInput, "a JWT part is not Base64url")
            }
            let signed = Array(parts[0].utf8) + [UInt8(ascii: ".")] + Array(parts[1].utf8)
            let candidates = keys.filter { header.kid == nil || $0.kid == header.kid }
            let valid = candidates.contains { key in
                switch header.alg {
                case "ES256":
                    guard let p256 = key.p256, let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
                    return p256.isValidSignature(ecdsa, for: signed)
                case "RS256":
                    guard let rsa = key.rsa else { return false }
                    return rsa.isValidSignature(RSA.Signing.RSASignature(rawRepresentation: signature), for: signed, padding: .pkcs1v1_5)
                default:
                    return false
                }
            }
            guard valid else { throw ProtocolError(.invalidSignature, "the JWT does not verify under the platform's keys") }
            let claims = try JSONResponse.decode([String: JSONText].self, from: payload, what: "JWT claims")
            try MPinTrust.check(claims, expected: expected, now: now)   // RFC 7519 §4.1
            return claims
        }
    }
}
