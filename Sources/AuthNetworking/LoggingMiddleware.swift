// Logging as a middleware of the send pipeline (docs/design.md §1; swift-openapi-runtime's
// `ClientMiddleware`): one line per exchange at `.info`, masked headers and bodies at `.debug`,
// failures at `.errors`. Redaction is the logger's (Logging.swift, BodyRedaction.swift): credential
// headers, tokens and secret JSON members are masked by what they are, not by a call-site flag.

public import ProtocolSupport

#if canImport(Glibc)
import Glibc
#endif

/// Logs every exchange that passes through it with ``logger``.
public struct LoggingMiddleware: HTTPMiddleware {
    /// The logger.
    public let logger: Logger

    /// Logs with `logger`.
    public init(_ logger: Logger) { self.logger = logger }

    /// Logs the request, passes it on, then logs the response or the failure.
    public func intercept(_ request: HTTPRequest,
                          next: @Sendable (HTTPRequest) async throws(TransportError) -> HTTPResponse) async throws(TransportError) -> HTTPResponse {
        let started = Self.monotonicMilliseconds()
        logger.log(.info, "→ \(request.method) /\(request.path)")
        logger.log(.debug, "→ headers\n" + logger.describe(headers: request.headers)
                   + "\n→ " + logger.describe(body: request.body))
        do {
            let response = try await next(request)
            let elapsed = Self.monotonicMilliseconds() - started
            logger.log(.info, "← \(response.status) /\(request.path) in \(elapsed) ms")
            logger.log(.debug, "← headers\n" + logger.describe(headers: response.headers)
                       + "\n← " + logger.describe(body: response.body))
            return response
        } catch {
            logger.log(.errors, "✗ \(request.method) /\(request.path): \(error)")
            throw error
        }
    }

    /// Milliseconds of the monotonic clock (for durations only).
    static func monotonicMilliseconds() -> Int64 {
        #if canImport(Glibc)
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
        #else
        return 0
        #endif
    }
}
