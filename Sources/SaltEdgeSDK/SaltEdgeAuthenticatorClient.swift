// The Salt Edge Authenticator v2 client on Linux (docs/protocols/sdk-surfaces.md §5.9): one actor that owns the
// connections (keys and access tokens in the secure store) and sends every request of
// docs/protocols/saltedge-v2.md §6 through a transport. Enrolment and connections here; authorizations,
// polling, actions and consents in SaltEdgeAuthenticatorClient+Authorizations.swift.

public import AuthNetworking
public import CryptoPrimitives
public import FoundationEssentials
public import ProtocolSupport
public import SaltEdge
public import SecureStore
public import TLSTransport

/// A Salt Edge Authenticator (API v2) for one device.
public actor SaltEdgeAuthenticatorClient {
    /// How the client is set up: what it says about itself, the return URL of enrolment, and the
    /// layer-3 members every client shares (`ClientConfiguration`).
    public struct Configuration: ClientConfiguration {
        /// `Accept-Language` and `User-Agent` of every request.
        public var clientDescription: SaltEdge.ClientDescription
        /// The return URL sent at enrolment; the redirect must start with it (docs/protocols/saltedge-v2.md §4, §13).
        public var returnURL: String
        /// Which URLs may be fetched (https only by default, docs/protocols/saltedge-v2.md §11).
        public var urlPolicy: URLPolicy = ClientDefaults.urlPolicy
        /// The local wall clock (the `exp` of signed request bodies, authorization expiry).
        public var clock: @Sendable () -> Date = ClientDefaults.clock
        /// Where connection key pairs and the nonces of signed answers come from.
        public var random: any RandomSource & Sendable = ClientDefaults.random
        /// When set, every exchange is logged through `LoggingMiddleware`
        /// (`Access-Token`, signatures and secret body members redacted).
        public var logger: Logger? = ClientDefaults.logger
        /// Where new connections' RSA key pairs are made and kept. The default,
        /// `SoftwareDeviceKeyStore`, makes them in memory and seals them in the connection's
        /// record; a store that holds keys (`PKCS11DeviceKeyStore`) generates them in a token,
        /// and the record keeps only the key's label. Connections made before keep their keys
        /// where they were made.
        public var deviceKeys: any DeviceKeyStore = SoftwareDeviceKeyStore()

        /// A configuration; every part optional (the layer-3 members default to `ClientDefaults`).
        ///
        /// - Parameters:
        ///   - clientDescription: The `Accept-Language` and `User-Agent` of every request.
        ///   - returnURL: The return URL sent at enrolment; the redirect must start with it.
        ///   - urlPolicy: Which URLs may be fetched; https only by default.
        ///   - clock: The local wall clock (the `exp` of signed request bodies, authorization expiry).
        ///   - random: Where connection key pairs and the nonces of signed answers come from.
        ///   - logger: When set, every exchange is logged, `Access-Token`, signatures and secret body members
        ///     redacted.
        ///   - deviceKeys: Where new connections' RSA key pairs are made and kept; in memory and sealed in
        ///     the record by default.
        public init(clientDescription: SaltEdge.ClientDescription = .linux(app: "SwiftMFA", version: SwiftMFAVersion.current, build: "1", system: "Linux"),
                    returnURL: String = SaltEdge.defaultReturnURL, urlPolicy: URLPolicy = ClientDefaults.urlPolicy,
                    clock: @escaping @Sendable () -> Date = ClientDefaults.clock, random: any RandomSource & Sendable = ClientDefaults.random,
                    logger: Logger? = ClientDefaults.logger, deviceKeys: any DeviceKeyStore = SoftwareDeviceKeyStore()) {
            self.clientDescription = clientDescription
            self.returnURL = returnURL
            self.deviceKeys = deviceKeys
            setClientMembers(urlPolicy: urlPolicy, clock: clock, random: random, logger: logger)
        }
    }

    /// The configuration.
    public nonisolated let configuration: Configuration
    /// The connections, in the secure store.
    let records: ConnectionRecords
    /// Makes the transport for a base URL (the configuration URL, a provider's `sca_service_url`).
    let transportFor: HTTPTransportFactory
    /// The configured random source, shared by every operation (``AuthNetworking/SharedRandomSource``).
    let randomSource: SharedRandomSource

    /// A client keeping its connections in `store`, sending through the transport `transport`
    /// makes for each base URL.
    ///
    /// - Parameters:
    ///   - configuration: What the client says about itself, the return URL and the layer-3 members.
    ///   - store: The secure store the connections are kept in.
    ///   - transport: Makes the transport for each base URL.
    public init(configuration: Configuration = Configuration(), store: SecureStore, transport: HTTPTransportFactory = .standard) {
        records = ConnectionRecords(store: store, deviceKeys: configuration.deviceKeys)
        transportFor = transport
        self.configuration = configuration
        randomSource = SharedRandomSource(configuration.random)
    }

    /// `Accept-Language` and `User-Agent` of every request.
    public nonisolated var clientDescription: SaltEdge.ClientDescription { configuration.clientDescription }
    /// Which URLs may be fetched.
    public nonisolated var urlPolicy: URLPolicy { configuration.urlPolicy }
    /// The return URL sent at enrolment.
    public nonisolated var returnURL: String { configuration.returnURL }
    /// The configured clock.
    nonisolated var now: @Sendable () -> Date { configuration.clock }

    // MARK: Enrolment (`fetchProviderData`, `createConnection`, the web view's redirect)

    /// The provider's configuration at `url` (`SEProviderManagerV2.fetchProviderData`, §6.1).
    ///
    /// - Parameter url: The provider's configuration URL.
    /// - Throws: `SaltEdgeClientError` with code `urlRefused` when the URL policy refuses the URL or the
    ///   configuration's `sca_service_url`, `transport` when no answer arrives, `server` (with the server's error class) when the server answers
    ///   with an error, `invalidResponse` when the configuration is not usable.
    public func providerConfiguration(at url: String) async throws(SaltEdgeClientError) -> SaltEdge.ProviderConfiguration {
        let response = try await send(SaltEdge.Enrollment.providerConfiguration(client: clientDescription), to: url)
        do { return try SaltEdge.ProviderConfiguration(responseBody: response.body, urlPolicy: urlPolicy) } catch {
            throw SaltEdgeClientError(urlRefusalIn: error)
                ?? SaltEdgeClientError(.invalidResponse, "the provider configuration is not usable", protocolError: error)
        }
    }

    /// Starts linking a bank from a connect deep link or QR text (§6.2, §11): fetches the
    /// configuration, creates the connection's RSA-2048 key pair (in the configured
    /// `DeviceKeyStore`, before any request), sends create-connection and
    /// keeps the pending connection in the store. Open ``PendingConnection/authenticationURL``;
    /// pass the redirect to ``completeConnection(id:redirectURL:)``.
    ///
    /// - Parameters:
    ///   - deepLink: The connect deep link or QR text.
    ///   - pushToken: A push token to register with the connection, if any.
    /// - Throws: `SaltEdgeClientError` with code `invalidInput` when `deepLink` is not a connect link or the
    ///   connection key or the request cannot be made, `urlRefused` when the URL policy refuses a URL, `deviceKey` when the
    ///   device key store cannot make the key, `transport` when no answer arrives, `server` (with the
    ///   server's error class) when the server answers with an error, `invalidResponse` when an answer is not
    ///   usable, `store` when the secure store fails or holds an unusable record.
    public func beginConnection(deepLink: String, pushToken: String? = nil) async throws(SaltEdgeClientError) -> PendingConnection {
        let link: SaltEdge.DeepLink
        do { link = try SaltEdge.DeepLink(parsing: deepLink, urlPolicy: urlPolicy) } catch {
            throw SaltEdgeClientError(urlRefusalIn: error) ?? SaltEdgeClientError(.invalidInput, "not a connect link", protocolError: error)
        }
        guard case .connect(let configurationURL, let connectQuery, _) = link else {
            throw SaltEdgeClientError(.invalidInput, "an instant-action link, not a connect link")
        }
        var random = randomSource
        try records.sweepAbandonedKeys()
        // The key first, so a token that cannot make it stops the enrolment before any request;
        // a key made in a token is deleted again when no pending record comes to name it.
        let key = try records.makeConnectionKey(using: &random)
        var saved = false
        defer { records.settle(key, saved: saved) }
        let configuration = try await providerConfiguration(at: configurationURL)
        let request: HTTPRequest
        do {
            request = try SaltEdge.Enrollment.createConnection(configuration: configuration, connectionKey: key.key, client: clientDescription,
                                                               connectQuery: connectQuery, pushToken: pushToken, returnURL: returnURL,
                                                               using: &random)
        } catch {
            throw SaltEdgeClientError(.invalidInput, "the connection request cannot be built", protocolError: error)
        }
        let response = try await send(request, to: configuration.scaServiceURL)
        let created: SaltEdge.CreatedConnection
        do { created = try SaltEdge.CreatedConnection(response: response) } catch {
            throw SaltEdgeClientError(.invalidResponse, "the create-connection answer is not usable", protocolError: error)
        }
        let pending = PendingConnection(id: created.connectionID, authenticationURL: created.authenticationURL, configuration: configuration,
                                        key: key.key, keyLabel: key.label)
        try records.savePending(pending)
        saved = true
        return pending
    }

    /// Finishes linking with the redirect the bank sent to the return URL (§4): decrypts the
    /// access token with the pending connection's key and stores the connection. A redirect that
    /// carries an error is `SaltEdgeClientError.Code.server` with its class.
    ///
    /// - Parameters:
    ///   - id: The pending connection's id.
    ///   - redirectURL: The redirect the bank sent to the return URL.
    /// - Returns: The connection, now stored.
    /// - Throws: `SaltEdgeClientError` with code `unknownConnection` when no pending connection `id` is
    ///   stored, `invalidInput` when `redirectURL` is not a redirect to the return URL or names another
    ///   connection, `server` with the redirect's error class when the provider refused, `invalidResponse`
    ///   when the access token does not decrypt, `deviceKey` when the connection's key in the device key
    ///   store cannot be used, `store` when the secure store fails or holds an unusable record.
    public func completeConnection(id: String, redirectURL: String) async throws(SaltEdgeClientError) -> StoredConnection {
        guard let pending = try records.pending(id: id) else { throw SaltEdgeClientError(.unknownConnection, "no pending connection \(id)") }
        let redirect: SaltEdge.AccessTokenRedirect
        do { redirect = try SaltEdge.AccessTokenRedirect(parsing: redirectURL, returnURL: returnURL) } catch {
            throw SaltEdgeClientError(.invalidInput, "not a redirect to \(returnURL)", protocolError: error)
        }
        if case .failure(_, let errorClass, let message) = redirect {
            throw SaltEdgeClientError(.server, message ?? "the provider refused the connection", errorClass: errorClass)
        }
        if case .success(let connectionID, _) = redirect, connectionID != id {
            throw SaltEdgeClientError(.invalidInput, "the redirect names connection \(connectionID), not \(id)")
        }
        let token: SaltEdge.AccessToken
        do { token = try redirect.accessToken(with: pending.key) } catch {
            throw SaltEdgeClientError(.invalidResponse, "the access token does not decrypt", protocolError: error)
        }
        let connection = StoredConnection(connection: SaltEdge.Connection(id: id, providerID: pending.providerID, scaServiceURL: pending.scaServiceURL,
                                                                          key: pending.key, accessToken: token, providerPublicKey: pending.providerKey),
                                          name: pending.providerName, providerName: pending.providerName, isActive: true,
                                          keyLabel: pending.keyLabel)
        try records.save(connection)
        try records.removePending(id: id)
        return connection
    }

    // MARK: Connections

    /// Every stored connection.
    ///
    /// - Throws: `SaltEdgeClientError` with code `store` when the secure store fails or holds an unusable
    ///   record, `deviceKey` when a connection's key in the device key store cannot be used.
    public func connections() throws(SaltEdgeClientError) -> [StoredConnection] { try records.all() }

    /// The stored connection `id`, or nil when none is stored under that id (a lookup, as
    /// every client's: `SaltEdgeClientError.Code.unknownConnection` is for an operation on a connection that is not
    /// there).
    ///
    /// - Parameter id: The connection's id.
    /// - Throws: `SaltEdgeClientError` with code `store` when the secure store fails or holds an unusable
    ///   record, `deviceKey` when its key in the device key store cannot be used.
    public func connection(id: String) throws(SaltEdgeClientError) -> StoredConnection? { try records.connection(id: id) }

    /// The stored connection `id` that an operation needs.
    func existingConnection(id: String) throws(SaltEdgeClientError) -> StoredConnection {
        guard let connection = try records.connection(id: id) else { throw SaltEdgeClientError(.unknownConnection, "no connection \(id)") }
        return connection
    }

    /// Renames a connection (local only).
    ///
    /// - Parameters:
    ///   - id: The connection's id.
    ///   - name: The new display name.
    /// - Throws: `SaltEdgeClientError` with code `unknownConnection` when no connection is stored under `id`,
    ///   `store` when the store cannot be read or written.
    public func renameConnection(id: String, to name: String) throws(SaltEdgeClientError) {
        // On the freshest record, under the store's lock: only the name changes.
        guard try records.update(id: id, name: name) else { throw SaltEdgeClientError(.unknownConnection, "no connection \(id)") }
    }

    /// Forgets a connection here only (its key pair and token); the server's stays.
    ///
    /// - Parameter id: The connection's id.
    /// - Throws: `SaltEdgeClientError` with code `deviceKey` when the connection's key cannot be deleted from
    ///   the device key store (nothing is removed then), `store` when the store cannot be read or written.
    public func removeConnectionLocally(id: String) throws(SaltEdgeClientError) { try records.remove(id: id) }

    /// Revokes the connection on the server (§6.5), then deletes its record and key pair. A
    /// server that answers that the connection is already gone (error class
    /// `ConnectionNotFound` or `ConnectionRevoked`, §10) has nothing left to revoke: the record
    /// and key go all the same. Any other refusal, a bare 401 included, keeps them, so the
    /// revoke can be tried again.
    ///
    /// - Parameter id: The connection's id.
    /// - Throws: `SaltEdgeClientError` with code `unknownConnection` when no connection is stored under
    ///   `id`, `invalidInput` when the request cannot be signed, `urlRefused` when the URL policy refuses the URL,
    ///   `deviceKey` when the connection's key in the device key store cannot sign or be deleted, `transport`
    ///   when no answer arrives, `server` when the server refuses for another reason than the connection
    ///   being gone, `store` when the secure store fails or holds an unusable record.
    public func revokeConnection(id: String) async throws(SaltEdgeClientError) {
        let connection = try existingConnection(id: id)
        let request: HTTPRequest
        do { request = try requests(connection).revokeConnection(now: now()) } catch {
            throw SaltEdgeClientError(.invalidInput, "the revoke request cannot be signed", protocolError: error)
        }
        do throws(SaltEdgeClientError) {
            _ = try await send(request, to: connection.connection.scaServiceURL)
        } catch where error.errorClass == "ConnectionNotFound" || error.errorClass == "ConnectionRevoked" {
            // Already gone on the server.
        }
        try records.remove(id: id)
    }

    /// Registers a push token for the connection (§6.4; Linux polls, so this is rarely used).
    ///
    /// - Parameters:
    ///   - token: The push token.
    ///   - connectionID: The connection's id.
    /// - Throws: `SaltEdgeClientError` with code `unknownConnection` when no connection is stored under
    ///   `connectionID`, `invalidInput` when the request cannot be signed, `urlRefused` when the URL policy refuses the URL,
    ///   `deviceKey` when the connection's key in the device key store cannot sign, `transport` when no
    ///   answer arrives, `server` when the server answers with an error, `store` when the secure store fails
    ///   or holds an unusable record.
    public func updatePushToken(_ token: String, connectionID: String) async throws(SaltEdgeClientError) {
        let connection = try existingConnection(id: connectionID)
        let request: HTTPRequest
        do throws(ProtocolError) { request = try requests(connection).updatePushToken(token, now: now()) } catch {
            throw SaltEdgeClientError(.invalidInput, "the push-token request cannot be signed", protocolError: error)
        }
        _ = try await send(request, to: connection.connection.scaServiceURL)
    }

    // MARK: Plumbing

    func requests(_ connection: StoredConnection) -> SaltEdge.Requests {
        SaltEdge.Requests(connection: connection.connection, client: clientDescription)
    }

    /// Every request's middlewares (docs/design.md §1), around the caller's transport for `baseURL`:
    /// the URL policy (§11), header validation, logging when the configuration has a logger, the
    /// size limits, redirect refusal.
    func pipeline(_ baseURL: String) throws(TransportError) -> SendPipeline {
        .client(transport: try transportFor.transport(baseURL: baseURL),
                urlRule: URLPolicyMiddleware(baseURL: baseURL, policy: urlPolicy), logger: configuration.logger)
    }

    /// Sends `request` to `baseURL` through ``pipeline(_:)``; no answer is the shared mapping's
    /// code (`urlRefused`, `cancelled`, `transport`), a non-2xx answer the server's error class
    /// (§10). A connection the server says is gone is marked inactive.
    func send(_ request: HTTPRequest, to baseURL: String, connectionID: String? = nil) async throws(SaltEdgeClientError) -> HTTPResponse {
        let response: HTTPResponse
        do { response = try await pipeline(baseURL).send(request) } catch {
            throw SaltEdgeClientError(noAnswer: error, "no answer from \(URLPolicy.displayURL(baseURL))")
        }
        do { try SaltEdge.requireSuccess(response) } catch {
            let failure = SaltEdgeClientError.server(error, status: response.status)
            if failure.connectionIsGone, let connectionID {
                try records.update(id: connectionID, isActive: false)  // under the lock, on the freshest record
            }
            throw failure
        }
        return response
    }
}
