// The replaying transport, and the logger: no credential header or body reaches a log line at
// any level unless `.debug` was explicitly told to reveal them.

import AuthNetworking
import CryptoPrimitives
import ClientTestSupport
import Foundation
import ProtocolSupport
import Testing

@Suite struct ReplayAndLoggingTests {
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
            _ = try await transport.send(SignedSampleRequest.request())
            let text = collector.lock.withLock { collector.lines.joined(separator: "\n") }
            for secret in secrets { #expect(!text.contains(secret), "\(secret) at \(level)") }
            #expect(level < .info || text.contains("pa/v3/token/create"))
            #expect(level < .debug || (text.contains("<redacted") && text.contains("<body redacted")))
        }
        let collector = Collector()
        let revealing = LoggingTransport(ReplayTransport([.init(.post, "pa/v3/token/create", response: answer)]),
                                         logger: Logger(level: .debug, sink: collector, revealingSecretsAtDebug: true))
        _ = try await revealing.send(SignedSampleRequest.request())
        #expect(collector.lock.withLock { collector.lines.joined().contains("SECRET-PASSWORD") })
        // …but a field held as a secret stays masked, with its real length.
        var held = SignedSampleRequest.request()
        held.headers.append(HTTPHeader("X-Held", secret: SecretBytes("HELD-CREDENTIAL".utf8)))
        _ = try await LoggingTransport(ReplayTransport([.init(.post, "pa/v3/token/create", response: answer)]),
                                       logger: Logger(level: .debug, sink: collector, revealingSecretsAtDebug: true)).send(held)
        let heldText = collector.lock.withLock { collector.lines.joined(separator: "\n") }
        #expect(heldText.contains("X-Held: <redacted 15 bytes>") && !heldText.contains("HELD-CREDENTIAL"))
        // Full traffic at debug shows bodies with their secret members masked, and masks the credential headers.
        let traffic = Collector()
        _ = try await LoggingTransport(ReplayTransport([.init(.post, "pa/v3/token/create", response: answer)]),
                                       logger: Logger(level: .debug, sink: traffic, loggingHTTPTraffic: true)).send(SignedSampleRequest.request())
        let trafficText = traffic.lock.withLock { traffic.lines.joined(separator: "\n") }
        #expect(trafficText.contains(#""tokenSecret":"<redacted"#) && !trafficText.contains("SECRET-TOKEN") && !trafficText.contains("SECRET-SIGNATURE")
                && !trafficText.contains("SECRET-COOKIE"))
        let trafficBelowDebug = Collector()
        _ = try await LoggingTransport(ReplayTransport([.init(.post, "pa/v3/token/create", response: answer)]),
                                       logger: Logger(level: .info, sink: trafficBelowDebug, loggingHTTPTraffic: true)).send(SignedSampleRequest.request())
        #expect(!trafficBelowDebug.lock.withLock { trafficBelowDebug.lines.joined().contains("SECRET") })
        // The switch does nothing below debug.
        let quiet = Collector()
        _ = try await LoggingTransport(ReplayTransport([.init(.post, "pa/v3/token/create", response: answer)]),
                                       logger: Logger(level: .info, sink: quiet, revealingSecretsAtDebug: true)).send(SignedSampleRequest.request())
        #expect(!quiet.lock.withLock { quiet.lines.joined().contains("SECRET") })
    }
}
