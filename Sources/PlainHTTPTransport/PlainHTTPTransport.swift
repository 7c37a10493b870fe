// A transport with no Foundation: HTTP/1.1 over a TCP
// socket from Glibc, one connection per request, plain http:// only. It is what `mfa` sends
// with when built without the `URLSession` trait — the build that links statically into a
// binary needing nothing but glibc (docs/static-and-embedded.md): FoundationNetworking would pull in
// libcurl and its TLS stack. It speaks no TLS, so it refuses https:// rather than send in clear.

public import AuthNetworking
import Glibc
public import ProtocolSupport

/// Sends requests over plain HTTP/1.1 on a TCP socket; `http://` base URLs only.
///
/// Blocking I/O bounded by the request timeout, run on the calling task's thread: meant for
/// command-line tools and devices with one request in flight, not for a server's event loop.
public struct PlainHTTPTransport: HTTPTransport {
    /// What the transport adds to every request.
    public struct Configuration: Sendable {
        /// `http://host[:port][/prefix]`; a request's path is appended.
        public var baseURL: String
        /// Seconds to wait for the whole exchange (default 20).
        public var timeout: Double = 20
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
        let endpoint = try Endpoint(request.url(relativeTo: configuration.baseURL))
        var headers = [HTTPHeader("User-Agent", configuration.userAgent)]
        if let language = configuration.acceptLanguage { headers.append(HTTPHeader("Accept-Language", language)) }
        headers += configuration.additionalHeaders
        headers = headers.filter { request.header($0.name) == nil } + request.headers
        try HTTPSendPolicy.validate(method: request.method, target: endpoint.target, headers: headers + [HTTPHeader("Host", endpoint.hostField)])
        let bytes = HTTP1Message.requestBytes(method: request.method.rawValue, target: endpoint.target, host: endpoint.hostField,
                                              headers: headers, body: request.body)
        let deadline = Deadline(seconds: request.timeout ?? configuration.timeout)
        let socket = try TCPConnection(host: endpoint.host, port: endpoint.port, deadline: deadline)
        defer { socket.close() }
        try socket.write(bytes, deadline: deadline)
        var reader = HTTP1ResponseReader(hasNoBody: request.method == .init(rawValue: "HEAD"), limits: configuration.limits)
        var received: [UInt8] = []
        received.reserveCapacity(TCPConnection.readSize)
        var headChecked = false
        while true {
            guard !Task.isCancelled else { throw TransportError(.cancelled) }
            received.removeAll(keepingCapacity: true)
            let closed = try socket.read(into: &received, deadline: deadline)
            let response: HTTPResponse?
            do {
                response = closed ? try reader.finish() : try reader.consume(received)
            } catch {
                try Self.refuseRedirect(reader.head)
                throw error == .tooLarge
                    ? TransportError(.responseTooLarge, underlying: "the answer passed the head, chunk-line or \(configuration.limits.bodyBytes)-byte body limit")
                    : TransportError(.badResponse, underlying: "\(error)")
            }
            if !headChecked {
                // DESIGN.md §1: a 3xx is an error, never followed — refused before its body is read.
                try Self.refuseRedirect(reader.head)
                headChecked = reader.head != nil
            }
            if let response { return response }
        }
    }

    private static func refuseRedirect(_ head: HTTPResponse?) throws(TransportError) {
        guard let head else { return }
        try HTTPSendPolicy.refuseRedirect(status: head.status, location: head.header("Location"))
    }
}

/// Host, port and request target of an `http://` URL.
struct Endpoint {
    let host: String
    let port: UInt16
    let target: String
    /// The `Host` field: the host, and the port when it is not 80.
    var hostField: String { port == 80 ? host : "\(host):\(port)" }

    init(_ url: String) throws(TransportError) {
        guard url.lowercased().hasPrefix("http://") else {
            throw TransportError(.invalidRequest, underlying: "PlainHTTPTransport speaks no TLS: only http:// URLs (got \(url.prefix(8))…)")
        }
        let rest = url.dropFirst(7)
        let authority = rest.prefix { $0 != "/" && $0 != "?" }
        target = rest.count == authority.count ? "/" : (rest[authority.endIndex] == "?" ? "/" : "") + String(rest[authority.endIndex...])
        guard !authority.contains("@"), !authority.hasPrefix("[") else {
            throw TransportError(.invalidRequest, underlying: "user info and IPv6 literals are not supported")
        }
        let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
        guard let name = parts.first, !name.isEmpty, parts.count <= 2 else { throw TransportError(.invalidRequest, underlying: "host in \(url)") }
        host = String(name)
        if parts.count == 2 {
            guard let number = UInt16(parts[1]), number > 0 else { throw TransportError(.invalidRequest, underlying: "port in \(url)") }
            port = number
        } else {
            port = 80
        }
    }
}
