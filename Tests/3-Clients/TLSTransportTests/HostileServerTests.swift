// The refusal paths of our TLS client, against a server of ours that misbehaves at one
// handshake or record step at a time (Tests/TLSPeers/hostile_tls_server.py, written from RFC 8446
// apart from the client; its check script shows OpenSSL's client refusing the same modes). Each
// misbehaviour must end in a typed error within a bounded time, and where the client answers
// with an alert, the server's log names the one RFC 8446 prescribes.

import AuthNetworking
import Foundation
import ProtocolSupport
import Testing
import TestSupport
import TLS
import TLSTransport

@Suite(.serialized, .enabled(if: TLSPeer.isInstalled("python3") || TLSPeer.isRequired, "needs python3 with the cryptography package"))
struct HostileServerTests {
    static func transport(_ server: TLSPeer, timeout: Double = 10) throws -> TLSTransport {
        var configuration = TLSTransport.Configuration(baseURL: "https://localhost:\(server.port)")
        configuration.trust = .anchors(TrustAnchors(pemBundle: try String(contentsOfFile: TLSPeer.certificates + "/p256/root.pem", encoding: .utf8)))
        configuration.timeout = timeout
        configuration.idleTimeout = timeout
        configuration.keepAlive = false
        return TLSTransport(configuration: configuration)
    }

    /// The server's last log line (the client's reaction), waiting up to two seconds for it.
    static func clientReaction(_ server: TLSPeer) -> String {
        var log = ""
        for _ in 0..<40 {
            log += server.errorOutput
            if log.contains("client=") { break }
            usleep(50_000)
        }
        return log.split(separator: "\n").last { $0.contains("client=") }.map { String($0.split(separator: "client=").last ?? "") } ?? log
    }

    @Test(arguments: ["good", "good-hrr"])
    func aCorrectServerIsReached(mode: String) async throws {
        let server = try TLSPeer.hostile(mode)
        let response = try await Self.transport(server).send(HTTPRequest(method: .get, path: ""))
        #expect(response.status == 200 && String(decoding: response.body, as: UTF8.self) == "ok")
    }

    /// Modes and the alert our client must send (nil: it ends without one — the peer closed,
    /// or sent its own fatal alert).
    static let refusals: [(String, UInt8?)] = [
        ("bad-finished", 51), ("bad-certificate-verify", 51), ("wrong-certificate-verify-scheme", 47), ("skip-certificate-verify", 10),
        ("bad-record-mac", 20), ("oversized-record", 22), ("oversized-plaintext", 22), ("oversized-inner-plaintext", 22),
        ("unexpected-message", 10), ("second-server-hello", 10), ("sh-spans-key-change", 10), ("plaintext-encrypted-extensions", 10),
        ("application-data-before-finished", 10), ("encrypted-ccs", 10), ("empty-handshake-record", 10), ("bad-ccs", 10),
        ("ccs-after-handshake", 10), ("renegotiation-style-hello", 10), ("huge-handshake-length", 10), ("garbage", 10),
        ("alert-flood", 10), ("empty-record-flood", 10), ("key-update-flood", 10), ("protected-alert-flood", nil),
        ("downgrade-tls12", 47), ("downgrade-tls11", 70), ("bad-supported-version", 47), ("duplicate-extension", 47),
        ("wrong-cipher-suite", 47), ("wrong-session-id", 47), ("unoffered-key-share-group", 47), ("missing-key-share", 109),
        ("bad-key-share", 47), ("hrr-twice", 10), ("hrr-same-group", 47), ("hrr-then-other-suite", 47),
        ("empty-certificate", 50), ("nonempty-certificate-context", 47), ("no-alpn-agreement", 120), ("unsolicited-extension", 110),
        ("truncated-record", nil), ("close-after-hello", nil),
    ]

    @Test(arguments: refusals)
    func eachMisbehaviourIsRefused(mode: String, alert: UInt8?) async throws {
        let server = try TLSPeer.hostile(mode)
        let started = ContinuousClock.now
        let error = await #expect(throws: TransportError.self) {
            try await Self.transport(server).send(HTTPRequest(method: .get, path: ""))
        }
        #expect(ContinuousClock.now - started < .seconds(8), "\(mode) took \(ContinuousClock.now - started)")
        #expect(error?.kind == .tls || error?.kind == .badResponse, "\(mode): \(String(describing: error))")
        let reaction = Self.clientReaction(server)
        if let alert {
            #expect(reaction.hasPrefix("alert \(alert) "), "\(mode): the server saw \(reaction); we said \(String(describing: error))")
        } else {
            #expect(!reaction.hasPrefix("alert") || reaction.contains("(warning)") == false, "\(mode): \(reaction)")
        }
    }

    /// A server that sends its flight a byte every half second is stopped by the exchange's
    /// deadline, not left to finish.
    @Test func aSlowDripIsStoppedAtTheDeadline() async throws {
        let server = try TLSPeer.hostile("slow-drip")
        let started = ContinuousClock.now
        let error = await #expect(throws: TransportError.self) {
            try await Self.transport(server, timeout: 3).send(HTTPRequest(method: .get, path: ""))
        }
        #expect(error?.kind == .timedOut)
        #expect(ContinuousClock.now - started < .seconds(5))
    }
}
