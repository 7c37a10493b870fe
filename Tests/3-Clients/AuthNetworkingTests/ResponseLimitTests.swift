// Bounded reads over real sockets on 127.0.0.1: a body over ResponseLimits is refused while it
// arrives (not after the peer has sent it all), an over-long chunk-size line is refused without
// waiting for its end, and a peer that trickles bytes forever is cut off at the deadline.

import AuthNetworking
import Foundation
import PlainHTTPTransport
import ProtocolSupport
import Testing
import TestSupport
import URLSessionTransport

@Suite struct ResponseLimitTests {
    /// What a streaming handler managed to send.
    final class Progress: @unchecked Sendable {
        private let lock = NSLock()
        private var sent = 0
        private var finished = false
        private var complete = false
        func add(_ count: Int) { lock.withLock { sent += count } }
        func finish(complete: Bool) { lock.withLock { (finished, self.complete) = (true, complete) } }
        var state: (sent: Int, finished: Bool, complete: Bool) { lock.withLock { (sent, finished, complete) } }

        /// Waits (at most `seconds`) for the handler to stop writing.
        func waitUntilFinished(seconds: Double = 20) async throws {
            let end = ContinuousClock.now + .seconds(seconds)
            while !state.finished, ContinuousClock.now < end { try await Task.sleep(for: .milliseconds(20)) }
        }
    }

    /// A server answering `head`, then `total` bytes of body in 64 KiB pieces (each a chunk
    /// when `chunked`), then closing.
    static func streamingServer(head: String, chunked: Bool, total: Int, progress: Progress) throws -> LoopbackServer {
        try LoopbackServer(streaming: { _, connection in
            guard connection.write(Array(head.utf8)) else { return progress.finish(complete: false) }
            let data = [UInt8](repeating: 0x41, count: 64 * 1024)
            let piece = chunked ? Array("10000\r\n".utf8) + data + [13, 10] : data
            var sent = 0
            while sent < total {
                guard connection.write(piece) else { return progress.finish(complete: false) }
                sent += piece.count
                progress.add(piece.count)
            }
            progress.finish(complete: true)
        })
    }

    @Test func bodyOverTheLimitIsRefusedWhileItArrives() async throws {
        let limits = ResponseLimits(bodyBytes: 64 * 1024)
        // Close-delimited (no Content-Length, no chunking) and chunked: only counting while
        // reading can stop these; 32 MiB is more than both sockets' buffers can hold, so
        // PlainHTTPTransport, which stops reading at the limit, leaves the server's writes
        // failing. URLSession refuses at the limit too and keeps nothing past it, but libcurl
        // reads on while the cancellation travels through the delegate queue (there is no
        // back-pressure from a URLSession delegate), so the server may well finish sending.
        let heads = [(head: "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n", chunked: false),
                     (head: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", chunked: true)]
        for (head, chunked) in heads {
            for index in 0..<2 {
                let progress = Progress()
                let server = try Self.streamingServer(head: head, chunked: chunked, total: 32 * 1024 * 1024, progress: progress)
                defer { server.stop() }
                let (name, transport) = TransportPolicyTests.transports(server.baseURL, limits: limits)[index]
                do {
                    let response = try await transport.send(HTTPRequest(method: .get, path: "big"))
                    Issue.record("\(name) accepted \(response.body.count) bytes over a 64 KiB limit")
                } catch {
                    #expect(error.kind == .responseTooLarge, "\(name): \(error)")
                }
                try await progress.waitUntilFinished()
                let state = progress.state
                #expect(state.finished && (name == "URLSessionTransport" || !state.complete), "\(name): the server wrote \(state.sent) bytes, complete: \(state.complete)")
            }
        }
        // An announced Content-Length over the limit is refused before the body is read.
        let announced = try LoopbackServer { _ in
            Array("HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\nConnection: close\r\n\r\n".utf8) + [UInt8](repeating: 0x41, count: 1_000_000)
        }
        defer { announced.stop() }
        for (name, transport) in TransportPolicyTests.transports(announced.baseURL, limits: limits) {
            await #expect(throws: TransportError(.responseTooLarge), "\(name)") { try await transport.send(HTTPRequest(method: .get, path: "x")) }
        }
        // At the limit is fine.
        let exact = try LoopbackServer { _ in LoopbackServer.response(status: 200, body: [UInt8](repeating: 0x42, count: 64 * 1024)) }
        defer { exact.stop() }
        for (name, transport) in TransportPolicyTests.transports(exact.baseURL, limits: limits) {
            #expect(try await transport.send(HTTPRequest(method: .get, path: "x")).body.count == 64 * 1024, "\(name)")
        }
    }

    @Test func overlongChunkLineIsRefusedWithoutWaitingForItsEnd() async throws {
        let release = DispatchSemaphore(value: 0)
        let server = try LoopbackServer(streaming: { _, connection in
            let line = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;" + String(repeating: "x", count: 100 * 1024)
            _ = connection.write(Array(line.utf8))
            _ = release.wait(timeout: .now() + 30)  // never ends the line
        })
        defer {
            release.signal()
            server.stop()
        }
        var configuration = PlainHTTPTransport.Configuration(baseURL: server.baseURL)
        configuration.timeout = 20
        // The limit ended it, not the 20 s time-out: that would be `.timedOut`.
        await #expect(throws: TransportError(.responseTooLarge)) {
            try await PlainHTTPTransport(configuration: configuration, logger: .disabled).send(HTTPRequest(method: .get, path: "x"))
        }
    }

    @Test func aPeerThatNeverStopsSendingIsCutOffAtTheDeadline() async throws {
        let stop = Progress()
        let server = try LoopbackServer(streaming: { _, connection in
            // An endless chunk extension, 64 KiB every 5 ms: a read never has to wait, so only a
            // deadline checked on every read can end the exchange.
            guard connection.write(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;".utf8)) else { return stop.finish(complete: false) }
            let piece = [UInt8](repeating: 0x78, count: 64 * 1024)
            let end = Date().addingTimeInterval(30)
            while Date() < end {
                guard connection.write(piece) else { return stop.finish(complete: false) }
                usleep(5_000)
            }
            stop.finish(complete: true)
        })
        defer { server.stop() }
        var configuration = PlainHTTPTransport.Configuration(baseURL: server.baseURL)
        configuration.timeout = 1
        configuration.limits.chunkLineBytes = 1 << 30  // no limit trips first: the deadline must
        let started = ContinuousClock.now
        await #expect(throws: TransportError(.timedOut)) {
            try await PlainHTTPTransport(configuration: configuration, logger: .disabled).send(HTTPRequest(method: .get, path: "x"))
        }
        let waited = ContinuousClock.now - started
        // Not before the deadline; and `.timedOut` shows the deadline ended it: had the peer's
        // 30 s of sending ended it, the truncated answer would be `.badResponse`. No upper
        // bound on wall time, which a loaded two-core machine stretches.
        #expect(waited >= .milliseconds(900), "ended after \(waited)")
    }
}
