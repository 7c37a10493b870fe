// The loopback server of TestSupport (real sockets on 127.0.0.1) with typed requests, for
// running `mfa`'s verbs in process: each request reaches the test's handler as an
// `HTTPRequest` (path without its leading slash, the query decoded), and the handler's
// `HTTPResponse` is written back.

import Foundation
import ProtocolSupport
import TestSupport

final class LoopbackHTTPServer: Sendable {
    private let server: LoopbackServer

    /// Starts listening; `handler` answers each request.
    init(handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) throws {
        server = try LoopbackServer { raw in
            guard let request = Self.typed(raw) else { return nil }
            let response = handler(request)
            var headers = [("Content-Type", "application/json")]
            if response.body.isEmpty, response.status == 200 { headers = [] }
            return LoopbackServer.response(status: response.status, reason: "X", headers: headers, body: Array(response.body))
        }
    }

    var baseURL: String { server.baseURL }

    /// Stops accepting.
    func stop() { server.stop() }

    /// The raw request as the SDK's request value; nil for a request line without a target.
    private static func typed(_ raw: LoopbackServer.Request) -> HTTPRequest? {
        let lines = raw.head.components(separatedBy: "\r\n")
        let start = lines[0].split(separator: " ").map(String.init)
        guard start.count >= 2 else { return nil }
        let headers = lines.dropFirst().compactMap { line -> HTTPHeader? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return HTTPHeader(String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let components = URLComponents(string: start[1])
        let path = String((components?.path ?? start[1]).drop { $0 == "/" })
        let query = (components?.queryItems ?? []).map { HTTPHeader($0.name, $0.value ?? "") }
        return HTTPRequest(method: HTTPMethod(rawValue: start[0]), path: path, query: query, headers: headers,
                           body: raw.body.isEmpty ? nil : raw.body)
    }
}
