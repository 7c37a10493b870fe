// `mfa powerauth call` in process against a PowerAuth back end on 127.0.0.1 (PowerAuthServer
// behind a real HTTP socket): `--method GET` with repeated `--query` is signed over the canonical
// query the server recomputes from what arrived (docs/protocols/powerauth.md §7.2), the answer's
// `responseObject` is printed as a JSON object, and a token call asks for no password
// (docs/protocols/powerauth.md §11.3: standard input here is empty, so a password prompt would fail the call).

import ClientTestSupport
import CryptoPrimitives
import Foundation
import PowerAuth
import PowerAuthServer
import ProtocolSupport
import Testing
import mfa

extension PowerAuthTestBackEnd {
    /// The shared back end for `mfa` over a loopback socket: its own application, the machine's
    /// clock (mfa's client reads the real time), activation id `act-cli`.
    static func loopback() throws -> PowerAuthTestBackEnd {
        var random = SeededRandomSource(seed: 0xA99)
        return try PowerAuthTestBackEnd(application: try PowerAuthServer.Application(using: &random), activationID: "act-cli", seed: 0xCA11,
                                        clock: .system)
    }
}

@Suite struct PowerAuthCallCommandTests {
    /// A configured, activated instance against a fresh back end.
    static func activated() async throws -> (InProcessCommand, PowerAuthTestBackEnd, LoopbackHTTPServer) {
        let command = try InProcessCommand()
        let backEnd = try PowerAuthTestBackEnd.loopback()
        let server = try LoopbackHTTPServer { backEnd.answer($0) }
        let configuration = try backEnd.application.clientConfiguration(baseURL: server.baseURL).configurationString
        var (status, printed) = await command.run(["powerauth", "configure", "--config-string-file", try command.secretFile("configuration", configuration), "--base-url", server.baseURL,
                                                   "--protocol", "3.2", "--allow-http-loopback"])
        #expect(status == 0, "\(printed)")
        let code = try command.secretFile("code", try backEnd.activationCode())
        let password = try command.secretFile("password", "1234")
        (status, printed) = await command.run(["powerauth", "activate", "--code-file", code, "--password-file", password, "--json"])
        #expect(status == 0, "\(printed)")
        return (command, backEnd, server)
    }

    @Test func aSignedGetCarriesItsQueryAndTheSignatureCoversItsCanonicalForm() async throws {
        let (command, backEnd, server) = try await Self.activated()
        defer { server.stop(); command.cleanUp() }
        // Out of order and with characters that need encoding: the SDK sorts and encodes for the
        // signature, the server recomputes the canonical form from what arrived.
        let (status, printed) = await command.run(["powerauth", "call", "--method", "GET", "--path", "/api/items", "--uri-id", "/api/items",
                                                   "--query", "to=alice smith", "--query", "amount=10.00", "--query", "note=a&b=c",
                                                   "--factors", "possession", "--json"])
        #expect(status == 0, "\(printed)")
        #expect(backEnd.calls.map(\.method) == ["GET"] && backEnd.calls.allSatisfy(\.valid), "\(backEnd.calls)")
        // The server's object nested as a JSON object, not a string.
        let answer = try #require(InProcessCommand.object(printed)?["responseObject"] as? [String: Any], "\(printed)")
        #expect((answer["query"] as? [String: Any])?["to"] as? String == "alice smith" && answer["count"] as? Int == 2, "\(answer)")
    }

    @Test func aTokenCallAsksForNoPasswordAndCreatesNoToken() async throws {
        let (command, backEnd, server) = try await Self.activated()
        defer { server.stop(); command.cleanUp() }
        // A token that was never created is the wrong state: a mistyped name makes no new one.
        var (status, printed) = await command.run(["powerauth", "call", "--path", "/api/hello", "--token", "cli", "--json"])
        #expect(status == ExitStatus.wrongState.rawValue, "\(printed)")
        #expect(backEnd.calls.isEmpty)
        // Created on request (possession only: no password is read), then used with none.
        (status, printed) = await command.run(["powerauth", "token", "create", "cli", "--factors", "possession", "--json"])
        #expect(status == 0, "\(printed)")
        (status, printed) = await command.run(["powerauth", "call", "--path", "/api/hello", "--token", "cli", "--json"])
        #expect(status == 0, "\(printed)")
        #expect((InProcessCommand.object(printed)?["responseObject"] as? [String: Any])?["greeting"] as? String == "hi", "\(printed)")
        (status, printed) = await command.run(["powerauth", "call", "--method", "GET", "--path", "/api/hello", "--token", "cli", "--json"])
        #expect(status == 0, "\(printed)")
        #expect(backEnd.calls.map(\.method) == ["POST", "GET"] && backEnd.calls.allSatisfy(\.valid), "\(backEnd.calls)")
    }

