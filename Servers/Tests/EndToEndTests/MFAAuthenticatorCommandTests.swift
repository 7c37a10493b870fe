// `mfa saltedge` and `mfa cm` driven as subprocesses against mfa-server over 127.0.0.1.
// Salt Edge: connect →
// complete with the bank's redirect → connections → authorizations --watch sees a new one →
// confirm (the provider recorded it) → consents → revoke. CM: configure with the stand-in's
// list key (pins verified; http on loopback) → register with the SMS code → environment add →
// requests --watch sees an instant request → approve (the server recorded it) → an OTP shown →
// deny refused for it → environment remove. Exit statuses: usage 2, refused 1, gone 3.

import CMAuthenticator
import Foundation
import MFAServerCore
import ProtocolSupport
import Testing
import URLSessionTransport

extension EndToEnd {
    @Suite struct MFAAuthenticatorCommandTests {
        static func run(_ family: String, _ arguments: [String]) throws -> (Int32, String, String) {
            try MFAPowerAuthCommandTests.run(arguments, family: family)
        }

        static func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

        /// A `--watch` child whose output lines are read one at a time, off the cooperative pool (a
        /// blocking read there would starve the in-process server on two cores).
        final class Watcher: @unchecked Sendable {
            let child = Process()
            let output = Pipe()
            var buffer: [UInt8] = []

            init(_ arguments: [String]) throws {
                child.executableURL = URL(fileURLWithPath: try #require(MFAPowerAuthCommandTests.mfa))
                child.arguments = arguments
                child.standardOutput = output
                child.standardError = FileHandle.nullDevice
                try child.run()
            }

            /// The next line, or nil at the end.
            func line() async -> String? {
                await withCheckedContinuation { continuation in
                    DispatchQueue.global().async { continuation.resume(returning: self.blockingLine()) }
                }
            }

            private func blockingLine() -> String? {
                while true {
                    if let newline = buffer.firstIndex(of: 0x0A) {
                        let line = String(decoding: buffer[..<newline], as: UTF8.self)
                        buffer.removeSubrange(...newline)
                        return line
                    }
                    let data = output.fileHandleForReading.availableData
                    if data.isEmpty { return nil }
                    buffer += data
                }
            }

            deinit {
                // SIGKILL: the child inherits this process's signal mask, in which the server's
                // service group blocks SIGTERM, so terminate() would leave it running.
                kill(child.processIdentifier, SIGKILL)
                child.waitUntilExit()
            }
        }

