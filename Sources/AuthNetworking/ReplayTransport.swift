// A transport that answers from recorded exchanges (for tests and the recorded-traffic replays
// of the SDK issues): each request is matched by method, path and a rule on its body, and the
// recorded response — or recorded failure — is returned. Everything sent is kept for checks.

public import ProtocolSupport

/// Answers requests from a list of recorded exchanges, in order or by first match.
public actor ReplayTransport: HTTPTransport {
    /// One recorded exchange.
    public struct Exchange: Sendable {
        /// The method the request must have.
        public let method: HTTPMethod
        /// The path the request must have (below the base URL, no leading slash).
        public let path: String
        /// A rule the request's body must satisfy (by default: anything).
        public let bodyMatches: @Sendable ([UInt8]?) -> Bool
        /// What to answer: a response, or a transport failure.
        public let outcome: Result<HTTPResponse, TransportError>

        /// An exchange answered with `response`.
        public init(_ method: HTTPMethod, _ path: String, bodyMatches: @escaping @Sendable ([UInt8]?) -> Bool = { _ in true },
                    response: HTTPResponse) {
            self.method = method
            self.path = path
            self.bodyMatches = bodyMatches
            outcome = .success(response)
        }

        /// An exchange that fails with `error` (a timeout, a refused connection).
        public init(_ method: HTTPMethod, _ path: String, bodyMatches: @escaping @Sendable ([UInt8]?) -> Bool = { _ in true },
                    failure error: TransportError) {
            self.method = method
            self.path = path
            self.bodyMatches = bodyMatches
            outcome = .failure(error)
        }

        func matches(_ request: HTTPRequest) -> Bool {
            request.method == method && request.path == path && bodyMatches(request.body)
        }
    }

    private var pending: [Exchange]
    private let inOrder: Bool
    /// Every request received, in order.
    public private(set) var sent: [HTTPRequest] = []

    /// A transport over `exchanges`. With `inOrder`, each request must match the next exchange;
    /// otherwise the first matching one anywhere is used. Each exchange answers once.
    public init(_ exchanges: [Exchange], inOrder: Bool = true) {
        pending = exchanges
        self.inOrder = inOrder
    }

    /// The exchanges not used yet.
    public var remaining: Int { pending.count }

    /// Answers from the matching exchange; a request that matches none fails with
    /// ``TransportError/Kind/invalidRequest`` naming what was expected.
    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        sent.append(request)
        let index = inOrder ? (pending.first?.matches(request) == true ? 0 : nil) : pending.firstIndex { $0.matches(request) }
        guard let index else {
            let expected = pending.first.map { "\($0.method) \($0.path)" } ?? "nothing"
            throw TransportError(.invalidRequest, underlying: "no recorded exchange for \(request.method) \(request.path); next is \(expected)")
        }
        let exchange = pending.remove(at: index)
        return try exchange.outcome.get()
    }
}
