// `mfa mpin` driven as a subprocess against mfa-server's M-Pin platform over 127.0.0.1:
// configure from a QR text → service → session → verify →
// confirm → register (PIN on standard input) → users → web login by QR → OTP → registration
// code → signing registration → sign (the relying party verifies the printed signature) → a
// wrong PIN exits 1 → a usage error exits 2 → delete; a platform that is gone exits 3.

import Foundation
import MFAServerCore
import Testing

extension EndToEnd {
    @Suite struct MFAMPinCommandTests {
        /// Runs `mfa mpin …` off the cooperative pool (a blocking wait there would starve the
        /// in-process server on two cores).
        static func run(_ arguments: [String], input: String = "") async throws -> (Int32, String, String) {
            try await withCheckedThrowingContinuation { continuation in
                DispatchQueue.global().async {
                    continuation.resume(with: Result { try MFAPowerAuthCommandTests.run(arguments, input: input, family: "mpin") })
                }
            }
        }

        static func object(_ text: String) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
        }

        /// Member `key` of the JSON object printed, or nil when the output is not one.
        static func field(_ text: String, _ key: String) -> Any? {
            ((try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any])?[key]
        }

        /// Over http to loopback and over https with `--ca-file`.
        @Test(arguments: [false, true]) func aDeviceOwnersSession(https: Bool) async throws {
            let identity = https ? try TestTrust.identity() : nil
            let caFile = try identity.map(TestTrust.caFile)
            defer { if let caFile { try? FileManager.default.removeItem(atPath: caFile) } }
            let store = FileManager.default.temporaryDirectory.appendingPathComponent("mfa-mpin-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: store) }
            let s = ["--store", store, "--json"] + (caFile.map { ["--ca-file", $0] } ?? [])
            try await withMPinServer(tls: identity) { url, _ in
                let session = try await MPinHarness.admin(url, "session")
                let qr = try #require(session["qrURL"] as? String)
                let accessCode = try #require(session["accessCode"] as? String)
                var (status, out, err) = try await Self.run(["configure", "--qr", qr, "--client-id", "mfa-demo", "--allow-http-loopback"] + s)
                #expect(status == 0 && Self.field(out, "backend") as? String == url + "/mpin", "\(err)")
                (status, out, err) = try await Self.run(["session", accessCode] + s)
                #expect(status == 0 && Self.field(out, "customer") as? String == "SwiftMFA", "\(err)")

                (status, _, err) = try await Self.run(["verify", "alice@example.com", "--access-code", accessCode] + s)
                #expect(status == 0, "\(err)")
                let code = try #require(try await MPinHarness.admin(url, "verification-code", ["userId": "alice@example.com"])["code"] as? String)
                (status, out, err) = try await Self.run(["confirm", "alice@example.com"] + s, input: code + "\n")
                let token = try #require(try Self.object(out)["activationToken"] as? String, "\(err)")
                (status, out, err) = try await Self.run(["register", "alice@example.com", "--access-code", accessCode, "--with-code", "-"] + s,
                                                        input: token + "\n123456\n")
                #expect(status == 0 && Self.field(out, "state") as? String == "registered", "\(err)")
                (status, out, _) = try await Self.run(["users"] + s)
                #expect(out.contains(#""user":"alice@example.com""#) && out.contains(#""state":"registered""#))

                (status, _, err) = try await Self.run(["authenticate", "alice@example.com", "--qr", qr] + s, input: "123456\n")
                #expect(status == 0, "\(err)")
                #expect(try await MPinHarness.admin(url, "session-status", ["accessCode": accessCode])["authenticatedUser"] as? String == "alice@example.com")
                (status, out, err) = try await Self.run(["authenticate", "alice@example.com", "--otp"] + s, input: "123456\n")
                #expect(status == 0 && (Self.field(out, "otp") as? String)?.count == 6, "\(err)")
                (status, out, err) = try await Self.run(["authenticate", "alice@example.com", "--registration-code"] + s, input: "123456\n")
                #expect(status == 0 && (Self.field(out, "registrationCode") as? String) != nil, "\(err)")

                (status, out, err) = try await Self.run(["signing-register", "alice@example.com"] + s, input: "123456\n987654\n")
                #expect(status == 0 && Self.field(out, "canSign") as? Bool == true, "\(err)")
                let hash = String(repeating: "ab", count: 32)
                (status, out, err) = try await Self.run(["sign", "alice@example.com", "--hash", hash] + s, input: "987654\n")
                let signature = try Self.object(out)
                #expect(status == 0 && signature["hash"] as? String == hash, "\(err)")
                let verdict = try await MPinHarness.post(url, "mpin/dvs/verify", [
                    "signature": ["hash": hash, "mpinId": signature["mpinId"] ?? "", "publicKey": signature["publicKey"] ?? "", "u": signature["u"] ?? "",
                                  "v": signature["v"] ?? ""],
                    "timestamp": signature["timestamp"] ?? 0, "type": "verification"])
                #expect(verdict.0 == 200)

                // Under --json an error is one JSON object on standard output.
                (status, out, err) = try await Self.run(["authenticate", "alice@example.com", "--otp"] + s, input: "000000\n")
                #expect(status == 1 && out.contains(#""code":"incorrectPIN""#) && out.contains(#""exitStatus":1"#), "\(out)")
                (status, _, err) = try await Self.run(["authenticate", "alice@example.com"] + s, input: "123456\n")
                #expect(status == 2, "\(err)")
                (status, _, _) = try await Self.run(["remove", "alice@example.com"] + s)
                (status, out, _) = try await Self.run(["users"] + s)
                #expect(status == 0 && out.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
            }
            // The platform is gone: transport, exit 3.
            let (status, out, _) = try await Self.run(["users"] + s)
            #expect(status == 3 && out.contains(#""code":"transport""#), "\(out)")
        }
    }
}