        /// Over http to loopback and over https with `--ca-file`.
        @Test(arguments: [false, true]) func saltEdgeFromAShell(https: Bool) async throws {
            let identity = https ? try TestTrust.identity() : nil
            let caFile = try identity.map(TestTrust.caFile)
            defer { if let caFile { try? FileManager.default.removeItem(atPath: caFile) } }
            let saltEdge = try SaltEdgeStandIn(providerKey: TestKeys.saltEdgeProvider)
            let server = RestartableServer()
            let url = try await server.start(port: 0, saltEdge: saltEdge, tls: identity)
            let store = FileManager.default.temporaryDirectory.appendingPathComponent("mfa-se-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: store) }
            let s = ["--store", store, "--json"] + (caFile.map { ["--ca-file", $0] } ?? [])
            // The loopback opt-out is stored by configure; no later verb is told again.
            #expect(try Self.run("saltedge", ["configure", "--allow-http-loopback"] + s).0 == 0)

            let link = try #require(try await SaltEdgeEndToEndTests.admin(url, "connect-link")["deep_link"] as? String)
            var (status, out, err) = try Self.run("saltedge", ["connect", link] + s)
            #expect(status == 0, "\(err)")
            let pending = try #require(try Self.json(out) as? [String: Any])
            let page = try #require(pending["authenticationURL"] as? String)
            let redirect = try await TestTrust.transport(page).send(HTTPRequest(method: .get, path: ""))
            (status, out, err) = try Self.run("saltedge", ["complete", try #require(pending["connectionId"] as? String),
                                                           String(decoding: redirect.body, as: UTF8.self)] + s)
            #expect(status == 0, "\(err)")
            let connectionID = try #require((try Self.json(out) as? [String: Any])?["id"] as? String)
            (status, out, _) = try Self.run("saltedge", ["connections"] + s)
            #expect((try Self.json(out) as? [[String: Any]])?.map { $0["id"] as? String } == [connectionID])

            let watcher = try Watcher(["saltedge", "authorizations", "--watch", "--interval", "0.2"] + s)
            let first = await watcher.line()
            #expect(first == "[]")
            let created = try await SaltEdgeEndToEndTests.admin(url, "authorization", ["connection_id": connectionID, "title": "Pay 5.00 EUR"])
            let authorizationID = String(try #require(created["authorization_id"] as? Int))
            let next = await watcher.line()
            let update = try #require(next)
            let seen = try #require(try Self.json(update) as? [[String: Any]])
            #expect(seen.map { $0["id"] as? String } == [authorizationID] && seen[0]["title"] as? String == "Pay 5.00 EUR")

            (status, out, err) = try Self.run("saltedge", ["confirm", authorizationID] + s)
            #expect(status == 0, "\(err)")
            #expect(try await SaltEdgeEndToEndTests.admin(url, "authorization/status", ["authorization_id": Int(authorizationID) ?? 0])["status"] as? String == "confirmed")
            (status, _, err) = try Self.run("saltedge", ["confirm", authorizationID] + s)
            #expect(status == 1, "a decided authorization is refused by the server: \(err)")

            _ = try await SaltEdgeEndToEndTests.admin(url, "consent", ["connection_id": connectionID, "tpp_name": "Budget app"])
            (status, out, _) = try Self.run("saltedge", ["consents"] + s)
            let consentID = try #require((try Self.json(out) as? [[String: Any]])?.first?["id"] as? String)
            (status, _, err) = try Self.run("saltedge", ["revoke-consent", consentID] + s)
            #expect(status == 0, "\(err)")
            (status, _, err) = try Self.run("saltedge", ["remove", connectionID] + s)
            #expect(status == 0, "\(err)")
            (status, out, _) = try Self.run("saltedge", ["connections"] + s)
            #expect(out.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
            (status, _, _) = try Self.run("saltedge", ["frobnicate"] + s)
            #expect(status == 2)
            try await server.stop()
        }

        /// Over http to loopback, and over https with `--ca-file` and the pins of CM's signed
        /// certificate list enforced by mfa's own transport.
        @Test(arguments: [false, true]) func cmFromAShell(https: Bool) async throws {
            let identity = https ? try TestTrust.identity() : nil
            let caFile = try identity.map(TestTrust.caFile)
            defer { if let caFile { try? FileManager.default.removeItem(atPath: caFile) } }
            let cm = try CMStandIn(listKey: TestKeys.cmList)
            if let identity { await cm.setPins([(identity.certificateSHA256Hex, identity.spkiSHA256Base64)]) }
            let server = RestartableServer()
            let url = try await server.start(port: 0, saltEdge: try SaltEdgeStandIn(providerKey: TestKeys.saltEdgeProvider), cm: cm, tls: identity)
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mfa-cm-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let keyFile = directory + "/list-key.der"
            try Data(await cm.listPublicKeyDER).write(to: URL(fileURLWithPath: keyFile))
            let s = ["--store", directory + "/store", "--json"] + (caFile.map { ["--ca-file", $0] } ?? [])

            var (status, out, err) = try Self.run("cm", ["configure", "--base-url", url + "/cm", "--list-key-file", keyFile, "--allow-http-loopback"] + s)
            #expect(status == 0, "\(err)")
            (status, out, err) = try Self.run("cm", ["register", "--phone", "+31601234567"] + s)
            #expect(status == 0, "\(err)")
            let deviceID = try #require((try Self.json(out) as? [String: Any])?["deviceId"] as? String)
            let code = try #require(try await CMEndToEndTests.admin(url, "sms", ["device_id": deviceID])["code"] as? String)
            (status, out, err) = try MFAPowerAuthCommandTests.run(["register"] + s, input: code + "\n", family: "cm")
            #expect((try Self.json(out) as? [String: Any])?["registrationStatus"] as? String == "verified", "\(err)")

            let environment = try await CMEndToEndTests.admin(url, "environment", ["name": "Shop"])
            let environmentID = try #require(environment["environment_id"] as? String)
            (status, out, err) = try MFAPowerAuthCommandTests.run(["environment", "add"] + s, input: try #require(environment["qr_code"] as? String) + "\n", family: "cm")
            #expect(status == 0 && out.contains("Shop"), "\(err)")

            let watcher = try Watcher(["cm", "requests", "--watch", "--interval", "0.2"] + s)
            let first = await watcher.line()
            #expect(first == "[]")
            let instant = try #require(try await CMEndToEndTests.admin(url, "request", ["environment_id": environmentID, "device_id": deviceID])["auth_id"] as? String)
            let next = await watcher.line()
            let update = try #require(next)
            let seen = try #require(try Self.json(update) as? [[String: Any]])
            #expect(seen.map { $0["id"] as? String } == [instant] && seen[0]["type"] as? String == "instant")
            (status, _, err) = try Self.run("cm", ["approve", instant] + s)
            #expect(status == 0, "\(err)")
            #expect(try await CMEndToEndTests.admin(url, "request/status", ["auth_id": instant])["auth_status"] as? String == "approved")

            let otp = try await CMEndToEndTests.admin(url, "request", ["environment_id": environmentID, "device_id": deviceID, "auth_type": "otp"])
            (status, out, _) = try Self.run("cm", ["requests"] + s)
            let shown = try #require((try Self.json(out) as? [[String: Any]])?.first)
            #expect(shown["type"] as? String == "otp" && shown["pin"] as? String == otp["pin"] as? String)
            (status, _, _) = try Self.run("cm", ["deny", try #require(otp["auth_id"] as? String)] + s)
            #expect(status == 2, "an OTP request is never answered")

            (status, _, err) = try Self.run("cm", ["environment", "remove", environmentID] + s)
            #expect(status == 0, "\(err)")
            (status, out, _) = try Self.run("cm", ["environment", "list"] + s)
            #expect(out.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
            try await server.stop()
            (status, _, _) = try Self.run("cm", ["status"] + s)
            #expect(status == 3, "a server that is gone")
        }
    }
}
