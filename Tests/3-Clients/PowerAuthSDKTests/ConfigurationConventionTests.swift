// The layer-3 configuration convention for the PowerAuth client (docs/design.md §1; the networking
// service's is tested in PowerAuthNetworkingTests, the shared defaults over the five clients in
// ClientConventionTests): the configured random source is the one the client draws
// from (reproducible requests from a seeded source, a failure from a failing one); a configured
// logger sees every exchange with the signature and token headers redacted.

import ClientTestSupport
import AuthNetworking
import CryptoPrimitives
import Foundation
import PowerAuth
import PowerAuthSDK
import PowerAuthServer
import ProtocolSupport
import Testing

/// A random source that always fails: whatever draws from it fails with it.
struct RefusingRandomSource: RandomSource, Sendable {
    mutating func fill(_ buffer: UnsafeMutableRawBufferPointer) throws(CryptoError) { throw .randomSourceFailure }
}

/// Keeps every log line.
final class ConventionLogCapture: LogSink, @unchecked Sendable {
    let lock = NSLock()
    var lines: [String] = []
    func write(_ line: String, level: LogLevel) { lock.withLock { lines.append(line) } }
    var text: String { lock.withLock { lines.joined(separator: "\n") } }
}

@Suite struct ConfigurationConventionTests {
    /// Two clients with the same seeded random source (and the same server, clock and code)
    /// send byte-identical activation requests: the ephemeral keys and nonces come from the
    /// configured source, not from the system's.
    @Test func seededRandomSourceMakesTheActivationRequestReproducible() async throws {
        var bodies: [[UInt8]] = []
        for _ in 0..<2 {
            var fixture = try SDKFixture.make(seed: 41, clientRandom: SeededRandomSource(seed: 99))
            defer { fixture.cleanUp() }
            _ = try await fixture.client.createActivation(.code(try fixture.issuedCode()))
            let create = try #require(fixture.server.requests.first { $0.path == "pa/v3/activation/create" })
            bodies.append(try #require(create.body))
        }
        #expect(bodies[0] == bodies[1])
    }

    /// A configured source that fails is what fails: the activation request is never sent.
    @Test func failingRandomSourceStopsTheActivationBeforeItIsSent() async throws {
        var fixture = try SDKFixture.make(seed: 42, clientRandom: RefusingRandomSource())
        defer { fixture.cleanUp() }
        await #expect(throws: PowerAuthSDKError(.encryption, "")) { _ = try await fixture.client.createActivation(.code(try fixture.issuedCode())) }
        #expect(!fixture.server.paths.contains("pa/v3/activation/create"))
    }

    /// The client's logger sees a signed request; the signature header is masked at `.debug`.
    @Test func clientLoggerRedactsTheSignature() async throws {
        let capture = ConventionLogCapture()
        var fixture = try SDKFixture.make(seed: 43, logger: Logger(level: .debug, sink: capture))
        defer { fixture.cleanUp() }
        let authentication = try await fixture.activate()
        _ = try await fixture.client.sendSignedRequest(HTTPRequest(method: .post, path: "pa/v3/signature/validate", body: Array("{}".utf8)),
                                                       uriID: "/pa/signature/validate", factors: .possession, authentication: authentication)
        let sent = try #require(fixture.server.requests.last { $0.path == "pa/v3/signature/validate" })
        let header = try #require(sent.header("X-PowerAuth-Authorization"))
        let log = capture.text
        #expect(log.contains("→ POST /pa/v3/signature/validate"))
        #expect(log.contains("X-PowerAuth-Authorization: <redacted"))
        #expect(!log.contains(header))
        #expect(!log.contains("pa_signature="))
    }
}
