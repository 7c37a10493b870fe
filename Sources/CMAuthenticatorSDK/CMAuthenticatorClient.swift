// The CM Authenticator client on Linux (docs/protocols/sdk-surfaces.md §4): one actor that owns the device id and the linked
// environments (secrets in the secure store) and sends every request of docs/protocols/cm-authenticator.md
// through a transport that enforces the certificate pins of §6. Device and environments here;
// authentication requests and polling in +Requests, the signed pin list in +Pinning.

public import AuthNetworking
public import CMAuthenticator
public import CryptoPrimitives
public import FoundationEssentials
public import ProtocolSupport
public import SecureStore
public import TLSTransport

/// A CM Authenticator device: phone registration, environments linked by QR code, pending
/// authentication requests answered with approve / deny, OTPs shown until they expire.
public actor CMAuthenticatorClient {
    /// How the certificate pins of §6 are used.
    public enum Pinning: Sendable {
        /// Fetch `/certificate`, keep the entries whose signature verifies under `listKey` (CM's
        /// embedded key when `nil`), cache them for an hour, and give them to every transport.
        /// No verified entry: every call fails closed with `CMClientError.Code.pinning`.
        case enforced(listKey: RSA.Signing.PublicKey? = nil)
        /// No pins: for a transport that cannot pin (URLSessionTransport on Linux) or a plain
        /// `http://` test server. Only the system trust store protects the connection.
        case disabledTransportCannotPin
    }

    /// How the client is set up: the service, the device, pinning, and the layer-3 members
    /// every client shares (`ClientConfiguration`).
    public struct Configuration: ClientConfiguration {
        /// The service's base URL (`defaultBaseURL` by default).
        public var baseURL: String
        /// What the device says about itself at registration (§2).
        public var device: CMAuthenticator.DeviceDescription
        /// The `User-Agent` of every request (§1).
        public var clientDescription: CMAuthenticator.ClientDescription
        /// How pins are used (enforced by default, §6).
        public var pinning: Pinning
        /// The bearer token shape (Android's by default, §5).
        public var tokenStyle: CMAuthenticator.TokenStyle
        /// Which URLs requests may go to (checked on the base URL when the client is made and on
        /// every request's URL).
        public var urlPolicy: URLPolicy = ClientDefaults.urlPolicy
        /// The local wall clock (bearer-token times, request expiry, the pin list's age).
        public var clock: @Sendable () -> Date = ClientDefaults.clock
        /// The random source: the protocol itself draws none (its tokens are HMACs over the
        /// clock, §5); the client draws 16 bytes for the label of an environment secret it imports
        /// into the store's token (``addEnvironment(qrCode:)``).
        public var random: any RandomSource & Sendable = ClientDefaults.random
        /// When set, every exchange is logged through `LoggingMiddleware`
        /// (the bearer `Authorization` header and secret body members redacted).
        public var logger: Logger? = ClientDefaults.logger
        /// Where new environments' secrets are kept. The default, `SoftwareDeviceKeyStore`,
        /// seals them in the environment's record; a store that holds keys
        /// (`PKCS11DeviceKeyStore`) imports each as a sensitive, unextractable HMAC key and the
        /// record keeps only its label — unless the token cannot import secret keys (tpm2-pkcs11
        /// refuses), when the secret is sealed in the record as before.
        public var deviceKeys: any DeviceKeyStore = SoftwareDeviceKeyStore()

        /// A configuration for `device`; every other part optional (the layer-3 members default
        /// to `ClientDefaults`).
        ///
        /// - Parameters:
        ///   - baseURL: The service's base URL; CM's by default.
        ///   - device: What the device says about itself at registration.
        ///   - clientDescription: The `User-Agent` of every request.
        ///   - pinning: How the certificate pins are used; enforced by default.
        ///   - tokenStyle: The bearer token shape; Android's by default.
        ///   - urlPolicy: Which URLs requests may go to; https only by default.
        ///   - clock: The local wall clock (bearer-token times, request expiry, the pin list's age).
        ///   - random: The random source; only the label of an environment secret put in a token draws from
        ///     it.
        ///   - logger: When set, every exchange is logged, the bearer `Authorization` header and secret body
        ///     members redacted.
        ///   - deviceKeys: Where new environments' secrets are kept; sealed in the record by default.
        public init(baseURL: String = CMAuthenticator.defaultBaseURL, device: CMAuthenticator.DeviceDescription,
                    clientDescription: CMAuthenticator.ClientDescription = .linux(app: "SwiftMFA", version: SwiftMFAVersion.current, system: "Linux",
                                                                                   architecture: "unknown", locale: "en"),
                    pinning: Pinning = .enforced(), tokenStyle: CMAuthenticator.TokenStyle = .android,
                    urlPolicy: URLPolicy = ClientDefaults.urlPolicy, clock: @escaping @Sendable () -> Date = ClientDefaults.clock,
                    random: any RandomSource & Sendable = ClientDefaults.random, logger: Logger? = ClientDefaults.logger,
                    deviceKeys: any DeviceKeyStore = SoftwareDeviceKeyStore()) {
            self.baseURL = baseURL
            self.deviceKeys = deviceKeys
            self.device = device
            self.clientDescription = clientDescription
            self.pinning = pinning
            self.tokenStyle = tokenStyle
            setClientMembers(urlPolicy: urlPolicy, clock: clock, random: random, logger: logger)
        }
    }

    let records: DeviceRecords
    /// Makes the transport for the base URL. `pins` is `nil` only for the certificate list itself
    /// (not pinned on either official client, §6); otherwise the transport must refuse a TLS
    /// peer none of whose digests is pinned (see ``AuthNetworking/CertificatePins``).
    let transportFor: HTTPTransportFactory
    /// The configuration.
    public nonisolated let configuration: Configuration
    /// ``Configuration/random``, wrapped once and shared by every call (a copy shares its state;
    /// a new wrapper per call would start a deterministic source over each time).
    let randomSource: SharedRandomSource

    /// A client keeping its state in `store`, sending through the transport `transport` makes
    /// for the base URL and the pins in force. Throws `CMClientError.Code.urlRefused` when
    /// the configuration's URL policy refuses its base URL (https only by default).
    ///
    /// - Parameters:
    ///   - configuration: The service, the device, pinning and the layer-3 members.
    ///   - store: The secure store the device record and the environments are kept in.
    ///   - transport: Makes the transport for the base URL with the pins in force.
    /// - Throws: `CMClientError` with code `urlRefused` when the configuration's URL policy refuses its
    ///   base URL.
    public init(configuration: Configuration, store: SecureStore, transport: HTTPTransportFactory = .standard) throws(CMClientError) {
        guard configuration.urlPolicy.permits(configuration.baseURL) else {
            throw CMClientError(refusing: configuration.baseURL)
        }
        records = DeviceRecords(store: store, deviceKeys: configuration.deviceKeys)
        transportFor = transport
        self.configuration = configuration
        randomSource = SharedRandomSource(configuration.random)
    }

    /// The service's base URL.
    public nonisolated var baseURL: String { configuration.baseURL }
    /// What the device says about itself at registration (§2).
    public nonisolated var device: CMAuthenticator.DeviceDescription { configuration.device }
    /// The `User-Agent` of every request (§1).
    public nonisolated var clientDescription: CMAuthenticator.ClientDescription { configuration.clientDescription }
    /// How pins are used.
    public nonisolated var pinning: Pinning { configuration.pinning }
    /// The bearer token shape (§5).
    public nonisolated var tokenStyle: CMAuthenticator.TokenStyle { configuration.tokenStyle }
    nonisolated var urlPolicy: URLPolicy { configuration.urlPolicy }
    nonisolated var now: @Sendable () -> Date { configuration.clock }

    // MARK: Device (§2)

    /// The device id, once the service has assigned one.
    ///
    /// - Throws: ``CMClientError`` with code `store` when the device record cannot be read.
    public var deviceID: String? { get throws(CMClientError) { try records.device().deviceID } }

    /// Starts phone verification: the service sends an SMS to `phoneNumber` (E.164). Returns the
    /// state (`pending`, or `verified` when the number already was).
    ///
    /// - Parameter phoneNumber: The phone number, in E.164 form.
    /// - Throws: `CMClientError` with code `invalidInput` when `phoneNumber` is not an E.164 number,
    ///   `pinning` when no certificate pin verifies or the transport refuses the peer's certificate,
    ///   `transport` when no answer arrives, `server` when the service answers with an error,
    ///   `invalidResponse` when the answer is not usable, `store` when the secure store fails or holds an
    ///   unusable record.
    @discardableResult
    public func register(phoneNumber: String) async throws(CMClientError) -> CMAuthenticator.DeviceRegistration.Status {
        let number: CMAuthenticator.PhoneNumber
        do { number = try CMAuthenticator.PhoneNumber(phoneNumber) } catch {
            throw CMClientError(.invalidInput, "not an E.164 phone number", protocolError: error)
        }
        return try await updateDevice(.phoneNumber(number), phoneNumber: number.e164)
    }

    /// Finishes phone verification with the SMS code; a code that is not 4–10 digits is
    /// `CMClientError.Code.invalidInput` before anything is sent (§2).
    ///
    /// - Parameter code: The code of the SMS.
    /// - Returns: The registration state after the check.
    /// - Throws: `CMClientError` with code `invalidInput` when `code` is not 4–10 digits, `notRegistered`
    ///   when no phone number was registered, `pinning` when no certificate pin verifies or the transport
    ///   refuses the peer's certificate, `transport` when no answer arrives, `server` when the service
    ///   answers with an error, `invalidResponse` when the answer is not usable, `store` when the secure
    ///   store fails or holds an unusable record.
    @discardableResult
    public func verify(code: String) async throws(CMClientError) -> CMAuthenticator.DeviceRegistration.Status {
        guard CMAuthenticator.DeviceUpdate.isValidVerificationCode(code) else { throw CMClientError(.invalidInput, "an SMS code is 4–10 digits") }
        guard try records.device().deviceID != nil else { throw CMClientError(.notRegistered, "register a phone number first") }
        return try await updateDevice(.verificationCode(code))
    }

    /// Registers the push token (`nil` and `pushEnabled: false` for a Linux device that polls:
    /// the service then falls back to SMS for notifications, §2, §7).
    ///
    /// - Parameters:
    ///   - token: The push token; `nil` for a device that polls.
    ///   - pushEnabled: Whether the service should push; false falls back to SMS.
    ///   - development: iOS's APNs sandbox flag, sent only when given.
    /// - Throws: `CMClientError` with code `notRegistered` when no phone number was registered, `pinning`
    ///   when no certificate pin verifies or the transport refuses the peer's certificate, `transport` when
    ///   no answer arrives, `server` when the service answers with an error, `invalidResponse` when the
    ///   answer is not usable, `store` when the secure store fails or holds an unusable record.
    public func updatePushToken(_ token: String?, pushEnabled: Bool, development: Bool? = nil) async throws(CMClientError) {
        guard try records.device().deviceID != nil else { throw CMClientError(.notRegistered, "register a phone number first") }
        _ = try await updateDevice(.pushToken(token, pushEnabled: pushEnabled, development: development))
    }

    /// Re-reads the registration state (`GET /device/{id}`, §2) and stores it; `unverified`
    /// means the user must verify the phone again.
    ///
    /// - Throws: `CMClientError` with code `notRegistered` when no phone number was registered, `pinning`
    ///   when no certificate pin verifies or the transport refuses the peer's certificate, `transport` when
    ///   no answer arrives, `server` when the service answers with an error, `invalidResponse` when the
    ///   answer is not usable, `store` when the secure store fails or holds an unusable record.
    public func deviceStatus() async throws(CMClientError) -> CMAuthenticator.DeviceRegistration.Status {
        guard let id = try records.device().deviceID else { throw CMClientError(.notRegistered, "register a phone number first") }
        let response = try await send(requests(deviceID: id).deviceStatus())
        let registration = try parse { () throws(ProtocolError) in try CMAuthenticator.DeviceRegistration(response: response) }
        // Only the status changes, on the freshest record: `send` may have refreshed the pins (§6, §8).
        try records.updateDevice { $0.registrationStatus = registration.registrationStatus.rawValue }
        return registration.registrationStatus
    }

    private func updateDevice(_ update: CMAuthenticator.DeviceUpdate, phoneNumber: String? = nil) async throws(CMClientError)
        -> CMAuthenticator.DeviceRegistration.Status {
        let response = try await send(requests(deviceID: records.device().deviceID).registerDevice(device, update: update))
        let registration = try parse { () throws(ProtocolError) in try CMAuthenticator.DeviceRegistration(response: response) }
        // On the freshest record, changing only these fields (§6, §8: pins saved by `send` stay).
        try records.updateDevice { record in
            if record.deviceID == nil { record.deviceID = registration.id }  // §2: only the first answer's id matters
            if let phoneNumber { record.phoneNumber = phoneNumber }
            record.registrationStatus = registration.registrationStatus.rawValue
        }
        return registration.registrationStatus
    }

    // MARK: Environments (§3)

    /// Links the environment of a scanned QR code (`<id>,<secret>`, §3.1): puts the secret in
    /// the configured `DeviceKeyStore` (before any request), registers it with the server
    /// (bearer JWT keyed with the secret) and stores it with its name from the server's list. A
    /// 401 is `CMClientError.Code.environmentInvalid`.
    ///
    /// - Parameter qrCode: The scanned QR text, `<id>,<secret>`.
    /// - Returns: The environment, stored with its name from the server's list.
    /// - Throws: `CMClientError` with code `notRegistered` when no phone number was registered,
    ///   `invalidInput` when `qrCode` is not a CM environment QR code or the registration cannot be signed,
    ///   `deviceKey` when the device key store cannot take or use the secret, `environmentInvalid` when the
    ///   server refuses the id or secret, `pinning` when no certificate pin verifies or the transport refuses
    ///   the peer's certificate, `transport` when no answer arrives, `server` when the service answers with
    ///   an error, `invalidResponse` when the environment list is not usable, `store` when the secure store
    ///   fails or holds an unusable record.
    public func addEnvironment(qrCode: String) async throws(CMClientError) -> StoredEnvironment {
        let requests = try registeredRequests()
        let scanned: CMAuthenticator.Environment
        do { scanned = try CMAuthenticator.Environment(qrCode: qrCode) } catch {
            throw CMClientError(.invalidInput, "not a CM environment QR code", protocolError: error)
        }
        var random = randomSource
        try records.sweepAbandonedKeys()
        // A secret imported into a token is deleted again when no record comes to name it.
        let kept = try records.keepSecret(of: scanned, using: &random)
        let (environment, keyLabel) = (kept.environment, kept.keyLabel)
        var saved = false
        defer { records.settle(kept, saved: saved) }
        let registration: HTTPRequest
        do { registration = try requests.registerEnvironment(environment, now: now()) } catch {
            throw CMClientError(.invalidInput, "the registration cannot be signed", protocolError: error)
        }
        let response = try await send(registration, check: false)
        do { try CMAuthenticator.Requests.checkRegistration(response) } catch { throw CMClientError.server(error, status: response.status) }
        let info = try await linkedEnvironments().first { $0.id == environment.id }
        let stored = StoredEnvironment(environment: environment, name: info?.name ?? environment.id, iconURL: info?.iconURL, keyLabel: keyLabel)
        try records.save(stored)
        saved = true
        return stored
    }

    /// The environments stored here.
    ///
    /// - Throws: `CMClientError` with code `store` when the secure store fails or holds an unusable record,
    ///   `deviceKey` when an environment secret in the device key store cannot be used.
    public func environments() throws(CMClientError) -> [StoredEnvironment] { try records.environments() }

    /// The environment `id` stored here, or nil when none is (a lookup, as every client's:
    /// `CMClientError.Code.unknownEnvironment` is for an operation on an environment that is not there).
    ///
    /// - Parameter id: The environment's id.
    /// - Throws: `CMClientError` with code `store` when the secure store fails or holds an unusable record,
    ///   `deviceKey` when its secret in the device key store cannot be used.
    public func environment(id: String) throws(CMClientError) -> StoredEnvironment? { try records.environment(id: id) }

    /// The stored environment `id` that an operation needs.
    func existingEnvironment(id: String) throws(CMClientError) -> StoredEnvironment {
        guard let environment = try records.environment(id: id) else { throw CMClientError(.unknownEnvironment, "no environment \(id)") }
        return environment
    }

    /// The environments the server lists for this device (`GET /device/{id}/environment`).
    ///
    /// - Throws: `CMClientError` with code `notRegistered` when no phone number was registered, `pinning`
    ///   when no certificate pin verifies or the transport refuses the peer's certificate, `transport` when
    ///   no answer arrives, `server` when the service answers with an error, `invalidResponse` when the list
    ///   is not usable, `store` when the secure store fails or holds an unusable record.
    public func linkedEnvironments() async throws(CMClientError) -> [CMAuthenticator.EnvironmentInfo] {
        let response = try await send(try registeredRequests().listEnvironments())
        return try parse { () throws(ProtocolError) in try CMAuthenticator.EnvironmentInfo.list(from: response) }
    }

    /// Unlinks an environment on the server, then forgets its secret here.
    ///
    /// - Parameter id: The environment's id.
    /// - Throws: `CMClientError` with code `unknownEnvironment` when no environment is stored under `id`,
    ///   `notRegistered` when no phone number was registered, `invalidInput` when the request cannot be
    ///   signed, `deviceKey` when the environment's secret in the device key store cannot be used or deleted,
    ///   `pinning` when no certificate pin verifies or the transport refuses the peer's certificate,
    ///   `transport` when no answer arrives, `server` when the service answers with an error, `store` when
    ///   the secure store fails or holds an unusable record.
    public func unregisterEnvironment(id: String) async throws(CMClientError) {
        let stored = try existingEnvironment(id: id)
        let request: HTTPRequest
        let requests = try registeredRequests()
        do throws(ProtocolError) { request = try requests.unregisterEnvironment(stored.environment, now: now()) } catch {
            throw CMClientError(.invalidInput, error.message, protocolError: error)
        }
        _ = try await send(request)
        try records.removeEnvironment(id: id)
    }

    /// Forgets an environment here only (the server keeps the link).
    ///
    /// - Parameter id: The environment's id.
    /// - Throws: `CMClientError` with code `deviceKey` when the secret cannot be deleted from the device key
    ///   store (nothing is removed then), `store` when the store cannot be read or written.
    public func removeEnvironmentLocally(id: String) throws(CMClientError) { try records.removeEnvironment(id: id) }

    /// Forgets this device's registration here (docs/protocols/cm-authenticator.md §2, §3): every environment's
    /// secret, then the device record with its id and cached pins; the next ``register(phoneNumber:)``
    /// starts afresh. The service is not told: unlink the environments first
    /// (``unregisterEnvironment(id:)``) for it to stop sending their requests.
    ///
    /// - Throws: `CMClientError` with code `deviceKey` when a secret cannot be deleted from the device key
    ///   store or cannot be used, `store` when the secure store fails or holds an unusable record.
    public func removeRegistrationLocally() throws(CMClientError) {
        for environment in try records.environments() { try records.removeEnvironment(id: environment.id) }
        try records.removeDevice()
    }

    // MARK: Plumbing

    func requests(deviceID: String?) -> CMAuthenticator.Requests {
        CMAuthenticator.Requests(deviceID: deviceID, client: clientDescription, tokenStyle: tokenStyle)
    }

    func registeredRequests() throws(CMClientError) -> CMAuthenticator.Requests {
        guard let id = try records.device().deviceID else { throw CMClientError(.notRegistered, "register a phone number first") }
        return requests(deviceID: id)
    }

    func parse<T>(_ body: () throws(ProtocolError) -> T) throws(CMClientError) -> T {
        do { return try body() } catch {
            throw CMClientError(.invalidResponse, "the answer is not usable", protocolError: error)
        }
    }

    /// Every request's middlewares (docs/design.md §1), around the caller's transport pinned with
    /// `pins` (§6): the URL policy, header validation, logging when the configuration has a
    /// logger, the size limits, redirect refusal.
    func pipeline(_ pins: CertificatePins?) throws(TransportError) -> SendPipeline {
        .client(transport: try transportFor.transport(baseURL: baseURL, pins: pins),
                urlRule: URLPolicyMiddleware(baseURL: baseURL, policy: urlPolicy), logger: configuration.logger)
    }

    /// Sends through ``pipeline(_:)`` pinned as configured; no answer is the shared mapping's code
    /// (`pinning` for a TLS failure under pins), a non-2xx answer a typed error unless `check`
    /// is false (the caller interprets it).
    func send(_ request: HTTPRequest, check: Bool = true) async throws(CMClientError) -> HTTPResponse {
        let pins = try await currentPins()
        let response: HTTPResponse
        do { response = try await pipeline(pins).send(request) } catch {
            let failure = CMClientError(noAnswer: error, "no answer from \(URLPolicy.displayURL(baseURL))")
            throw error.kind == .tls && pins != nil ? CMClientError(.pinning, failure.message, transportError: error) : failure
        }
        if check {
            do { try CMAuthenticator.requireSuccess(response) } catch { throw CMClientError.server(error, status: response.status) }
        }
        return response
    }
}
