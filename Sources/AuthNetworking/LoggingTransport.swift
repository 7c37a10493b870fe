// A transport that logs around another one: `base` behind a one-middleware pipeline of
// ``LoggingMiddleware`` (LoggingMiddleware.swift), for callers that wrap a transport rather than
// list middlewares.

public import ProtocolSupport

/// Logs every exchange of `base` with `logger`.
public struct LoggingTransport<Base: HTTPTransport>: HTTPTransport {
    /// The transport that sends.
    public let base: Base
    /// The logger.
    public let logger: Logger

    /// Wraps `base`.
    public init(_ base: Base, logger: Logger) {
        self.base = base
        self.logger = logger
    }

    /// Sends through `base`, logging the request, then the response or the failure.
    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        try await SendPipeline(transport: base, middlewares: [LoggingMiddleware(logger)]).send(request)
    }
}
