// The vault verbs of `mfa powerauth` in process against a PowerAuth back end on 127.0.0.1
// (PowerAuthServer behind a real HTTP socket, protocol 3.2): each result is checked against what
// the server side holds — the encryption key it derives from its own vault key, the device public
// key it received at activation, its offline verification, its biometry key, the recovery codes it
// issued — and a wrong password is the server's refusal (exit 1, one JSON error under `--json`,
// checked through the built `mfa` executable, whose exit status and standard output are real).

import ClientTestSupport
import CryptoPrimitives
import Foundation
import PowerAuth
import PowerAuthSDK
import PowerAuthServer
import ProtocolSupport
import Testing
import TestSupport
import MFACommandLine
import mfa

extension PowerAuthTestBackEnd {
    /// The shared back end with recovery codes (a bound code in the activation answer and a
    /// postcard to confirm), for `mfa` over a loopback socket on the machine's clock.
    static func vault() throws -> PowerAuthTestBackEnd {
        var random = SeededRandomSource(seed: 0x7A18)
        return try PowerAuthTestBackEnd(application: try PowerAuthServer.Application(using: &random), activationID: "act-vault", seed: 0x7A17,
                                        clock: .system, recoveryCodes: true)
    }

    /// The device public key the server received at activation, as a signing key.
    func devicePublicKey() throws -> P256.Signing.PublicKey {
        let key = try #require(activation?.devicePublicKey)
        return try P256.Signing.PublicKey(x963Representation: key.x963Representation)
    }
}

@Suite struct PowerAuthVaultCommandTests {
    /// The `mfa` executable of this build (beside the test bundle: debug or release alike).
    static let executable = BuiltProducts.executable("mfa")

    /// An instance configured for a fresh back end on 127.0.0.1 (protocol 3.2), not activated,
    /// with the secret files `password` (1234) and `wrong` (9999) in its directory;
    /// `afterAnswer` runs on the server's thread after each answer is made and before it is
    /// written.
    static func configured(afterAnswer: @escaping @Sendable (HTTPRequest) -> Void = { _ in })
        async throws -> (InProcessCommand, PowerAuthTestBackEnd, LoopbackHTTPServer) {
        let command = try InProcessCommand()
        let backEnd = try PowerAuthTestBackEnd.vault()
        let server = try LoopbackHTTPServer { request in
            let response = backEnd.answer(request)
            afterAnswer(request)
            return response
        }
        let configuration = try backEnd.application.clientConfiguration(baseURL: server.baseURL).configurationString
        let (status, printed) = await command.run(["powerauth", "configure", "--config-string-file", try command.secretFile("configuration", configuration), "--base-url", server.baseURL,
                                                   "--protocol", "3.2", "--allow-http-loopback"])
        #expect(status == 0, "\(printed)")
        _ = try command.secretFile("password", "1234")
        _ = try command.secretFile("wrong", "9999")
        return (command, backEnd, server)
    }

    /// A ``configured(afterAnswer:)`` instance activated with the password `1234`.
    static func activated(afterAnswer: @escaping @Sendable (HTTPRequest) -> Void = { _ in })
        async throws -> (InProcessCommand, PowerAuthTestBackEnd, LoopbackHTTPServer) {
        let (command, backEnd, server) = try await configured(afterAnswer: afterAnswer)
        let code = try command.secretFile("code", try backEnd.activationCode())
        let (status, printed) = await command.run(["powerauth", "activate", "--code-file", code, "--password-file", command.directory + "/password", "--json"])
        #expect(status == 0 && InProcessCommand.object(printed)?["recoveryData"] as? Bool == true, "\(printed)")
        return (command, backEnd, server)
    }

