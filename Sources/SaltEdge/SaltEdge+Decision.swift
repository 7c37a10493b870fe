// The confirm / deny payload (docs/protocols/saltedge-v2.md §8): three strings, encrypted to the provider key.

public import ProtocolSupport

extension SaltEdge {
    /// How the user unlocked the app before deciding (§8). `passcode` is the assumed Linux value
    /// for PIN or password unlock.
    public struct UserAuthorizationType: RawRepresentable, Sendable, Hashable {
        /// The wire value.
        public let rawValue: String
        /// Creates a value.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// PIN or password unlock.
        public static let passcode = Self(rawValue: "passcode")
        /// Biometric unlock.
        public static let biometrics = Self(rawValue: "biometrics")
    }

    /// A device location, sent as `GEO:<latitude>;<longitude>` (§8).
    public struct Geolocation: Sendable, Hashable {
        /// Decimal degrees, as text (e.g. `52.506931`), so no float formatting changes it.
        public let latitude: String
        /// Decimal degrees, as text.
        public let longitude: String

        /// Creates a location from decimal-degree texts. Throws `ProtocolError.Code.invalidArgument`
        /// unless each is a decimal number in range.
        public init(latitude: String, longitude: String) throws(ProtocolError) {
            guard let lat = Double(latitude), abs(lat) <= 90, let lon = Double(longitude), abs(lon) <= 180,
                  !latitude.contains(where: { !"-0123456789.".contains($0) }),
                  !longitude.contains(where: { !"-0123456789.".contains($0) }) else {
                throw ProtocolError(.invalidArgument, "latitude/longitude must be decimal degrees")
            }
            self.latitude = latitude
            self.longitude = longitude
        }

        /// `GEO:<latitude>;<longitude>`.
        public var wireValue: String { "GEO:\(latitude);\(longitude)" }
    }

    /// The user's answer to an authorization.
    public struct Decision: Sendable, Hashable {
        /// The authorization's id.
        public let authorizationID: String
        /// Confirm (`true`) or deny (`false`).
        public let isConfirmation: Bool
        /// The opaque code from the decrypted authorization, echoed exactly (`""` when absent).
        public let authorizationCode: String
        /// How the user unlocked the app.
        public let userAuthorizationType: UserAuthorizationType
        /// The location, or `nil` (sent as `""`).
        public let geolocation: Geolocation?

        /// Confirms `authorization`, echoing its code.
        public static func confirm(_ authorization: Authorization, unlockedWith type: UserAuthorizationType = .passcode,
                                   geolocation: Geolocation? = nil) -> Decision {
            Decision(authorizationID: authorization.id, isConfirmation: true, authorizationCode: authorization.authorizationCode ?? "",
                     userAuthorizationType: type, geolocation: geolocation)
        }

        /// Denies `authorization`, echoing its code.
        public static func deny(_ authorization: Authorization, unlockedWith type: UserAuthorizationType = .passcode,
                                geolocation: Geolocation? = nil) -> Decision {
            Decision(authorizationID: authorization.id, isConfirmation: false, authorizationCode: authorization.authorizationCode ?? "",
                     userAuthorizationType: type, geolocation: geolocation)
        }

        /// Creates a decision from its parts.
        public init(authorizationID: String, isConfirmation: Bool, authorizationCode: String,
                    userAuthorizationType: UserAuthorizationType, geolocation: Geolocation?) {
            self.authorizationID = authorizationID
            self.isConfirmation = isConfirmation
            self.authorizationCode = authorizationCode
            self.userAuthorizationType = userAuthorizationType
            self.geolocation = geolocation
        }

        /// The plaintext inside the bundle: all three keys, always strings (§8).
        public var payload: JSONText {
            .object([
                ("authorization_code", .string(authorizationCode)),
                ("user_authorization_type", .string(userAuthorizationType.rawValue)),
                ("geolocation", .string(geolocation?.wireValue ?? "")),
            ])
        }
    }
}
