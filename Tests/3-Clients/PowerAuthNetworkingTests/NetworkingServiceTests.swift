// The networking service as a layer-3 client (docs/design.md §1 "Layer 3 has one shape";
// docs/protocols/powerauth.md §16): configured like every client, its base URL under the URL policy, signed
// calls serialised in counter order through the PowerAuth client's queue, a token endpoint
// completing under every concurrency strategy (a deadlock fails on a timeout instead of
// hanging), its logger redacting the signature, its observer seeing every answer.

import ClientTestSupport
import AuthNetworking
import CryptoPrimitives
import Foundation
import PowerAuth
import PowerAuthNetworking
import PowerAuthSDK
import PowerAuthServer
import ProtocolSupport
import SecureStore
import Testing

struct Greeting: Codable, Sendable, Equatable { let greeting: String }

/// Keeps every log line.
final class NetworkingLogCapture: LogSink, @unchecked Sendable {
    let lock = NSLock()
    var lines: [String] = []
    func write(_ line: String, level: LogLevel) { lock.withLock { lines.append(line) } }
    var text: String { lock.withLock { lines.joined(separator: "\n") } }
}

@Suite struct NetworkingServiceTests {
    static let pay = Endpoint<EmptyObject, EmptyObject>.signed("api/pay", uriID: "/api/pay")

    /// The shared members' defaults are checked over the five clients (ClientConventionTests);
    /// the service's own: the client's base URL, signed calls serialised, its name.
    @Test func configurationHasItsOwnDefaults() {
        let configuration = NetworkingService.Configuration()
        #expect(configuration.baseURL == nil && configuration.concurrency == .serialSigned && configuration.serviceName == "networking")
    }

