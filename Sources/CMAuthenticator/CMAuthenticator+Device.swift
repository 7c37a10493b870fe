// Device registration (docs/protocols/cm-authenticator.md §2): one body shape for the phone number, the SMS
// code, the push token and the periodic refresh; `POST /device` first, `PUT /device/{id}` after.
// No authorization header on these calls.

public import ProtocolSupport

extension CMAuthenticator {
    /// A phone number in E.164: `+`, a country code not starting with 0, 8 to 15 digits in all.
    public struct PhoneNumber: Sendable, Hashable, CustomStringConvertible {
        /// The number, e.g. `+31601234567`.
        public let e164: String

        /// Validates `text` after removing spaces, hyphens, dots and parentheses. Throws
        /// `ProtocolError.Code.invalidArgument` unless the rest is `+` and 8–15 digits, the
        /// first not 0.
        public init(_ text: String) throws(ProtocolError) {
            let compact = text.filter { !" -.()\u{00A0}".contains($0) }
            let digits = compact.dropFirst()
            guard compact.first == "+", (8...15).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                  digits.first != "0" else {
                throw ProtocolError(.invalidArgument, "phone number must be E.164, e.g. +31601234567")
            }
            e164 = compact
        }

        /// The E.164 text.
        public var description: String { e164 }
    }

    /// What the device says about itself on every registration call (§2). Absent values are
    /// omitted from the body.
    public struct DeviceDescription: Sendable, Equatable {
        /// The device maker, e.g. the board vendor.
        public var manufacturer: String
        /// The operating-system version text.
        public var osVersion: String
        /// The app version text.
        public var appVersion: String
        /// The app identifier (bundle or package id).
        public var appID: String
        /// The user's language, e.g. `en`.
        public var languageCode: String
        /// The device model name.
        public var model: String
        /// The device model name.
        public var modelID: String
        /// `iOS` or `Android` on the official clients; our Linux value is configurable.
        public var platform: String
        /// The App-Manager key (§1: it travels only here).
        public var appKey: String

        /// Creates a description.
        public init(manufacturer: String, osVersion: String, appVersion: String, appID: String, languageCode: String,
                    model: String, modelID: String, platform: String, appKey: String) {
            self.manufacturer = manufacturer
            self.osVersion = osVersion
            self.appVersion = appVersion
            self.appID = appID
            self.languageCode = languageCode
            self.model = model
            self.modelID = modelID
            self.platform = platform
            self.appKey = appKey
        }
    }

    /// What one registration call sets besides the description.
    public enum DeviceUpdate: Sendable, Equatable {
        /// Refresh the description only (start-up, foreground).
        case refresh
        /// Start phone verification: the service sends an SMS.
        case phoneNumber(PhoneNumber)
        /// Finish it with the SMS code.
        case verificationCode(String)
        /// Set the push token; `pushEnabled` false means SMS fallback. `development` is iOS's
        /// APNs sandbox flag, sent only when given.
        case pushToken(String?, pushEnabled: Bool, development: Bool?)

        /// Whether `code` can be an SMS verification code (§2 `verification_code`, e.g.
        /// `12345`): 4–10 ASCII digits. Checked before sending, so a mistyped code never uses up
        /// one of the service's verification attempts.
        public static func isValidVerificationCode(_ code: String) -> Bool {
            (4...10).contains(code.utf8.count) && code.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        }
    }

    /// The registration answer (§2).
    public struct DeviceRegistration: Sendable, Equatable, Decodable {
        /// Verification state.
        public struct Status: RawRepresentable, Sendable, Hashable, Decodable {
            /// The wire string.
            public let rawValue: String
            /// Creates a status.
            public init(rawValue: String) { self.rawValue = rawValue }
            /// Decodes the wire string.
            public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
            /// Send the user back to phone verification.
            public static let unverified = Status(rawValue: "unverified")
            /// SMS sent, waiting for the code.
            public static let pending = Status(rawValue: "pending")
            /// Done.
            public static let verified = Status(rawValue: "verified")
        }

        /// The device id to store.
        public let id: String
        /// Verification state.
        public let registrationStatus: Status
        /// Whether the service pushes (otherwise SMS).
        public let pushEnabled: Bool?
        /// The phone number, if returned.
        public let phoneNumber: String?

        enum CodingKeys: String, CodingKey {
            case id, registrationStatus = "registration_status", pushEnabled = "push_enabled", phoneNumber = "phone_number"
        }

        /// Parses a registration or status answer.
        public init(response: HTTPResponse) throws(ProtocolError) {
            try CMAuthenticator.requireSuccess(response)
            self = try JSONResponse.decode(DeviceRegistration.self, from: response.body, what: "device registration")
        }
    }
}

extension CMAuthenticator.Requests {
    /// `POST /device` (no device id yet) or `PUT /device/{deviceId}` with the description and
    /// the update (§2). Unauthenticated.
    public func registerDevice(_ device: CMAuthenticator.DeviceDescription, update: CMAuthenticator.DeviceUpdate) -> HTTPRequest {
        var fields: [(String, JSONText)] = [
            ("manufacturer", .string(device.manufacturer)), ("os_version", .string(device.osVersion)),
            ("app_version", .string(device.appVersion)), ("app_id", .string(device.appID)),
            ("language_code", .string(device.languageCode)), ("model", .string(device.model)),
            ("model_id", .string(device.modelID)), ("platform", .string(device.platform)),
        ]
        switch update {
        case .refresh: break
        case .phoneNumber(let number): fields.append(("phone_number", .string(number.e164)))
        case .verificationCode(let code): fields.append(("verification_code", .string(code)))
        case .pushToken(let token, let enabled, let development):
            if let token { fields.append(("push_token", .string(token))) }
            fields.append(("push_enabled", .bool(enabled)))
            if let development { fields.append(("development", .bool(development))) }
        }
        fields.append(("app_key", .string(device.appKey)))
        return HTTPRequest(method: deviceID == nil ? .post : .put, path: devicePath, headers: client.headers,
                           body: JSONText.object(fields).bytes)
    }

    /// `GET /device/{deviceId}`: the registration status, unauthenticated (§2).
    public func deviceStatus() -> HTTPRequest {
        HTTPRequest(method: .get, path: devicePath, headers: client.headers)
    }
}
