// mfa-server on Hummingbird 2 (docs/design.md §3): binds 127.0.0.1 by default and hands every POST
// to the stand-in services by path. The services are plain actors, so the tests can also drive
// them without HTTP; the end-to-end tests go through HTTP.

import Hummingbird
import NIOCore
import ProtocolSupport

/// The server: its services and the Hummingbird application serving them.
public enum MFAServer {
    /// A header a service sets on an answer to have it sent that many milliseconds late (the
    /// timeout fault); it is not sent.
    static let delayHeader = "X-MFA-Delay-Ms"

    /// An application on `host:port` (port 0: any free one) serving `powerAuth` and, when given,
    /// `saltEdge` and `mpin` (which learn the URL) and `cm`; over TLS with `tls`'s certificate
    /// when it is given (`https://` URLs: nginx on `host:port` in front of the application on a
    /// loopback port of its own, stopped with the application). `onRunning` receives the URL once
    /// the socket is bound.
    public static func application(host: String = "127.0.0.1", port: Int = 0, powerAuth: PowerAuthStandIn, saltEdge: SaltEdgeStandIn? = nil,
                                   cm: CMStandIn? = nil, mpin: MPinStandIn? = nil, tls: TestTLSIdentity? = nil,
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
        let front = try tls.map { try TLSFront(identity: $0, host: host, port: port) }
        return Application(router: router, server: .http1(),
                           configuration: .init(address: front.map { .hostname("127.0.0.1", port: $0.upstreamPort) } ?? .hostname(host, port: port)),
                           services: front.map { [TLSFrontStopper(front: $0)] } ?? [],
                           onServerRunning: { channel in
                               let url = front?.url ?? "http://\(host):\(channel.localAddress?.port ?? port)"
                               await saltEdge?.setBaseURL(url)
                               await mpin?.setBaseURL(url)
                               await onRunning(url)
                           })
    }
}
