// The PowerAuth SDK object (docs/protocols/sdk-surfaces.md §1, "PowerAuthSDK → actor PowerAuthClient"): one
// instance per activation namespace, with its store, transport, clock and random source injected, and the
// original SDK's verbs in Swift names. This file: configuration, the activation state queries,
// createActivation / persistActivation / removeActivationLocally, and fetchActivationStatus with
// the §6.4 counter synchronisation applied. The other verbs are in the PowerAuthClient+*.swift
// files; docs/architecture.md maps them to the original names.

public import AuthNetworking
public import CryptoPrimitives
public import FoundationEssentials
public import PowerAuth
public import ProtocolSupport
public import SecureStore
public import TLSTransport

/// A PowerAuth client for one activation namespace (`instanceId`).
///
/// Every operation that consumes a signature counter — the SDK's own signed calls and
/// ``sendSignedRequest(_:uriID:factors:authentication:)`` — runs on one serial queue per client,
/// and the advanced counter is written to the secure store before the request leaves
/// (docs/protocols/powerauth.md §16 "Serialization"; docs/design.md habit 16).
public actor PowerAuthClient {
    /// What the client is configured with (`PowerAuthConfiguration`), in the layer-3 shape
    /// every client shares (`ClientConfiguration`).
    public struct Configuration: ClientConfiguration {
        /// The namespace of this instance's stored data.
        public var instanceID: String
        /// APP_KEY, APP_SECRET, the master server public key and the base URL.
        public var core: PowerAuth.Configuration
        /// The protocol version spoken for new activations (3.0–3.3; an existing activation
        /// keeps the version it was created with).
        public var version: PowerAuth.ProtocolVersion
        /// Which base URLs the client accepts (docs/design.md §1, layer 3): `https://` to a real host
        /// name by default; plain `http://` only to loopback, and only when the caller says so
        /// (`URLPolicy.insecureAllowingPlainHTTPToLoopback`). Signatures, token
        /// headers and bodies must not travel in clear.
        public var urlPolicy: URLPolicy = ClientDefaults.urlPolicy
        /// The local wall clock; the protocol's millisecond timestamps and the server-synchronised
        /// time (docs/protocols/powerauth.md §11.4) are derived from it.
        public var clock: @Sendable () -> Date = ClientDefaults.clock
        /// Every key pair, nonce and ephemeral key of the client comes from here.
        public var random: any RandomSource & Sendable = ClientDefaults.random
        /// When set, every exchange is logged through `LoggingMiddleware`, the
        /// signature and token headers redacted.
        public var logger: Logger? = ClientDefaults.logger

        /// A configuration from its parts; the layer-3 members default to `ClientDefaults`.
        ///
        /// - Parameters:
        ///   - instanceID: The namespace of this instance's stored data.
        ///   - core: APP_KEY, APP_SECRET, the master server public key and the base URL.
        ///   - version: The protocol version spoken for new activations; 3.3 unless given.
        ///   - urlPolicy: Which base URLs the client accepts; `https://` to a real host name by default.
        ///   - clock: The local wall clock; the protocol's timestamps and the server-synchronised time come
        ///     from it.
        ///   - random: The source of every key pair, nonce and ephemeral key of the client.
        ///   - logger: When set, every exchange is logged, the signature and token headers redacted.
        public init(instanceID: String, core: PowerAuth.Configuration, version: PowerAuth.ProtocolVersion = .v3_3,
                    urlPolicy: URLPolicy = ClientDefaults.urlPolicy, clock: @escaping @Sendable () -> Date = ClientDefaults.clock,
                    random: any RandomSource & Sendable = ClientDefaults.random, logger: Logger? = ClientDefaults.logger) {
            self.instanceID = instanceID
            self.core = core
            self.version = version
            setClientMembers(urlPolicy: urlPolicy, clock: clock, random: random, logger: logger)
        }

        /// A configuration from the SDK configuration string (`PowerAuthConfiguration(configuration:)`).
        /// Throws `PowerAuthSDKError.Code.invalidConfiguration` for a string that does not
        /// parse, `urlRefused` for a `baseURL` that `urlPolicy` refuses.
        ///
        /// - Parameters:
        ///   - instanceID: The namespace of this instance's stored data.
        ///   - configurationString: The SDK configuration string with APP_KEY, APP_SECRET and the master
        ///     server public key.
        ///   - baseURL: The PowerAuth server's base URL.
        ///   - version: The protocol version spoken for new activations; 3.3 unless given.
        ///   - urlPolicy: Which base URLs the client accepts; `https://` to a real host name by default.
        ///   - clock: The local wall clock; the protocol's timestamps and the server-synchronised time come
        ///     from it.
        ///   - random: The source of every key pair, nonce and ephemeral key of the client.
        ///   - logger: When set, every exchange is logged, the signature and token headers redacted.
        /// - Throws: `PowerAuthSDKError` with code `invalidConfiguration` when `configurationString` does not
        ///   parse, `urlRefused` when `urlPolicy` refuses `baseURL`.
        public init(instanceID: String, configurationString: String, baseURL: String,
                    version: PowerAuth.ProtocolVersion = .v3_3, urlPolicy: URLPolicy = ClientDefaults.urlPolicy,
                    clock: @escaping @Sendable () -> Date = ClientDefaults.clock, random: any RandomSource & Sendable = ClientDefaults.random,
                    logger: Logger? = ClientDefaults.logger) throws(PowerAuthSDKError) {
            do {
                self.init(instanceID: instanceID, core: try PowerAuth.Configuration(configurationString: configurationString, baseURL: baseURL),
                          version: version, urlPolicy: urlPolicy, clock: clock, random: random, logger: logger)
            } catch {
                throw PowerAuthSDKError(.invalidConfiguration, "the configuration string is not valid", protocolError: error)
            }
            try checkURLPolicy()
        }

        /// Throws `urlRefused` when ``urlPolicy`` refuses the base URL.
        func checkURLPolicy() throws(PowerAuthSDKError) {
            guard urlPolicy.permits(core.baseURL) else { throw PowerAuthSDKError(refusing: core.baseURL) }
        }
    }

    /// The configuration.
    public nonisolated let configuration: Configuration
    /// The caller's transport behind this client's middlewares (``pipeline(configuration:transport:)``).
    let pipeline: SendPipeline
    let activations: ActivationStore
    let tokenRecords: TokenRecords
    let now: @Sendable () -> UInt64
    /// The configured random source, shared by every operation (``AuthNetworking/SharedRandomSource``).
    let randomSource: SharedRandomSource
    var pending: PowerAuth.PendingActivation?
    var processed: PowerAuth.ActivationResult?
    /// The server clock offset (§11.4), learned from `/pa/v3/status` answers only (the mobile
    /// SDK also reads keystore `iat_ms` and ECIES response timestamps; this client does not).
    var time = PowerAuth.TimeSynchronization()
    /// 3.3 temporary keys by scope ("application" or the activation id), held in memory (§10).
    var temporaryKeys: [String: PowerAuth.TemporaryKey] = [:]
    /// The serial queue of counter-consuming operations (see PowerAuthClient+Queue.swift).
    var queueBusy = false
    var queueWaiters: [CheckedContinuation<Void, Never>] = []
    /// Token creations in flight by name, so that concurrent requests share one.
    var tokenRequests: [String: Task<PowerAuth.Token, any Error>] = [:]

    /// A client over `store`, sending through the transport `transport` makes for the base URL.
    /// Throws `PowerAuthSDKError.Code.invalidConfiguration` for a protocol outside 3.0–3.3,
    /// `urlRefused` for a base URL the configuration's ``Configuration/urlPolicy`` refuses, and
    /// `transport` when the factory cannot make the transport.
    ///
    /// - Parameters:
    ///   - configuration: What the client is configured with.
    ///   - store: The secure store that keeps the activation and token records.
    ///   - transport: Makes the HTTP transport for the configuration's base URL.
    /// - Throws: `PowerAuthSDKError` with code `invalidConfiguration` for a protocol version outside 3.0–3.3,
    ///   `urlRefused` for a base URL the URL policy refuses, `transport` when `transport` cannot make a transport, `store`
    ///   when the instance id cannot name a record.
    public init(configuration: Configuration, store: SecureStore, transport: HTTPTransportFactory = .standard) throws(PowerAuthSDKError) {
        guard configuration.version >= .v3_0, configuration.version <= .v3_3 else {
            throw PowerAuthSDKError(.invalidConfiguration, "protocol \(configuration.version) is not 3.0–3.3")
        }
        try configuration.checkURLPolicy()
        self.configuration = configuration
        let sender: any HTTPTransport
        do { sender = try transport.transport(baseURL: configuration.core.baseURL) } catch {
            throw PowerAuthSDKError(noAnswer: error, "no transport for \(URLPolicy.displayURL(configuration.core.baseURL))")
        }
        pipeline = Self.pipeline(configuration: configuration, transport: sender)
        // The protocol counts milliseconds (docs/protocols/powerauth.md §11.4); the configured clock gives dates.
        let clock = configuration.clock
        now = { ClientDefaults.milliseconds(since1970: clock()) }
        randomSource = SharedRandomSource(configuration.random)
        do {
            activations = try ActivationStore(store: store, instanceID: configuration.instanceID)
            tokenRecords = try TokenRecords(store: store, instanceID: configuration.instanceID)
        } catch {
            throw PowerAuthSDKError(.store, "the instance id cannot name a record", storeError: error)
        }
    }

    // MARK: State (`hasValidActivation`, `canStartActivation`, `hasPendingActivation`)

    /// Whether a persisted activation exists.
    ///
    /// - Throws: `PowerAuthSDKError` with code `store` when the activation record cannot be read or is not a
    ///   valid activation.
    public func hasValidActivation() throws(PowerAuthSDKError) -> Bool { try activations.activation() != nil }

    /// Whether an activation may be started: none persisted and none pending.
    ///
    /// - Throws: `PowerAuthSDKError` with code `store` when the activation record cannot be read or is not a
    ///   valid activation.
    public func canStartActivation() throws(PowerAuthSDKError) -> Bool { try activations.activation() == nil && pending == nil && processed == nil }

    /// Whether an activation was created on the server and waits for ``persistActivation(authentication:)``.
    public func hasPendingActivation() -> Bool { processed != nil }

    /// Whether the stored activation has the biometry factor (`hasBiometryFactor`); false when no
    /// activation is stored, as every question about the state answers.
    ///
    /// - Throws: `PowerAuthSDKError` with code `store` when the activation record cannot be read or is not a
    ///   valid activation.
    public func hasBiometryFactor() throws(PowerAuthSDKError) -> Bool { try activations.activation()?.lockedBiometryKey != nil }

    /// Whether recovery data came with the activation (`hasActivationRecoveryData`); false when no
    /// activation is stored.
    ///
    /// - Throws: `PowerAuthSDKError` with code `store` when the activation record cannot be read or is not a
    ///   valid activation.
    public func hasActivationRecoveryData() throws(PowerAuthSDKError) -> Bool { try activations.activation()?.sealedRecoveryData != nil }

    /// The stored activation's id, or nil (`activationIdentifier`).
    ///
    /// - Throws: `PowerAuthSDKError` with code `store` when the activation record cannot be read or is not a
    ///   valid activation.
    public func activationIdentifier() throws(PowerAuthSDKError) -> String? { try activations.activation()?.activationID }

    // MARK: Activation

    /// Starts an activation (`createActivation`, docs/protocols/powerauth.md §5.1): sends activation/create
    /// (3.3: to a temporary key from the keystore, §10), decrypts both layers and keeps the
    /// result in memory until it is persisted. Returns it, with the fingerprint to show and any
    /// recovery data. A code with a `#signature` that does not verify with the master server
    /// key is `PowerAuthSDKError.Code.invalidActivationCode` before anything is sent (§3.2).
    /// The password is only taken by ``persistActivation(authentication:)``: check it first with
    /// ``requireUsablePassword(_:)`` so that a password the SDK cannot use is refused before the
    /// one-time code is spent.
    ///
    /// - Parameters:
    ///   - method: How to activate: an activation code (with an optional OTP), a recovery code and PUK, or
    ///     the app's own attributes.
    ///   - device: What the device says about itself; nothing by default.
    /// - Throws: `PowerAuthSDKError` with code `invalidActivationState` when an activation exists or is
    ///   pending, `invalidActivationCode` when the code's signature does not verify, `encryption` when the
    ///   request cannot be built or a 3.3 temporary key does not verify, `transport` when no answer arrives,
    ///   `server` (or `authenticationFailed` for HTTP 401) when the server refuses the activation,
    ///   `invalidResponse` when its answer does not decrypt or parse, `store` when the store cannot be read.
    public func createActivation(_ method: PowerAuth.ActivationMethod,
                                 device: PowerAuth.DeviceDescription = PowerAuth.DeviceDescription()) async throws(PowerAuthSDKError) -> PowerAuth.ActivationResult {
        guard try canStartActivation() else { throw PowerAuthSDKError(.invalidActivationState, "an activation exists or is pending") }
        // docs/protocols/powerauth.md §3.2: a present signature is verified with KEY_SERVER_MASTER_PUBLIC before
        // the activation starts; failure aborts, so the one-time code stays unspent.
        if case .code(let code, _) = method, !code.isSignatureValid(masterServerPublicKey: configuration.core.masterServerPublicKey) {
            throw PowerAuthSDKError(.invalidActivationCode, "the activation code's signature does not verify with the master server key")
        }
        let key = try await applicationEncryptionKey(version: configuration.version)
        let timestamp = try await serverTime(version: configuration.version)
        var random = randomSource
        let request: PowerAuth.PendingActivation
        do {
            request = try PowerAuth.PendingActivation(method: method, device: device, configuration: configuration.core, encryptionKey: key,
                                                      version: configuration.version, timestamp: timestamp, using: &random)
        } catch {
            throw PowerAuthSDKError(.encryption, "the activation request cannot be built", protocolError: error)
        }
        pending = request
        defer { pending = nil }
        let response = try await send(request.request)
        do {
            let result = try request.process(response)
            processed = result
            return result
        } catch {
            throw Self.failure(error, response: response)
        }
    }

    /// Persists the pending activation (`persistActivation` / `commitActivation`) under the
    /// given authentication's possession key, password and optional biometry key.
    ///
    /// - Parameter authentication: The possession unlock key, the password and, optionally, the biometry
    ///   unlock key that lock the factor keys.
    /// - Throws: `PowerAuthSDKError` with code `invalidActivationState` when no activation is pending or
    ///   another was persisted meanwhile, `invalidAuthentication` when `authentication` has no password or
    ///   the keys cannot be locked, `invalidPassword` when the password is shorter than
    ///   `minimumPasswordLength` bytes, `store` when the record cannot be written.
    public func persistActivation(authentication: Authentication) throws(PowerAuthSDKError) {
        guard let processed else { throw PowerAuthSDKError(.invalidActivationState, "no pending activation to persist") }
        guard let password = authentication.password else { throw PowerAuthSDKError(.invalidAuthentication, "a password is needed") }
        try Self.requireUsablePassword(password)  // a refused password leaves the activation pending: persist again
        var random = randomSource
        let data: PowerAuth.ActivationData
        do {
            data = try processed.persist(password: password, possessionUnlockKey: authentication.possessionUnlockKey,
                                         biometryUnlockKey: authentication.biometryUnlockKey, version: configuration.version, using: &random)
        } catch {
            throw PowerAuthSDKError(.invalidAuthentication, "the keys cannot be locked", protocolError: error)
        }
        try activations.create(data)
        self.processed = nil
    }

    /// Forgets the activation on this device only (iOS `removeActivationLocal`): the activation
    /// record and every token of this instance; the server's activation stays.
    ///
    /// - Throws: `PowerAuthSDKError` with code `store` when a record cannot be read or removed.
    public func removeActivationLocally() throws(PowerAuthSDKError) {
        try tokenRecords.removeAll()
        try activations.remove()
        try activations.clearDeadlock()
        temporaryKeys = temporaryKeys.filter { $0.key == "application" }
        pending = nil
        processed = nil
    }

    // MARK: Status

    /// Fetches the status (`fetchActivationStatus`, §6) and acts on the §6.4 counter
    /// synchronisation: a server that is ahead has its counter adopted (written under the
    /// store's lock before this returns); a client more than half the look-ahead window ahead
    /// sends the possession-only synchronisation signature before this returns; counters that
    /// cannot be reconciled are reported in ``ActivationStatusResult/counterSynchronization``
    /// and ``ActivationStatusResult/isDeadlocked``, and every later signature is refused locally
    /// with `PowerAuthSDKError.Code.counterDeadlock` until the activation is removed. The
    /// server's `customObject`, if any, comes with it.
    ///
    /// - Parameter possessionUnlockKey: The device's possession unlock key, which opens the transport key the
    ///   status is encrypted with.
    /// - Throws: `PowerAuthSDKError` with code `missingActivation` when no activation is stored,
    ///   `invalidAuthentication` when `possessionUnlockKey` does not open the transport key, `encryption`
    ///   when the request cannot be built, `signing` when the synchronisation signature cannot be computed,
    ///   `transport` when no answer arrives, `authenticationFailed` when the server refuses the signature,
    ///   `server` when it answers with another error, `invalidResponse` when the answer is not valid or does
    ///   not decrypt, `store` when the secure store cannot be read or written.
    public func fetchActivationStatus(possessionUnlockKey: SymmetricKey) async throws(PowerAuthSDKError) -> ActivationStatusResult {
        let activation = try storedActivation()
        var random = randomSource
        let transportKey = try Self.transportKey(of: activation, possessionUnlockKey)
        let request: PowerAuth.PendingStatus
        do { request = try PowerAuth.PendingStatus(activationID: activation.activationID, using: &random) } catch {
            throw PowerAuthSDKError(.encryption, "the status request cannot be built", protocolError: error)
        }
        let response = try await send(request.request)
        let status: PowerAuth.ActivationStatus
        do { status = try request.process(response, transportKey: transportKey) } catch { throw Self.failure(error, response: response) }
        struct Wire: Decodable { struct Body: Decodable { let customObject: JSONText? }; let responseObject: Body }
        let custom: JSONText?
        do { custom = try JSONResponse.decode(Wire.self, from: response.body, what: "status custom object").responseObject.customObject } catch {
            throw PowerAuthSDKError(.invalidResponse, "the status custom object is not JSON", protocolError: error)
        }
        let synchronization = try activations.synchronizeCounter(with: status, transportKey: transportKey)
        if synchronization == .signatureRecommended {
            try await sendCounterSynchronization(possessionUnlockKey: possessionUnlockKey)
        }
        return ActivationStatusResult(status: status, customObject: custom, counterSynchronization: synchronization)
    }

    /// The synchronisation signature of docs/protocols/powerauth.md §6.4: a possession-only signed
    /// `POST /pa/v3/signature/validate` with `{"requestObject":{"reason":"COUNTER_SYNCHRONIZATION"}}`,
    /// on the serial queue with the counter written first; the server's window moves forward.
    func sendCounterSynchronization(possessionUnlockKey: SymmetricKey) async throws(PowerAuthSDKError) {
        _ = try await standardSignedCall(path: "pa/v3/signature/validate", uriID: "/pa/signature/validate",
                                         body: Array(#"{"requestObject":{"reason":"COUNTER_SYNCHRONIZATION"}}"#.utf8), factors: .possession,
                                         authentication: Authentication(possessionUnlockKey: possessionUnlockKey))
    }

    // MARK: Plumbing

    /// The stored activation, or ``PowerAuthSDKError/Code/missingActivation``.
    func storedActivation() throws(PowerAuthSDKError) -> PowerAuth.ActivationData {
        guard let activation = try activations.activation() else { throw PowerAuthSDKError(.missingActivation, "no activation") }
        return activation
    }

    static func transportKey(of activation: PowerAuth.ActivationData, _ possessionUnlockKey: SymmetricKey) throws(PowerAuthSDKError) -> SymmetricKey {
        do { return try activation.transportKey(possessionUnlockKey: possessionUnlockKey) } catch {
            throw PowerAuthSDKError(.invalidAuthentication, "the transport key does not unlock", protocolError: error)
        }
    }

    /// Every request's middlewares (docs/design.md §1), around the caller's transport: the URL
    /// policy on the whole URL, the `User-Agent`, header validation, logging when the
    /// configuration has a logger, the size limits, redirect refusal (a redirect would carry the
    /// signature and token headers to another origin).
    static func pipeline(configuration: Configuration, transport: any HTTPTransport) -> SendPipeline {
        .client(transport: transport, urlRule: URLPolicyMiddleware(baseURL: configuration.core.baseURL, policy: configuration.urlPolicy),
                userAgent: SwiftMFAVersion.userAgent(component: "PowerAuthSDK"), logger: configuration.logger)
    }

    /// Sends through ``pipeline``; the answer's status is the caller's to map (each step's
    /// `process`, then ``failure(_:response:)``).
    func send(_ request: HTTPRequest) async throws(PowerAuthSDKError) -> HTTPResponse {
        do { return try await pipeline.send(request) } catch {
            throw PowerAuthSDKError(noAnswer: error, "no answer from the server")
        }
    }

    /// A refused signature (HTTP 401, `ERR_AUTHENTICATION`, `POWERAUTH_AUTH_FAIL`) is
    /// `.authenticationFailed`; any other §14.2 envelope or HTTP error is `.server` (with the
    /// recovery PUK index when there is one); anything else in the answer is `.invalidResponse`.
    static func failure(_ error: ProtocolError, response: HTTPResponse) -> PowerAuthSDKError {
        let envelope = PowerAuth.ErrorResponse(response)
        let refused = response.status == 401 || error.code == .powerAuthAuthentication || error.code == .powerAuthAuthFail
        let fromServer = envelope != nil || error.code == .serverError || error.code.rawValue.hasPrefix("ERR_")
        return PowerAuthSDKError(refused ? .authenticationFailed : fromServer ? .server : .invalidResponse, "the server's answer was refused",
                                 currentRecoveryPukIndex: envelope?.currentRecoveryPukIndex, httpStatus: response.status, protocolError: error)
    }
}

/// A status as `fetchActivationStatus` returns it: the decrypted blob, the server's custom
/// object and the §6.4 counter decision the client acted on.
public struct ActivationStatusResult: Sendable, Equatable {
    /// The decrypted status (§6.3).
    public let status: PowerAuth.ActivationStatus
    /// The server-specific `customObject`, as it came (`nil` when the server sent none).
    public let customObject: JSONText?
    /// The §6.4 decision for the local counter, already acted on: adopted, synchronisation
    /// signature sent, or `CounterSynchronization.deadlock`.
    public let counterSynchronization: PowerAuth.CounterSynchronization

    /// Whether the counters cannot be reconciled (docs/protocols/powerauth.md §6.4 DEADLOCK, the SDK's
    /// client-only state 128): signing is refused with `PowerAuthSDKError.Code.counterDeadlock`;
    /// remove the activation and activate again.
    public var isDeadlocked: Bool { counterSynchronization == .deadlock }

    /// The activation state.
    public var state: PowerAuth.ActivationState { status.state }
    /// Failed attempts so far.
    public var failedAttempts: UInt8 { status.failedAttempts }
}
