// The send pipeline over real HTTP on 127.0.0.1 (docs/design.md §1, layer 3): middlewares run in the
// order listed on the way out and in reverse on the way back; the standard checks — URL policy,
// header validation — refuse before the transport is called, so nothing reaches the wire; the
// answer checks — redirect refusal, size limits — hold for any transport; a refused request is
// never logged; every User-Agent names the one SwiftMFA version.

import AuthNetworking
import Foundation
import PlainHTTPTransport
import ProtocolSupport
import Testing
import TestSupport
import URLSessionTransport

/// Counts the requests that reach `base`.
final class CountingTransport: HTTPTransport, @unchecked Sendable {
    let base: any HTTPTransport
    private let lock = NSLock()
    private var count = 0

    init(_ base: any HTTPTransport) { self.base = base }

    var calls: Int { lock.withLock { count } }

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        lock.withLock { count += 1 }
        return try await base.send(request)
    }
}

/// Writes `name→` and `name←` to a shared trace and tags the request with `X-Trace: name`.
struct TracingMiddleware: HTTPMiddleware {
    final class Trace: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [String] = []
        func add(_ entry: String) { lock.withLock { entries.append(entry) } }
        var all: [String] { lock.withLock { entries } }
    }

    let name: String
    let trace: Trace

    func intercept(_ request: HTTPRequest,
                   next: @Sendable (HTTPRequest) async throws(TransportError) -> HTTPResponse) async throws(TransportError) -> HTTPResponse {
        trace.add(name + "→")
        var request = request
        request.headers.append(HTTPHeader("X-Trace", name))
        let response = try await next(request)
        trace.add(name + "←")
        return response
    }
}

/// Collects log lines.
final class LineCollector: LogSink, @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [String] = []
    func write(_ line: String, level: LogLevel) { lock.withLock { collected.append(line) } }
    var lines: [String] { lock.withLock { collected } }
}

@Suite struct SendPipelineTests {
    static func plain(_ baseURL: String) -> PlainHTTPTransport {
        PlainHTTPTransport(configuration: PlainHTTPTransport.Configuration(baseURL: baseURL), logger: .disabled)
    }

    /// The standard list of a client, around `transport`.
    static func standard(_ baseURL: String, _ transport: any HTTPTransport, policy: URLPolicy = .insecureAllowingPlainHTTPToLoopback,
                         logger: Logger = .disabled, limits: ResponseLimits = ResponseLimits()) -> SendPipeline {
        SendPipeline(transport: transport, middlewares: [
            URLPolicyMiddleware(baseURL: baseURL, policy: policy), HeaderValidationMiddleware(), LoggingMiddleware(logger),
            ResponseSizeLimitMiddleware(limits), RedirectRefusalMiddleware(),
        ])
    }