    /// A base URL of its own must pass the service's URL policy; the client's is taken as the
    /// client's policy checked it. Nothing is sent either way.
    @Test func baseURLIsCheckedByTheURLPolicy() throws {
        let fixture = try NetworkingFixture.make(seed: 51)
        defer { fixture.cleanUp() }
        #expect(try fixture.service().baseURL == "https://pa.example.com")
        for refused in ["http://api.example.com", "http://127.0.0.1:9000", "ftp://api.example.com", "https://intranet", "https://u:p@api.example.com"] {
            #expect(throws: NetworkingError(.urlRefused, "")) { try fixture.service(.init(baseURL: refused)) }
        }
        #expect(throws: NetworkingError(.urlRefused, "")) {
            try fixture.service(.init(baseURL: "http://api.example.com", urlPolicy: .insecureAllowingPlainHTTPToLoopback))
        }
        let loopback = try fixture.service(.init(baseURL: "http://127.0.0.1:9000", urlPolicy: .insecureAllowingPlainHTTPToLoopback))
        #expect(loopback.baseURL == "http://127.0.0.1:9000")
    }

    /// Concurrent signed calls reach the server in the order they were signed, even when the
    /// first is held back on the wire: each signature is the next counter value (zero steps
    /// ahead, the server's counter moving by one per call), none is refused, no attempt fails.
    @Test func concurrentSignedCallsUseConsecutiveCounters() async throws {
        var fixture = try NetworkingFixture.make(seed: 52)
        defer { fixture.cleanUp() }
        let authentication = try await fixture.activate()
        let service = try fixture.service()
        fixture.server.holdFirstArrival(at: "api/pay", for: 0.3)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { _ = try await service.post(EmptyObject(), to: Self.pay, authentication: authentication) } }
            try await group.waitForAll()
        }
        let payments = fixture.server.payments
        #expect(payments.map { $0.steps } == [0, 0, 0, 0])
        let first = try #require(payments.first?.counterAfter)
        #expect(payments.map { $0.counterAfter } == Array(first..<(first + 4)))
        #expect(fixture.server.failedAttempts == 0)
        #expect(fixture.server.heldArrivals == 1, "the first payment was not held back, so nothing could overtake it")
    }

    /// A call's timeout, else the configuration's, reaches the transport in seconds.
    @Test func timeoutsReachTheTransportInSeconds() async throws {
        var fixture = try NetworkingFixture.make(seed: 54)
        defer { fixture.cleanUp() }
        let authentication = try await fixture.activate()
        let recorder = TimeoutRecorder(server: fixture.server)
        let service = try NetworkingService(configuration: .init(timeout: .seconds(7)), client: fixture.client, transport: .single(recorder))
        _ = try await service.post(EmptyObject(), to: Self.pay, authentication: authentication)
        _ = try await service.post(EmptyObject(), to: Self.pay, authentication: authentication, timeout: .milliseconds(1500))
        #expect(recorder.timeouts == [7, 1.5])
    }

    @Test(arguments: [NetworkingService.ConcurrencyStrategy.serialSigned, .serialAll, .concurrentAll])
    func tokenEndpointCompletesUnderEveryStrategy(strategy: NetworkingService.ConcurrencyStrategy) async throws {
        var fixture = try NetworkingFixture.make(seed: 53)
        defer { fixture.cleanUp() }
        let authentication = try await fixture.activate()
        let service = try fixture.service(.init(concurrency: strategy))
        let endpoint = Endpoint<EmptyObject, Greeting>.signedWithToken("api/hello", tokenName: "hello")
        // The first call creates the token (a signed call inside the request), the second reuses it.
        for _ in 0..<2 {
            let answer = try await Self.within(seconds: Self.deadlockLimit) { try await service.post(EmptyObject(), to: endpoint, authentication: authentication) }
            #expect(answer == Greeting(greeting: "hi"))
        }
        // A signed endpoint inside serialAll too (the queue is held around the whole call).
        let signed = Endpoint<EmptyObject, EmptyObject>.signed("pa/v3/signature/validate", uriID: "/pa/signature/validate")
        _ = try await Self.within(seconds: Self.deadlockLimit) { try await service.post(EmptyObject(), to: signed, authentication: authentication) }
        #expect(fixture.server.paths.filter { $0 == "pa/v3/token/create" }.count == 1)
    }

    /// The service's logger sees its signed request; the signature header is masked at `.debug`.
    @Test func loggerRedactsTheSignature() async throws {
        var fixture = try NetworkingFixture.make(seed: 54)
        defer { fixture.cleanUp() }
        let authentication = try await fixture.activate()
        let capture = NetworkingLogCapture()
        let service = try fixture.service(.init(logger: Logger(level: .debug, sink: capture)))
        _ = try await service.post(EmptyObject(), to: Self.pay, authentication: authentication)
        let sent = try #require(fixture.server.requests.last { $0.path == "api/pay" })
        let header = try #require(sent.header("X-PowerAuth-Authorization"))
        let log = capture.text
        #expect(log.contains("→ POST /api/pay"))
        #expect(log.contains("X-PowerAuth-Authorization: <redacted"))
        #expect(!log.contains(header))
    }

    /// The observer (`WPNResponseDelegate`) sees the path, status and body of every answer,
    /// refusals included.
    @Test func observerSeesEveryAnswer() async throws {
        var fixture = try NetworkingFixture.make(seed: 55)
        defer { fixture.cleanUp() }
        let authentication = try await fixture.activate()
        let seen = Seen()
        let service = try fixture.service(.init(responseObserver: { path, status, body, _ in seen.add("\(path) \(status) \(body.count > 0)") }))
        _ = try await service.post(EmptyObject(), to: Self.pay, authentication: authentication)
        await #expect(throws: NetworkingError(.errorStatusCode, "")) {
            _ = try await service.post(EmptyObject(), to: Endpoint<EmptyObject, EmptyObject>.basic("api/missing"))
        }
        #expect(seen.values == ["api/pay 200 true", "api/missing 404 false"])
    }

    final class Seen: @unchecked Sendable {
        let lock = NSLock()
        var stored: [String] = []
        func add(_ value: String) { lock.withLock { stored.append(value) } }
        var values: [String] { lock.withLock { stored } }
    }

    struct TimedOut: Error {}

    /// How long a call may take before it counts as deadlocked. Generous: on two cores the
    /// cooperative pool is shared with CPU-bound tests of other suites; a real deadlock never
    /// finishes at all.
    static let deadlockLimit = 600.0

    /// Runs `operation` in its own task and fails after `seconds` instead of waiting for a task
    /// that never finishes (a deadlocked one cannot be cancelled out of its wait).
    static func within<T: Sendable>(seconds: Double, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        let task = Task { try await operation() }
        let deadline = Date().addingTimeInterval(seconds)
        let finished = Finished()
        Task { _ = try? await task.value; await finished.mark() }
        while await !finished.done {
            guard Date() < deadline else {
                task.cancel()
                Issue.record("the call did not finish within \(seconds) s (deadlock)")
                throw TimedOut()
            }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        return try await task.value
    }

    actor Finished {
        var done = false
        func mark() { done = true }
    }
}

/// Forwards to the back end and keeps each request's timeout.
final class TimeoutRecorder: HTTPTransport, @unchecked Sendable {
    let server: PowerAuthTestBackEnd
    let lock = NSLock()
    var recorded: [Double?] = []
    init(server: PowerAuthTestBackEnd) { self.server = server }
    var timeouts: [Double?] { lock.withLock { recorded } }

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        lock.withLock { recorded.append(request.timeout) }
        return try await server.send(request)
    }
}
