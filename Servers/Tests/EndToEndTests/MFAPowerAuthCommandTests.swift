// `mfa powerauth` driven as a subprocess against mfa-server over 127.0.0.1:
// configure → activate (password on a non-terminal
// stdin) → status --json → a signed, encrypted call → a token call → a refused password change
// (exit 1, nothing changed) → a good one → remove; a usage error exits 2 and a server that is
// gone exits 3. Results are checked against the server's records, not only the tool's output.
//
// The `mfa` binary is the root package's: `$MFA_BINARY`, else the newer of `../.build/release/mfa`
// and `../.build/debug/mfa` (CI builds the release one before these tests).

import Foundation
import MFAServerCore
import Testing

extension EndToEnd {
    @Suite struct MFAPowerAuthCommandTests {
        static var mfa: String? {
            if let path = ProcessInfo.processInfo.environment["MFA_BINARY"] { return path }
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent()
            let candidates = ["release", "debug"].map { root.appendingPathComponent(".build/\($0)/mfa").path }
                .filter { FileManager.default.isExecutableFile(atPath: $0) }
            func modified(_ path: String) -> Date { (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? .distantPast }
            return candidates.max { modified($0) < modified($1) }
        }

        /// Runs `mfa <family> <arguments>` with `input` on standard input; (exit status, stdout, stderr).
        static func run(_ arguments: [String], input: String = "", family: String = "powerauth") throws -> (Int32, String, String) {
            let child = Process()
            child.executableURL = URL(fileURLWithPath: try #require(mfa, "the root package's mfa is built"))
            child.arguments = [family] + arguments
            let (stdin, stdout, stderr) = (Pipe(), Pipe(), Pipe())
            child.standardInput = stdin
            child.standardOutput = stdout
            child.standardError = stderr
            try child.run()
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
            let out = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let err = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            child.waitUntilExit()
            return (child.terminationStatus, out, err)
        }

        /// The session over http to loopback and over https, trusting the server's root with
        /// `--ca-file` (the package's own TLS, as in the static build).
        @Test(arguments: [false, true]) func aDeviceOwnersSession(https: Bool) async throws {
            let identity = https ? try TestTrust.identity() : nil
            let caFile = try identity.map(TestTrust.caFile)
            defer { if let caFile { try? FileManager.default.removeItem(atPath: caFile) } }
            let store = FileManager.default.temporaryDirectory.appendingPathComponent("mfa-cli-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: store) }
            let body = FileManager.default.temporaryDirectory.appendingPathComponent("mfa-cli-body-\(UUID().uuidString).json").path
            defer { try? FileManager.default.removeItem(atPath: body) }
            try Data(#"{"amount":"10.00","to":"alice"}"#.utf8).write(to: URL(fileURLWithPath: body))
            var activationID = ""
            try await withMFAServer(tls: identity) { url, powerAuth in
                #expect(url.hasPrefix(https ? "https://" : "http://"))
                let configuration = try #require(try await integration(url, "integration/powerauth/application")["configurationString"] as? String)
                let code = try #require(try await integration(url, "integration/powerauth/activation/init")["activationCode"] as? String)
                let s = ["--store", store] + (caFile.map { ["--ca-file", $0] } ?? [])

                var (status, out, err) = try Self.run(["configure", "--config-string", "-", "--base-url", url, "--allow-http-loopback"] + s, input: configuration + "\n")
                #expect(status == 0, "\(err)")
                (status, out, err) = try Self.run(["activate", "--code", "-", "--json"] + s, input: code + "\n1234\n")
                #expect(status == 0, "\(err)")
                let activated = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
                activationID = try #require(activated["activationId"] as? String)
                #expect(await powerAuth.activation(activationID)?.state == .active)

                (status, out, err) = try Self.run(["status", "--json"] + s)
                let state = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
                #expect(status == 0 && state["state"] as? String == "active" && state["failedAttempts"] as? Int == 0, "\(out) \(err)")

                (status, out, err) = try Self.run(["call", "--path", "/app/signed/activation", "--uri-id", "/app/signed", "--encrypt", "activation",
                                                   "--body-file", body] + s, input: "1234\n")
                #expect(status == 0 && out.contains(#""echo":{"amount":"10.00","to":"alice"}"#), "\(out) \(err)")
                (status, out, err) = try Self.run(["token", "create", "cli", "--factors", "possession"] + s)
                #expect(status == 0, "\(err)")
                (status, out, err) = try Self.run(["call", "--path", "/app/token/plain", "--token", "cli", "--body-file", body] + s)
                #expect(status == 0 && out.contains(#""kind":"token/plain""#), "\(out) \(err)")

                let before = try #require(await powerAuth.activation(activationID)).counterIndex
                (status, _, err) = try Self.run(["change-password"] + s, input: "0000\n9999\n")
                #expect(status == 1 && err.contains("ERR_AUTHENTICATION"), "\(err)")
                #expect(await powerAuth.activation(activationID)?.failedAttempts == 1)
                (status, _, err) = try Self.run(["change-password"] + s, input: "1234\n5678\n")
                #expect(status == 0, "\(err)")
                #expect(await powerAuth.activation(activationID)?.failedAttempts == 0)
                // The refused attempt spent a counter the server never accepted; the good one, one step
                // further, is inside the look-ahead window and moves the server past both.
                #expect(try #require(await powerAuth.activation(activationID)).counterIndex == before + 2)

                (status, _, err) = try Self.run(["sign", "--method", "POST"] + s)
                #expect(status == 2 && err.contains("--uri-id"), "\(err)")

                (status, _, err) = try Self.run(["remove"] + s, input: "5678\n")
                #expect(status == 0, "\(err)")
                #expect(await powerAuth.activation(activationID)?.state == .removed)
            }
            // A configuration string that does not parse is a usage error.
            let configured = try Self.run(["configure", "--config-string", "-", "--base-url", "http://127.0.0.1:9", "--instance", "other", "--store", store], input: "x\n")
            #expect(configured.0 == 2)
        }

        /// docs/protocols/powerauth.md §6.4 from a shell: 21 headers computed and never sent put the client past
        /// the look-ahead window; `status` says deadlock (text and --json) and `sign` is refused.
        @Test func aDeadlockedCounterIsReportedAndSigningRefused() async throws {
            let store = FileManager.default.temporaryDirectory.appendingPathComponent("mfa-cli-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: store) }
            try await withMFAServer { url, powerAuth in
                let configuration = try #require(try await integration(url, "integration/powerauth/application")["configurationString"] as? String)
                let code = try #require(try await integration(url, "integration/powerauth/activation/init")["activationCode"] as? String)
                let s = ["--store", store]
                #expect(try Self.run(["configure", "--config-string", "-", "--base-url", url, "--allow-http-loopback"] + s, input: configuration + "\n").0 == 0)
                let (activated, out, err) = try Self.run(["activate", "--code", "-", "--json"] + s, input: code + "\n1234\n")
                #expect(activated == 0, "\(err)")
                let activationID = try #require((try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])?["activationId"] as? String)
                for _ in 0..<21 {
                    #expect(try Self.run(["sign", "--method", "POST", "--uri-id", "/never-sent", "--factors", "possession"] + s).0 == 0)
                }
                var (status, text, _) = try Self.run(["status"] + s)
                #expect(status == 0 && text.hasPrefix("deadlock") && text.contains("remove --local"), "\(text)")
                (status, text, _) = try Self.run(["status", "--json"] + s)
                let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
                #expect(object["state"] as? String == "deadlock" && object["deadlock"] as? Bool == true && object["serverState"] as? String == "active")
                var refusal = ""
                (status, text, refusal) = try Self.run(["sign", "--method", "POST", "--uri-id", "/pay", "--factors", "possession"] + s)
                #expect(status == 1 && refusal.contains("counterDeadlock"), "\(refusal)")
                #expect(await powerAuth.activation(activationID)?.failedAttempts == 0)
            }
        }

        @Test func aServerThatIsGoneExitsThree() async throws {
            let store = FileManager.default.temporaryDirectory.appendingPathComponent("mfa-cli-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: store) }
            var configuration = "", stoppedURL = "", code = ""
            try await withMFAServer { url, _ in
                configuration = try #require(try await integration(url, "integration/powerauth/application")["configurationString"] as? String)
                code = try #require(try await integration(url, "integration/powerauth/activation/init")["activationCode"] as? String)
                stoppedURL = url
            }
            #expect(try Self.run(["configure", "--config-string", "-", "--base-url", stoppedURL, "--allow-http-loopback", "--store", store], input: configuration + "\n").0 == 0)
            let (status, _, err) = try Self.run(["activate", "--code", "-", "--store", store], input: code + "\n1234\n")
            #expect(status == 3 && err.contains("transport"), "\(err)")
        }
    }
}
