// Our TLS client against OpenSSL's `s_server` on 127.0.0.1: TLS 1.3 and TLS 1.2, RSA, P-256 and
// P-384 chains through an intermediate, every suite and group offered, HelloRetryRequest forced
// by the server's group list, renegotiation refused, and the refusals a wrong anchor, host or
// pin must cause. Certificates and pins come from OpenSSL's CLI, never from our code.

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

    static func anchors(_ kind: String) throws -> TrustAnchors {
        TrustAnchors(pemBundle: try String(contentsOfFile: TLSPeer.certificates + "/\(kind)/root.pem", encoding: .utf8))
    }

    static func transport(_ port: UInt16, trust: TLSTransport.Trust, host: String = "localhost", pins: TLSPins? = nil) -> TLSTransport {
        var configuration = TLSTransport.Configuration(baseURL: "https://\(host):\(port)")
        configuration.trust = trust
        configuration.pins = pins
        configuration.timeout = 20
        return TLSTransport(configuration: configuration)
    }

    static func configuration(_ kind: String, host: String = "localhost") throws -> TLSConfiguration {
        TLSConfiguration(serverIdentity: try #require(ServerIdentity(host: host)), trust: .certificateAuthorities(try anchors(kind)))
    }

    @Test(arguments: [("rsa", "-tls1_3"), ("p256", "-tls1_3"), ("p384", "-tls1_3"), ("rsa", "-tls1_2"), ("p256", "-tls1_2"), ("p384", "-tls1_2")])
    func fetchesAFile(kind: String, version: String) async throws {
        let server = try TLSPeer.openSSL(kind, [version], serving: Self.site)
        let response = try await Self.transport(server.port, trust: .anchors(try Self.anchors(kind))).send(HTTPRequest(method: .get, path: "hello.txt"))
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == Self.body, "\(server.errorOutput)")
    }

    /// One suite on the server's side, so the handshake's success is that suite's.
    @Test(arguments: [
        ("p256", ["-tls1_3", "-ciphersuites", "TLS_AES_128_GCM_SHA256"], TLSCipherSuite.aes128GCMSHA256),
        ("p256", ["-tls1_3", "-ciphersuites", "TLS_AES_256_GCM_SHA384"], .aes256GCMSHA384),
        ("rsa", ["-tls1_3", "-ciphersuites", "TLS_CHACHA20_POLY1305_SHA256"], .chaCha20Poly1305SHA256),
        ("p256", ["-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-GCM-SHA256"], .ecdheECDSAWithAES128GCMSHA256),
        ("p384", ["-tls1_2", "-cipher", "ECDHE-ECDSA-AES256-GCM-SHA384"], .ecdheECDSAWithAES256GCMSHA384),
        ("p256", ["-tls1_2", "-cipher", "ECDHE-ECDSA-CHACHA20-POLY1305"], .ecdheECDSAWithChaCha20Poly1305SHA256),
        ("rsa", ["-tls1_2", "-cipher", "ECDHE-RSA-AES128-GCM-SHA256"], .ecdheRSAWithAES128GCMSHA256),
        ("rsa", ["-tls1_2", "-cipher", "ECDHE-RSA-AES256-GCM-SHA384"], .ecdheRSAWithAES256GCMSHA384),
        ("rsa", ["-tls1_2", "-cipher", "ECDHE-RSA-CHACHA20-POLY1305"], .ecdheRSAWithChaCha20Poly1305SHA256),
    ])
    func negotiatesEverySuite(kind: String, options: [String], suite: TLSCipherSuite) throws {
        let server = try TLSPeer.openSSL(kind, options, serving: nil)
        var connection = try RawTLSConnection(port: server.port, configuration: try Self.configuration(kind))
        defer { connection.close() }
        #expect(connection.client.cipherSuite == suite)
        #expect(connection.client.version == (options.contains("-tls1_3") ? .tls13 : .tls12))
        // s_server echoes nothing back in this mode; a record sent and the connection alive is enough.
        try connection.send(Array("ping\n".utf8))
    }

    /// The client sends an x25519 share; a server that takes only P-256 or P-384 answers with a
    /// HelloRetryRequest (RFC 8446 §4.1.4), and TLS 1.2 agrees on the server's curve.
    @Test(arguments: [(["-tls1_3", "-groups", "P-256"], true), (["-tls1_3", "-groups", "P-384"], true), (["-tls1_3", "-groups", "X25519"], false),
                      (["-tls1_2", "-groups", "P-384"], false), (["-tls1_2", "-groups", "X25519"], false)])
    func agreesOnEveryGroup(options: [String], expectsRetry: Bool) throws {
        let server = try TLSPeer.openSSL("p256", options, serving: nil)
        var connection = try RawTLSConnection(port: server.port, configuration: try Self.configuration("p256"))
        defer { connection.close() }
        #expect(connection.client.receivedHelloRetry == expectsRetry)
        try connection.send(Array("ping\n".utf8))
    }

    /// RFC 5746: this client never renegotiates; a TLS 1.2 server's HelloRequest ends the connection.
    @Test func renegotiationIsRefused() throws {
        let server = try TLSPeer.openSSL("p256", ["-tls1_2"], serving: nil)
        var connection = try RawTLSConnection(port: server.port, configuration: try Self.configuration("p256"))
        defer { connection.close() }
        server.command("R")  // s_server: request a renegotiation
        #expect {
            _ = try connection.receiveApplicationData(atLeast: 1)
        } throws: { ($0 as? TLSError)?.kind == .renegotiationRefused }
    }

    @Test func refusesAChainToAnotherAnchor() async throws {
        let server = try TLSPeer.openSSL("p256", [], serving: Self.site)
        let error = await #expect(throws: TransportError.self) {
            try await Self.transport(server.port, trust: .anchors(try Self.anchors("rsa"))).send(HTTPRequest(method: .get, path: "hello.txt"))
        }
        #expect(error?.kind == .tls && error?.underlying.contains("no chain to a trusted certificate authority") == true, "\(String(describing: error))")
    }

    @Test func refusesACertificateForAnotherHost() async throws {
        let server = try TLSPeer.openSSL("p256", [], serving: Self.site, leaf: "other-leaf")
        let error = await #expect(throws: TransportError.self) {
            try await Self.transport(server.port, trust: .anchors(try Self.anchors("p256"))).send(HTTPRequest(method: .get, path: "hello.txt"))
        }
        #expect(error?.kind == .tls && error?.underlying.contains("does not name the host") == true, "\(String(describing: error))")
    }

    /// The address itself is a name the leaf carries (iPAddress 127.0.0.1).
    @Test func acceptsTheIPAddressTheCertificateNames() async throws {
        let server = try TLSPeer.openSSL("p384", [], serving: Self.site)
        let response = try await Self.transport(server.port, trust: .anchors(try Self.anchors("p384")), host: "127.0.0.1")
            .send(HTTPRequest(method: .get, path: "hello.txt"))
        #expect(response.status == 200)
    }

    /// Pins: the leaf's key alone (no anchors), the key with the chain, and a wrong pin.
    @Test func pinsTheServersKey() async throws {
        let server = try TLSPeer.openSSL("rsa", [], serving: Self.site)
        let pin = try TLSPeer.spkiPin(TLSPeer.certificates + "/rsa/leaf.pem")
        #expect(pin.count == 32)
        let pinned = TLSPins(spkiSHA256: [pin])
        let alone = try await Self.transport(server.port, trust: .pinnedKeysOnly, pins: pinned).send(HTTPRequest(method: .get, path: "hello.txt"))
        #expect(alone.status == 200)
        let both = try await Self.transport(server.port, trust: .anchors(try Self.anchors("rsa")), pins: pinned).send(HTTPRequest(method: .get, path: "hello.txt"))
        #expect(both.status == 200)
        let otherPin = try TLSPeer.spkiPin(TLSPeer.certificates + "/p256/leaf.pem")
        let error = await #expect(throws: TransportError.self) {
            try await Self.transport(server.port, trust: .pinnedKeysOnly, pins: TLSPins(spkiSHA256: [otherPin])).send(HTTPRequest(method: .get, path: "hello.txt"))
        }
        #expect(error?.kind == .tls && error?.underlying.contains("pinMismatch") == true, "\(String(describing: error))")
    }
}
