// The default transport (docs/design.md §1, "TLS of our own"): HTTP/1.1 over the package's own TLS
// client, on a Glibc socket, with no Foundation and no C library beyond glibc — so the static
// `mfa` and every SDK speak https:// with the system's trust anchors, a caller's anchors, or
// pinned keys. Connections are kept alive between requests; each exchange has an overall
// deadline and an idle timeout, runs on a thread of its own and stops when its task is
// cancelled. `http://` base URLs are sent in clear on the same path (a client's URL policy
// allows that only for loopback, when the caller asks).

public import AuthNetworking
import PlainHTTPTransport
import Synchronization
public import ProtocolSupport
public import TLS

/// Sends requests over HTTP/1.1 on TLS 1.3 or 1.2 (or on plain TCP for `http://`).
public struct TLSTransport: HTTPTransport {
    /// Where the server's certificate must lead.
    public enum Trust: Sendable, Equatable {
        /// The system's trust anchors (`$SSL_CERT_FILE`, the distribution's bundle).
        case systemRoots
        /// These anchors instead (a private CA).
        case anchors(TrustAnchors)
        /// No chain: the leaf must match ``Configuration/pins`` (a device's own server).
        case pinnedKeysOnly
    }

    /// What the transport adds to every request and how it trusts the server.
    public struct Configuration: Sendable {
        /// `https://host[:port][/prefix]` (or `http://` for a loopback test server).
        public var baseURL: String
        /// Seconds a whole exchange may take, connecting and handshake included (default 30).
        public var timeout: Double = 30
        /// Seconds a read may wait for its next byte (default 20).
        public var idleTimeout: Double = 20
        /// The trust anchors.
        public var trust: Trust = .systemRoots
        /// Pins the leaf must match as well (or alone, with ``Trust/pinnedKeysOnly``).
        public var pins: TLSPins?
        /// Whether connections are kept for the next request (default true).
        public var keepAlive = true
        /// `User-Agent`.
        public var userAgent = SwiftMFAVersion.userAgent(component: "TLSTransport")
        /// `Accept-Language`, when set.
        public var acceptLanguage: String? = "en"
        /// Headers added to every request (a request's own header of the same name wins).
        public var additionalHeaders: [HTTPHeader] = []
        /// Response size limits, enforced while the answer arrives.
        public var limits = ResponseLimits()
        /// TLS versions offered (1.3 and 1.2 by default).
        public var versions: [TLSVersion] = [.tls13, .tls12]

        /// A configuration for `baseURL`.
        public init(baseURL: String) { self.baseURL = baseURL }
    }

    /// The configuration in use.
    public let configuration: Configuration
    private let pool = ConnectionPool()

    /// The configured base URL (a client's URL policy judges it too).
    public var destination: String? { configuration.baseURL }

    /// A transport for `configuration`.
    public init(configuration: Configuration) { self.configuration = configuration }

