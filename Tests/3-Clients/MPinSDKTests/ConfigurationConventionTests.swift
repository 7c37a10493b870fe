// The layer-3 configuration convention for the MIRACL MFA client (docs/design.md §1; the shared
// defaults are checked over the five clients in ClientConventionTests): pass 1's nonce comes from the configured random source (reproducible from a seeded
// one, a failure from a failing one, nothing sent); a configured logger sees every exchange with
// credential headers redacted.

import AuthNetworking
import CryptoPrimitives
import Foundation
import MPinSDK
import MPinPlatform
import MPin
import ProtocolSupport
import SecureStore
import Testing
import ClientTestSupport
import TestSupport

@Suite struct MPinConfigurationConventionTests {
    /// A random source that always fails.
    struct RefusingRandomSource: RandomSource, Sendable {
        mutating func fill(_ buffer: UnsafeMutableRawBufferPointer) throws(CryptoError) { throw .randomSourceFailure }
    }

    /// Keeps every log line.
    final class Capture: LogSink, @unchecked Sendable {
        let lock = NSLock()
        var lines: [String] = []
        func write(_ line: String, level: LogLevel) { lock.withLock { lines.append(line) } }
        var text: String { lock.withLock { lines.joined(separator: "\n") } }
    }

    /// A client over `transport` with a planted registered user (4-digit PIN 1234).
    static func client(random: any RandomSource & Sendable, transport: InProcessTransport) async throws -> (MPinClient, MPinUser) {
        let path = try TemporaryDirectory("mpin-convention").appending("store")
        let store = try SecureStore(directory: path)
        let client = MPinClient(configuration: MPinClient.Configuration(random: random), store: store, transport: .single(transport))
        try await client.setBackend(LocalChecksBeforeSendingTests.backend, settings: try LocalChecksBeforeSendingTests.settings())
        return (client, try LocalChecksBeforeSendingTests.plant(store, state: .registered, pinLength: 4))
    }

    /// A lookup answers a missing item with nil, as every client's does: with no backend set
    /// there is no user of one, even when the store holds users of another client's backend.
    @Test func lookupWithoutABackendIsNil() async throws {
        let store = try SecureStore(directory: TemporaryDirectory("mpin-lookup").appending("store"))
        let user = try LocalChecksBeforeSendingTests.plant(store, state: .registered, pinLength: 4)
        let client = MPinClient(configuration: MPinClient.Configuration(), store: store, transport: .single(InProcessTransport()))
        #expect(try await client.user(id: user.identity) == nil)
        try await client.setBackend(LocalChecksBeforeSendingTests.backend, settings: try LocalChecksBeforeSendingTests.settings())
        #expect(try await client.user(id: user.identity)?.identity == user.identity)
    }

    /// Two clients with the same seeded source send the same pass-1 commitment U = x·H(ID):
    /// x comes from the configured source, not from the system's.
    @Test func seededRandomSourceMakesPassOneReproducible() async throws {
        var bodies: [[UInt8]] = []
        for _ in 0..<2 {
            let transport = InProcessTransport()
            let (client, user) = try await Self.client(random: SeededRandomSource(seed: 5), transport: transport)
            await expectError(MPinError.self, code: .transport) { try await client.authenticate(user, pin: MPin.PIN(1234), accessCode: nil) }
            let pass1 = try #require(await transport.sent.first)
            #expect(pass1.path.hasSuffix("pass1"))
            bodies.append(try #require(pass1.body))
        }
        #expect(bodies[0] == bodies[1])
    }

    /// A configured source that fails is what fails: pass 1 is never sent.
    @Test func failingRandomSourceStopsPassOneBeforeItIsSent() async throws {
        let transport = InProcessTransport()
        let (client, user) = try await Self.client(random: RefusingRandomSource(), transport: transport)
        await expectError(MPinError.self, code: .crypto) { try await client.authenticate(user, pin: MPin.PIN(1234), accessCode: nil) }
        #expect(await transport.sent.isEmpty)
    }

    /// The configured logger sees the client-settings request; a credential header the app
    /// added is masked at `.debug`.
    @Test func loggerRedactsCredentialHeaders() async throws {
        let capture = Capture()
        let secret = "Bearer s3cret-9d8c7b6a"
        let configuration = MPinClient.Configuration(customHeaders: [HTTPHeader("Authorization", secret)], logger: Logger(level: .debug, sink: capture))
        let settings = #"{"registerURL":"/rps/user","signatureURL":"/rps/signature","certivoxURL":"https://dta.example/v3/","mpinAuthServerURL":"/rps","authenticateURL":"/rps/authenticate","usePermits":false}"#
        let transport = InProcessTransport { _ in HTTPResponse(status: 200, body: Array(settings.utf8)) }
        let path = try TemporaryDirectory("mpin-convention").appending("store")
        let client = MPinClient(configuration: configuration, store: try SecureStore(directory: path), transport: .single(transport))
        try await client.setBackend("https://mfa.example")
        #expect(await transport.sent.first?.header("Authorization") == secret)
        let log = capture.text
        #expect(log.contains("→ GET /rps/clientSettings"))
        #expect(log.contains("Authorization: <redacted"))
        #expect(!log.contains("s3cret"))
    }
}
