// TLSTransport, the clients' default, applies the same send policy as the plain transport,
// over real TLS on 127.0.0.1 against nginx in front of Hummingbird: a 307 to another origin is refused and that origin receives nothing, an answer over
// the size limit is refused, control characters in a header or the target never reach the wire,
// and a percent-encoded target is sent encoded (url.path would have decoded %0D%0A into CRLF).

import AuthNetworking
import Foundation
import Hummingbird
import MFAServerCore
import NIOCore
import TLS
import TLSTransport
import ProtocolSupport
import ServiceLifecycle
import Testing

/// What a policy server saw: each request target, in order.
final class SeenTargets: @unchecked Sendable {
    private let lock = NSLock()
    private var targets: [String] = []
    func append(_ target: String) { lock.withLock { targets.append(target) } }
    var all: [String] { lock.withLock { targets } }
}

extension EndToEnd {
    @Suite struct TLSTransportPolicyTests {
        /// A TLS server on 127.0.0.1 answering `/redirect` with a 307 to `location`, `/big` with
        /// 1 MiB, and anything else with the target it received.
        static func withPolicyServer(_ identity: TestTLSIdentity, redirectTo location: String, seen: SeenTargets,
                                     _ body: (String) async throws -> Void) async throws {
            try await withRunning({ onRunning in
                let router = Router()
                router.on("**", method: .get) { request, _ -> Response in
                    let target = request.uri.description
                    seen.append(target)
                    if request.uri.path == "/redirect" {
                        var headers = HTTPFields()
                        headers[.location] = location
                        return Response(status: .temporaryRedirect, headers: headers)
                    }
                    let bytes = request.uri.path == "/big" ? [UInt8](repeating: 0x41, count: 1 << 20) : Array(target.utf8)
                    return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
                }
                let front = try TLSFront(identity: identity)
                return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: front.upstreamPort)),
                                   services: [TLSFrontStopper(front: front)], onServerRunning: { _ in await onRunning(front.url) })
            }, body)
        }

        @Test func redirectsOversizedAnswersAndInjectionAreRefused() async throws {
            let identity = try TestTLSIdentity()
            let elsewhere = SeenTargets(), seen = SeenTargets()
            try await Self.withPolicyServer(identity, redirectTo: "", seen: elsewhere) { otherURL in
                try await Self.withPolicyServer(identity, redirectTo: otherURL + "/collect", seen: seen) { url in
                    var limits = ResponseLimits()
                    limits.bodyBytes = 64 * 1024
                    var configuration = TLSTransport.Configuration(baseURL: url)
                    configuration.trust = .anchors(TrustAnchors(pemBundle: identity.rootPEM))
                    configuration.limits = limits
                    let transport = TLSTransport(configuration: configuration)
                    let credentials = [HTTPHeader("X-PowerAuth-Authorization", "PowerAuth pa_signature=\"secret\""), HTTPHeader("Authorization", "Bearer t")]
                    await #expect(throws: TransportError(.redirectRefused)) {
                        try await transport.send(ProtocolSupport.HTTPRequest(method: .get, path: "redirect", headers: credentials))
                    }
                    #expect(elsewhere.all.isEmpty, "the redirect's target received \(elsewhere.all)")
                    await #expect(throws: TransportError(.responseTooLarge)) { try await transport.send(ProtocolSupport.HTTPRequest(method: .get, path: "big")) }

                    let before = seen.all.count
                    await #expect(throws: TransportError(.invalidRequest)) {
                        try await transport.send(ProtocolSupport.HTTPRequest(method: .get, path: "x", headers: [HTTPHeader("X-Note", "a\r\nX-Injected: 1")]))
                    }
                    await #expect(throws: TransportError(.invalidRequest)) { try await transport.send(ProtocolSupport.HTTPRequest(method: .get, path: "a\r\nb")) }
                    #expect(seen.all.count == before, "a refused request reached the server")

                    let echoed = try await transport.send(ProtocolSupport.HTTPRequest(method: .get, path: "a%0D%0Ab%2Fc"))
                    #expect(String(decoding: echoed.body, as: UTF8.self) == "/a%0D%0Ab%2Fc")
                }
            }
        }
    }
}
