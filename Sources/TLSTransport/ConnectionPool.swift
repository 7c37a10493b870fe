// Kept-alive TLS connections between requests to the same origin (RFC 9112 §9.3): at most a
// few idle per origin, dropped after a short idle time, and never reused once the peer has
// closed or sent anything unasked. A request is never sent twice: a connection found dead is
// discarded before the request is written, not after.

import Synchronization

/// Idle connections of one transport, by origin.
final class ConnectionPool: Sendable {
    private struct Idle {
        let stream: TLSStream
        let since: Double
    }

    /// The most idle connections kept per origin.
    static let maximumIdlePerOrigin = 2
    /// Seconds an idle connection is kept (servers close theirs after 5–75 s).
    static let maximumIdleSeconds = 4.0

    private let idle = Mutex<[String: [Idle]]>([:])

    /// An idle connection to `origin` that is still usable, if there is one; stale ones are
    /// closed on the way.
    func take(_ origin: String, now: Double) -> TLSStream? {
        while let candidate = idle.withLock({ (table: inout [String: [Idle]]) -> Idle? in table[origin]?.popLast() }) {
            var stream = candidate.stream
            if now - candidate.since <= Self.maximumIdleSeconds, stream.isReusable() { return stream }
            stream.close()
        }
        return nil
    }

    /// Keeps `stream` for the next request to `origin`, or closes it when the origin has enough.
    func put(_ stream: TLSStream, _ origin: String, now: Double) {
        var overflow: TLSStream?
        idle.withLock { table in
            var list = table[origin] ?? []
            if list.count < Self.maximumIdlePerOrigin {
                list.append(Idle(stream: stream, since: now))
            } else {
                overflow = stream
            }
            table[origin] = list
        }
        overflow?.close()
    }

    deinit {
        let all = idle.withLock { table in table.values.flatMap { $0 } }
        for entry in all {
            var stream = entry.stream
            stream.close()
        }
    }
}
