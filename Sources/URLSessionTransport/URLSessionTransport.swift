// A transport on URLSession from
// FoundationNetworking, the one place in the package that imports it, so that a device which
// brings its own transport links no Foundation networking and no curl.

public import AuthNetworking
import CryptoPrimitives
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
public import ProtocolSupport

/// Sends requests with an ephemeral `URLSession` (no cache, no cookies, no credential store).
///
/// `URLRequest` takes only `String`s, so a secret field (`HTTPHeader.secret`) becomes one here
/// and Foundation keeps it for as long as it likes; `TLSTransport` keeps it in wiped bytes.
public final class URLSessionTransport: HTTPTransport {
    /// What the transport adds to every request and how it connects.
    public struct Configuration: Sendable {
        /// The base URL; a request's path is appended (a path prefix in it is kept).
        public var baseURL: String
        /// Seconds for the whole exchange, kept by the transport itself, and libcurl's idle
        /// time-out (default 20, as networking-apple); rounded up to whole seconds.
        public var timeout: Double = 20
        /// `User-Agent` (default names SwiftMFA and Linux).
        public var userAgent: String = URLSessionTransport.defaultUserAgent
        /// `Accept-Language`, when set.
        public var acceptLanguage: String? = "en"
        /// Headers added to every request (a request's own header of the same name wins).
        public var additionalHeaders: [HTTPHeader] = []
        /// The logger (warnings by default: a plain-`http://` base URL is one).
        public var logger: Logger = Logger()
        /// Which server certificates are trusted (default: the system trust store).
        public var serverTrust: ServerTrust = .systemTrustStore
        /// How much of an answer is read (the body counted after content decoding) before the
        /// request fails with `TransportError.Kind.responseTooLarge`.
        public var limits = ResponseLimits()

        /// A configuration for `baseURL`.
        public init(baseURL: String) {
            self.baseURL = baseURL
        }
    }

    /// Which server certificates a transport trusts (`PA2ClientConfiguration.sslValidationStrategy`).
    ///
    /// FoundationNetworking on Linux hands TLS to libcurl and exposes neither the CA file nor
    /// peer verification: its `_EasyHandle.setCARootBundlePath()` reads the
    /// `URLSessionCertificateAuthorityInfoFile` variable (a CA file, or `INSECURE_SSL_NO_VERIFY`)
    /// only when built for Android, and no server-trust challenge reaches a delegate. So this
    /// transport supports ``systemTrustStore`` only and **fails closed** for the other two: every
    /// request throws `TransportError.Kind.tls` naming the reason, rather than silently
    /// trusting the wrong set. To trust a private CA here, install it into the system store
    /// (`/usr/local/share/ca-certificates/` and `update-ca-certificates`); for an extra CA per
    /// client, SPKI pinning or a no-validation test mode, supply an `HTTPTransport` built on a
    /// TLS stack that exposes them (libcurl directly, SwiftNIO SSL).
    public enum ServerTrust: Sendable, Equatable {
        /// The system trust store (`/etc/ssl/certs/ca-certificates.crt` and its peers).
        case systemTrustStore
        /// The system store plus the CA certificates in a PEM bundle file — not available on
        /// Linux's URLSession (requests fail with `TransportError.Kind.tls`).
        case certificateAuthorities(bundlePath: String)
        /// No certificate validation at all, for test servers only — not available on Linux's
        /// URLSession (requests fail with `TransportError.Kind.tls`), which is the safe way round.
        case insecureNoValidationForTestServersOnly
    }

    /// `SwiftMFA/<version> (Linux)`.
    public static let defaultUserAgent = SwiftMFAVersion.userAgent(component: "FoundationNetworking")

    /// The configuration in use.
    public let configuration: Configuration

