// The MIRACL MFA client's configuration (docs/protocols/sdk-surfaces.md §3.1): the platform, client id, custom
// headers and trusted domains of the original SDK, and the layer-3 members every client shares
// (docs/design.md §1: URL policy, clock, random source, logger; ``AuthNetworking/ClientConfiguration``).

public import AuthNetworking
public import CryptoPrimitives
public import FoundationEssentials
public import ProtocolSupport

extension MPinClient {
    /// How the MIRACL MFA client is set up (`initSDKWithHeaders:`, `AddTrustedDomain:`,
    /// `SetClientId:`; docs/protocols/sdk-surfaces.md §3.1).
    public struct Configuration: ClientConfiguration {
        /// Which generation of the platform API the backend speaks.
        public enum Platform: Sendable, Equatable {
            /// The MIRACL MFA platform of the MPinMFA SDK (docs/protocols/mpin.md §7.1–§7.2): client settings,
            /// two-pass with optional time permits, separate DVS registration. The default.
            case mfa
            /// MIRACL Trust API v2 (docs/protocols/mpin.md §7.3) for a project: every identity signs, scopes,
            /// JWTs checked against the platform's JWKS, quick codes, signing sessions.
            case trust(projectID: String)
        }

        /// The platform generation (``Platform/mfa`` unless set).
        public var platform: Platform
        /// The customer/client id from the platform portal, sent as `X-MIRACL-CID`.
        public var clientID: String?
        /// Headers added to every request (`AddCustomHeaders:`).
        public var customHeaders: [HTTPHeader]
        /// Once any is set, every request must be https to one of these domains or a subdomain,
        /// else `MPinError.Code.untrustedDomain` (`AddTrustedDomain:`).
        public var trustedDomains: [String]
        /// The rule for every other URL: https to a real host by default; tests against a stand-in
        /// on this machine use `URLPolicy.insecureAllowingPlainHTTPToLoopback`.
        public var urlPolicy: URLPolicy = ClientDefaults.urlPolicy
        /// The local wall clock (registration expiry checks, JWT validity, one-time codes).
        public var clock: @Sendable () -> Date = ClientDefaults.clock
        /// Where the pass-1 nonce `x`, the DVS key pairs and the DVS signature nonces come from.
        public var random: any RandomSource & Sendable = ClientDefaults.random
        /// When set, every exchange is logged through `LoggingMiddleware`
        /// (credential headers and secret body members redacted).
        public var logger: Logger? = ClientDefaults.logger
        /// `X-MIRACL-CLIENT` (docs/protocols/mpin.md §7).
        public var clientName: String
        /// The path prefix of the platform's RPS endpoints (`rps_prefix` of the service details).
        public var rpsPrefix: String

        /// A configuration; every part optional (the layer-3 members default to `ClientDefaults`).
        ///
        /// - Parameters:
        ///   - platform: The platform generation; the MIRACL MFA platform unless given.
        ///   - clientID: The customer/client id, sent as `X-MIRACL-CID`; `nil` for none.
        ///   - customHeaders: Headers added to every request.
        ///   - trustedDomains: Once any is given, every request must be https to one of these domains or a
        ///     subdomain.
        ///   - clientName: The `X-MIRACL-CLIENT` of every request.
        ///   - rpsPrefix: The path prefix of the platform's RPS endpoints.
        ///   - urlPolicy: The rule for URLs while no trusted domain is set; https to a real host by default.
        ///   - clock: The local wall clock (registration expiry, JWT validity, one-time codes).
        ///   - random: Where the pass-1 nonce, the DVS key pairs and the signature nonces come from.
        ///   - logger: When set, every exchange is logged, credential headers and secret body members
        ///     redacted.
        public init(platform: Platform = .mfa, clientID: String? = nil, customHeaders: [HTTPHeader] = [], trustedDomains: [String] = [],
                    clientName: String = SwiftMFAVersion.userAgent(component: "MPinSDK"), rpsPrefix: String = "rps",
                    urlPolicy: URLPolicy = ClientDefaults.urlPolicy, clock: @escaping @Sendable () -> Date = ClientDefaults.clock,
                    random: any RandomSource & Sendable = ClientDefaults.random, logger: Logger? = ClientDefaults.logger) {
            self.platform = platform
            self.clientID = clientID
            self.customHeaders = customHeaders
            self.trustedDomains = trustedDomains
            self.clientName = clientName
            self.rpsPrefix = rpsPrefix
            setClientMembers(urlPolicy: urlPolicy, clock: clock, random: random, logger: logger)
        }
    }
}
