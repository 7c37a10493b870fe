// The Wultra networking layer on Linux (powerauth.md §16; sdk-surfaces.md §2 `WPNNetworkingService`): typed endpoints of an
// application's own API, signed, token-signed and end-to-end encrypted through a
// `PowerAuthClient`, over any `HTTPTransport`. The sending is in NetworkingService+Send.swift.

public import AuthNetworking
public import CryptoPrimitives
public import FoundationEssentials
import PowerAuth
public import PowerAuthSDK
public import ProtocolSupport

/// A typed HTTP client for one application back end (`WPNNetworkingService`).
public struct NetworkingService: Sendable {
    /// What every request of the service carries and how requests are ordered (`WPNConfig`), in
    /// the layer-3 shape every client shares (`ClientConfiguration`).
    public struct Configuration: ClientConfiguration {
        /// `Accept-Language` (RFC 5646; not persisted — set it on every start, as networking-apple says).
        public var acceptLanguage: String
        /// `User-Agent`.
        public var userAgent: UserAgent
        /// Seconds to wait for an answer unless a call says otherwise; nil: the transport's own.
        public var timeout: Double?
        /// How requests are serialised.
        public var concurrency: ConcurrencyStrategy
        /// Which base URLs the service accepts (DESIGN.md §1, layer 3): `https://` to a real
        /// host name; plain `http://` only to loopback, and only when the caller opts out with
        /// `URLPolicy.insecureAllowingPlainHTTPToLoopback`.
        public var urlPolicy: URLPolicy = ClientDefaults.urlPolicy
        /// The local wall clock. The service itself reads no time: the timestamps and nonces of
        /// signed and encrypted requests are the `PowerAuthClient`'s, from its own
        /// configuration. Carried so that every client is configured alike.
        public var clock: @Sendable () -> Date = ClientDefaults.clock
        /// The random source. The service draws no random bytes itself (see ``clock``).
        public var random: any RandomSource & Sendable = ClientDefaults.random
        /// When set, every exchange of the service is logged through
        /// `LoggingMiddleware`, signature and token headers redacted.
        public var logger: Logger? = ClientDefaults.logger

        /// The defaults: `en`, the library's User-Agent, the transport's timeout, `serialSigned`,
        /// and `ClientDefaults` (https only, the system clock and random source, no logger).
        public init(acceptLanguage: String = "en", userAgent: UserAgent = .libraryDefault, timeout: Double? = nil,
                    concurrency: ConcurrencyStrategy = .serialSigned, urlPolicy: URLPolicy = ClientDefaults.urlPolicy,
                    clock: @escaping @Sendable () -> Date = ClientDefaults.clock, random: any RandomSource & Sendable = ClientDefaults.random,
                    logger: Logger? = ClientDefaults.logger) {
            self.acceptLanguage = acceptLanguage
            self.userAgent = userAgent
            self.timeout = timeout
            self.concurrency = concurrency
            setClientMembers(urlPolicy: urlPolicy, clock: clock, random: random, logger: logger)
        }
    }

    /// The `User-Agent` header.
    public enum UserAgent: Sendable, Equatable {
        /// `PowerAuthNetworking/<version> (Linux; <service name>)`.
        case libraryDefault
        /// Whatever the transport sends by itself.
        case system
        /// This text.
        case custom(String)
    }

    /// Which requests share the client's serial queue (powerauth.md §16 "Serialization").
    public enum ConcurrencyStrategy: Sendable, Equatable {
        /// Signed requests go one at a time through the client's queue (shared with its own
        /// signed calls), the signature computed inside; the rest run concurrently. The default.
        case serialSigned
        /// Every request of this service goes through the client's queue.
        case serialAll
        /// Nothing is serialised. Signed requests may then overtake each other and cost failed
        /// attempts (even a blocked activation): for back ends that only take token or basic calls.
        case concurrentAll
    }

    /// The library's version, as the default User-Agent names it (`SwiftMFAVersion.current`).
    public static let version = SwiftMFAVersion.current

    /// The PowerAuth client that signs, creates tokens and encrypts.
    public let client: PowerAuthClient
    /// Makes the transport to the application back end (for the service's base URL).
    public let transport: HTTPTransportFactory
    /// The back end's base URL, as the URL policy checked it.
    public let baseURL: String
    /// The URL policy that checked ``baseURL`` (the client's when the service shares its base URL).
    let baseURLPolicy: URLPolicy
    /// The configuration.
    public var configuration: Configuration
    /// A name for logs and the default User-Agent.
    public let serviceName: String
    /// Receives every answer, raw and (for end-to-end encrypted endpoints) decrypted (`WPNResponseDelegate`).
    public var responseObserver: (@Sendable (_ path: String, _ status: Int, _ body: [UInt8], _ decrypted: [UInt8]?) -> Void)?

