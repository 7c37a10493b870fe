// Our TLS client against GnuTLS's `gnutls-serv --http`: a second, independent TLS stack, in
// TLS 1.3 only and TLS 1.2 only, with RSA, P-256 and P-384 chains, and HelloRetryRequest when
// its groups exclude the x25519 share we send first.

import AuthNetworking
import Foundation
import ProtocolSupport
import Testing
import TestSupport
import TLS
import TLSTransport

@Suite(.serialized, .enabled(if: TLSPeer.isInstalled("gnutls-serv") || TLSPeer.isRequired, "needs gnutls-serv (Debian's gnutls-bin)"))
struct GnuTLSInteropTests {
    static let tls13 = "NORMAL:-VERS-ALL:+VERS-TLS1.3"
    static let tls12 = "NORMAL:-VERS-ALL:+VERS-TLS1.2"

    static func configuration(_ kind: String) throws -> TLSConfiguration {
        let root = try String(contentsOfFile: TLSPeer.certificates + "/\(kind)/root.pem", encoding: .utf8)
        return TLSConfiguration(serverIdentity: try #require(ServerIdentity(host: "localhost")), trust: .certificateAuthorities(TrustAnchors(pemBundle: root)))
    }

    @Test(arguments: [("rsa", tls13), ("p256", tls13), ("p384", tls13), ("rsa", tls12), ("p256", tls12), ("p384", tls12)])
    func servesItsStatusPage(kind: String, priority: String) async throws {
        let server = try TLSPeer.gnuTLS(kind, priority: priority)
        var configuration = TLSTransport.Configuration(baseURL: "https://localhost:\(server.port)")
        configuration.trust = .anchors(try Self.configuration(kind).trust.anchors ?? TrustAnchors(certificates: []))
        let response = try await TLSTransport(configuration: configuration).send(HTTPRequest(method: .get, path: ""))
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self).contains("GnuTLS"), "\(server.errorOutput)")
    }

    /// GnuTLS with only P-256 or P-384 asks for another share (RFC 8446 §4.1.4).
    @Test(arguments: [("NORMAL:-VERS-ALL:+VERS-TLS1.3:-GROUP-ALL:+GROUP-SECP256R1", TLSVersion.tls13, true),
                      ("NORMAL:-VERS-ALL:+VERS-TLS1.3:-GROUP-ALL:+GROUP-SECP384R1", .tls13, true),
                      ("NORMAL:-VERS-ALL:+VERS-TLS1.2:-GROUP-ALL:+GROUP-SECP384R1", .tls12, false)])
    func agreesOnTheServersGroup(priority: String, version: TLSVersion, retries: Bool) throws {
        let server = try TLSPeer.gnuTLS("p256", priority: priority)
        var connection = try RawTLSConnection(port: server.port, configuration: try Self.configuration("p256"))
        defer { connection.close() }
        #expect(connection.client.version == version)
        #expect(connection.client.receivedHelloRetry == retries)
        try connection.send(Array("GET / HTTP/1.0\r\n\r\n".utf8))
        let page = try connection.receiveApplicationData(atLeast: 1 << 20)
        #expect(String(decoding: page, as: UTF8.self).hasPrefix("HTTP/1.0 200"))
    }
}
