// The Wultra networking layer on Linux (docs/protocols/powerauth.md §16; docs/protocols/sdk-surfaces.md §2 `WPNNetworkingService`): typed endpoints of an
// application's own API, signed, token-signed and end-to-end encrypted through a
// `PowerAuthClient`, over any `HTTPTransport`. The sending is in NetworkingService+Send.swift.

public import AuthNetworking
public import CryptoPrimitives
public import FoundationEssentials
import PowerAuth
public import PowerAuthSDK
public import ProtocolSupport
public import TLSTransport

/// A typed HTTP client for one application back end (`WPNNetworkingService`), in the layer-3
/// shape every client shares: an actor with a nested ``Configuration``, made with
/// ``init(configuration:client:transport:)``, throwing ``NetworkingError``.
///
/// Its state is the `PowerAuthClient`'s (activation, counter, tokens), so the client takes the
/// place of a store; signed calls are serialised on the client's queue, shared with the client's
/// own signed calls (docs/protocols/powerauth.md §16 "Serialization").
public actor NetworkingService {
    /// What every request of the service carries, where it goes and how requests are ordered
    /// (`WPNConfig`), in the layer-3 shape every client shares (`ClientConfiguration`).
    public struct Configuration: ClientConfiguration {
        /// The back end's base URL; nil: the PowerAuth client's own (which its URL policy
        /// already checked). A URL given here must pass ``urlPolicy``.
        public var baseURL: String?
        /// A name for logs and the default User-Agent.
        public var serviceName: String
        /// `Accept-Language` (RFC 5646; not persisted — set it on every start, as networking-apple says).
        public var acceptLanguage: String
        /// `User-Agent`.
        public var userAgent: UserAgent
        /// How long to wait for an answer unless a call says otherwise; nil: the transport's own.
        public var timeout: Duration?
        /// How requests are serialised.
        public var concurrency: ConcurrencyStrategy
        /// Receives every answer, raw and (for end-to-end encrypted endpoints) decrypted
        /// (`WPNResponseDelegate`).
        public var responseObserver: (@Sendable (_ path: String, _ status: Int, _ body: [UInt8], _ decrypted: [UInt8]?) -> Void)?
        /// Which base URLs the service accepts (docs/design.md §1, layer 3): `https://` to a real
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
        /// Whether a token the server refuses (HTTP 401) is created again, with the call's
        /// authentication, and the call repeated once (networking-apple's behaviour, the default).
        /// When false the token is forgotten and the call fails with `tokenError`: a caller whose
        /// tokens are made on request only (`mfa`) never gets one with other factors.
        public var recreatesRefusedTokens = true

        /// The defaults: the client's base URL, service name `networking`, `en`, the library's
        /// User-Agent, the transport's timeout, `serialSigned`, no observer, and `ClientDefaults`
        /// (https only, the system clock and random source, no logger).
        ///
        /// - Parameters:
        ///   - baseURL: The back end's base URL; `nil` for the PowerAuth client's own.
        ///   - serviceName: A name for logs and the default User-Agent.
        ///   - acceptLanguage: The `Accept-Language` of every request.
        ///   - userAgent: The `User-Agent` of every request.
        ///   - timeout: How long to wait for an answer unless a call says otherwise; `nil` for the transport's
        ///     own.
        ///   - concurrency: Which requests share the client's serial queue.
        ///   - responseObserver: Receives every answer, raw and (for encrypted endpoints) decrypted.
        ///   - urlPolicy: Which base URLs the service accepts; `https://` to a real host name by default.
        ///   - clock: The local wall clock; the service itself reads no time.
        ///   - random: The random source; the service itself draws no random bytes.
        ///   - logger: When set, every exchange is logged, signature and token headers redacted.
        public init(baseURL: String? = nil, serviceName: String = "networking", acceptLanguage: String = "en",
                    userAgent: UserAgent = .libraryDefault, timeout: Duration? = nil, concurrency: ConcurrencyStrategy = .serialSigned,
                    responseObserver: (@Sendable (_ path: String, _ status: Int, _ body: [UInt8], _ decrypted: [UInt8]?) -> Void)? = nil,
                    urlPolicy: URLPolicy = ClientDefaults.urlPolicy, clock: @escaping @Sendable () -> Date = ClientDefaults.clock,
                    random: any RandomSource & Sendable = ClientDefaults.random, logger: Logger? = ClientDefaults.logger) {
            self.baseURL = baseURL
            self.serviceName = serviceName
            self.acceptLanguage = acceptLanguage
            self.userAgent = userAgent
            self.timeout = timeout
            self.concurrency = concurrency
            self.responseObserver = responseObserver
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

    /// Which requests share the client's serial queue (docs/protocols/powerauth.md §16 "Serialization").
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
    public nonisolated let client: PowerAuthClient
    /// Makes the transport to the application back end (for the service's base URL).
    public nonisolated let transport: HTTPTransportFactory
    /// The back end's base URL, as the URL policy checked it.
    public nonisolated let baseURL: String
    /// The configuration.
    public nonisolated let configuration: Configuration
    /// Every request's middlewares around the transport made for ``baseURL``.
    let pipeline: SendPipeline

    /// A name for logs and the default User-Agent.
    public nonisolated var serviceName: String { configuration.serviceName }

    /// A service for the back end at `configuration.baseURL` (by default the client's own base
    /// URL), behind the transport `transport` makes for it, signing with `client`. Nothing is
    /// sent when `configuration.urlPolicy` refuses the base URL (signatures, token headers and
    /// bodies must not travel in clear) or no transport can be made for it.
    ///
    /// - Parameters:
    ///   - configuration: The service's configuration.
    ///   - client: The PowerAuth client that signs, creates tokens and encrypts.
    ///   - transport: Makes the transport to the back end's base URL.
    /// - Throws: `NetworkingError` with code `urlRefused` when the URL policy refuses the base URL,
    ///   or the code of the transport's failure when no transport can be made for it.
    public init(configuration: Configuration = Configuration(), client: PowerAuthClient,
                transport: HTTPTransportFactory = .standard) throws(NetworkingError) {
        let baseURL: String
        let policy: URLPolicy
        if let configured = configuration.baseURL {
            guard configuration.urlPolicy.permits(configured) else {
                throw NetworkingError(refusing: configured)
            }
            (baseURL, policy) = (configured, configuration.urlPolicy)
        } else {
            // The client's URL policy checked its base URL when the client was made.
            (baseURL, policy) = (client.configuration.core.baseURL, client.configuration.urlPolicy)
        }
        let sender: any HTTPTransport
        do { sender = try transport.transport(baseURL: baseURL) } catch {
            throw NetworkingError(noAnswer: error, "no transport for \(URLPolicy.displayURL(baseURL))")
        }
        self.client = client
        self.transport = transport
        self.configuration = configuration
        self.baseURL = baseURL
        pipeline = Self.pipeline(transport: sender, baseURL: baseURL, policy: policy, logger: configuration.logger)
    }

    /// Sends `data` to `endpoint` (`post(data:auth:to:with:timeoutInterval:)`) and returns the
    /// decoded `responseObject`, or nil when the answer has none. Signed and token endpoints
    /// need `authentication` (its factors sign, or create the token); activation-scope
    /// encryption needs it for the possession key.
    ///
    /// - Parameters:
    ///   - data: The request object, sent as the envelope's `requestObject`.
    ///   - endpoint: The endpoint: its path, how it is authenticated and how it is encrypted.
    ///   - authentication: The factors of a signed or token endpoint, or the possession key of
    ///     activation-scope encryption; `nil` for an endpoint that needs neither.
    ///   - headers: Extra headers; one named like a common header replaces it.
    ///   - timeout: How long to wait for the answer; `nil` for the configuration's.
    /// - Throws: `NetworkingError` with code `invalidRequestObject` when `data` does not encode, the
    ///   endpoint needs an `authentication` that is missing, or a header holds a CR, LF or other control
    ///   character (nothing is sent), `missingActivation` when the client has no activation, `signError`
    ///   when the request cannot be signed or the secure store fails while the keys or the counter are
    ///   read, `tokenError` on a token endpoint for any other failure to make the token (the PowerAuth
    ///   error is the cause) and when the server refuses it, `e2eeError` when the request cannot be encrypted or a
    ///   successful answer does not decrypt, `timeout`, `noConnection`, `tlsError`, `badServerResponse`
    ///   or `networkGeneric` when no answer arrives, `urlRefused` when the URL policy refuses the
    ///   request's URL, `errorStatusCode` for a non-2xx answer or an envelope whose status is not `OK`,
    ///   `invalidResponseObject` when the answer is not the expected response object, `cancelled` when the
    ///   call is cancelled, `networkUnknown` for an unexpected error on the client's serial queue.
    public func post<Request, Response>(_ data: Request, to endpoint: Endpoint<Request, Response>, authentication: Authentication? = nil,
                                        headers: [HTTPHeader] = [], timeout: Duration? = nil) async throws(NetworkingError) -> Response? {
        if configuration.concurrency == .serialAll {
            do {
                return try await client.executeOnSerialQueue { () async throws -> Response? in
                    try await self.perform(data, to: endpoint, authentication: authentication, headers: headers, timeout: timeout, queued: true)
                }
            } catch let error as NetworkingError {
                throw error
            } catch {
                throw NetworkingError(.networkUnknown, "\(error)", cause: error)
            }
        }
        return try await perform(data, to: endpoint, authentication: authentication, headers: headers, timeout: timeout, queued: false)
    }

    /// The same as a task that can be cancelled (`WPNNetworkingService.post` returning an operation).
    ///
    /// - Parameters:
    ///   - data: The request object, sent as the envelope's `requestObject`.
    ///   - endpoint: The endpoint: its path, how it is authenticated and how it is encrypted.
    ///   - authentication: The factors of a signed or token endpoint, or the possession key of
    ///     activation-scope encryption; `nil` for an endpoint that needs neither.
    ///   - headers: Extra headers; one named like a common header replaces it.
    ///   - timeout: How long to wait for the answer; `nil` for the configuration's.
    /// - Returns: The call in flight; its `value` throws what `post(_:to:authentication:headers:timeout:)`
    ///   throws, and `cancelled` once the call is cancelled.
    public nonisolated func postTask<Request, Response>(_ data: Request, to endpoint: Endpoint<Request, Response>,
                                                        authentication: Authentication? = nil, headers: [HTTPHeader] = [],
                                                        timeout: Duration? = nil) -> NetworkingTask<Response> {
        NetworkingTask(task: Task { () async throws -> Response? in
            try await self.post(data, to: endpoint, authentication: authentication, headers: headers, timeout: timeout)
        })
    }

    /// Every request's middlewares (docs/design.md §1), around `transport`: the URL policy on the
    /// whole URL, header validation, logging when there is a logger, the size limits, redirect
    /// refusal. The `User-Agent` is in ``commonHeaders`` (``UserAgent/system`` leaves it to the
    /// transport).
    static func pipeline(transport: any HTTPTransport, baseURL: String, policy: URLPolicy, logger: Logger?) -> SendPipeline {
        .client(transport: transport, urlRule: URLPolicyMiddleware(baseURL: baseURL, policy: policy), logger: logger)
    }

    /// The headers every request of this service carries.
    nonisolated var commonHeaders: [HTTPHeader] {
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

    /// Cancels the call; its ``value`` then throws ``NetworkingError`` with code `cancelled`
    /// (unless the answer was already in).
    public func cancel() { task.cancel() }

    /// The call's result.
    public var value: Response? {
        get async throws(NetworkingError) {
            do { return try await task.value } catch let error as NetworkingError { throw error } catch {
                throw NetworkingError(.cancelled, "the call was cancelled", cause: error)
            }
        }
    }
}