    /// Runs the built `mfa` with `arguments`: exit status and standard output.
    static func mfa(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func fetchEncryptionKeyIsTheServersKeyAndIsPrintedOnlyWithReveal() async throws {
        let (command, backEnd, server) = try await Self.activated()
        defer { server.stop(); command.cleanUp() }
        let password = command.directory + "/password"
        var (status, printed) = await command.run(["powerauth", "fetch-encryption-key", "--index", "7", "--password-file", password, "--json"])
        var object = try #require(InProcessCommand.object(printed), "\(printed)")
        #expect(status == 0 && object["index"] as? Int == 7 && object["revealed"] as? Bool == false && object["key"] == nil, "\(object)")
        (status, printed) = await command.run(["powerauth", "fetch-encryption-key", "--index", "7", "--reveal", "--password-file", password, "--json"])
        object = try #require(InProcessCommand.object(printed), "\(printed)")
        let key = try #require((object["key"] as? String).flatMap { Data(base64Encoded: $0) }, "\(object)")
        #expect(status == 0 && SymmetricKey(data: Array(key)) == backEnd.encryptionKey(index: 7))
        #expect(SymmetricKey(data: Array(key)) != backEnd.encryptionKey(index: 8))
    }

    @Test func theDeviceKeySignatureVerifiesWithTheDevicePublicKeyTheServerHolds() async throws {
        let (command, backEnd, server) = try await Self.activated()
        defer { server.stop(); command.cleanUp() }
        let data = Array("pay 10.00 EUR to alice".utf8)
        let file = command.directory + "/data"
        #expect(FileManager.default.createFile(atPath: file, contents: Data(data)))
        for source in [["--data-file", file], ["--data", "pay 10.00 EUR to alice"]] {
            let (status, printed) = await command.run(["powerauth", "sign-with-device-key"] + source
                                                      + ["--password-file", command.directory + "/password", "--json"])
            let signature = try #require((InProcessCommand.object(printed)?["signature"] as? String).flatMap { Data(base64Encoded: $0) }, "\(printed)")
            let device = try backEnd.devicePublicKey()
            #expect(status == 0 && PowerAuth.isValidServerSignature(Array(signature), for: data, publicKey: device))
            #expect(!PowerAuth.isValidServerSignature(Array(signature), for: data + [0], publicKey: device))
        }
    }

    @Test func theOfflineSignatureIsAcceptedByTheServersOfflineVerification() async throws {
        let (command, backEnd, server) = try await Self.activated()
        defer { server.stop(); command.cleanUp() }
        let nonce = Data((0..<16).map { UInt8($0 * 7) }).base64EncodedString(), data = "5ff1b1ed-a3cc-45a3-8ab0-ed60950312b6&Q1&A1*A100CZK"
        var (status, printed) = await command.run(["powerauth", "offline-signature", "--data", data, "--nonce", nonce,
                                                   "--password-file", command.directory + "/password", "--json"])
        var code = try #require(InProcessCommand.object(printed)?["signature"] as? String, "\(printed)")
        #expect(status == 0 && code.count == 17, "\(code)")
        #expect(backEnd.verifyOffline(code, factors: .possessionKnowledge, nonce: nonce, data: Array(data.utf8)) == .valid(steps: 0))
        // Nothing is sent: a wrong password yields digits the server refuses (docs/protocols/powerauth.md §7.6).
        (status, printed) = await command.run(["powerauth", "offline-signature", "--data", data, "--nonce", nonce,
                                               "--password-file", command.directory + "/wrong", "--json"])
        code = try #require(InProcessCommand.object(printed)?["signature"] as? String, "\(printed)")
        #expect(backEnd.verifyOffline(code, factors: .possessionKnowledge, nonce: nonce, data: Array(data.utf8)) == .invalid)
    }

    @Test func biometryAddLetsTheKeySignAndRemoveForgetsIt() async throws {
        let (command, backEnd, server) = try await Self.activated()
        defer { server.stop(); command.cleanUp() }
        let hex = "00112233445566778899aabbccddeeff"
        let keyFile = try command.secretFile("biometry", hex + "\n")
        var (status, printed) = await command.run(["powerauth", "biometry", "add", "--biometry-key-file", keyFile,
                                                   "--password-file", command.directory + "/password", "--json"])
        #expect(status == 0 && InProcessCommand.object(printed)?["biometry"] as? Bool == true, "\(printed)")
        var options = CommandOptions()
        options.values["--store"] = command.store
        let configured = try PowerAuthCommand.configuredClient(options)
        #expect(try await configured.client.hasBiometryFactor())
        // The key from the file signs the biometry factor the server checks with its own key.
        let biometry = SymmetricKey(data: (0..<16).map { UInt8($0 * 0x11) })
        let header = try await configured.client.requestSignature(method: "POST", uriID: "/x", body: [], factors: .possessionBiometry,
                                                                  authentication: Authentication(possessionUnlockKey: configured.possession,
                                                                                                 biometryUnlockKey: biometry))
        #expect(backEnd.verifies(header: header.value, method: "POST", uriID: "/x", body: []))

        (status, printed) = await command.run(["powerauth", "biometry", "remove", "--json"])
        #expect(status == 0 && InProcessCommand.object(printed)?["biometry"] as? Bool == false, "\(printed)")
        #expect(try await !PowerAuthCommand.configuredClient(options).client.hasBiometryFactor())
        // A key that is not 32 hex digits is a usage error, before the vault is unlocked.
        let short = try command.secretFile("short", "0011")
        (status, printed) = await command.run(["powerauth", "biometry", "add", "--biometry-key-file", short,
                                               "--password-file", command.directory + "/password"])
        #expect(status == 2, "\(printed)")
    }

    @Test func recoveryShowOpensWhatTheServerIssuedAndRevealsItOnlyWhenAsked() async throws {
        let (command, backEnd, server) = try await Self.activated()
        defer { server.stop(); command.cleanUp() }
        let password = command.directory + "/password"
        var (status, printed) = await command.run(["powerauth", "recovery", "show", "--password-file", password, "--json"])
        var object = try #require(InProcessCommand.object(printed), "\(printed)")
        #expect(status == 0 && object["recoveryData"] as? Bool == true && object["recoveryCode"] == nil && object["puk"] == nil, "\(object)")
        (status, printed) = await command.run(["powerauth", "recovery", "show", "--reveal", "--password-file", password, "--json"])
        object = try #require(InProcessCommand.object(printed), "\(printed)")
        let bound = try #require(backEnd.boundRecoveryCode)
        let puk = try #require(bound.currentPUK)
        #expect(status == 0 && object["recoveryCode"] as? String == bound.code
                && object["puk"] as? String == String(decoding: puk.unsafeExposedBytes, as: UTF8.self), "\(object)")
    }

