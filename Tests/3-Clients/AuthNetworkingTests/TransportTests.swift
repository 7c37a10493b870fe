// URLSessionTransport over real HTTP on 127.0.0.1 (answers, faults, headers), the replaying
// transport, and the logger: no credential header or body reaches a log line at any level
// unless `.debug` was explicitly told to reveal them.

import AuthNetworking
import Foundation
import ProtocolSupport
import Testing
import TestSupport
import URLSessionTransport

@Suite struct TransportTests {
    static let secretHeader = "PowerAuth pa_signature=\"SECRET-SIGNATURE\""
    static let secretBody = Array(#"{"password":"SECRET-PASSWORD","puk":"1234567890"}"#.utf8)

    static func signedRequest() -> HTTPRequest {
        HTTPRequest(method: .post, path: "pa/v3/token/create", query: [HTTPHeader("a b", "c&d")],
                    headers: [HTTPHeader("X-PowerAuth-Authorization", secretHeader), HTTPHeader("Content-Type", "application/json")],
                    body: secretBody)
    }

    @Test func answersOfAnyStatusComeBackWithHeadersAndExactBodies() async throws {
        let server = try LoopbackServer { request in
            request.target.hasPrefix("/base/fail")
                ? LoopbackServer.response(status: 500, reason: "Oops", body: Array("<html>garbage".utf8))
                : LoopbackServer.response(status: 200, headers: [("X-Answer", "42")], body: request.body.reversed())
        }
        defer { server.stop() }
        var configuration = URLSessionTransport.Configuration(baseURL: server.baseURL + "/base/")
        configuration.logger = .disabled
        configuration.additionalHeaders = [HTTPHeader("X-App", "mfa")]
        let transport = URLSessionTransport(configuration: configuration)
        let response = try await transport.send(Self.signedRequest())
        #expect(response.status == 200 && response.header("x-answer") == "42")
        #expect(response.body == Self.secretBody.reversed())
        let seen = try #require(server.requests.first)
        #expect(seen.method == "POST" && seen.target == "/base/pa/v3/token/create?a%20b=c%26d")
        #expect(seen.header("X-PowerAuth-Authorization") == Self.secretHeader && seen.body == Self.secretBody)
        #expect(seen.header("User-Agent") == URLSessionTransport.defaultUserAgent && seen.header("X-App") == "mfa")
        #expect(seen.header("Accept-Language") == "en" && seen.header("Cookie") == nil)
        let failure = try await transport.send(HTTPRequest(method: .get, path: "fail"))
        #expect(failure.status == 500 && failure.body == Array("<html>garbage".utf8))
    }

    @Test func faultsAreTypedTransportErrors() async throws {
        // Nobody listens: a port that was just closed.
        let closed = try LoopbackServer { _ in nil }
        closed.stop()
        var refused = URLSessionTransport.Configuration(baseURL: closed.baseURL)
        refused.logger = .disabled
        await #expect(throws: TransportError(.unreachable)) { try await URLSessionTransport(configuration: refused).send(HTTPRequest(method: .get, path: "x")) }

        // An answer that never comes, within a short timeout. The server holds the connection
        // far longer than the timeout, so only the timeout can end the call with `.timedOut`
        // (a close would be `.unreachable` or `.badResponse`); no upper bound on wall time, which
        // a loaded two-core CI machine stretches (once to 11 s).
        let release = DispatchSemaphore(value: 0)
        let silent = try LoopbackServer { _ in
            _ = release.wait(timeout: .now() + 60)
            return nil
        }
        defer {
            release.signal()
            silent.stop()
        }
        var slow = URLSessionTransport.Configuration(baseURL: silent.baseURL)
        slow.timeout = 0.5  // rounded up to 1 s: FoundationNetworking would otherwise time out at once
        slow.logger = .disabled
        let started = ContinuousClock.now
        await #expect(throws: TransportError(.timedOut)) { try await URLSessionTransport(configuration: slow).send(HTTPRequest(method: .get, path: "x")) }
        let waited = ContinuousClock.now - started
        #expect(waited >= .milliseconds(900), "timed out after \(waited)")

        // A body cut in half: the connection closes before Content-Length bytes arrived.
        let cut = try LoopbackServer { _ in
            Array(LoopbackServer.response(status: 200, body: Array(repeating: 0x41, count: 1000)).dropLast(500))
        }
        defer { cut.stop() }
        var cutConfiguration = URLSessionTransport.Configuration(baseURL: cut.baseURL)
        cutConfiguration.logger = .disabled
        do {
            let response = try await URLSessionTransport(configuration: cutConfiguration).send(HTTPRequest(method: .get, path: "x"))
            Issue.record("a truncated body was accepted: \(response.body.count) bytes")
        } catch {
            #expect([.badResponse, .unreachable, .other].contains(error.kind), "\(error)")
        }
        // Not an http(s) URL.
        var bad = URLSessionTransport.Configuration(baseURL: "ftp://127.0.0.1")
        bad.logger = .disabled
        await #expect(throws: TransportError(.invalidRequest)) { try await URLSessionTransport(configuration: bad).send(HTTPRequest(method: .get, path: "x")) }
    }

    /// Cancelling the caller's task ends the exchange with `.cancelled`, whether it is waiting for
    /// an answer or had not started yet.
    @Test func cancellingTheCallerCancelsTheExchange() async throws {
        let release = DispatchSemaphore(value: 0)
        let silent = try LoopbackServer { _ in
            _ = release.wait(timeout: .now() + 120)
            return nil
        }
        defer {
            release.signal()
            silent.stop()
        }
        var configuration = URLSessionTransport.Configuration(baseURL: silent.baseURL)
        configuration.logger = .disabled
        configuration.timeout = 90
        let transport = URLSessionTransport(configuration: configuration)
        let waiting = Task { try await transport.send(HTTPRequest(method: .get, path: "x")) }
        try await Task.sleep(for: .milliseconds(300))
        waiting.cancel()
        // Ended by the cancellation: had the cancel been lost, the exchange would end at the
        // transport's 90 s time-out with `.timedOut`, or with `.badResponse` when the server gives
        // up. The kind says which, so no wall-clock bound is needed (a loaded machine can delay
        // the resumption by minutes when CPU-bound tests hold the cooperative pool).
        await #expect(throws: TransportError(.cancelled)) { try await waiting.value }
        let never = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await transport.send(HTTPRequest(method: .get, path: "y"))
        }
        await #expect(throws: TransportError(.cancelled)) { try await never.value }
    }

