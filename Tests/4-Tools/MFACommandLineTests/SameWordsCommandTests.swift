// The same verbs behaving alike, run in process: `configure` stores the loopback opt-out and the
// later verbs use it without being told again; `status --json` is one JSON object of what is
// stored (not configured is a state, exit 0); `remove` forgets a registration; Salt Edge `show`
// waits through `*_processing` (docs/protocols/saltedge-v2.md §9) over real HTTP on 127.0.0.1, within its bound;
// an unknown verb or option stays a usage error (exit 2).

import CryptoPrimitives
import Foundation
import MFACommandLine
import ProtocolSupport
import SaltEdge
import SaltEdgeSDK
import SecureStore
import Testing
import TestSupport
import mfa

@Suite struct SameWordsCommandTests {
    /// Stores a Salt Edge connection whose service is `baseURL` (as `complete` would have).
    static func seedConnection(_ command: InProcessCommand, baseURL: String) throws {
        var options = CommandOptions()
        options.values["--store"] = command.store
        let key = try RSA.Signing.PrivateKey(pemRepresentation: TestKeyMaterial.rsa1024PKCS8PEM)
        let connection = SaltEdge.Connection(id: "333", providerID: "1", scaServiceURL: baseURL, key: SaltEdge.ConnectionKey(privateKey: key),
                                             accessToken: .init(rawRepresentation: SecretBytes("token-333".utf8)),
                                             providerPublicKey: RSA.Encryption.PublicKey(sameKeyAs: key.publicKey))
        try ConnectionRecords(store: try options.store()).save(StoredConnection(connection: connection, name: "Bank", providerName: "Demo Bank", isActive: true))
    }