    /// Sends `request`; any HTTP status but a redirect is returned as a response. The method,
    /// target and headers pass `HTTPSendPolicy` before a byte leaves; the server is
    /// authenticated before the request is written; the answer is read within the limits,
    /// the deadline and the idle timeout.
    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        guard !Task.isCancelled else { throw TransportError(.cancelled) }
        let endpoint = try URLEndpoint(of: request, relativeTo: configuration.baseURL, allowingTLS: true)
        let headers = try endpoint.headers(for: request, userAgent: configuration.userAgent, acceptLanguage: configuration.acceptLanguage,
                                           additional: configuration.additionalHeaders)
        let keepAlive = configuration.keepAlive && endpoint.isSecure
        let bytes = HTTP1Message.requestBytes(request, target: endpoint.target, host: endpoint.hostField, headers: headers, keepAlive: keepAlive)
        let deadline = Deadline(seconds: request.timeout ?? configuration.timeout)
        let hasNoBody = request.method == .init(rawValue: "HEAD")
        let configuration = configuration, pool = pool
        let tls = endpoint.isSecure ? try tlsConfiguration(host: endpoint.host) : nil
        return try await BlockingIO.run { () throws(TransportError) in
            guard let tls else {
                var socket = try TCPConnection(host: endpoint.host, port: endpoint.port, deadline: deadline)
                defer { socket.close() }
                return try HTTP1Exchange.run(bytes, over: &socket, hasNoBody: hasNoBody, limits: configuration.limits,
                                             deadline: deadline, idleTimeout: configuration.idleTimeout).response
            }
            let origin = "\(endpoint.host):\(endpoint.port)"
            var stream: TLSStream
            if keepAlive, let kept = pool.take(origin, now: Deadline.now()) {
                stream = kept
            } else {
                stream = try Self.connect(endpoint, tls, configuration, deadline)
            }
            do throws(TransportError) {
                let (response, reusable) = try HTTP1Exchange.run(bytes, over: &stream, hasNoBody: hasNoBody, limits: configuration.limits,
                                                                 deadline: deadline, idleTimeout: configuration.idleTimeout)
                if keepAlive && reusable { pool.put(stream, origin, now: Deadline.now()) } else { stream.close() }
                return response
            } catch {
                stream.close()
                throw error
            }
        }
    }

    private static func connect(_ endpoint: URLEndpoint, _ tls: TLSConfiguration, _ configuration: Configuration,
                                _ deadline: Deadline) throws(TransportError) -> TLSStream {
        try TLSStream(host: endpoint.host, port: endpoint.port, configuration: tls, deadline: deadline, idleTimeout: configuration.idleTimeout)
    }

    /// The TLS settings for `host`: its identity, and the trust the configuration names.
    private func tlsConfiguration(host: String) throws(TransportError) -> TLSConfiguration {
        guard let identity = ServerIdentity(host: host) else { throw TransportError(.invalidRequest, underlying: "host \(host) is not a DNS name or an address") }
        let trust: TLSTrust
        switch configuration.trust {
        case .systemRoots: trust = .certificateAuthorities(try SystemTrustStore.anchors(), pins: configuration.pins)
        case .anchors(let anchors): trust = .certificateAuthorities(anchors, pins: configuration.pins)
        case .pinnedKeysOnly:
            guard let pins = configuration.pins, !pins.isEmpty else {
                throw TransportError(.tls, underlying: "pinned-keys-only trust without any pin")
            }
            trust = .pinnedKeys(pins)
        }
        var tls = TLSConfiguration(serverIdentity: identity, trust: trust)
        tls.versions = configuration.versions
        return tls
    }
}

extension HTTPTransportFactory {
    /// A ``TLSTransport`` per base URL, configured by `configure`; asked for pins (the CM
    /// client), it enforces them on top of the trust anchors.
    /// The factory keeps the transport it made for each base URL and pin set, so clients that
    /// ask for a transport per request (M-Pin, Salt Edge, CM) still reuse its kept-alive
    /// connections.
    public static func tls(_ configure: @escaping @Sendable (inout TLSTransport.Configuration) -> Void = { _ in }) -> HTTPTransportFactory {
        let made = Mutex<[String: TLSTransport]>([:])
        return HTTPTransportFactory { (baseURL, pins) throws(TransportError) in
            let key = baseURL + "\u{0}" + (pins.map(String.init(describing:)) ?? "")
            if let existing = made.withLock({ $0[key] }) { return existing }
            var configuration = TLSTransport.Configuration(baseURL: baseURL)
            configure(&configuration)
            if let pins {
                guard !pins.isEmpty else { throw TransportError(.tls, underlying: "an empty pin set trusts nothing") }
                configuration.pins = TLSPins(spkiSHA256: pins.spkiSHA256.union(configuration.pins?.spkiSHA256 ?? []),
                                             certificateSHA256: pins.certificateSHA256.union(configuration.pins?.certificateSHA256 ?? []))
            }
            let transport = TLSTransport(configuration: configuration)
            made.withLock { if $0.count < 64 { $0[key] = transport } }  // a bound: a client names few origins
            return transport
        }
    }

    /// The default transport of every client: ``TLSTransport`` with the system's anchors.
    public static var standard: HTTPTransportFactory { .tls() }
}