    @Test func statusReportsTheLocalStateAsOneJSONObject() async throws {
        let command = try InProcessCommand()
        defer { command.cleanUp() }
        // Not configured: a state, not an error.
        let (status, printed) = await command.run(["powerauth", "status", "--json"])
        #expect(status == 0, "\(printed)")
        let object = try #require(InProcessCommand.object(printed), "\(printed)")
        #expect(object["configured"] as? Bool == false && object["activated"] as? Bool == false && object["instance"] as? String == "default")

        let (activatedCommand, _, server) = try await Self.activated()
        defer { server.stop(); activatedCommand.cleanUp() }
        let (activatedStatus, lines) = await activatedCommand.run(["powerauth", "status", "--json"])
        let activated = try #require(InProcessCommand.object(lines), "\(lines)")
        #expect(activatedStatus == 0 && activated["configured"] as? Bool == true && activated["activationId"] as? String == "act-cli"
                && activated["allowHTTPLoopback"] as? Bool == true && activated["protocol"] as? String == "3.2", "\(activated)")
    }

    /// A base URL with `user:password@` is refused at `configure` (RFC 9110 §4.2.4) without
    /// repeating the password; a plain-http one names the opt-out that would allow it.
    @Test func configureRefusesAPasswordInTheBaseURLAndNamesTheLoopbackOptOut() async throws {
        let command = try InProcessCommand()
        defer { command.cleanUp() }
        let backEnd = try PowerAuthTestBackEnd.loopback()
        let configuration = try backEnd.application.clientConfiguration(baseURL: "https://pa.example.com").configurationString
        var (status, printed) = await command.run(["powerauth", "configure", "--config-string-file", try command.secretFile("configuration", configuration),
                                                   "--base-url", "https://pa:s3cret@pa.example.com", "--json"])
        #expect(status == ExitStatus.usage.rawValue, "\(printed)")
        #expect(!printed.joined().contains("s3cret"), "\(printed)")
        #expect(printed.joined().contains("user:password@"), "\(printed)")
        (status, printed) = await command.run(["powerauth", "configure", "--config-string-file", try command.secretFile("configuration", configuration), "--base-url", "http://127.0.0.1:9"])
        #expect(status == ExitStatus.usage.rawValue, "\(printed)")
        #expect(printed.joined().contains("--allow-http-loopback"), "\(printed)")
        // Nothing was stored by either refusal.
        (status, printed) = await command.run(["powerauth", "status", "--json"])
        #expect(InProcessCommand.object(printed)?["configured"] as? Bool == false, "\(printed)")
    }

    /// Six `call`s at once on one activation: each signs the next counter and the server must
    /// see them in that order, or the late ones are refused and counted as failed attempts
    /// (docs/protocols/powerauth.md §7.1). The first to arrive is held back on the server; none may overtake it.
    @Test func concurrentSignedCallsOnOneActivationCostNoFailedAttempt() async throws {
        let (command, backEnd, server) = try await Self.activated()
        defer { server.stop(); command.cleanUp() }
        backEnd.holdFirstArrival(at: "api/items", for: 0.3)
        let statuses = await withTaskGroup(of: Int32.self) { group in
            for index in 0..<6 {
                group.addTask {
                    await command.run(["powerauth", "call", "--method", "GET", "--path", "/api/items", "--uri-id", "/api/items",
                                       "--query", "n=\(index)", "--factors", "possession", "--json"]).status
                }
            }
            var all: [Int32] = []
            for await status in group { all.append(status) }
            return all
        }
        #expect(statuses == Array(repeating: 0, count: 6), "\(statuses)")
        #expect(backEnd.calls.count == 6 && backEnd.calls.allSatisfy(\.valid), "\(backEnd.calls)")
        #expect(backEnd.heldArrivals == 1, "the first call was not held back, so nothing could overtake it")
    }

    /// A refusal carries the server's code and message — text and `--json` — so a script tells
    /// a wrong password from a blocked activation; no Swift source location reaches the user.
    @Test func aRefusalShowsTheServersReason() async throws {
        let (command, _, server) = try await Self.activated()
        defer { server.stop(); command.cleanUp() }
        let wrong = try command.secretFile("wrong", "0000")
        let arguments = ["powerauth", "call", "--method", "GET", "--path", "/api/items", "--uri-id", "/api/items",
                         "--factors", "possession_knowledge", "--password-file", wrong]
        var (status, printed) = await command.run(arguments + ["--json"])
        #expect(status == ExitStatus.refused.rawValue, "\(printed)")
        let error = InProcessCommand.object(printed)?["error"] as? [String: Any]
        #expect(error?["serverCode"] as? String == "ERR_AUTHENTICATION" && error?["serverMessage"] as? String == "signature not valid for act-cli"
                && error?["httpStatus"] as? Int == 401, "\(printed)")
        (status, printed) = await command.run(arguments)
        #expect(status == ExitStatus.refused.rawValue && printed.joined().contains("signature not valid for act-cli"), "\(printed)")
        #expect(!printed.joined().contains(".swift:"), "\(printed)")
    }

    /// docs/protocols/powerauth.md §6.4: a server ahead of this device saw signatures made elsewhere. The store
    /// as it was before one signed call comes back (a copy that never saw the call); `status`
    /// catches up and says another copy signed, in text and JSON.
    @Test func statusReportsSignaturesAnotherCopyMade() async throws {
        let (command, _, server) = try await Self.activated()
        defer { server.stop(); command.cleanUp() }
        let earlier = command.directory + "/earlier"
        try FileManager.default.copyItem(atPath: command.store, toPath: earlier)
        var (status, printed) = await command.run(["powerauth", "call", "--method", "GET", "--path", "/api/items", "--uri-id", "/api/items",
                                                   "--factors", "possession", "--json"])
        #expect(status == 0, "\(printed)")
        try FileManager.default.removeItem(atPath: command.store)
        try FileManager.default.moveItem(atPath: earlier, toPath: command.store)
        (status, printed) = await command.run(["powerauth", "status", "--json"])
        let object = InProcessCommand.object(printed)
        #expect(status == 0 && object?["signedElsewhere"] as? Int == 1 && object?["possessionKeyInToken"] as? Bool == false, "\(printed)")
        // Caught up: the next status finds nothing new.
        (status, printed) = await command.run(["powerauth", "status"])
        #expect(status == 0 && !printed.joined().contains("never made"), "\(printed)")
    }
}
