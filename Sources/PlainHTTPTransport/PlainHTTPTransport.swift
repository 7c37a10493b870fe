// A transport with no Foundation and no TLS: HTTP/1.1 over a TCP socket from Glibc, one
// connection per request, plain http:// only (loopback and test servers); it refuses https://
// rather than send in clear. Its socket, exchange and reader are what TLSTransport, the default
// transport, runs HTTPS on.

public import AuthNetworking
import Glibc
public import ProtocolSupport

/// Sends requests over plain HTTP/1.1 on a TCP socket; `http://` base URLs only.
///
/// Blocking I/O bounded by the request timeout and an idle timeout, on a thread of its own
/// (BlockingIO.swift), so it never holds a thread of the cooperative pool; cancelling the task
/// stops it within 100 ms. One connection per request.
public struct PlainHTTPTransport: HTTPTransport {
    /// What the transport adds to every request.
    public struct Configuration: Sendable {
        /// `http://host[:port][/prefix]`; a request's path is appended.
        public var baseURL: String
        /// Seconds the whole exchange may take, connecting included (default 20).
        public var timeout: Double = 20
        /// Seconds a read may wait for its next byte (default 20); a peer that trickles a byte
        /// at a time is still stopped by ``timeout``.
        public var idleTimeout: Double = 20
        /// `User-Agent`.
        public var userAgent = SwiftMFAVersion.userAgent(component: "PlainHTTPTransport")
        /// `Accept-Language`, when set.
        public var acceptLanguage: String? = "en"
        /// Headers added to every request (a request's own header of the same name wins).
        public var additionalHeaders: [HTTPHeader] = []
        /// Response size limits.
        public var limits = HTTP1Message.Limits()

        /// A configuration for `baseURL`.
        public init(baseURL: String) { self.baseURL = baseURL }
    }

    /// The configuration in use.
    public let configuration: Configuration

    /// The configured base URL (a client's URL policy judges it too).
    public var destination: String? { configuration.baseURL }

    /// A transport for `configuration`; warns once through `logger` that traffic is in clear.
    public init(configuration: Configuration, logger: Logger = Logger()) {
        self.configuration = configuration
        logger.log(.warnings, "PlainHTTPTransport sends in clear text to \(configuration.baseURL); use it for loopback and test servers")
    }

    /// Sends `request`; any HTTP status but a redirect is returned as a response.
    ///
    /// Before a byte leaves, the method, target and every header field pass
    /// `HTTPSendPolicy` (`TransportError.Kind.invalidRequest`
    /// otherwise). The answer is read incrementally within ``Configuration/limits``
    /// (`TransportError.Kind.responseTooLarge` the moment one is passed) and the
    /// timeout, checked on every read; a 3xx is `TransportError.Kind.redirectRefused`,
    /// never followed.
    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        guard !Task.isCancelled else { throw TransportError(.cancelled) }
        let endpoint = try URLEndpoint(of: request, relativeTo: configuration.baseURL)
        let headers = try endpoint.headers(for: request, userAgent: configuration.userAgent, acceptLanguage: configuration.acceptLanguage,
                                           additional: configuration.additionalHeaders)
        let bytes = HTTP1Message.requestBytes(request, target: endpoint.target, host: endpoint.hostField, headers: headers)
        let deadline = Deadline(seconds: request.timeout ?? configuration.timeout)
        let limits = configuration.limits, idle = configuration.idleTimeout
        let hasNoBody = request.method == .init(rawValue: "HEAD")
        return try await BlockingIO.run { () throws(TransportError) in
            var socket = try TCPConnection(host: endpoint.host, port: endpoint.port, deadline: deadline)
            defer { socket.close() }
            return try HTTP1Exchange.run(bytes, over: &socket, hasNoBody: hasNoBody, limits: limits, deadline: deadline, idleTimeout: idle).response
        }
    }
}

/// Scheme, host, port and request target of an `http://` or `https://` URL.
package struct URLEndpoint: Sendable {
    package let isSecure: Bool
    package let host: String
    package let port: UInt16
    package let target: String
    /// The `Host` field: the host, and the port when it is not the scheme's default.
    package var hostField: String { port == (isSecure ? 443 : 80) ? host : "\(host):\(port)" }

    /// The header fields a transport sends with `request` to this endpoint: User-Agent,
    /// Accept-Language when there is one, `Accept-Encoding: identity` and the configured
    /// additional fields, each replaced by a field of the request's own of the same name, then the
    /// request's. They pass `HTTPSendPolicy` with the method, the target and the Host field
    /// (`TransportError.Kind.invalidRequest` otherwise) before a byte leaves.
    package func headers(for request: HTTPRequest, userAgent: String, acceptLanguage: String?,
                         additional: [HTTPHeader]) throws(TransportError) -> [HTTPHeader] {
        var headers = [HTTPHeader("User-Agent", userAgent)]
        if let acceptLanguage { headers.append(HTTPHeader("Accept-Language", acceptLanguage)) }
        headers.append(HTTPHeader("Accept-Encoding", "identity"))  // RFC 9110 §12.5.3: no compressed answer
        headers += additional
        headers = headers.filter { request.header($0.name) == nil } + request.headers
        try HTTPSendPolicy.validate(method: request.method, target: target, headers: headers + [HTTPHeader("Host", hostField)])
        return headers
    }

    /// The endpoint `request` goes to below `base`. Its ``target`` leaves out the request's query,
    /// which may hold secrets: that goes from the request straight into its bytes
    /// (``HTTP1Message/requestBytes(_:target:host:headers:keepAlive:)``), percent-encoded there,
    /// so it holds nothing the target check would refuse.
    package init(of request: HTTPRequest, relativeTo base: String, allowingTLS: Bool = false) throws(TransportError) {
        var bare = request
        bare.query = []
        try self.init(bare.url(relativeTo: base), allowingTLS: allowingTLS)
    }

    /// Parses `url`; `https://` only when `allowingTLS`. User info and IPv6 literals are refused.
    package init(_ url: String, allowingTLS: Bool = false) throws(TransportError) {
        let lowered = url.lowercased()
        let rest: Substring
        if lowered.hasPrefix("http://") {
            isSecure = false
            rest = url.dropFirst(7)
        } else if allowingTLS, lowered.hasPrefix("https://") {
            isSecure = true
            rest = url.dropFirst(8)
        } else {
            throw TransportError(.invalidRequest, underlying: allowingTLS ? "only http:// and https:// URLs (got \(url.prefix(8))…)"
                                                                          : "PlainHTTPTransport speaks no TLS: only http:// URLs (got \(url.prefix(8))…)")
        }
        let authority = rest.prefix { $0 != "/" && $0 != "?" }
        target = rest.count == authority.count ? "/" : (rest[authority.endIndex] == "?" ? "/" : "") + String(rest[authority.endIndex...])
        guard !authority.contains("@"), !authority.hasPrefix("[") else {
            throw TransportError(.invalidRequest, underlying: "user info and IPv6 literals are not supported")
        }
        let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
        guard let name = parts.first, !name.isEmpty, parts.count <= 2 else { throw TransportError(.invalidRequest, underlying: "host in \(URLPolicy.displayURL(url))") }
        host = String(name)
        if parts.count == 2 {
            guard let number = UInt16(parts[1]), number > 0 else { throw TransportError(.invalidRequest, underlying: "port in \(URLPolicy.displayURL(url))") }
            port = number
        } else {
            port = isSecure ? 443 : 80
        }
    }
}