    /// A service for the back end at the client's own base URL (which the client's URL policy
    /// already checked when it was made), behind `transport`, signing with `client`.
    public init(client: PowerAuthClient, transport: HTTPTransportFactory, configuration: Configuration = Configuration(),
                serviceName: String = "networking") {
        self.client = client
        self.transport = transport
        self.configuration = configuration
        self.serviceName = serviceName
        baseURL = client.configuration.core.baseURL
        baseURLPolicy = client.configuration.urlPolicy
    }

    /// A service for the back end at `baseURL`, behind `transport`, signing with `client`.
    /// Throws ``NetworkingError/Reason/invalidConfiguration`` when `configuration.urlPolicy`
    /// refuses `baseURL`: signatures, token headers and bodies must not travel in clear.
    public init(client: PowerAuthClient, baseURL: String, transport: HTTPTransportFactory, configuration: Configuration = Configuration(),
                serviceName: String = "networking") throws(NetworkingError) {
        guard configuration.urlPolicy.permits(baseURL) else {
            throw NetworkingError(.invalidConfiguration, "the base URL \(baseURL) is refused by the URL policy (https to a named host only)")
        }
        self.client = client
        self.transport = transport
        self.configuration = configuration
        self.serviceName = serviceName
        self.baseURL = baseURL
        baseURLPolicy = configuration.urlPolicy
    }

    /// Sends `data` to `endpoint` (`post(data:auth:to:with:timeoutInterval:)`) and returns the
    /// decoded `responseObject`, or nil when the answer has none. Signed and token endpoints
    /// need `authentication` (its factors sign, or create the token); activation-scope
    /// encryption needs it for the possession key.
    public func post<Request, Response>(_ data: Request, to endpoint: Endpoint<Request, Response>, authentication: Authentication? = nil,
                                        headers: [HTTPHeader] = [], timeout: Double? = nil) async throws(NetworkingError) -> Response? {
        if configuration.concurrency == .serialAll {
            do {
                return try await client.executeOnSerialQueue { () async throws -> Response? in
                    try await perform(data, to: endpoint, authentication: authentication, headers: headers, timeout: timeout, queued: true)
                }
            } catch let error as NetworkingError {
                throw error
            } catch {
                throw NetworkingError(.networkUnknown, "\(error)")
            }
        }
        return try await perform(data, to: endpoint, authentication: authentication, headers: headers, timeout: timeout, queued: false)
    }

    /// The same as a task that can be cancelled (`WPNNetworkingService.post` returning an operation).
    public func postTask<Request, Response>(_ data: Request, to endpoint: Endpoint<Request, Response>, authentication: Authentication? = nil,
                                            headers: [HTTPHeader] = [], timeout: Double? = nil) -> NetworkingTask<Response> {
        NetworkingTask(task: Task { () async throws -> Response? in
            try await post(data, to: endpoint, authentication: authentication, headers: headers, timeout: timeout)
        })
    }

    /// Every request's middlewares (DESIGN.md §1), around the transport the factory makes for
    /// ``baseURL``: the URL policy on the whole URL, header validation, logging when the
    /// configuration has a logger, the size limits, redirect refusal. The `User-Agent` is in
    /// ``commonHeaders`` (``UserAgent/system`` leaves it to the transport).
    var pipeline: SendPipeline {
        get throws(TransportError) {
            SendPipeline(transport: try transport.transport(baseURL: baseURL), middlewares: [
                URLPolicyMiddleware(baseURL: baseURL, policy: baseURLPolicy), HeaderValidationMiddleware(),
            ] + (configuration.logger.map { [LoggingMiddleware($0)] } ?? []) + [
                ResponseSizeLimitMiddleware(), RedirectRefusalMiddleware(),
            ])
        }
    }

    /// The headers every request of this service carries.
    var commonHeaders: [HTTPHeader] {
        var headers = [HTTPHeader("Content-Type", "application/json"), HTTPHeader("Accept", "application/json"),
                       HTTPHeader("Accept-Language", configuration.acceptLanguage)]
        switch configuration.userAgent {
        case .libraryDefault: headers.append(HTTPHeader("User-Agent", "PowerAuthNetworking/\(Self.version) (Linux; \(serviceName))"))
        case .custom(let text): headers.append(HTTPHeader("User-Agent", text))
        case .system: break
        }
        return headers
    }

    /// ISO-8601 dates, as networking-apple's encoder and decoder use.
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

/// A call in flight that can be cancelled.
public struct NetworkingTask<Response: Sendable>: Sendable {
    let task: Task<Response?, any Error>

    /// Cancels the call; its ``value`` then throws ``NetworkingError/Reason/cancelled`` (unless
    /// the answer was already in).
    public func cancel() { task.cancel() }

    /// The call's result.
    public var value: Response? {
        get async throws(NetworkingError) {
            do { return try await task.value } catch let error as NetworkingError { throw error } catch {
                throw NetworkingError(.cancelled, "the call was cancelled")
            }
        }
    }
}
