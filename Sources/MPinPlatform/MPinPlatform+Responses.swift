// The platform's answers (docs/protocols/mpin.md §7.1–§7.2), decoded leniently where the two recorded server
// generations differ (numbers or ISO-8601 texts for times, `usePermits` present or implied) and
// strictly where the client needs a value. Every malformation is a typed ProtocolError.

public import CryptoPrimitives
public import FoundationEssentials
public import ProtocolSupport

extension MPinPlatform {
    /// `GET {backend}/rps/clientSettings` (§7.1 item 1), with every URL resolved against the
    /// backend.
    public struct ClientSettings: Sendable, Equatable {
        /// `PUT` here to register (`registerURL`).
        public let registerURL: String
        /// The first D-TA's share and the second's parameters (`signatureURL`).
        public let signatureURL: String
        /// The second D-TA (`certivoxURL`, ending in `/`).
        public let certivoxURL: String
        /// Where `pass1` and `pass2` go (`mpinAuthServerURL`).
        public let authServerURL: String
        /// The final authentication step (`authenticateURL`).
        public let authenticateURL: String
        /// The final step when an access code is used (`mobileAuthenticateURL`).
        public let mobileAuthenticateURL: String
        /// Session pick-up, abort and user announcement (`codeStatusURL`).
        public let codeStatusURL: String?
        /// The first D-TA's time permits (`timePermitsURL`), when the platform uses them.
        public let timePermitsURL: String?
        /// Cached second time-permit shares (`timePermitsStorageURL`).
        public let timePermitsStorageURL: String?
        /// Whether authentication needs time permits: `usePermits`, or (older servers, which
        /// omit it) a non-empty `timePermitsURL`.
        public let usePermits: Bool
        /// The platform's application id (`appID`), part of the storage URL of time permits.
        public let appID: String
        /// DVS registration (`dvsRegisterURL`; assumed `{backend}/rps/dvsregister` when absent).
        public let dvsRegisterURL: String

        private struct Wire: Decodable {
            let registerURL: String?, signatureURL: String?, certivoxURL: String?, mpinAuthServerURL: String?
            let authenticateURL: String?, mobileAuthenticateURL: String?, codeStatusURL: String?
            let timePermitsURL: String?, timePermitsStorageURL: String?, usePermits: Bool?, appID: String?
            let dvsRegisterURL: String?
        }

        /// Parses the answer of `backend`'s client-settings request.
        public init(responseBody body: [UInt8], backend: String) throws(ProtocolError) {
            let wire = try JSONResponse.decode(Wire.self, from: body, what: "clientSettings")
            func required(_ value: String?, _ name: String) throws(ProtocolError) -> String {
                guard let value, !value.isEmpty else { throw ProtocolError(.malformedInput, "clientSettings: no \(name)") }
                return MPinPlatform.resolve(value, against: backend)
            }
            func optional(_ value: String?) -> String? {
                guard let value, !value.isEmpty else { return nil }
                return MPinPlatform.resolve(value, against: backend)
            }
            registerURL = try required(wire.registerURL, "registerURL")
            signatureURL = try required(wire.signatureURL, "signatureURL")
            certivoxURL = try required(wire.certivoxURL, "certivoxURL")
            authServerURL = try required(wire.mpinAuthServerURL, "mpinAuthServerURL")
            authenticateURL = try required(wire.authenticateURL, "authenticateURL")
            mobileAuthenticateURL = optional(wire.mobileAuthenticateURL) ?? authenticateURL
            codeStatusURL = optional(wire.codeStatusURL)
            timePermitsURL = optional(wire.timePermitsURL)
            timePermitsStorageURL = optional(wire.timePermitsStorageURL)
            usePermits = wire.usePermits ?? (timePermitsURL != nil)   // docs/protocols/mpin.md §4: older servers always use permits
            appID = wire.appID ?? ""
            dvsRegisterURL = optional(wire.dvsRegisterURL) ?? MPinPlatform.resolve("/rps/dvsregister", against: backend)
            if usePermits, timePermitsURL == nil { throw ProtocolError(.malformedInput, "clientSettings: usePermits without timePermitsURL") }
        }
    }

    /// `GET <landing-url>/service` (§7.1 item 2).
    public struct ServiceWire: Decodable, Sendable {
        /// The service's name.
        public let name: String
        /// The backend to pass to `setBackend`.
        public let url: String
        /// The logo's URL.
        public let logo_url: String?
    }

    /// `POST codeStatusURL {status: "wid"}` (§7.1 item 2).
    public struct SessionWire: Decodable, Sendable {
        /// The user id the browser session suggests (may be empty).
        public let prerollId: String?
        /// The relying party's application name.
        public let appName: String?
        /// Its logo.
        public let appLogoURL: String?
        /// The customer id.
        public let customerId: String?
        /// The customer's name.
        public let customerName: String?
        /// The customer's logo.
        public let customerLogoURL: String?
    }

    /// `POST <authorization URL>` (§7.1 item 2): the access code is what follows `#` in `qrURL`.
    public struct AuthorizeWire: Decodable, Sendable {
        /// The browser session's token.
        public let webOTT: String?
        /// `<landing>#<accessCode>`.
        public let qrURL: String
    }