    /// A CA bundle or no validation cannot be honoured by FoundationNetworking on Linux, so the
    /// transport refuses to send at all — even to a server that would answer — instead of
    /// silently trusting the system store or everything.
    @Test func serverTrustItCannotHonourFailsClosed() async throws {
        let server = try LoopbackServer { _ in LoopbackServer.response(status: 200, body: Array("ok".utf8)) }
        defer { server.stop() }
        for trust in [URLSessionTransport.ServerTrust.certificateAuthorities(bundlePath: "/etc/ssl/certs/ca-certificates.crt"),
                      .insecureNoValidationForTestServersOnly] {
            var configuration = URLSessionTransport.Configuration(baseURL: server.baseURL)
            configuration.logger = .disabled
            configuration.serverTrust = trust
            await #expect(throws: TransportError(.tls)) { try await URLSessionTransport(configuration: configuration).send(HTTPRequest(method: .get, path: "x")) }
        }
        var system = URLSessionTransport.Configuration(baseURL: server.baseURL)
        system.logger = .disabled
        #expect(try await URLSessionTransport(configuration: system).send(HTTPRequest(method: .get, path: "x")).body == Array("ok".utf8))
    }

    @Test func replayAnswersInOrderAndRefusesTheUnexpected() async throws {
        let replay = ReplayTransport([
            .init(.post, "pa/v3/activation/status", bodyMatches: { String(decoding: $0 ?? [], as: UTF8.self).contains("challenge") },
                  response: HTTPResponse(status: 200, body: Array("{}".utf8))),
            .init(.get, "down", failure: TransportError(.timedOut)),
        ])
        let status = HTTPRequest(method: .post, path: "pa/v3/activation/status", body: Array(#"{"challenge":"x"}"#.utf8))
        #expect(try await replay.send(status).body == Array("{}".utf8))
        await #expect(throws: TransportError(.invalidRequest)) { try await replay.send(status) }      // out of order now
        await #expect(throws: TransportError(.timedOut)) { try await replay.send(HTTPRequest(method: .get, path: "down")) }
        let (remaining, sent) = (await replay.remaining, await replay.sent.count)
        #expect(remaining == 0 && sent == 3)
    }

    /// No secret reaches a log line at any level; `.debug` shows them only when told to.
    @Test func logsNeverCarrySecretsUnlessDebugIsToldTo() async throws {
        final class Collector: LogSink, @unchecked Sendable {
            let lock = NSLock()
            var lines: [String] = []
            func write(_ line: String, level: LogLevel) { lock.withLock { lines.append(line) } }
        }
        let answer = HTTPResponse(status: 200, headers: [HTTPHeader("Set-Cookie", "SECRET-COOKIE")], body: Array(#"{"tokenSecret":"SECRET-TOKEN"}"#.utf8))
        let secrets = ["SECRET-SIGNATURE", "SECRET-PASSWORD", "1234567890", "SECRET-COOKIE", "SECRET-TOKEN"]
        for level in LogLevel.allCases {
            let collector = Collector()
            let transport = LoggingTransport(ReplayTransport([.init(.post, "pa/v3/token/create", response: answer)]),
                                             logger: Logger(level: level, sink: collector))
            _ = try await transport.send(Self.signedRequest())
            let text = collector.lock.withLock { collector.lines.joined(separator: "\n") }
            for secret in secrets { #expect(!text.contains(secret), "\(secret) at \(level)") }
            #expect(level < .info || text.contains("pa/v3/token/create"))
            #expect(level < .debug || (text.contains("<redacted") && text.contains("<body redacted")))
        }
        let collector = Collector()
        let revealing = LoggingTransport(ReplayTransport([.init(.post, "pa/v3/token/create", response: answer)]),
                                         logger: Logger(level: .debug, sink: collector, revealingSecretsAtDebug: true))
        _ = try await revealing.send(Self.signedRequest())
        #expect(collector.lock.withLock { collector.lines.joined().contains("SECRET-PASSWORD") })
        // Full traffic at debug shows bodies with their secret members masked, and masks the credential headers.
        let traffic = Collector()
        _ = try await LoggingTransport(ReplayTransport([.init(.post, "pa/v3/token/create", response: answer)]),
                                       logger: Logger(level: .debug, sink: traffic, loggingHTTPTraffic: true)).send(Self.signedRequest())
        let trafficText = traffic.lock.withLock { traffic.lines.joined(separator: "\n") }
        #expect(trafficText.contains(#""tokenSecret":"<redacted"#) && !trafficText.contains("SECRET-TOKEN") && !trafficText.contains("SECRET-SIGNATURE")
                && !trafficText.contains("SECRET-COOKIE"))
        let trafficBelowDebug = Collector()
        _ = try await LoggingTransport(ReplayTransport([.init(.post, "pa/v3/token/create", response: answer)]),
                                       logger: Logger(level: .info, sink: trafficBelowDebug, loggingHTTPTraffic: true)).send(Self.signedRequest())
        #expect(!trafficBelowDebug.lock.withLock { trafficBelowDebug.lines.joined().contains("SECRET") })
        // The switch does nothing below debug.
        let quiet = Collector()
        _ = try await LoggingTransport(ReplayTransport([.init(.post, "pa/v3/token/create", response: answer)]),
                                       logger: Logger(level: .info, sink: quiet, revealingSecretsAtDebug: true)).send(Self.signedRequest())
        #expect(!quiet.lock.withLock { quiet.lines.joined().contains("SECRET") })
    }
}