    /// The configured base URL (a client's URL policy judges it too).
    public var destination: String? { configuration.baseURL }
    private let session: URLSession
    private let exchanges = URLSessionExchanges()

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
        sessionConfiguration.timeoutIntervalForRequest = Self.wholeSeconds(configuration.timeout)
        sessionConfiguration.timeoutIntervalForResource = Self.wholeSeconds(configuration.timeout)
        session = URLSession(configuration: sessionConfiguration, delegate: exchanges, delegateQueue: nil)
        if configuration.serverTrust != .systemTrustStore {
            configuration.logger.log(.errors, "server trust \(configuration.serverTrust) is not available on FoundationNetworking: every request will fail")
        }
        if configuration.baseURL.lowercased().hasPrefix("http://") {
            configuration.logger.log(.warnings, "plain http:// base URL \(configuration.baseURL): traffic and credentials are not protected")
        }
    }

    /// `seconds` rounded up to a whole number of at least 1. FoundationNetworking on Linux
    /// truncates a timeout to whole seconds, so 0.5 s becomes 0 and fires at once (measured:
    /// `timedOut` after 1.5 ms); rounding up keeps the caller's minimum wait. At most a day, so
    /// the deadline's nanoseconds fit their integer.
    static func wholeSeconds(_ seconds: Double) -> Double {
        guard seconds.isFinite, seconds > 1 else { return 1 }
        return min(seconds.rounded(.up), 86_400)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// Sends `request`; any HTTP status but a redirect is returned as a response.
    ///
    /// Before anything is sent, the method, URL and every header field pass
    /// `HTTPSendPolicy` (`TransportError.Kind.invalidRequest`
    /// otherwise). A 3xx is `TransportError.Kind.redirectRefused` and never
    /// followed; a body over ``Configuration/limits`` is `TransportError.Kind.responseTooLarge`,
    /// refused while it arrives.
    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        guard configuration.serverTrust == .systemTrustStore else {
            throw TransportError(.tls, underlying: "FoundationNetworking on Linux cannot use \(configuration.serverTrust); see URLSessionTransport.ServerTrust")
        }
        // URLRequest takes only Strings: a secret query or header value becomes one here, and
        // Foundation keeps it (TLSTransport, the default, keeps secrets in wiped bytes).
        var bare = request
        bare.query = []
        var query: [UInt8] = []
        query.reserveCapacity(request.queryCapacity)  // sized once: growing would leave a copy behind
        request.appendQuery(to: &query)
        defer { SecretBytes.wipe(&query) }
        let urlText = bare.url(relativeTo: configuration.baseURL) + (query.isEmpty ? "" : "?" + String(decoding: query, as: UTF8.self))
        var headers: [HTTPHeader] = [HTTPHeader("User-Agent", configuration.userAgent)]
        if let language = configuration.acceptLanguage { headers.append(HTTPHeader("Accept-Language", language)) }
        // RFC 9110 §12.5.3: no compressed answer (libcurl would offer gzip, br and zstd itself).
        headers.append(HTTPHeader("Accept-Encoding", "identity"))
        headers += configuration.additionalHeaders
        headers = headers.filter { request.header($0.name) == nil } + request.headers
        // Checked on the text, before URL(string:) could percent-encode a raw space or CR away.
        try HTTPSendPolicy.validate(method: request.method, target: urlText, headers: headers)
        guard let url = URL(string: urlText), let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http" else {
            throw TransportError(.invalidRequest, underlying: "not an http(s) URL")
        }
        let timeout = request.timeout ?? configuration.timeout
        var urlRequest = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: Self.wholeSeconds(timeout))
        urlRequest.httpMethod = request.method.rawValue
        for header in headers {
            urlRequest.setValue(header.withValueBytes { String(decoding: $0, as: UTF8.self) }, forHTTPHeaderField: header.name)
        }
        if let body = request.body { urlRequest.httpBody = Data(body) }
        let task = session.dataTask(with: urlRequest)
        let exchanges = exchanges
        // The overall deadline is kept by `exchanges`: URLSession's resource time-out never fires on Linux.
        exchanges.prepare(task, limits: configuration.limits, seconds: Self.wholeSeconds(timeout))
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    exchanges.start(task, continuation: continuation)
                }
            } onCancel: {
                exchanges.cancel(task)
            }
        } catch let error as TransportError {
            throw error
        } catch {
            throw Self.transportError(error)
        }
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
