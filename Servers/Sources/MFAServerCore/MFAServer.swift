// mfa-server on Hummingbird 2 (docs/design.md §3): binds 127.0.0.1 by default and hands every POST
// to the stand-in services by path. The services are plain actors, so the tests can also drive
// them without HTTP; the end-to-end tests go through HTTP.

import Hummingbird
import HummingbirdTLS
import NIOCore
public import NIOSSL
import ProtocolSupport

/// The server: its services and the Hummingbird application serving them.
public enum MFAServer {
    /// A header a service sets on an answer to have it sent that many milliseconds late (the
    /// timeout fault); it is not sent.
    static let delayHeader = "X-MFA-Delay-Ms"

    /// An application on `host:port` (port 0: any free one) serving `powerAuth` and, when given,
    /// `saltEdge` and `mpin` (which learn the URL) and `cm`; over TLS when `tls` is given (`https://`
    /// URLs). `onRunning` receives the URL once the socket is bound.
    public static func application(host: String = "127.0.0.1", port: Int = 0, powerAuth: PowerAuthStandIn, saltEdge: SaltEdgeStandIn? = nil,
                                   cm: CMStandIn? = nil, mpin: MPinStandIn? = nil, tls: TLSConfiguration? = nil,
                                   onRunning: @escaping @Sendable (String) async -> Void = { _ in }) throws
        -> some ApplicationProtocol {
        let router = Router()
        let handler: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, _ in
            var request = request
            let buffer = try await request.collectBody(upTo: 1 << 20)
            let path = String(request.uri.path.drop { $0 == "/" })
            let received = request.headers.map { ProtocolSupport.HTTPHeader($0.name.rawName, $0.value) }
            let query = request.uri.queryParameters.map { ProtocolSupport.HTTPHeader(String($0.key), String($0.value)) }
            let exchange = ProtocolSupport.HTTPRequest(method: ProtocolSupport.HTTPMethod(rawValue: request.method.rawValue), path: path, query: query,
                                                       headers: received, body: Array(buffer.readableBytesView))
            let answer: ProtocolSupport.HTTPResponse?
            if path.hasPrefix("saltedge/") || path.hasPrefix("integration/saltedge/") {
                answer = await saltEdge?.handle(exchange)
            } else if path.hasPrefix("cm/") || path.hasPrefix("integration/cm/") {
                answer = await cm?.handle(exchange)
            } else if path.hasPrefix("mpin/") || path.hasPrefix("trust/") || path.hasPrefix("integration/mpin/") {
                answer = await mpin?.handle(exchange)
            } else if exchange.method == .post {
                answer = await powerAuth.handle(exchange)
            } else {
                answer = nil
            }
            guard let answer else { return Response(status: .notFound) }
            if let delay = answer.header(delayHeader).flatMap(Int.init) {
                try await Task.sleep(for: .milliseconds(delay))
            }
            var headers = HTTPFields()
            headers[.contentType] = answer.header("Content-Type") ?? "application/json"
            return Response(status: .init(code: answer.status), headers: headers,
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
        }
        for method in [HTTPRequest.Method.get, .post, .put, .patch, .delete] { router.on("**", method: method, use: handler) }
        let scheme = tls == nil ? "http" : "https"
        return Application(router: router, server: try tls.map { try .tls(.http1(), tlsConfiguration: $0) } ?? .http1(),
                           configuration: .init(address: .hostname(host, port: port)),
                           onServerRunning: { channel in
                               let bound = channel.localAddress?.port ?? port
                               await saltEdge?.setBaseURL("\(scheme)://\(host):\(bound)")
                               await mpin?.setBaseURL("\(scheme)://\(host):\(bound)")
                               await onRunning("\(scheme)://\(host):\(bound)")
                           })
    }
}