    /// A time that arrives as epoch seconds or milliseconds (the 2017 platform) or as an
    /// ISO-8601 text without a zone, taken as UTC (the 2016 server).
    public struct FlexibleTime: Decodable, Sendable, Equatable {
        /// The instant.
        public let date: Date
        /// 9999-12-31T23:59:59Z in Unix seconds.
        static let latestSeconds: Int64 = 253_402_300_799
        /// Decodes a number (seconds, or milliseconds when above 10¹¹) or a text.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Int64.self) {
                // Range-checked before any conversion: 1970 to 9999-12-31 (what an ISO text can name).
                let seconds = number > 100_000_000_000 ? number / 1000 : number
                guard (0...Self.latestSeconds).contains(seconds) else {
                    throw DecodingError.dataCorruptedError(in: container, debugDescription: "a time outside 1970…9999")
                }
                date = Date(timeIntervalSince1970: number > 100_000_000_000 ? Double(number) / 1000 : Double(number))
                return
            }
            let text = try container.decode(String.self)
            let zoned = text.hasSuffix("Z") || text.contains("+") ? text : text + "Z"
            guard let parsed = Timestamp.parseISO8601(zoned) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a time")
            }
            date = parsed
        }
    }

    /// `PUT registerURL` (§7.1 item 3).
    public struct RegisterWire: Sendable {
        /// The M-Pin ID: hex of the JSON text the platform issued; used byte for byte.
        public let mpinId: String
        /// The registration's one-time token (secret while registering), read from the body
        /// straight into secret bytes: never a `String`.
        public let regOTT: SecretBytes
        /// When the registration expires.
        public let expireTime: FlexibleTime?
        /// The platform's time now.
        public let nowTime: FlexibleTime?
        /// The customer the identity belongs to.
        public let customerId: String?
        /// The application id.
        public let appId: String?
        /// Whether the identity is already verified.
        public let active: Bool?

        /// Reads an answer's body. Throws `ProtocolError.Code.malformedInput` for a body that is
        /// not that JSON or has no `regOTT` string.
        public init(body: [UInt8]) throws(ProtocolError) {
            struct Members: Decodable {
                let mpinId: String, expireTime: FlexibleTime?, nowTime: FlexibleTime?, customerId: String?, appId: String?, active: Bool?
            }
            let members = try JSONResponse.decode(Members.self, from: body, what: "registration answer")
            let regOTT = try MPinPlatform.requiredSecret("regOTT", in: body, what: "registration answer")
            (mpinId, self.regOTT, expireTime, nowTime) = (members.mpinId, regOTT, members.expireTime, members.nowTime)
            (customerId, appId, active) = (members.customerId, members.appId, members.active)
        }
    }

    /// `GET timePermitsURL/{mpinId}` (§7.1 item 6).
    public struct TimePermitWire: Decodable, Sendable {
        /// The first share (hex).
        public let timePermit: String
        /// Days since 1970-01-01.
        public let date: UInt32
        /// The key of the cached second share (SHA-256 of the M-Pin ID in the recorded traffic).
        public let storageId: String?
        /// The signature the second D-TA wants.
        public let signature: String?
    }

    /// The second D-TA's `timePermit` (§7.1 item 6).
    public struct SecondPermitWire: Decodable, Sendable {
        /// The second share (hex).
        public let timePermit: String
    }

    /// `pass1` (§7.1 item 6).
    public struct Pass1Wire: Decodable, Sendable {
        /// The challenge y (32-byte scalar, hex).
        public let y: String
    }

    /// `pass2` (§7.1 items 6–7).
    public struct Pass2Wire: Sendable {
        /// The one-time token for `authenticate`, read from the body straight into secret bytes.
        public let authOTT: SecretBytes
        /// The server-generated one-time password, when asked for.
        public let OTP: String?

        /// Reads an answer's body. Throws `ProtocolError.Code.malformedInput` for a body that is
        /// not that JSON or has no `authOTT` string.
        public init(body: [UInt8]) throws(ProtocolError) {
            struct Members: Decodable { let OTP: String? }
            OTP = try JSONResponse.decode(Members.self, from: body, what: "pass 2 answer").OTP
            authOTT = try MPinPlatform.requiredSecret("authOTT", in: body, what: "pass 2 answer")
        }
    }

    /// `authenticate` (§7.1 item 6–7, §7.2).
    public struct AuthenticateWire: Sendable {
        /// The OIDC authorization code when one was asked for.
        public let code: String?
        /// The registration code (§7.2 `{otp, …}`).
        public let otp: String?
        /// Expiry of an OTP or registration code.
        public let expireTime: FlexibleTime?
        /// Lifetime in seconds.
        public let ttlSeconds: Int?
        /// The platform's time now.
        public let nowTime: FlexibleTime?
        /// The DVS registration token: `dvs-register-token` (§7.2) or `dvsRegister: {token}`
        /// (the names of §7.3, which §7.2 defers to).
        public let dvsRegisterToken: String?

        /// An answer with these members (the empty answer of the older servers is all nil).
        package init(code: String?, otp: String?, expireTime: FlexibleTime?, ttlSeconds: Int?, nowTime: FlexibleTime?, dvsRegisterToken: String?) {
            self.code = code
            self.otp = otp
            self.expireTime = expireTime
            self.ttlSeconds = ttlSeconds
            self.nowTime = nowTime
            self.dvsRegisterToken = dvsRegisterToken
        }
    }

    /// `POST /verification/confirmation` (§7.2 `activationToken`, §7.3 `actToken`).
    public struct ConfirmationWire: Sendable {
        /// The session the verification belongs to.
        public let accessId: String?
        /// The activation token to register with.
        public let activationToken: String
    }

    /// A G1 point in hex (65-byte uncompressed) as the platform sends it; malformed → typed error.
    public static func point(hex text: String, what: String) throws(ProtocolError) -> BN254CX.G1 {
        do { return try BN254CX.G1(encoded: try Hex.decode(text)) } catch {
            throw ProtocolError(.malformedInput, "\(what): not a BN254CX point", cause: error)
        }
    }
}