    /// A pending authorization 44 with a payment, encrypted to the seeded connection's key as a
    /// provider does (docs/protocols/saltedge-v2.md §3.3, §6.6): AES-256-CBC, its key and IV under RSA PKCS #1 v1.5.
    static func pendingItem() throws -> String {
        let plaintext = #"{"title":"Payment","description":{"text":"Pay the shop","payment":{"payee":"Shop","amount":"10.00"},"#
            + #""extra":{"ip":"192.0.2.1"}},"authorization_code":"c0de","created_at":"2026-01-01T00:00:00Z","expires_at":"2099-01-01T00:00:00Z"}"#
        var random = SeededRandomSource(seed: 44)
        let key = try random.bytes(count: 32), iv = try random.bytes(count: 16)
        let recipient = RSA.Encryption.PublicKey(sameKeyAs: try RSA.Signing.PrivateKey(pemRepresentation: TestKeyMaterial.rsa1024PKCS8PEM).publicKey)
        let data = try AES.UnauthenticatedCBC.encrypt(Array(plaintext.utf8), using: SymmetricKey(data: key), iv: iv)
        func base64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }
        return #"{"id":44,"connection_id":333,"status":"pending","key":"\#(base64(try recipient.encrypt(key, padding: .insecurePKCS1v1_5, using: &random)))","#
            + #""iv":"\#(base64(try recipient.encrypt(iv, padding: .insecurePKCS1v1_5, using: &random)))","data":"\#(base64(data))"}"#
    }

    /// A Salt Edge service whose authorization 42 is processed for two fetches, then confirmed,
    /// whose authorization 43 is processed for ever, and whose 44 is pending (the only one listed).
    final class Authorizations: @unchecked Sendable {
        private let lock = NSLock()
        private var fetches: [String] = []
        private let pending: String
        var seen: [String] { lock.withLock { fetches } }

        init() throws { pending = try SameWordsCommandTests.pendingItem() }

        func answer(_ request: HTTPRequest) -> HTTPResponse {
            lock.withLock {
                if request.path == "api/authenticator/v2/authorizations" { return HTTPResponse(status: 200, body: Array(#"{"data":[\#(pending)]}"#.utf8)) }
                let id = String(request.path.split(separator: "/").last ?? "")
                if id == "44" { return HTTPResponse(status: 200, body: Array(#"{"data":\#(pending)}"#.utf8)) }
                fetches.append(id)
                let status = id == "43" || fetches.filter({ $0 == id }).count < 3 ? "confirm_processing" : "confirmed"
                guard request.method == .get, request.path.hasPrefix("api/authenticator/v2/authorizations/"), request.header("Access-Token") == "token-333" else {
                    return HTTPResponse(status: 404, body: Array(#"{"error_class":"AuthorizationNotFound","error_message":"no"}"#.utf8))
                }
                return HTTPResponse(status: 200, body: Array(#"{"data":{"id":\#(id),"connection_id":333,"status":"\#(status)"}}"#.utf8))
            }
        }
    }

    /// Only a verb that creates state creates a missing store, and a configure refused before it
    /// needs the store leaves none either: a mistyped --store leaves nothing behind.
    @Test func aMissingStoreIsReportedNotCreated() async throws {
        let command = try InProcessCommand()
        defer { command.cleanUp() }
        for arguments in [["saltedge", "authorizations"], ["cm", "requests"], ["mpin", "users"], ["powerauth", "token", "create", "t1"],
                          ["cm", "configure", "--base-url", "http://127.0.0.1:9/cm"], ["mpin", "configure"]] {
            let (status, printed) = await command.run(arguments + ["--json"])
            #expect(status == (arguments.contains("configure") ? 2 : 4), "\(arguments): \(printed)")
            #expect(!FileManager.default.fileExists(atPath: command.store), "\(arguments) created the store")
        }
        var (status, printed) = await command.run(["keys", "status", "--json"])
        #expect(status == 0 && InProcessCommand.object(printed)?["exists"] as? Bool == false, "\(printed)")
        (status, printed) = await command.run(["saltedge", "configure"])
        #expect(status == 0 && FileManager.default.fileExists(atPath: command.store), "\(printed)")
    }

    @Test func saltEdgeShowWaitsThroughProcessingWithTheStoredLoopbackOptOut() async throws {
        let command = try InProcessCommand()
        defer { command.cleanUp() }
        let service = try Authorizations()
        let server = try LoopbackHTTPServer { service.answer($0) }
        defer { server.stop() }
        // The opt-out is given once, to configure; `show` is not told again.
        var (status, printed) = await command.run(["saltedge", "configure", "--allow-http-loopback"])
        #expect(status == 0, "\(printed)")
        try Self.seedConnection(command, baseURL: server.baseURL)
        // A bound no loaded CI machine reaches: the test is about the statuses, not the clock.
        (status, printed) = await command.run(["saltedge", "show", "42", "--interval", "0.1", "--timeout", "3600", "--json"])
        #expect(status == 0, "\(printed)")
        let object = try #require(InProcessCommand.object(printed), "\(printed)")
        #expect(object["status"] as? String == "confirmed" && object["id"] as? String == "42" && object["connectionId"] as? String == "333", "\(object)")
        #expect(service.seen == ["42", "42", "42"])

        // Never final: the wait ends at its bound with a failure (exit 3), after a bounded number of fetches.
        let started = Date()
        (status, printed) = await command.run(["saltedge", "show", "43", "--interval", "0.1", "--timeout", "0.5"])
        #expect(status == ExitStatus.transportOrStore.rawValue, "\(printed)")
        #expect(Date().timeIntervalSince(started) < 600 && (1...8).contains(service.seen.filter { $0 == "43" }.count), "\(service.seen)")
    }

    @Test func saltEdgeAuthorizationsNestTheirDescriptionAsJSON() async throws {
        let command = try InProcessCommand()
        defer { command.cleanUp() }
        let service = try Authorizations()
        let server = try LoopbackHTTPServer { service.answer($0) }
        defer { server.stop() }
        _ = await command.run(["saltedge", "configure", "--allow-http-loopback"])
        try Self.seedConnection(command, baseURL: server.baseURL)
        var (status, printed) = await command.run(["saltedge", "authorizations", "--json"])
        #expect(status == 0, "\(printed)")
        let list = try #require(printed.last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [[String: Any]] }, "\(printed)")
        let description = try #require(list.first?["description"] as? [String: Any], "\(list)")
        #expect((description["payment"] as? [String: Any])?["amount"] as? String == "10.00" && description["text"] as? String == "Pay the shop")
        #expect((description["extra"] as? [String: Any])?["ip"] as? String == "192.0.2.1")
        // `show` of a pending one: decrypted, the same object.
        (status, printed) = await command.run(["saltedge", "show", "44", "--json"])
        let shown = try #require(InProcessCommand.object(printed), "\(printed)")
        #expect(status == 0 && shown["status"] as? String == "pending" && shown["title"] as? String == "Payment")
        #expect(((shown["description"] as? [String: Any])?["payment"] as? [String: Any])?["payee"] as? String == "Shop", "\(shown)")
    }

    @Test func saltEdgeStatusAndRemove() async throws {
        let command = try InProcessCommand()
        defer { command.cleanUp() }
        var (status, printed) = await command.run(["saltedge", "status", "--json"])
        #expect(status == 0 && InProcessCommand.object(printed)?["configured"] as? Bool == false, "\(printed)")
        _ = await command.run(["saltedge", "configure", "--allow-http-loopback"])
        try Self.seedConnection(command, baseURL: "http://127.0.0.1:9")
        (status, printed) = await command.run(["saltedge", "status", "--json"])
        let object = try #require(InProcessCommand.object(printed), "\(printed)")
        #expect(status == 0 && object["configured"] as? Bool == true && object["allowHTTPLoopback"] as? Bool == true)
        #expect((object["connections"] as? [[String: Any]])?.map { $0["id"] as? String } == ["333"], "\(object)")
        (status, printed) = await command.run(["saltedge", "remove", "333", "--local", "--json"])
        #expect(status == 0, "\(printed)")
        (_, printed) = await command.run(["saltedge", "status", "--json"])
        #expect((InProcessCommand.object(printed)?["connections"] as? [Any])?.isEmpty == true, "\(printed)")
    }

    @Test func cmStatusIsTheStoredStateAndRemoveForgetsTheDevice() async throws {
        let command = try InProcessCommand()
        defer { command.cleanUp() }
        var (status, printed) = await command.run(["cm", "status", "--json"])
        #expect(status == 0 && InProcessCommand.object(printed)?["configured"] as? Bool == false, "\(printed)")
        // Nothing listens on port 9: a status that contacted the service would fail.
        (status, printed) = await command.run(["cm", "configure", "--base-url", "http://127.0.0.1:9/cm", "--no-pinning", "--allow-http-loopback"])
        #expect(status == 0, "\(printed)")
        (status, printed) = await command.run(["cm", "status", "--json"])
        let object = try #require(InProcessCommand.object(printed), "\(printed)")
        #expect(status == 0 && object["configured"] as? Bool == true && object["registered"] as? Bool == false
                && object["allowHTTPLoopback"] as? Bool == true && object["baseURL"] as? String == "http://127.0.0.1:9/cm", "\(object)")
        (status, printed) = await command.run(["cm", "remove", "--local", "--json"])
        #expect(status == 0 && InProcessCommand.object(printed)?["removed"] as? Bool == true, "\(printed)")
    }

    @Test func mpinStatusBeforeConfigureIsAStateAndRemoveNeedsAConfiguration() async throws {
        let command = try InProcessCommand()
        defer { command.cleanUp() }
        var (status, printed) = await command.run(["mpin", "status", "--json"])
        let object = try #require(InProcessCommand.object(printed), "\(printed)")
        #expect(status == 0 && object["configured"] as? Bool == false && (object["users"] as? [Any])?.isEmpty == true, "\(object)")
        (status, printed) = await command.run(["mpin", "remove", "alice@example.com"])
        #expect(status == ExitStatus.wrongState.rawValue, "\(printed)")
    }

    @Test func mpinConfigureStoresTheLoopbackOptOutAndStatusShowsIt() async throws {
        let command = try InProcessCommand()
        defer { command.cleanUp() }
        let settings = #"{"registerURL":"/rps/user","signatureURL":"/rps/signature","certivoxURL":"https://dta.example/v3/","#
            + #""mpinAuthServerURL":"/rps","authenticateURL":"/rps/authenticate","usePermits":false}"#
        let server = try LoopbackHTTPServer { request in
            request.path == "rps/clientSettings" ? HTTPResponse(status: 200, body: Array(settings.utf8)) : HTTPResponse(status: 404)
        }
        defer { server.stop() }
        var (status, printed) = await command.run(["mpin", "configure", "--base-url", server.baseURL, "--allow-http-loopback"])
        #expect(status == 0, "\(printed)")
        server.stop()
        // The status is what is stored: the backend is not asked again (it is gone now).
        (status, printed) = await command.run(["mpin", "status", "--json"])
        let object = try #require(InProcessCommand.object(printed), "\(printed)")
        #expect(status == 0 && object["configured"] as? Bool == true && object["backend"] as? String == server.baseURL
                && object["allowHTTPLoopback"] as? Bool == true && (object["users"] as? [Any])?.isEmpty == true, "\(object)")
        (status, _) = await command.run(["mpin", "remove", "nobody@example.com"])
        #expect(status == ExitStatus.wrongState.rawValue)
    }

    @Test func anUnknownVerbOrOptionIsStillAUsageError() {
        #expect(MFA.run(["saltedge", "revoke", "1"]) == 2)
        #expect(MFA.run(["mpin", "delete", "a@example.com"]) == 2)
        #expect(MFA.run(["powerauth", "call", "--path", "/p", "--bogus"]) == 2)
        #expect(MFA.run(["cm", "frobnicate"]) == 2)
    }
}
