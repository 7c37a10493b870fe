// A real HTTP exchange with nginx over our TLS: small and 16 MiB answers, the connection kept
// alive between requests (nginx names each answer's connection), and an answer over the
// transport's limit refused while it arrives.

import AuthNetworking
import CryptoPrimitives
import Foundation
import ProtocolSupport
import Testing
import TestSupport
import TLS
import TLSTransport

@Suite(.serialized, .enabled(if: TLSPeer.isInstalled("nginx") || TLSPeer.isRequired, "needs nginx"))
struct NginxInteropTests {
    /// hello.txt and a 16 MiB file of a repeating pattern.
    static let site: String = {
        let directory = NSTemporaryDirectory() + "swiftmfa-nginx-site-\(getpid())"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: directory + "/hello.txt", contents: Data("hello from nginx\n".utf8))
        FileManager.default.createFile(atPath: directory + "/big.bin", contents: Data((0..<(16 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }))
        return directory
    }()

    static func transport(_ server: TLSPeer, _ kind: String, limit: Int = 16 << 20, versions: [TLSVersion] = [.tls13, .tls12]) throws -> TLSTransport {
        var configuration = TLSTransport.Configuration(baseURL: "https://localhost:\(server.port)")
        configuration.versions = versions
        configuration.trust = .anchors(TrustAnchors(pemBundle: try String(contentsOfFile: TLSPeer.certificates + "/\(kind)/root.pem", encoding: .utf8)))
        configuration.limits = ResponseLimits(bodyBytes: limit)
        return TLSTransport(configuration: configuration)
    }

    @Test(arguments: ["rsa", "p256", "p384"])
    func keepsTheConnectionAliveBetweenRequests(kind: String) async throws {
        let server = try TLSPeer.nginx(kind, root: Self.site)
        let transport = try Self.transport(server, kind)
        // A kept connection is dropped after 4 s idle (ConnectionPool), which a loaded two-core
        // runner can spend between two awaits: up to three pairs, and one must share a connection.
        var reused = false
        for _ in 0..<3 where !reused {
            let first = try await transport.send(HTTPRequest(method: .get, path: "hello.txt"))
            let second = try await transport.send(HTTPRequest(method: .get, path: "hello.txt"))
            #expect(first.status == 200 && String(decoding: first.body, as: UTF8.self) == "hello from nginx\n", "\(server.errorOutput)")
            #expect(second.status == 200)
            #expect(first.header("X-Connection") != nil)
            reused = second.header("X-Connection") == first.header("X-Connection")
                && Int(second.header("X-Connection-Requests") ?? "") == Int(first.header("X-Connection-Requests") ?? "").map { $0 + 1 }
        }
        #expect(reused, "no second request reused the first one's connection")
        let missing = try await transport.send(HTTPRequest(method: .get, path: "no-such-file"))
        #expect(missing.status == 404)
    }

    /// A credential in a header and one in the query reach nginx from their secret bytes, over
    /// either version (nginx echoes the raw `Access-Token` field and query string back).
    @Test(arguments: [[TLSVersion.tls13], [.tls12]])
    func secretFieldsReachTheServer(versions: [TLSVersion]) async throws {
        let server = try TLSPeer.nginx("p256", root: Self.site)
        let request = HTTPRequest(method: .get, path: "hello.txt", query: [HTTPHeader("regOTT", secret: SecretBytes("r1+".utf8))],
                                  headers: [HTTPHeader("Access-Token", secret: SecretBytes("tok/9+=".utf8))])
        let response = try await Self.transport(server, "p256", versions: versions).send(request)
        #expect(response.status == 200, "\(server.errorOutput)")
        #expect(response.header("X-Echo-Access-Token") == "tok/9+=" && response.header("X-Echo-Query") == "regOTT=%72%31%2B")
    }

    @Test func readsASixteenMebibyteAnswerAndRefusesOneOverTheLimit() async throws {
        let server = try TLSPeer.nginx("p256", root: Self.site)
        let big = try await Self.transport(server, "p256").send(HTTPRequest(method: .get, path: "big.bin"))
        #expect(big.status == 200 && big.body.count == 16 << 20)
        #expect(big.body.prefix(4) == [0, 31, 62, 93])
        let error = await #expect(throws: TransportError.self) {
            try await Self.transport(server, "p256", limit: 1 << 20).send(HTTPRequest(method: .get, path: "big.bin"))
        }
        #expect(error?.kind == .responseTooLarge)
    }
}
