// A TCP forwarder on 127.0.0.1 in front of mfa-server that counts the connections it accepts, for
// HardwareKeyMatrixTests: mfa-server has no request hook, and "the server saw no request" should be
// a count, not an inference from the server's state.

import Foundation
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A TCP forwarder on 127.0.0.1 to mfa-server that counts the connections it accepted: every
/// `mfa` child reaches the server through it, so a command that opened none sent no request.
final class CountingProxy: Sendable {
    let port: Int
    private let listener: Int32
    private let accepted = Mutex(0)

    var connections: Int { accepted.withLock { $0 } }
    var url: String { "http://127.0.0.1:\(port)" }

    init(forwardingTo target: Int) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(listener >= 0)
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && listen(listener, 64) == 0
                && getsockname(listener, $0, &length) == 0 }
        }
        guard bound else {
            close(listener)
            throw HarnessError(what: "cannot listen on 127.0.0.1: errno \(errno)")
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop(target: target) }
    }

    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// Stops accepting (connections already forwarded end with their client).
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop(target: Int) {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            accepted.withLock { $0 += 1 }
            let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Self.loopback(port: target)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            guard upstream >= 0, connected else {
                close(client)
                if upstream >= 0 { close(upstream) }
                continue
            }
            let link = Link(client, upstream)
            Thread.detachNewThread { Self.pump(from: client, to: upstream, link: link) }
            Thread.detachNewThread { Self.pump(from: upstream, to: client, link: link) }
        }
    }

    /// Both directions of one forwarded connection; the second to finish closes both sockets.
    final class Link: Sendable {
        let sockets: (Int32, Int32)
        let finished = Mutex(0)
        init(_ a: Int32, _ b: Int32) { sockets = (a, b) }
        func done() {
            guard finished.withLock({ $0 += 1; return $0 }) == 2 else { return }
            close(sockets.0)
            close(sockets.1)
        }
    }

    private static func pump(from source: Int32, to destination: Int32, link: Link) {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        copying: while true {
            let count = buffer.withUnsafeMutableBytes { recv(source, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            var offset = 0
            while offset < count {
                // MSG_NOSIGNAL: a peer that has gone is an error here, not a SIGPIPE for the test process.
                let sent = buffer.withUnsafeBytes { bytes in
                    send(destination, bytes.baseAddress.map { $0 + offset }, count - offset, Int32(MSG_NOSIGNAL))
                }
                if sent <= 0 { break copying }
                offset += sent
            }
        }
        shutdown(destination, Int32(SHUT_WR))
        link.done()
    }
}
