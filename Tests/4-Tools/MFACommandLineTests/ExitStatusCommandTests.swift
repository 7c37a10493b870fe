// The exit statuses a script relies on, run in process: malformed input is a usage error (2)
// even when it reaches a parser below the command model (an activation code, a hex hash, an
// instance name that would name records outside the store); a well-formed command the local
// state cannot serve — nothing configured, no activation, no such connection or user — is
// the wrong state (4), not a usage error and not a transport failure.

import ClientTestSupport
import Foundation
import MFACommandLine
import PowerAuth
import PowerAuthServer
import ProtocolSupport
import Testing
import mfa

@Suite struct ExitStatusCommandTests {
    /// Runs `arguments` with `--json` and returns the status and the error object's code.
    static func run(_ command: InProcessCommand, _ arguments: [String]) async -> (status: Int32, code: String?, printed: [String]) {
        let (status, printed) = await command.run(arguments + ["--json"])
        let error = InProcessCommand.object(printed)?["error"] as? [String: Any]
        return (status, error?["code"] as? String, printed)
    }

    /// A URL the policy refuses is one code (`urlRefused`) and one status (usage) in every
    /// family, and only plain http to this machine, which the opt-out would accept, names it.
    @Test func aRefusedURLIsOneCodeInEveryFamilyAndOnlyLoopbackNamesTheOptOut() async throws {
        let command = try InProcessCommand()
        defer { command.cleanUp() }
        let backEnd = try PowerAuthTestBackEnd.loopback()
        let configuration = try backEnd.application.clientConfiguration(baseURL: "https://pa.example.com").configurationString
        let configurationFile = try command.secretFile("configuration", configuration)
        #expect(await Self.run(command, ["saltedge", "configure"]).status == ExitStatus.ok.rawValue)
        for (url, namesOptOut) in [("http://127.0.0.1:9/api", true), ("http://api.example.com/api", false)] {
            let attempts = [["powerauth", "configure", "--config-string-file", configurationFile, "--base-url", url],
                            ["cm", "configure", "--base-url", url],
                            ["mpin", "configure", "--base-url", url, "--client-id", "client"],
                            ["saltedge", "connect", "authenticator://saltedge.com/connect?configuration=" + url + "/configuration"]]
            for arguments in attempts {
                let result = await Self.run(command, arguments)
                #expect(result.status == ExitStatus.usage.rawValue && result.code == "urlRefused", "\(arguments): \(result.printed)")
                #expect(result.printed.joined().contains("--allow-http-loopback") == namesOptOut, "\(arguments): \(result.printed)")
                #expect(result.printed.joined().components(separatedBy: "is refused by the URL policy").count == 2,
                        "the refusal is said once: \(result.printed)")
            }
        }
    }

    @Test func malformedInputBelowTheCommandModelIsAUsageError() async throws {
        let command = try InProcessCommand()
        defer { command.cleanUp() }
        for instance in ["../../etc", "a/b", "", ".hidden", String(repeating: "x", count: 65), "tab\there"] {
            let result = await Self.run(command, ["powerauth", "status", "--instance", instance])
            #expect(result.status == ExitStatus.usage.rawValue, "--instance \(instance): \(result.printed)")
        }
        #expect(await Self.run(command, ["powerauth", "status", "--instance", "work-2_b"]).status == ExitStatus.ok.rawValue)

        let backEnd = try PowerAuthTestBackEnd.loopback()
        let configuration = try backEnd.application.clientConfiguration(baseURL: "https://pa.example.com").configurationString
        let configurationFile = try command.secretFile("configuration", configuration)
        #expect(await Self.run(command, ["powerauth", "configure", "--config-string-file", configurationFile, "--base-url", "https://pa.example.com"]).status == 0)
        for code in ["zz", "AAAAA-AAAAA-AAAAA", "AAAAA-AAAAA-AAAAA-AAAA1", ""] {
            let file = try command.secretFile("code", code)
            let result = await Self.run(command, ["powerauth", "activate", "--code-file", file])
            #expect(result.status == ExitStatus.usage.rawValue, "code \(code): \(result.printed)")
            #expect(code.count < 3 || !result.printed.joined().contains(code), "the code is repeated: \(result.printed)")
        }
        // Checked before the (unconfigured) backend is asked anything.
        for hash in ["zz", "abc", "0x00"] {
            let result = await Self.run(command, ["mpin", "sign", "alice@example.com", "--hash", hash])
            #expect(result.status == ExitStatus.usage.rawValue, "--hash \(hash): \(result.printed)")
        }
    }

    @Test func aCommandTheLocalStateCannotServeIsTheWrongState() async throws {
        let command = try InProcessCommand()
        defer { command.cleanUp() }
        let unconfigured: [[String]] = [
            ["powerauth", "sign", "--method", "POST", "--uri-id", "/x", "--factors", "possession"],
            ["cm", "requests"],
            ["mpin", "users"],
            ["mpin", "remove", "alice@example.com"],
            ["saltedge", "authorizations"],
        ]
        for arguments in unconfigured {
            let result = await Self.run(command, arguments)
            #expect(result.status == ExitStatus.wrongState.rawValue, "\(arguments): \(result.printed)")
        }
        // Configured, not activated: the SDK's missing activation is the same status.
        let backEnd = try PowerAuthTestBackEnd.loopback()
        let configuration = try backEnd.application.clientConfiguration(baseURL: "https://pa.example.com").configurationString
        let configurationFile = try command.secretFile("configuration", configuration)
        #expect(await Self.run(command, ["powerauth", "configure", "--config-string-file", configurationFile, "--base-url", "https://pa.example.com"]).status == 0)
        let result = await Self.run(command, ["powerauth", "sign", "--method", "POST", "--uri-id", "/x", "--factors", "possession"])
        #expect(result.status == ExitStatus.wrongState.rawValue, "\(result.printed)")
        // Still a usage error: a typo is not a state.
        #expect(await command.run(["powerauth", "sign", "--metod", "POST"]).status == ExitStatus.usage.rawValue)
    }
}

