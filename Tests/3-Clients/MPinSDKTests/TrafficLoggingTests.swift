// A whole MIRACL MFA verification and registration logged at every level, with and without
// traffic logging (docs/design.md §2 habit 18): the e-mailed code, the activation token, `regOTT`
// and both client-secret shares appear in no log line; only the explicit reveal switch shows
// bodies in clear. The two D-TAs' shares are real BN254CX points, so the registration finishes.

import AuthNetworking
import CryptoPrimitives
import Foundation
import MPinSDK
import MPinPlatform
import MPin
import ProtocolSupport
import SecureStore
import Testing
import ClientTestSupport
import TestSupport

@Suite struct TrafficLoggingTests {
    final class Capture: LogSink, @unchecked Sendable {
        let lock = NSLock()
        var lines: [String] = []
        func write(_ line: String, level: LogLevel) { lock.withLock { lines.append(line) } }
        var text: String { lock.withLock { lines.joined(separator: "\n") } }
    }

    static let code = "531806"
    static let activationToken = "act-9f8e7d6c5b4a39281706f5e4d3c2b1a0"
    static let regOTT = "regott-0a1b2c3d4e5f60718293a4b5c6d7e8f9"
    static let mpinID = Hex.encode(Array(#"{"userID":"alice@example.com","mobile":1,"salt":"0011","v":1}"#.utf8))

    static func ok(_ json: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")], body: Array(json.utf8))
    }

    /// The two D-TAs' shares of the client secret for `mpinID`, in hex.
    static func shares() throws -> (String, String) {
        let identity = MPin.Identity(try Hex.decode(mpinID))
        let first = MPin.Issuer.clientSecretShare(MPin.MasterSecretShare(BN254CX.Scalar(reducing: Array(repeating: 0x11, count: 32))), for: identity)
        let second = MPin.Issuer.clientSecretShare(MPin.MasterSecretShare(BN254CX.Scalar(reducing: Array(repeating: 0x22, count: 32))), for: identity)
        return (Hex.encode(first.rawRepresentation.unsafeExposedBytes), Hex.encode(second.rawRepresentation.unsafeExposedBytes))
    }

    /// Runs the registration through a LoggingTransport with `logger`.
    static func register(logger: Logger) async throws {
        let (share1, share2) = try shares()
        let replay = ReplayTransport([
            .init(.get, "rps/clientSettings", response: ok(#"{"registerURL":"/rps/user","signatureURL":"/rps/signature","certivoxURL":"https://d2.example.com/","mpinAuthServerURL":"/rps","authenticateURL":"/rps/authenticate","usePermits":false}"#)),
            .init(.post, "verification/email", response: ok("{}")),
            .init(.post, "verification/confirmation", response: ok(#"{"accessId":"s1","activationToken":"\#(activationToken)"}"#)),
            .init(.put, "rps/user", response: ok(#"{"mpinId":"\#(mpinID)","regOTT":"\#(regOTT)","expireTime":1900000000,"active":true}"#)),
            .init(.get, "rps/signature/" + mpinID, response: ok(#"{"clientSecretShare":"\#(share1)","params":"app_id=a1&expires=1900000000"}"#)),
            .init(.get, "clientSecret", response: ok(#"{"clientSecret":"\#(share2)","message":"OK","version":"3"}"#)),
        ])
        let store = try makeTemporaryStore("mpin-log")
        let client = MPinClient(store: store, transport: .single(LoggingTransport(replay, logger: logger)))
        try await client.setBackend("https://api.example.com")
        var user = try await client.makeUser(identity: "alice@example.com")
        try await client.startVerification(for: user)
        let verified = try await client.finishVerification(for: user, code: code)
        user = try await client.startRegistration(for: user, accessCode: nil, registrationCode: verified.activationToken)
        user = try await client.confirmRegistration(for: user)
        user = try await client.finishRegistration(for: user, pin: try #require(MPin.PIN(decimal: "1234")))
        #expect(user.state == .registered)
    }

    @Test func noSecretAtAnyLevel() async throws {
        let (share1, share2) = try Self.shares()
        let secrets = [Self.code, Self.activationToken, Self.regOTT, share1, share2, String(share1.suffix(40)), String(share2.suffix(40))]
        for traffic in [false, true] {
            for level in LogLevel.allCases {
                let capture = Capture()
                try await Self.register(logger: Logger(level: level, sink: capture, loggingHTTPTraffic: traffic))
                let text = capture.text
                for secret in secrets { #expect(!text.contains(secret), "a secret at \(level), traffic \(traffic): \(secret.prefix(12))…") }
                #expect(level < .info || text.contains("rps/user"), "the exchanges are logged at \(level)")
                #expect(level < .debug || !traffic || text.contains(#""regOTT":"<redacted"#), "traffic at debug shows the masked bodies")
            }
        }
    }

    @Test func theRevealSwitchShowsBodies() async throws {
        let capture = Capture()
        try await Self.register(logger: Logger(level: .debug, sink: capture, revealingSecretsAtDebug: true))
        #expect(capture.text.contains(Self.regOTT))
    }
}
