// The socket under PlainHTTPTransport: name resolution (getaddrinfo), a non-blocking connect and
// reads and writes that wait with poll(2) until the exchange's deadline, so one timeout bounds
// the whole request. Errors map to TransportError kinds.

package import AuthNetworking
import Glibc

/// A point on the monotonic clock that an exchange must finish by.
package struct Deadline: Sendable {
    private var end: Double

    package init(seconds: Double) { end = Self.now() + max(0, seconds) }

    package static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Whether the deadline has passed.
    package var hasPassed: Bool { Self.now() >= end }

    /// The earlier of this deadline and one `seconds` from now (an idle timeout inside an
    /// overall deadline).
    package func capped(atMost seconds: Double) -> Deadline {
        var capped = self
        capped.end = Swift.min(end, Self.now() + Swift.max(0, seconds))
        return capped
    }

    /// Milliseconds left, at least 0 (poll's timeout argument).
    package var remainingMilliseconds: Int32 {
        let left = (end - Self.now()) * 1000
        return left <= 0 ? 0 : Int32(min(left.rounded(.up), Double(Int32.max)))
    }
}

/// One TCP connection, closed by ``close()``.
package struct TCPConnection: Sendable {
    private let descriptor: Int32

    /// Resolves `host` and connects to the first address that answers before `deadline`.
    package init(host: String, port: UInt16, deadline: Deadline) throws(TransportError) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw TransportError(.unreachable, underlying: "cannot resolve \(host) (getaddrinfo \(status))")
        }
        defer { freeaddrinfo(list) }
        var lastError = TransportError(.unreachable, underlying: "no address for \(host)")
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            let candidate = socket(address.pointee.ai_family, address.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), address.pointee.ai_protocol)
            guard candidate >= 0 else { continue }
            _ = fcntl(candidate, F_SETFL, fcntl(candidate, F_GETFL) | O_NONBLOCK)
            if connect(candidate, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 || errno == EINPROGRESS {
                do {
                    try Self.wait(candidate, for: Int16(POLLOUT), deadline: deadline)
                    var error: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(candidate, SOL_SOCKET, SO_ERROR, &error, &length)
                    if error == 0 {
                        descriptor = candidate
                        return
                    }
                    lastError = Self.error(error, "connect to \(host):\(port)")
                } catch {
                    lastError = error
                }
            } else {
                lastError = Self.error(errno, "connect to \(host):\(port)")
            }
            Glibc.close(candidate)
            if lastError.kind == .timedOut { break }
        }
        throw lastError
    }

    /// Writes all of `bytes`.
    package func write(_ bytes: [UInt8], deadline: Deadline) throws(TransportError) {
        try bytes.withUnsafeBytes { raw in Result { () throws(TransportError) in try write(raw, deadline: deadline) } }.get()
    }

    /// Writes all of `bytes`, straight from where they are (no copy to wipe).
    package func write(_ bytes: UnsafeRawBufferPointer, deadline: Deadline) throws(TransportError) {
        var offset = 0
        while offset < bytes.count {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[offset...])
            let sent = send(descriptor, rest.baseAddress, rest.count, Int32(MSG_NOSIGNAL))
            if sent > 0 {
                offset += sent
            } else if sent < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                try Self.wait(descriptor, for: Int16(POLLOUT), deadline: deadline)
            } else {
                throw Self.error(errno, "send")
            }
        }
    }

    /// The most one ``read(into:deadline:)`` appends.
    package static let readSize = 16 * 1024

    /// Appends what arrives next to `buffer`; true when the peer has closed the connection.
    /// The deadline is checked before every read, not only when one would block, so a peer
    /// that trickles a byte at a time cannot hold the exchange past it.
    package func read(into buffer: inout [UInt8], deadline: Deadline) throws(TransportError) -> Bool {
        var chunk = [UInt8](repeating: 0, count: Self.readSize)
        while true {
            guard !deadline.hasPassed else { throw TransportError(.timedOut, underlying: "the answer did not end before the deadline") }
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer += chunk[0..<count]
                return false
            }
            if count == 0 { return true }
            guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else { throw Self.error(errno, "recv") }
            try Self.wait(descriptor, for: Int16(POLLIN), deadline: deadline)
        }
    }

    package func close() { Glibc.close(descriptor) }

    /// Whether the peer has closed or sent something unasked while the connection sat idle (a
    /// kept-alive connection in that state is not reused). Does not block.
    package var isStale: Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) != 0
    }

    /// Waits until `descriptor` is ready for `events`, or throws `.timedOut` at the deadline.
    /// Waits in slices of at most 100 ms, so a cancelled task (``BlockingIO/isCancelled``)
    /// stops waiting within that time.
    static func wait(_ descriptor: Int32, for events: Int16, deadline: Deadline) throws(TransportError) {
        while true {
            guard !BlockingIO.isCancelled else { throw TransportError(.cancelled) }
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let slice = Swift.min(deadline.remainingMilliseconds, 100)
            let ready = poll(&entry, 1, slice)
            if ready > 0 { return }
            if ready == 0 {
                if deadline.hasPassed { throw TransportError(.timedOut, underlying: "no answer before the deadline") }
                continue
            }
            guard errno == EINTR else { throw error(errno, "poll") }
        }
    }

    static func error(_ code: Int32, _ action: String) -> TransportError {
        let kind: TransportError.Kind = switch code {
        case ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, EADDRNOTAVAIL, ENETDOWN, EHOSTDOWN: .unreachable
        case ETIMEDOUT: .timedOut
        case ECONNRESET, EPIPE: .badResponse
        default: .other
        }
        return TransportError(kind, underlying: "\(action): errno \(code)")
    }
}