@Suite struct MPinConfigureCommandTests {
    /// docs/protocols/mpin.md §7: a platform that refuses the client settings without X-MIRACL-CID (406) makes
    /// `configure` name the missing `--client-id`.
    @Test func aRefusalWithoutAClientIDNamesTheOption() async throws {
        let command = try InProcessCommand()
        defer { command.cleanUp() }
        let server = try LoopbackHTTPServer { request in
            guard request.header("X-MIRACL-CID") == "project-1" else {
                return HTTPResponse(status: 406, body: Array("Cannot parse application for User-Agent".utf8))
            }
            return HTTPResponse(status: 200, body: Array(#"{"registerURL":"/rps/user"}"#.utf8))
        }
        defer { server.stop() }
        let (status, printed) = await command.run(["mpin", "configure", "--base-url", server.baseURL, "--allow-http-loopback"])
        #expect(status == ExitStatus.usage.rawValue && printed.joined().contains("--client-id"), "\(printed)")
    }
}

@Suite struct StatusCreatesNothingTests {
    /// Every family's `status` on a store directory that does not exist: "not configured"
    /// (exit 0), and no directory appears (a mistyped `--store` leaves no empty store).
    @Test func statusOfAnAbsentStoreIsNotConfiguredAndCreatesNoStore() async throws {
        let command = try InProcessCommand()
        defer { command.cleanUp() }
        for family in ["powerauth", "saltedge", "cm", "mpin"] {
            let (status, printed) = await command.run([family, "status", "--json"])
            #expect(status == 0 && InProcessCommand.object(printed)?["configured"] as? Bool == false, "\(family): \(printed)")
            #expect(!FileManager.default.fileExists(atPath: command.store), "\(family) status created the store")
        }
    }
}
