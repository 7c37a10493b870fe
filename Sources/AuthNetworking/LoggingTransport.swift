// A transport that logs around another one (the middleware shape of swift-openapi-runtime's
// `ClientMiddleware`): one line per exchange at `.info`, masked headers and body lengths at
// `.debug`, failures at `.errors`. Redaction is the logger's (Logging.swift), not the caller's.

public import ProtocolSupport

#if canImport(Glibc)
import Glibc
#endif

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
        let started = Self.monotonicMilliseconds()
        logger.log(.info, "→ \(request.method) /\(request.path)")
        logger.log(.debug, "→ headers\n" + logger.describe(headers: request.headers.map { ($0.name, $0.value) })
                   + "\n→ " + logger.describe(body: request.body))
        do {
            let response = try await base.send(request)
            let elapsed = Self.monotonicMilliseconds() - started
            logger.log(.info, "← \(response.status) /\(request.path) in \(elapsed) ms")
            logger.log(.debug, "← headers\n" + logger.describe(headers: response.headers.map { ($0.name, $0.value) })
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