    @Test func recoveryConfirmConfirmsAPostcardOnceThenSaysAlreadyConfirmed() async throws {
        let (command, backEnd, server) = try await Self.activated()
        defer { server.stop(); command.cleanUp() }
        let postcard = try #require(backEnd.postcardCode)
        let code = try command.secretFile("postcard", "R:" + postcard)
        #expect(backEnd.state(ofRecoveryCode: postcard) == .created)
        for already in [false, true] {
            let (status, printed) = await command.run(["powerauth", "recovery", "confirm", "--code-file", code,
                                                       "--password-file", command.directory + "/password", "--json"])
            #expect(status == 0 && InProcessCommand.object(printed)?["alreadyConfirmed"] as? Bool == already, "\(printed)")
            #expect(backEnd.state(ofRecoveryCode: postcard) == .active)
        }
    }

    static let passwordVerbs: [[String]] = [["fetch-encryption-key", "--index", "1"], ["sign-with-device-key", "--data", "x"],
                                            ["biometry", "add", "--biometry-key-file", "KEY"], ["recovery", "show"],
                                            ["recovery", "confirm", "--code-file", "CODE"]]

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: executable), "the mfa executable is not built"), arguments: passwordVerbs)
    func aWrongPasswordIsTheServersRefusalWithExitStatus1AndOneJSONError(_ verb: [String]) async throws {
        let (command, backEnd, server) = try await Self.activated()
        defer { server.stop(); command.cleanUp() }
        let key = try command.secretFile("biometry", "00112233445566778899aabbccddeeff")
        let postcard = try #require(backEnd.postcardCode)
        let code = try command.secretFile("postcard", postcard)
        let arguments = ["powerauth"] + verb.map { $0 == "KEY" ? key : $0 == "CODE" ? code : $0 }
            + ["--password-file", command.directory + "/wrong", "--json"]
        let (status, printed) = await command.run(arguments)
        #expect(status == 1, "\(printed)")
        let (exit, output) = try Self.mfa(arguments + ["--store", command.store])
        let error = try #require((try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])?["error"] as? [String: Any], "\(output)")
        #expect(exit == 1 && error["exitStatus"] as? Int == 1 && error["code"] as? String == "authenticationFailed"
                && error["httpStatus"] as? Int == 401 && error["serverCode"] as? String == "ERR_AUTHENTICATION", "\(error)")
        #expect(backEnd.state(ofRecoveryCode: postcard) == .created)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: executable), "the mfa executable is not built"),
          arguments: [["fetch-encryption-key"], ["sign-with-device-key"], ["offline-signature"], ["biometry"], ["biometry", "add"],
                      ["biometry", "remove"], ["recovery"], ["recovery", "show"], ["recovery", "confirm"]])
    func everyNewVerbHasHelpThatExitsZero(_ verb: [String]) throws {
        let (status, output) = try Self.mfa(["powerauth"] + verb + ["--help"])
        #expect(status == 0 && output.hasPrefix("usage: mfa powerauth " + verb.joined(separator: " ")), "\(output)")
    }

    @Test func usageErrorsComeBeforeAnythingIsSent() async throws {
        let (command, backEnd, server) = try await Self.activated()
        defer { server.stop(); command.cleanUp() }
        let password = command.directory + "/password"
        let before = backEnd.requests.count
        for arguments in [["fetch-encryption-key", "--index", "-1"], ["fetch-encryption-key", "--index", "1e3"], ["fetch-encryption-key"],
                          ["sign-with-device-key"], ["sign-with-device-key", "--data", "x", "--data-file", password],
                          ["offline-signature", "--data", "x"], ["offline-signature", "--nonce", "AAAAAAAAAAAAAAAAAAAAAA=="]] {
            let (status, printed) = await command.run(["powerauth"] + arguments + ["--password-file", password])
            #expect(status == 2, "\(arguments): \(printed)")
        }
        #expect(backEnd.requests.count == before, "a usage error sent a request")
    }
}
