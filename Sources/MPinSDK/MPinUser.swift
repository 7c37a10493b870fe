// A user of the MIRACL MFA SDK on this device (docs/protocols/sdk-surfaces.md §3.2, `IUser`), and what is kept
// about it (docs/protocols/mpin.md §6): public fields here; the token, the registration's one-time token and
// the secrets in flight stay inside the secure-store record and never leave this module.

public import FoundationEssentials

/// A user (an identity at one backend) as the SDK keeps it.
public struct MPinUser: Sendable, Equatable, CustomStringConvertible {
    /// Where a user is in its life (`UserState`, docs/protocols/sdk-surfaces.md §3.2; docs/protocols/mpin.md §6).
    public enum State: String, Sendable, Codable, CaseIterable {
        /// Made on the device, nothing sent yet (`INVALID`).
        case invalid
        /// A verification e-mail was asked for (`STARTED_VERIFICATION`).
        case startedVerification
        /// The platform issued an M-Pin ID; the identity may not be verified yet
        /// (`STARTED_REGISTRATION`).
        case startedRegistration
        /// Verified; the client secret has been fetched and waits for the PIN (`ACTIVATED`).
        case activated
        /// The token is stored; the user can authenticate (`REGISTERED`).
        case registered
        /// The platform blocked the identity (too many wrong PINs); its token is gone (`BLOCKED`).
        case blocked
    }

    /// When a registration expires, in the platform's clock (docs/protocols/sdk-surfaces.md §3.2,
    /// `getRegistrationExpiration`; docs/protocols/mpin.md §7.1 `expireTime`/`nowTime`).
    public struct Expiration: Sendable, Equatable, Codable {
        /// The expiry.
        public let expiresAt: Date
        /// The platform's time when it said so.
        public let serverTime: Date
    }

    /// The identity (an e-mail address, usually).
    public let identity: String
    /// The backend the user belongs to.
    public let backend: String
    /// The device name sent at registration.
    public let deviceName: String?
    /// The state.
    public package(set) var state: State
    /// The customer (project) id the platform put the identity under.
    public internal(set) var customerID: String
    /// The application id (reserved, usually empty).
    public internal(set) var appID: String
    /// The M-Pin ID, hex of the JSON text the platform issued (empty before registration).
    public package(set) var mpinID: String
    /// When the pending registration expires.
    public internal(set) var registrationExpiration: Expiration?
    /// The PIN length the user chose (digits), 0 before registration.
    public package(set) var pinLength: Int
    /// Whether the user has DVS signing keys (`canSign`).
    public internal(set) var canSign: Bool
    /// Wrong PINs since the last successful authentication (the platform blocks after its limit).
    public internal(set) var failedAuthentications: Int

    package init(identity: String, backend: String, deviceName: String?) {
        self.identity = identity
        self.backend = backend
        self.deviceName = deviceName
        state = .invalid
        customerID = ""
        appID = ""
        mpinID = ""
        registrationExpiration = nil
        pinLength = 0
        canSign = false
        failedAuthentications = 0
    }

    /// `identity @ backend [state]`; no secret.
    public var description: String { "MPinUser(\(identity) @ \(backend), \(state.rawValue))" }
}
