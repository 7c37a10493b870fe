// A transport that answers in process (docs/design.md §2 habit 8: the transport is a parameter, so a
// client test is a deterministic transcript): every request is kept in order, and a closure
// decides the answer. For traffic that must cross a real socket, use `LoopbackServer`.

public import AuthNetworking
public import ProtocolSupport

/// An `HTTPTransport` that answers every request with `handler` and keeps the requests.
///
/// ```swift
/// let transport = InProcessTransport { request in
///     HTTPResponse(status: 200, body: Array(#"{"ok":true}"#.utf8))
/// }
/// … the client sends …
/// #expect(await transport.sent.map(\.path) == ["/v1/status"])
/// ```
///
/// The default handler answers nothing: every request throws ``TransportError/Kind/unreachable``
/// after it is recorded, for tests that check a client refuses before or without an answer.
/// A handler's `TransportError` is passed on as it is; any other error it throws becomes a
/// ``TransportError/Kind/other`` naming it.
public actor InProcessTransport: HTTPTransport {
    /// Every request sent, in order.
    public private(set) var sent: [HTTPRequest] = []
    /// The base URL the transport reports to the client's URL policy (nil: none of its own).
    public nonisolated let destination: String?
    private let handler: @Sendable (HTTPRequest) async throws -> HTTPResponse

    /// A transport that answers with `handler`, reporting `destination` as its base URL.
    public init(destination: String? = nil,
                _ handler: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse = InProcessTransport.unanswered) {
        self.destination = destination
        self.handler = handler
    }

    /// Records `request` and returns what the handler answers.
    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        sent.append(request)
        do {
            return try await handler(request)
        } catch let error as TransportError {
            throw error
        } catch {
            throw TransportError(.other, underlying: "\(error)")
        }
    }

    /// How many requests were sent.
    public var count: Int { sent.count }

    /// Forgets the requests sent so far.
    public func reset() { sent.removeAll() }

    /// The default handler: no answer (``TransportError/Kind/unreachable``).
    public static let unanswered: @Sendable (HTTPRequest) async throws -> HTTPResponse = { _ in
        throw TransportError(.unreachable, underlying: "no answer in this test")
    }
}
