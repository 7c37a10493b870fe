// The default transport (issue "PowerAuth on a real wire", point 1): URLSession from
// FoundationNetworking, the one place in the package that imports it, so that a device which
// brings its own transport links no Foundation networking and no curl.

public import AuthNetworking
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
public import ProtocolSupport

/// Sends requests with an ephemeral `URLSession` (no cache, no cookies, no credential store).
public final class URLSessionTransport: HTTPTransport {
    /// What the transport adds to every request and how it connects.
    public struct Configuration: Sendable {
        /// The base URL; a request's path is appended (a path prefix in it is kept).
        public var baseURL: String
        /// Seconds to wait for an answer (default 20, as networking-apple).
        public var timeout: Double = 20
        /// `User-Agent` (default names SwiftMFA and Linux).
        public var userAgent: String = URLSessionTransport.defaultUserAgent
        /// `Accept-Language`, when set.
        public var acceptLanguage: String? = "en"
        /// Headers added to every request (a request's own header of the same name wins).
        public var additionalHeaders: [HTTPHeader] = []
        /// The logger (warnings by default: a plain-`http://` base URL is one).
        public var logger: Logger = Logger()

        /// A configuration for `baseURL`.
        public init(baseURL: String) {
            self.baseURL = baseURL
        }
    }

    /// `SwiftMFA/<version> (Linux)`.
    public static let defaultUserAgent = "SwiftMFA/0.4 (Linux; FoundationNetworking)"

    /// The configuration in use.
    public let configuration: Configuration
    private let session: URLSession

    /// A transport for `configuration`. Certificates are checked against the system trust
    /// store. (Linux's URLSession cannot pin a public key or trust an extra CA per session:
    /// `HTTPTransport` is the hook for a transport that can.)
    public init(configuration: Configuration) {
        self.configuration = configuration
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.urlCache = nil
        sessionConfiguration.httpCookieStorage = nil
        sessionConfiguration.httpShouldSetCookies = false
        sessionConfiguration.urlCredentialStorage = nil
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        sessionConfiguration.timeoutIntervalForRequest = configuration.timeout
        sessionConfiguration.timeoutIntervalForResource = configuration.timeout
        session = URLSession(configuration: sessionConfiguration)
        if configuration.baseURL.lowercased().hasPrefix("http://") {
            configuration.logger.log(.warnings, "plain http:// base URL \(configuration.baseURL): traffic and credentials are not protected")
        }
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// Sends `request`; any HTTP status is returned as a response.
    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        guard let url = URL(string: request.url(relativeTo: configuration.baseURL)),
              let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http" else {
            throw TransportError(.invalidRequest, underlying: "not an http(s) URL")
        }
        var urlRequest = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: configuration.timeout)
        urlRequest.httpMethod = request.method.rawValue
        var headers: [HTTPHeader] = [HTTPHeader("User-Agent", configuration.userAgent)]
        if let language = configuration.acceptLanguage { headers.append(HTTPHeader("Accept-Language", language)) }
        headers += configuration.additionalHeaders
        for header in headers where request.header(header.name) == nil { urlRequest.setValue(header.value, forHTTPHeaderField: header.name) }
        for header in request.headers { urlRequest.setValue(header.value, forHTTPHeaderField: header.name) }
        if let body = request.body { urlRequest.httpBody = Data(body) }
        let data: Data, response: URLResponse
        do {
            (data, response) = try await session.data(for: urlRequest)
        } catch {
            throw Self.transportError(error)
        }
        guard let http = response as? HTTPURLResponse else { throw TransportError(.badResponse, underlying: "not an HTTP response") }
        let responseHeaders = http.allHeaderFields.compactMap { key, value -> HTTPHeader? in
            guard let name = key as? String else { return nil }
            return HTTPHeader(name, "\(value)")
        }.sorted { $0.name.lowercased() < $1.name.lowercased() }
        return HTTPResponse(status: http.statusCode, headers: responseHeaders, body: Array(data))
    }

    /// The kind of a URLSession failure.
    static func transportError(_ error: any Error) -> TransportError {
        if error is CancellationError { return TransportError(.cancelled, underlying: "\(error)") }
        guard let urlError = error as? URLError else { return TransportError(.other, underlying: "\(error)") }
        let kind: TransportError.Kind
        switch urlError.code {
        case .timedOut: kind = .timedOut
        case .cancelled: kind = .cancelled
        case .cannotConnectToHost, .cannotFindHost, .networkConnectionLost, .notConnectedToInternet, .dnsLookupFailed,
             .cannotLoadFromNetwork, .internationalRoamingOff, .dataNotAllowed:
            kind = .unreachable
        case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted, .serverCertificateHasUnknownRoot,
             .serverCertificateNotYetValid, .clientCertificateRejected, .clientCertificateRequired:
            kind = .tls
        case .badServerResponse, .cannotParseResponse, .cannotDecodeRawData, .cannotDecodeContentData, .zeroByteResource:
            kind = .badResponse
        case .badURL, .unsupportedURL:
            kind = .invalidRequest
        default:
            kind = .other
        }
        return TransportError(kind, underlying: "URLError \(urlError.code.rawValue)")
    }
}
