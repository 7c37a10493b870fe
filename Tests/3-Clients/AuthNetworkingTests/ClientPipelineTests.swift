// A client applies the send pipeline's checks whatever transport the caller hands it (docs/design.md
// §1, layer 3): a caller's own HTTPTransport that passes a redirect through, or that would put a
// CR/LF header on the wire, is still refused — by the client's pipeline, before its status
// mapping and before the transport is called. Driven through SaltEdgeAuthenticatorClient's
// public API with a real store on disk.

import AuthNetworking
import Foundation
import ProtocolSupport
import SaltEdge
import SaltEdgeSDK
import SecureStore
import Testing

/// A caller's transport that does no policy of its own: it answers every request with `answer`
/// (by default a 307 to another origin, as a transport that follows or passes on redirects
/// would) and counts the calls.
final class PermissiveTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    let answer: HTTPResponse

    init(answer: HTTPResponse = HTTPResponse(status: 307, headers: [HTTPHeader("Location", "https://elsewhere.example/collect")],
                                             body: Array("moved".utf8))) {
        self.answer = answer
    }

    /// How many requests reached the transport.
    var calls: Int { lock.withLock { count } }

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        lock.withLock { count += 1 }
        return answer
    }
}

@Suite struct ClientPipelineTests {
    /// Fetches a provider configuration through a Salt Edge client over `transport`; the error
    /// it throws (an issue is recorded when it throws none).
    static func providerConfigurationError(_ transport: PermissiveTransport, userAgent: String = "SwiftMFA tests") async throws -> SaltEdgeClientError? {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pipeline-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let client = SaltEdgeAuthenticatorClient(configuration: .init(clientDescription: SaltEdge.ClientDescription(userAgent: userAgent),
                                                                      urlPolicy: .insecureAllowingPlainHTTPToLoopback),
                                                 store: try SecureStore(directory: path), transport: .single(transport))
        do {
            _ = try await client.providerConfiguration(at: "http://127.0.0.1:9/configuration")
            Issue.record("the answer was accepted")
            return nil
        } catch {
            return error
        }
    }

    /// The caller's transport hands back a 307; the client's pipeline turns it into
    /// `redirectRefused`, not a server error with status 307.
    @Test func aRedirectFromACallersTransportIsRefusedByTheClient() async throws {
        let transport = PermissiveTransport()
        let error = try await Self.providerConfigurationError(transport)
        #expect(error?.code == .transport && error?.transportError?.kind == .redirectRefused, "\(String(describing: error))")
        #expect(error?.transportError?.underlying.contains("307") == true)
        #expect(transport.calls == 1)
    }

    /// A CR/LF in a header is refused before the caller's transport is called at all.
    @Test func headerInjectionIsRefusedBeforeACallersTransport() async throws {
        let transport = PermissiveTransport(answer: HTTPResponse(status: 200, body: Array("{}".utf8)))
        let error = try await Self.providerConfigurationError(transport, userAgent: "SwiftMFA\r\nX-Injected: 1")
        #expect(error?.code == .transport && error?.transportError?.kind == .invalidRequest, "\(String(describing: error))")
        #expect(transport.calls == 0)
    }

    /// An oversized answer from the caller's transport is refused by the client's size limit.
    @Test func anOversizedAnswerFromACallersTransportIsRefused() async throws {
        let transport = PermissiveTransport(answer: HTTPResponse(status: 200, body: [UInt8](repeating: 0x20, count: 16 * 1024 * 1024 + 1)))
        let error = try await Self.providerConfigurationError(transport)
        #expect(error?.code == .transport && error?.transportError?.kind == .responseTooLarge, "\(String(describing: error))")
    }
}