    /// The one pipeline every client builds (docs/design.md §1 "Sending"): the URL rule first,
    /// then the fixed headers and their validation, logging, and the answer's checks last.
    @Test func theClientPipelineHasTheDocumentedOrder() {
        func names(_ pipeline: SendPipeline) -> [String] { pipeline.middlewares.map { "\(type(of: $0))" } }
        let rule = URLPolicyMiddleware(baseURL: "https://api.example.com", policy: .httpsOnly)
        let full = SendPipeline.client(transport: Self.plain("https://api.example.com"), urlRule: rule, userAgent: "Client/1", logger: .disabled)
        #expect(names(full) == ["URLPolicyMiddleware", "HeaderMiddleware", "HeaderValidationMiddleware", "LoggingMiddleware",
                                "ResponseSizeLimitMiddleware", "RedirectRefusalMiddleware"])
        let bare = SendPipeline.client(transport: Self.plain("https://api.example.com"), urlRule: rule)
        #expect(names(bare) == ["URLPolicyMiddleware", "HeaderValidationMiddleware", "ResponseSizeLimitMiddleware", "RedirectRefusalMiddleware"])
    }

    @Test func middlewaresRunInListedOrderAroundTheTransport() async throws {
        let server = try LoopbackServer { _ in LoopbackServer.response(status: 200, body: Array("ok".utf8)) }
        defer { server.stop() }
        let trace = TracingMiddleware.Trace()
        let transport = CountingTransport(Self.plain(server.baseURL))
        let pipeline = SendPipeline(transport: transport, middlewares: ["a", "b", "c"].map { TracingMiddleware(name: $0, trace: trace) })
        let response = try await pipeline.send(HTTPRequest(method: .get, path: "status"))
        #expect(response.status == 200 && response.body == Array("ok".utf8))
        #expect(trace.all == ["a→", "b→", "c→", "c←", "b←", "a←"])
        #expect(transport.calls == 1)
        // What each middleware added reached the wire, in order.
        let head = try #require(server.requests.first).head
        let tags = head.split(separator: "\r\n").filter { $0.hasPrefix("X-Trace:") }
        #expect(tags == ["X-Trace: a", "X-Trace: b", "X-Trace: c"], "\(head)")
    }

    @Test func headerInjectionIsRefusedBeforeTheTransportIsCalled() async throws {
        let server = try LoopbackServer { _ in LoopbackServer.response(status: 200, body: []) }
        defer { server.stop() }
        let collector = LineCollector()
        let transport = CountingTransport(Self.plain(server.baseURL))
        let pipeline = Self.standard(server.baseURL, transport, logger: Logger(level: .debug, sink: collector))
        let bad = [
            HTTPRequest(method: .get, path: "x", headers: [HTTPHeader("X-Note", "a\r\nX-Injected: 1")]),
            HTTPRequest(method: .get, path: "x", headers: [HTTPHeader("X-Injected: 1\r\nX-Note", "a")]),
            HTTPRequest(method: .get, path: "x", headers: [HTTPHeader("X-Note", "nul\u{0}")]),
            HTTPRequest(method: .get, path: "x HTTP/1.1\r\nX-Injected: 1\r\n\r\nGET /y"),
            HTTPRequest(method: .init(rawValue: "GET /x HTTP/1.1\r\nX-Injected: 1\r\n\r\nGET"), path: "y"),
        ]
        for request in bad {
            await #expect(throws: TransportError(.invalidRequest), "\(request.path.debugDescription) \(request.headers)") {
                try await pipeline.send(request)
            }
        }
        #expect(transport.calls == 0)
        #expect(server.requests.isEmpty)
        // Validation comes before logging: a refused value is never written to a log.
        #expect(collector.lines.isEmpty, "\(collector.lines)")
        // A clean request still goes through (percent-encoded CR/LF in the query are data).
        let fine = HTTPRequest(method: .get, path: "x", query: [HTTPHeader("q", "a\r\nb")], headers: [HTTPHeader("X-Note", "a\tb")])
        #expect(try await pipeline.send(fine).status == 200)
        #expect(transport.calls == 1)
    }

    @Test func aURLThePolicyRefusesNeverReachesTheTransport() async throws {
        let server = try LoopbackServer { _ in LoopbackServer.response(status: 200, body: []) }
        defer { server.stop() }
        let transport = CountingTransport(Self.plain(server.baseURL))
        let pipeline = Self.standard(server.baseURL, transport, policy: .httpsOnly)
        do {
            _ = try await pipeline.send(HTTPRequest(method: .get, path: "x", query: [HTTPHeader("token", "SECRET")]))
            Issue.record("plain http was sent under httpsOnly")
        } catch {
            #expect(error.kind == .urlRefused && error.underlying.contains("127.0.0.1") && !error.underlying.contains("SECRET"), "\(error)")
        }
        #expect(transport.calls == 0 && server.requests.isEmpty)
    }

    /// The client was configured with an https URL, but the transport it was handed sends to
    /// plain http elsewhere: the policy judges where the transport really sends.
    @Test func aTransportAimedElsewhereThanTheConfiguredURLIsJudgedToo() async throws {
        let server = try LoopbackServer { _ in LoopbackServer.response(status: 200, body: []) }
        defer { server.stop() }
        let pipeline = Self.standard("https://pa.example.com", Self.plain(server.baseURL), policy: .httpsOnly)
        await #expect(throws: TransportError(.urlRefused)) {
            try await pipeline.send(HTTPRequest(method: .post, path: "pa/v3/activation/status", headers: [HTTPHeader("X-PowerAuth-Token", "t")]))
        }
        #expect(server.requests.isEmpty)
    }

    @Test func aRefusedURLNamesTheOriginWithoutItsCredentials() async throws {
        let pipeline = Self.standard("http://user:PASSWORD@pa.example.com", CountingTransport(Self.plain("http://127.0.0.1:9")), policy: .httpsOnly)
        do {
            _ = try await pipeline.send(HTTPRequest(method: .get, path: "x"))
            Issue.record("plain http was sent under httpsOnly")
        } catch {
            #expect(error.kind == .urlRefused && error.underlying.contains("pa.example.com") && !error.underlying.contains("PASSWORD"), "\(error)")
        }
    }

    @Test func aRedirectPassedOnByTheTransportIsRefused() async throws {
        let transport = PermissiveTransport()
        let pipeline = Self.standard("http://127.0.0.1:9", transport)
        do {
            _ = try await pipeline.send(HTTPRequest(method: .post, path: "pa/v3/token/create", headers: [HTTPHeader("X-PowerAuth-Token", "SECRET")]))
            Issue.record("a 307 was returned as an answer")
        } catch {
            #expect(error.kind == .redirectRefused && error.underlying.contains("307") && error.underlying.contains("elsewhere.example"), "\(error)")
        }
        #expect(transport.calls == 1)
    }

    @Test func anAnswerOverTheLimitsIsRefusedOverRealHTTP() async throws {
        let server = try LoopbackServer { _ in LoopbackServer.response(status: 200, headers: [("X-Big", String(repeating: "h", count: 300))],
                                                                      body: [UInt8](repeating: 0x41, count: 100)) }
        defer { server.stop() }
        // The transport's own limits are the defaults; the pipeline's are tighter.
        await #expect(throws: TransportError(.responseTooLarge)) {
            try await Self.standard(server.baseURL, Self.plain(server.baseURL), limits: ResponseLimits(bodyBytes: 99)).send(HTTPRequest(method: .get, path: "x"))
        }
        var head = ResponseLimits()
        head.headBytes = 200
        await #expect(throws: TransportError(.responseTooLarge)) {
            try await Self.standard(server.baseURL, Self.plain(server.baseURL), limits: head).send(HTTPRequest(method: .get, path: "x"))
        }
        #expect(try await Self.standard(server.baseURL, Self.plain(server.baseURL), limits: ResponseLimits(bodyBytes: 100))
            .send(HTTPRequest(method: .get, path: "x")).body.count == 100)
    }

    @Test func everyUserAgentNamesTheOneVersion() async throws {
        let server = try LoopbackServer { _ in LoopbackServer.response(status: 200, body: []) }
        defer { server.stop() }
        #expect(SwiftMFAVersion.userAgent(component: "X") == "SwiftMFA/\(SwiftMFAVersion.current) (Linux; X)")
        #expect(URLSessionTransport.defaultUserAgent == SwiftMFAVersion.userAgent(component: "FoundationNetworking"))
        _ = try await Self.plain(server.baseURL).send(HTTPRequest(method: .get, path: "a"))
        // A HeaderMiddleware adds its User-Agent; a request's own wins.
        let pipeline = SendPipeline(transport: Self.plain(server.baseURL), middlewares: [HeaderMiddleware.userAgent(SwiftMFAVersion.userAgent(component: "Client"))])
        _ = try await pipeline.send(HTTPRequest(method: .get, path: "b"))
        _ = try await pipeline.send(HTTPRequest(method: .get, path: "c", headers: [HTTPHeader("User-Agent", "Own/1")]))
        let agents = server.requests.map { $0.header("User-Agent") }
        #expect(agents == [SwiftMFAVersion.userAgent(component: "PlainHTTPTransport"), SwiftMFAVersion.userAgent(component: "Client"), "Own/1"])
    }
}
