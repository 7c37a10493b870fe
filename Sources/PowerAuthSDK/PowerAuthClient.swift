// The PowerAuth SDK object (sdk-surfaces.md §1, "PowerAuthSDK → actor PowerAuthClient"): one
// instance per activation namespace, with its store, transport and clock injected, and the
// original SDK's verbs in Swift names. This first part: configuration, the activation state
// queries, createActivation / persistActivation, fetchActivationStatus with the §6.4 counter
// synchronisation applied, requestSignature, and removeActivationLocal (protocol 3.0–3.2; the
// 3.3 keystore step is next).

public import AuthNetworking
public import CryptoPrimitives
public import PowerAuth
public import ProtocolSupport
public import SecureStore

/// A PowerAuth client for one activation namespace (`instanceId`).
public actor PowerAuthClient {
    /// What the client is configured with (`PowerAuthConfiguration`).
    public struct Configuration: Sendable {
        /// The namespace of this instance's stored data.
        public var instanceID: String
        /// APP_KEY, APP_SECRET, the master server public key and the base URL.
        public var core: PowerAuth.Configuration
        /// The protocol version spoken (3.0–3.2 in this release).
        public var version: PowerAuth.ProtocolVersion

        /// A configuration from its parts.
        public init(instanceID: String, core: PowerAuth.Configuration, version: PowerAuth.ProtocolVersion = .v3_2) {
            self.instanceID = instanceID
            self.core = core
            self.version = version
        }
    }

    /// The configuration.
    public let configuration: Configuration
    private let transport: any HTTPTransport
    private let activations: ActivationStore
    private let now: @Sendable () -> UInt64
    private var pending: PowerAuth.PendingActivation?
    private var processed: PowerAuth.ActivationResult?

    /// A client over `store` and `transport`; `now` gives milliseconds since 1970 (injected for
    /// tests; the server's clock for 3.2+ requests).
    public init(configuration: Configuration, store: SecureStore, transport: any HTTPTransport,
                now: @escaping @Sendable () -> UInt64) throws(PowerAuthSDKError) {
        guard configuration.version <= .v3_2 else {
            throw PowerAuthSDKError(.missingActivation, "protocol 3.3 needs the keystore step, which this release does not send yet")
        }
        self.configuration = configuration
        self.transport = transport
        self.now = now
        do { activations = try ActivationStore(store: store, instanceID: configuration.instanceID) } catch {
            throw PowerAuthSDKError(.store, "the instance id cannot name a record", store: error)
        }
    }

    // MARK: State (`hasValidActivation`, `canStartActivation`, `hasPendingActivation`)

    /// Whether a persisted activation exists.
    public func hasValidActivation() throws(PowerAuthSDKError) -> Bool { try activations.activation() != nil }

    /// Whether an activation may be started: none persisted and none pending.
    public func canStartActivation() throws(PowerAuthSDKError) -> Bool { try activations.activation() == nil && pending == nil && processed == nil }

    /// Whether an activation was created on the server and waits for ``persistActivation(authentication:)``.
    public func hasPendingActivation() -> Bool { processed != nil }

    // MARK: Activation

    /// Starts an activation (`createActivation`, powerauth.md §5.1): sends activation/create,
    /// decrypts both layers and keeps the result in memory until it is persisted. Returns it,
    /// with the fingerprint to show and any recovery data.
    public func createActivation(_ method: PowerAuth.ActivationMethod,
                                 device: PowerAuth.DeviceDescription = PowerAuth.DeviceDescription()) async throws(PowerAuthSDKError) -> PowerAuth.ActivationResult {
        guard try canStartActivation() else { throw PowerAuthSDKError(.missingActivation, "an activation exists or is pending") }
        var random = SystemRandomSource()
        let request: PowerAuth.PendingActivation
        do {
            request = try PowerAuth.PendingActivation(method: method, device: device, configuration: configuration.core,
                                                      encryptionKey: PowerAuth.EncryptionKey(publicKey: P256.KeyAgreement.PublicKey(sameKeyAs: configuration.core.masterServerPublicKey)),
                                                      version: configuration.version, timestamp: now(), using: &random)
        } catch {
            throw PowerAuthSDKError(.signing, "the activation request cannot be built", protocolError: error)
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
    public func persistActivation(authentication: Authentication) throws(PowerAuthSDKError) {
        guard let processed else { throw PowerAuthSDKError(.missingActivation, "no pending activation to persist") }
        guard let password = authentication.password else { throw PowerAuthSDKError(.invalidAuthentication, "a password is needed") }
        var random = SystemRandomSource()
        let data: PowerAuth.ActivationData
        do {
            data = try processed.persist(password: password, possessionUnlockKey: authentication.possessionUnlockKey,
                                         biometryUnlockKey: authentication.biometryUnlockKey, version: configuration.version, using: &random)
        } catch {
            throw PowerAuthSDKError(.invalidAuthentication, "the keys cannot be locked", protocolError: error)
        }
        try activations.save(data)
        self.processed = nil
    }

    /// Forgets the activation on this device only (`removeActivationLocal`); the server's stays.
    public func removeActivationLocal() throws(PowerAuthSDKError) {
        try activations.remove()
        pending = nil
        processed = nil
    }

    // MARK: Status and signatures

    /// Fetches the status (`fetchActivationStatus`, §6) and applies the §6.4 counter
    /// synchronisation: a server that is ahead has its counter adopted (written under the
    /// store's lock before this returns).
    public func fetchActivationStatus(possessionUnlockKey: SymmetricKey) async throws(PowerAuthSDKError) -> PowerAuth.ActivationStatus {
        guard let activation = try activations.activation() else { throw PowerAuthSDKError(.missingActivation, "no activation") }
        var random = SystemRandomSource()
        let transportKey: SymmetricKey
        let request: PowerAuth.PendingStatus
        do {
            transportKey = try activation.transportKey(possessionUnlockKey: possessionUnlockKey)
            request = try PowerAuth.PendingStatus(activationID: activation.activationID, using: &random)
        } catch {
            throw PowerAuthSDKError(.invalidAuthentication, "the transport key does not unlock", protocolError: error)
        }
        let response = try await send(request.request)
        let status: PowerAuth.ActivationStatus
        do { status = try request.process(response, transportKey: transportKey) } catch { throw Self.failure(error, response: response) }
        try activations.adoptCounter(of: status, transportKey: transportKey)
        return status
    }

    /// The `X-PowerAuth-Authorization` header for a request (`requestSignature`): the counter is
    /// advanced and fsynced before the header is returned. For GET/DELETE pass the canonical
    /// query's bytes (``PowerAuth/NormalizedData/canonicalQuery(_:)``) as `body`.
    public func requestSignature(method: String, uriID: String, body: [UInt8], factors: PowerAuth.SignatureFactors,
                                 authentication: Authentication) throws(PowerAuthSDKError) -> HTTPHeader {
        try activations.sign(method: method, uriID: uriID, body: body, factors: factors, authentication: authentication,
                             configuration: configuration.core)
    }

    // MARK: Plumbing

    private func send(_ request: HTTPRequest) async throws(PowerAuthSDKError) -> HTTPResponse {
        do { return try await transport.send(request) } catch {
            throw PowerAuthSDKError(.transport, "no answer from the server", transport: error)
        }
    }

    /// A §14.2 error envelope or an HTTP error is `.server`; anything else in the answer is `.invalidResponse`.
    static func failure(_ error: ProtocolError, response: HTTPResponse) -> PowerAuthSDKError {
        let fromServer = !response.isSuccess || error.code == .serverError || error.code.rawValue.hasPrefix("ERR_")
        return PowerAuthSDKError(fromServer ? .server : .invalidResponse, "the server's answer was refused", protocolError: error,
                                 httpStatus: response.status)
    }
}
