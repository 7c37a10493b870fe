// The ready-made middlewares of the layer-3 send pipeline (docs/design.md §1: URL policy → header
// validation → … → transport → redirect refusal → size limits). Each applies the same check the
// transports apply (HTTPSendPolicy.swift), so a caller's own transport gets them too.

public import ProtocolSupport

/// Refuses a request whose absolute URL — the base URL the transport resolves paths against,
/// the path and the query — the client's rule does not permit (``TransportError/Kind/urlRefused``).
/// The transport is never called for it.
public struct URLPolicyMiddleware: HTTPMiddleware {
    /// The base URL the pipeline's transport resolves request paths against.
    public let baseURL: String
    private let permits: @Sendable (String) -> Bool

    /// Checks against `policy` (docs/protocols/saltedge-v2.md §11: https to a named host unless the caller opts out).
    public init(baseURL: String, policy: URLPolicy) {
        self.baseURL = baseURL
        permits = { policy.permits($0) }
    }

    /// Checks against a client's own rule (M-Pin's trusted domains, docs/protocols/sdk-surfaces.md §3.1).
    public init(baseURL: String, permits: @escaping @Sendable (String) -> Bool) {
        self.baseURL = baseURL
        self.permits = permits
    }

    /// Refuses, or passes on.
    public func intercept(_ request: HTTPRequest,
                          next: @Sendable (HTTPRequest) async throws(TransportError) -> HTTPResponse) async throws(TransportError) -> HTTPResponse {
        try check(request.url(relativeTo: baseURL))
        return try await next(request)
    }

    /// Refuses `url` unless the policy permits it.
    public func check(_ url: String) throws(TransportError) {
        guard permits(url) else {
            // The query may carry data from the server; the error names the origin only.
            // …and never a `user:password@` part of the authority.
            let origin = URLText.components(of: url).map { "\($0.scheme)://\($0.host)" }
            throw TransportError(refusing: URLPolicy.Refusal(of: origin ?? ""))
        }
    }
}

/// Refuses a method, request target or header field that could change the message's framing
/// (a CR, LF or other control character: RFC 9110 §5.5–§5.6.2, RFC 9112 §3.2) before the
/// transport is called (``TransportError/Kind/invalidRequest``, naming the field, never its value).
public struct HeaderValidationMiddleware: HTTPMiddleware {
    /// The check.
    public init() {}

    /// Refuses, or passes on.
    public func intercept(_ request: HTTPRequest,
                          next: @Sendable (HTTPRequest) async throws(TransportError) -> HTTPResponse) async throws(TransportError) -> HTTPResponse {
        let relative = request.url(relativeTo: "")
        try HTTPSendPolicy.validate(method: request.method, target: relative.hasPrefix("/") ? relative : "/" + relative, headers: request.headers)
        return try await next(request)
    }
}

/// Adds fixed header fields (`User-Agent`) to every request that does not carry one of that name.
public struct HeaderMiddleware: HTTPMiddleware {
    /// The fields added.
    public let headers: [HTTPHeader]

    /// Adds `headers`.
    public init(_ headers: [HTTPHeader]) { self.headers = headers }

    /// Adds `User-Agent: userAgent` (``SwiftMFAVersion/userAgent(component:)`` for a client).
    public static func userAgent(_ userAgent: String) -> HeaderMiddleware { HeaderMiddleware([HTTPHeader("User-Agent", userAgent)]) }

    /// Adds the missing fields, then passes on.
    public func intercept(_ request: HTTPRequest,
                          next: @Sendable (HTTPRequest) async throws(TransportError) -> HTTPResponse) async throws(TransportError) -> HTTPResponse {
        var request = request
        request.headers += headers.filter { request.header($0.name) == nil }
        return try await next(request)
    }
}

/// Turns any 3xx answer into ``TransportError/Kind/redirectRefused`` naming its status and
/// `Location`: a redirect is never followed, so credential headers never reach an origin the
/// caller did not configure (docs/design.md §1). List it last, next to the transport.
public struct RedirectRefusalMiddleware: HTTPMiddleware {
    /// The check.
    public init() {}

    /// Passes on, then refuses a 3xx.
    public func intercept(_ request: HTTPRequest,
                          next: @Sendable (HTTPRequest) async throws(TransportError) -> HTTPResponse) async throws(TransportError) -> HTTPResponse {
        let response = try await next(request)
        try HTTPSendPolicy.refuseRedirect(status: response.status, location: response.header("Location"))
        return response
    }
}

/// Refuses an answer over ``ResponseLimits`` (``TransportError/Kind/responseTooLarge``). Our
/// transports stop reading at the limit; a caller's transport may have read more, but the client
/// never processes it.
public struct ResponseSizeLimitMiddleware: HTTPMiddleware {
    /// The limits (the header fields against ``ResponseLimits/headBytes``, the body against
    /// ``ResponseLimits/bodyBytes``).
    public let limits: ResponseLimits

    /// A check against `limits`.
    public init(_ limits: ResponseLimits = ResponseLimits()) { self.limits = limits }

    /// Passes on, then refuses an answer over the limits.
    public func intercept(_ request: HTTPRequest,
                          next: @Sendable (HTTPRequest) async throws(TransportError) -> HTTPResponse) async throws(TransportError) -> HTTPResponse {
        let response = try await next(request)
        // "Name: value\r\n" per field, as on the wire (RFC 9112 §5).
        let headBytes = response.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
        guard headBytes <= limits.headBytes else {
            throw TransportError(.responseTooLarge, underlying: "header fields over the \(limits.headBytes)-byte limit")
        }
        try HTTPSendPolicy.checkReceived(response.body.count, limits: limits)
        return response
    }
}
