// Sending is one pipeline of middlewares around `HTTPTransport.send` (docs/design.md §1, layer 3; the
// shape of swift-openapi-runtime's `ClientMiddleware`). A client lists the middlewares it uses —
// URL policy, fixed headers, header validation, logging, size limits, redirect refusal — in one
// place and sends every request through that list; its own status/error mapping comes after the
// pipeline's answer. The checks then hold whatever transport the caller brings, not only ours.

public import ProtocolSupport

/// One step around a transport: it may check or change the request, call `next` (the rest of
/// the pipeline, the transport last) at most once, and check or change the answer.
///
/// Errors are ``TransportError``: a middleware refuses with the kind a transport would use
/// (``TransportError/Kind/invalidRequest``, ``TransportError/Kind/redirectRefused``, …), so a
/// client maps one error type whether its transport or its pipeline refused.
public protocol HTTPMiddleware: Sendable {
    /// Handles `request`; `next` sends it on through the rest of the pipeline.
    func intercept(_ request: HTTPRequest,
                   next: @Sendable (HTTPRequest) async throws(TransportError) -> HTTPResponse) async throws(TransportError) -> HTTPResponse
}

/// A transport and the middlewares around it, itself a transport.
///
/// ``middlewares`` are in request order: the first sees the request first and the answer last;
/// the transport is innermost. So a response check listed last (``RedirectRefusalMiddleware``)
/// sees the transport's answer first, before anything listed ahead of it.
public struct SendPipeline: HTTPTransport {
    /// The transport that sends.
    public let transport: any HTTPTransport
    /// The middlewares, in request order.
    public let middlewares: [any HTTPMiddleware]

    /// `transport` wrapped by `middlewares` (in request order).
    public init(transport: any HTTPTransport, middlewares: [any HTTPMiddleware]) {
        self.transport = transport
        self.middlewares = middlewares
    }

    /// The transport's own base URL.
    public var destination: String? { transport.destination }

    /// Runs `request` through every middleware in order, then the transport. A URL policy in
    /// the list also judges the transport's own base URL, whatever the client was configured with.
    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        if let destination = transport.destination {
            let url = request.url(relativeTo: destination)
            for middleware in middlewares {
                guard let policy = middleware as? URLPolicyMiddleware else { continue }
                try policy.check(url)
            }
        }
        return try await send(request, from: 0)
    }

    private func send(_ request: HTTPRequest, from index: Int) async throws(TransportError) -> HTTPResponse {
        guard index < middlewares.count else { return try await transport.send(request) }
        return try await middlewares[index].intercept(request) { (next: HTTPRequest) async throws(TransportError) -> HTTPResponse in
            try await self.send(next, from: index + 1)
        }
    }
}

extension SendPipeline {
    /// The pipeline every client sends through (docs/design.md §1 "Sending"), written once:
    /// `urlRule`, a fixed `User-Agent` when `userAgent` is given, header validation, logging
    /// when there is a `logger`, the size limits and redirect refusal, around `transport`.
    ///
    /// - Parameters:
    ///   - transport: The transport that sends.
    ///   - urlRule: The client's URL rule: its `URLPolicy`, or a narrower rule of its own.
    ///   - userAgent: A `User-Agent` every request carries; nil when the client sets its own
    ///     header per request (or leaves it to the transport).
    ///   - logger: Logs each exchange, redacted; nil for none.
    public static func client(transport: any HTTPTransport, urlRule: URLPolicyMiddleware, userAgent: String? = nil,
                              logger: Logger? = nil) -> SendPipeline {
        var middlewares: [any HTTPMiddleware] = [urlRule]
        if let userAgent { middlewares.append(HeaderMiddleware.userAgent(userAgent)) }
        middlewares.append(HeaderValidationMiddleware())
        if let logger { middlewares.append(LoggingMiddleware(logger)) }
        middlewares += [ResponseSizeLimitMiddleware(), RedirectRefusalMiddleware()] as [any HTTPMiddleware]
        return SendPipeline(transport: transport, middlewares: middlewares)
    }
}
