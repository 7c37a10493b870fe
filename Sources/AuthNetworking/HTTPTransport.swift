// The one seam between the SDKs and the network (docs/design.md §1 layer 3; the shape of
// swift-openapi-runtime's `ClientTransport`): a protocol with one async `send`. The SDKs speak
// only to it; `TLSTransport` (the package's own HTTPS) is the default, `URLSessionTransport`
// (the only target that imports FoundationNetworking) an option, and a device with its own HTTP
// stack brings another.

public import ProtocolSupport

/// Sends one request and returns the response.
///
/// An implementation resolves `HTTPRequest.path` against its own base URL,
/// sends the headers and the exact body bytes (a signature may cover them), and returns any
/// HTTP status as a response — a 4xx or 5xx is an answer, not a transport error. Every
/// implementation applies ``HTTPSendPolicy``: it refuses a control character in a header or the
/// target before sending, never follows a 3xx (``TransportError/Kind/redirectRefused``) and stops
/// reading at its ``ResponseLimits`` (``TransportError/Kind/responseTooLarge``).
///
/// A header or query value may be a secret (`HTTPHeader.secret`), whose `value` reads
/// `REDACTED`: write every value with `HTTPHeader.withValueBytes(_:)` and the query with
/// `HTTPRequest.appendQuery(to:)`, never from `value` or `url(relativeTo:)`.
public protocol HTTPTransport: Sendable {
    /// Sends `request`. Throws ``TransportError`` only when no HTTP answer arrived.
    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse

    /// The base URL this transport resolves request paths against, when it has its own (nil
    /// for one that is told the whole URL some other way). A client's URL policy checks it too,
    /// so a transport aimed elsewhere than the client's configured URL cannot carry its traffic
    /// past the policy.
    var destination: String? { get }
}

extension HTTPTransport {
    /// No base URL of its own.
    public var destination: String? { nil }
}

/// Why no HTTP answer arrived.
public struct TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure, for callers to switch on.
    public enum Kind: Sendable, Equatable {
        /// No answer within the request timeout.
        case timedOut
        /// The host could not be reached (refused, unreachable, no route, DNS failure).
        case unreachable
        /// The TLS handshake failed or the server's certificate was not trusted.
        case tls
        /// The task was cancelled.
        case cancelled
        /// An answer arrived but was not a well-formed HTTP response (cut short, garbled).
        case badResponse
        /// The request itself could not be formed or was refused before sending (a malformed URL,
        /// a refused scheme, a control character in a header or the target: ``HTTPSendPolicy``).
        case invalidRequest
        /// The request's absolute URL is refused by the client's `URLPolicy`
        /// (``URLPolicyMiddleware``); nothing was sent.
        case urlRefused
        /// The server answered with a redirect (3xx), which is never followed; ``TransportError/underlying``
        /// names the status and the `Location`.
        case redirectRefused
        /// The answer was larger than the transport's ``ResponseLimits``; reading stopped there.
        case responseTooLarge
        /// A failure the transport could not classify; see ``TransportError/underlying``.
        case other
    }

    /// The kind of failure.
    public let kind: Kind
    /// The underlying error's description (an `URLError` code, an errno), for logs.
    public let underlying: String
    /// Why the URL policy refused the request's URL, for ``Kind/urlRefused``.
    public let urlRefusal: URLPolicy.Refusal?

    /// Creates an error.
    public init(_ kind: Kind, underlying: String = "") {
        self.kind = kind
        self.underlying = underlying
        urlRefusal = nil
    }

    /// A ``Kind/urlRefused`` error: the policy refused the request's URL for `refusal`.
    public init(refusing refusal: URLPolicy.Refusal) {
        kind = .urlRefused
        underlying = refusal.description
        urlRefusal = refusal
    }

    /// `kind (underlying)`.
    public var description: String { underlying.isEmpty ? "\(kind)" : "\(kind) (\(underlying))" }

    /// Errors are equal when their kinds are.
    public static func == (a: TransportError, b: TransportError) -> Bool { a.kind == b.kind }
}
