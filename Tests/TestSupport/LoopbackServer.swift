// A tiny HTTP/1.1 server on 127.0.0.1 (a random free port) for the tests that need real
// sockets: it reads one request per connection and writes whatever raw bytes the test's
// handler returns, so a test can answer well, with garbage, with a body cut short, or not at
// all. The transport tests use it raw; the `mfa` command tests wrap it in typed requests.

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server on 127.0.0.1 for the transport tests: each request is handed to the test's handler, which answers it (or streams, or misbehaves) on the connection.
public final class LoopbackServer: @unchecked Sendable {
    /// What the server saw of one request.
    public struct Request: Sendable {
        /// The request line and the header lines, as received.
        public let head: String
        /// The body, as received.
        public let body: [UInt8]
        /// The request method.
        public var method: String { String(head.split(separator: " ").first ?? "") }
        /// The request target, as sent.
        public var target: String { head.split(separator: " ").dropFirst().first.map(String.init) ?? "" }
        /// The value of the header `name` (case-insensitive), trimmed; nil when absent.
        public func header(_ name: String) -> String? {
            for line in head.split(separator: "\r\n").dropFirst() {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2, parts[0].lowercased() == name.lowercased() { return parts[1].trimmingCharacters(in: .whitespaces) }
            }
            return nil
        }
    }

    /// The accepted connection, for a handler that streams its answer.
    public struct Connection: Sendable {
        /// The connection's socket.
        public let descriptor: Int32
        /// Writes all of `bytes`; false once the client has closed or reset the connection.
        public func write(_ bytes: [UInt8]) -> Bool {
            var sent = 0
            while sent < bytes.count {
                let count = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress.map { $0 + sent }, $0.count - sent, Int32(MSG_NOSIGNAL)) }
                guard count > 0 else { return false }
                sent += count
            }
            return true
        }
    }

    /// The port the server listens on.
    public let port: UInt16
    private let socket: Int32
    private let listening: Bool
    private let handler: @Sendable (Request, Connection) -> Void
    private let lock = NSLock()
    private var received: [Request] = []
    private var whenStopped: (@Sendable () -> Void)?

    /// Requests seen so far.
    public var requests: [Request] { lock.withLock { received } }

    /// Starts listening; `handler` returns the raw response bytes, or nil to close silently.
    public convenience init(handler: @escaping @Sendable (Request) -> [UInt8]?) throws {
        try self.init(streaming: { request, connection in
            if let response = handler(request) { _ = connection.write(response) }
        })
    }

    /// Starts listening; `streaming` writes the answer itself (slowly, in pieces, or endlessly).
    public convenience init(streaming: @escaping @Sendable (Request, Connection) -> Void) throws {
        try self.init(listening: true, handler: streaming)
    }

    /// A port that refuses every connection: bound and held (so no other test's server can be
    /// given it while this one lives) but not listening, so a connection is reset at once.
    public static func refusing() throws -> LoopbackServer {
        try LoopbackServer(listening: false, handler: { _, _ in })
    }

    /// A server that reads each request and then holds the connection open without a word until
    /// ``stop()`` (or two minutes): only the client's own timeout, deadline or cancellation can end
    /// its call.
    public static func silent() throws -> LoopbackServer {
        let stopped = DispatchGroup()
        stopped.enter()
        let server = try LoopbackServer { _ in
            _ = stopped.wait(timeout: .now() + 120)
            return nil
        }
        server.lock.withLock { server.whenStopped = { stopped.leave() } }
        return server
    }

    private init(listening: Bool, handler: @escaping @Sendable (Request, Connection) -> Void) throws {
        self.handler = handler
        self.listening = listening
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, !listening || listen(fd, 16) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        socket = fd
        port = UInt16(bigEndian: address.sin_port)
        guard listening else { return }
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// `http://127.0.0.1:port`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Stops accepting. The accept loop closes the socket once `accept` fails: closing it here
    /// would free its descriptor number for another test's server while this loop may still
    /// call `accept` on that number, and steal that server's connections.
    public func stop() {
        let release = lock.withLock { () -> (@Sendable () -> Void)? in
            defer { whenStopped = nil }
            return whenStopped
        }
        release?()
        shutdown(socket, Int32(SHUT_RDWR))
        if !listening { close(socket) }  // no accept loop to close it
    }

    private func acceptLoop() {
        while true {
            let client = accept(socket, nil, nil)
            guard client >= 0 else {
                close(socket)
                return
            }
            let thread = Thread { [self] in serve(client) }
            thread.start()
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var buffer = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var headEnd: Int?
        while headEnd == nil {
            let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
            buffer += chunk[0..<count]
            headEnd = buffer.indices.dropLast(3).first { buffer[$0] == 13 && buffer[$0 + 1] == 10 && buffer[$0 + 2] == 13 && buffer[$0 + 3] == 10 }
        }
        guard let end = headEnd else { return }
        let head = String(decoding: buffer[0..<end], as: UTF8.self)
        var request = Request(head: head, body: [])
        let length = Int(request.header("Content-Length") ?? "0") ?? 0
        var body = Array(buffer[(end + 4)...])
        while body.count < length {
            let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            body += chunk[0..<count]
        }
        request = Request(head: head, body: body)
        lock.withLock { received.append(request) }
        handler(request, Connection(descriptor: client))
    }

    /// A whole HTTP/1.1 response.
    public static func response(status: Int, reason: String = "OK", headers: [(String, String)] = [], body: [UInt8]) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(reason)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        return Array((head + "\r\n").utf8) + body
    }
}
