// URLSessionTransport over real HTTP on 127.0.0.1: answers of any status with their headers and
// exact bodies, faults as typed transport errors, cancellation, and server trust it cannot
// honour failing closed.

import AuthNetworking
import ClientTestSupport
import Foundation
import ProtocolSupport
import Testing
import TestSupport
import URLSessionTransport

@Suite struct URLSessionTransportTests {
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
        let response = try await transport.send(SignedSampleRequest.request())
        #expect(response.status == 200 && response.header("x-answer") == "42")
        #expect(response.body == SignedSampleRequest.secretBody.reversed())
        let seen = try #require(server.requests.first)
        #expect(seen.method == "POST" && seen.target == "/base/pa/v3/token/create?a%20b=c%26d")
        #expect(seen.header("X-PowerAuth-Authorization") == SignedSampleRequest.secretHeader && seen.body == SignedSampleRequest.secretBody)
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
        let silent = try LoopbackServer.silent()
        defer { silent.stop() }
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
        let silent = try LoopbackServer.silent()
        defer { silent.stop() }
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
}
