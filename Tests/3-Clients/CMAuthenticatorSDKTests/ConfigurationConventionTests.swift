// The layer-3 configuration convention for the CM client (docs/design.md §1; the shared defaults
// are checked over the five clients in ClientConventionTests): CM's own default base URL; the
// configured clock is the one the bearer tokens are dated with (the device draws no random bytes
// in this protocol: its tokens are HMACs over the clock, docs/protocols/cm-authenticator.md §5);
// a configured logger sees an environment request with its bearer token redacted.

import AuthNetworking
import CMAuthenticator
import CMAuthenticatorSDK
import CryptoPrimitives
import Foundation
import ProtocolSupport
import SecureStore
import Testing
import ClientTestSupport
import TestSupport

@Suite struct CMConfigurationConventionTests {
    /// Keeps every log line.
    final class Capture: LogSink, @unchecked Sendable {
        let lock = NSLock()
        var lines: [String] = []
        func write(_ line: String, level: LogLevel) { lock.withLock { lines.append(line) } }
        var text: String { lock.withLock { lines.joined(separator: "\n") } }
    }

    /// A client over `transport` with a registered device and one linked environment.
    static func client(_ transport: InProcessTransport, clock: @escaping @Sendable () -> Date = { Date() },
                       logger: Logger? = nil) throws -> CMAuthenticatorClient {
        let path = try TemporaryDirectory("cm-convention").appending("store")
        let store = try SecureStore(directory: path)
        let configuration = CMAuthenticatorClient.Configuration(baseURL: "https://cm.example/authenticator/v1.0", device: ClientLocalChecksTests.device,
                                                                pinning: .disabledTransportCannotPin, clock: clock, logger: logger)
        let client = try CMAuthenticatorClient(configuration: configuration, store: store, transport: .single(transport))
        let records = DeviceRecords(store: store)
        try records.updateDevice { $0.deviceID = "device-1" }
        let environment = try CMAuthenticator.Environment(qrCode: "0f8e4c1a-2b3d-4e5f-8a9b-1c2d3e4f5a6b,k3y-s3cret")
        try records.save(StoredEnvironment(environment: environment, name: "Env", iconURL: nil))
        return client
    }

    /// The shared members' defaults are checked over the five clients (ClientConventionTests);
    /// CM's own default is its service.
    @Test func theDefaultBaseURLIsCMs() {
        #expect(CMAuthenticatorClient.Configuration(device: ClientLocalChecksTests.device).baseURL == CMAuthenticator.defaultBaseURL)
    }

    /// The URL policy is checked on the configured base URL when the client is made.
    @Test func aPlainHTTPBaseURLIsRefusedUnlessLoopbackIsAllowed() throws {
        let path = try TemporaryDirectory("cm-convention").appending("store")
        let store = try SecureStore(directory: path)
        var configuration = CMAuthenticatorClient.Configuration(baseURL: "http://127.0.0.1:9/cm", device: ClientLocalChecksTests.device)
        expectError(CMClientError.self, code: .urlRefused) { try CMAuthenticatorClient(configuration: configuration, store: store, transport: .single(InProcessTransport())) }
        configuration.urlPolicy = .insecureAllowingPlainHTTPToLoopback
        _ = try CMAuthenticatorClient(configuration: configuration, store: store, transport: .single(InProcessTransport()))
        // A user:password@ part is refused under every policy, and not repeated.
        configuration.baseURL = "http://cm:s3cret@127.0.0.1:9/cm"
        do {
            _ = try CMAuthenticatorClient(configuration: configuration, store: store, transport: .single(InProcessTransport()))
            Issue.record("a base URL with a password was accepted")
        } catch {
            #expect(error.code == .urlRefused)
            #expect(!"\(error)".contains("s3cret"))
        }
    }

    /// The bearer token is dated with the configured clock: two clients with the same fixed
    /// clock sign the same request identically, a different clock differently.
    @Test func theConfiguredClockDatesTheBearerToken() async throws {
        var tokens: [String] = []
        for seconds in [1_700_000_000.0, 1_700_000_000.0, 1_700_000_600.0] {
            let transport = InProcessTransport()
            let client = try Self.client(transport, clock: { Date(timeIntervalSince1970: seconds) })
            await #expect(throws: CMClientError.self) { try await client.unregisterEnvironment(id: "0f8e4c1a-2b3d-4e5f-8a9b-1c2d3e4f5a6b") }
            tokens.append(String(decoding: try #require(await transport.sent.first?.secretHeader("Authorization")).unsafeExposedBytes, as: UTF8.self))
        }
        #expect(tokens[0] == tokens[1] && tokens[0] != tokens[2])
    }

    /// The configured logger sees the environment request; its bearer token is masked at `.debug`.
    @Test func loggerRedactsTheBearerToken() async throws {
        let capture = Capture()
        let transport = InProcessTransport()
        let client = try Self.client(transport, logger: Logger(level: .debug, sink: capture))
        await #expect(throws: CMClientError.self) { try await client.unregisterEnvironment(id: "0f8e4c1a-2b3d-4e5f-8a9b-1c2d3e4f5a6b") }
        let bearer = String(decoding: try #require(await transport.sent.first?.secretHeader("Authorization")).unsafeExposedBytes, as: UTF8.self)
        let log = capture.text
        #expect(log.contains("→ "))
        #expect(log.contains("Authorization: <redacted"))
        #expect(!log.contains(bearer) && !log.contains(String(bearer.dropFirst("Bearer ".count))))
    }
}
