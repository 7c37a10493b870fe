// What the client refuses before anything leaves, and what it survives: an activation code
// whose signature is not the master key's (docs/protocols/powerauth.md §3.2), a new password the SDK cannot
// use (§4.2), a base URL the URL policy refuses (docs/design.md §1, layer 3), and server numbers at
// the ends of the Int64 range (§11.4, §10). Each test reads what the recording server saw.

import AuthNetworking
import CryptoPrimitives
import Foundation
import PowerAuth
@_spi(Internals) import PowerAuthSDK
import PowerAuthServer
import ProtocolSupport
import SecureStore
import Testing
import ClientTestSupport
import TestSupport

@Suite struct PowerAuthClientHardeningTests {
    // MARK: Activation-code signature (§3.2)

    @Test func forgedActivationCodeSignatureIsRefusedBeforeAnyRequest() async throws {
        var fixture = try SDKFixture.make(seed: 11)
        defer { fixture.cleanUp() }
        let (code, _) = try fixture.application.issueActivationCode(using: &fixture.random)
        let (_, otherSignature) = try fixture.application.issueActivationCode(using: &fixture.random)
        // A syntactically valid signature that is not one, and a real signature of another code.
        for text in [code + "#AAAA", code + "#" + otherSignature] {
            let parsed = try PowerAuth.ActivationCode(parsing: text)
            do {
                _ = try await fixture.client.createActivation(.code(parsed))
                Issue.record("\(text) activated")
            } catch {
                #expect(error.code == .invalidActivationCode)
            }
        }
        #expect(fixture.server.paths.isEmpty)  // the one-time code was never sent
        #expect(try await fixture.client.canStartActivation())
        // The genuine code is still unspent and activates.
        _ = try await fixture.activate()
        #expect(fixture.server.paths.filter { $0 == "pa/v3/activation/create" }.count == 1)
    }

    // MARK: New passwords (§4.2)

    @Test func shortPasswordIsRefusedBeforeTheCodeIsSpentOrTheActivationLost() async throws {
        var fixture = try SDKFixture.make(seed: 12)
        defer { fixture.cleanUp() }
        #expect(throws: PowerAuthSDKError.self) { try PowerAuthClient.requireUsablePassword(SecretBytes("123".utf8)) }
        try PowerAuthClient.requireUsablePassword(SecretBytes("1234".utf8))
        // The CLI order: the password is checked before createActivation, so nothing is sent.
        #expect(fixture.server.paths.isEmpty)
        // persistActivation refuses it with the typed reason and keeps the activation pending.
        _ = try await fixture.client.createActivation(.code(try fixture.issuedCode()))
        do {
            try await fixture.client.persistActivation(authentication: Authentication(possessionUnlockKey: fixture.possession,
                                                                                      password: SecretBytes("123".utf8)))
            Issue.record("a 3-byte password was persisted")
        } catch {
            #expect(error.code == .invalidPassword)
        }
        #expect(await fixture.client.hasPendingActivation())
        try await fixture.client.persistActivation(authentication: Authentication(possessionUnlockKey: fixture.possession,
                                                                                  password: SecretBytes("1234".utf8)))
        #expect(try await fixture.client.hasValidActivation())
    }

    @Test func changeToShortPasswordSpendsNoCounterStep() async throws {
        var fixture = try SDKFixture.make(seed: 13)
        defer { fixture.cleanUp() }
        _ = try await fixture.activate(password: "1234")
        let activations = try ActivationStore(store: fixture.store, instanceID: "app")
        let before = try #require(try activations.activation())
        let requestsBefore = fixture.server.requests.count
        do {
            try await fixture.client.changePassword(from: SecretBytes("1234".utf8), to: SecretBytes("123".utf8), possessionUnlockKey: fixture.possession)
            Issue.record("a 3-byte password was accepted")
        } catch {
            #expect(error.code == .invalidPassword)
        }
        do {
            try await fixture.client.unsafeChangePassword(from: SecretBytes("1234".utf8), to: SecretBytes("12".utf8))
            Issue.record("a 2-byte password was accepted")
        } catch {
            #expect(error.code == .invalidPassword)
        }
        let after = try #require(try activations.activation())
        #expect(after.counter == before.counter && after.counterByte == before.counterByte)
        #expect(fixture.server.requests.count == requestsBefore)
        // The old password still works: a real change goes through.
        try await fixture.client.changePassword(from: SecretBytes("1234".utf8), to: SecretBytes("5678".utf8), possessionUnlockKey: fixture.possession)
    }

    // MARK: URL policy

    @Test func baseURLMustBeHTTPSUnlessLoopbackIsAllowed() async throws {
        var random = SeededRandomSource(seed: 14)
        let application = try PowerAuthServer.Application(using: &random)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pa-url-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SecureStore(directory: directory)
        let server = try PowerAuthTestBackEnd(application: application)
        func client(_ url: String, _ policy: URLPolicy = .httpsOnly) throws(PowerAuthSDKError) -> PowerAuthClient {
            let core: PowerAuth.Configuration
            do { core = try application.clientConfiguration(baseURL: url) } catch { throw PowerAuthSDKError(.invalidConfiguration, "core") }
            return try PowerAuthClient(configuration: .init(instanceID: "u", core: core, version: .v3_2, urlPolicy: policy), store: store, transport: .single(server))
        }
        for refused in ["http://pa.example.com", "ftp://pa.example.com", "http://127.0.0.1:8080", "https://intranet", "https://u:s3cret@pa.example.com"] {
            do { _ = try client(refused); Issue.record("\(refused) was accepted") } catch {
                #expect(error.code == .urlRefused)
                #expect(!"\(error)".contains("s3cret"), "the refusal repeats the password: \(error)")
            }
        }
        do {
            _ = try client("http://pa.example.com", .insecureAllowingPlainHTTPToLoopback)
            Issue.record("plain http to a remote host was accepted with the loopback opt-out")
        } catch {
            #expect(error.code == .urlRefused)
        }
        _ = try client("https://pa.example.com")
        _ = try client("http://127.0.0.1:8080", .insecureAllowingPlainHTTPToLoopback)
        // The configuration-string initialiser applies the policy too.
        let string = try application.clientConfiguration(baseURL: "https://x.example").configurationString
        #expect(throws: PowerAuthSDKError.self) {
            try PowerAuthClient.Configuration(instanceID: "u", configurationString: string, baseURL: "http://pa.example.com")
        }
        #expect(server.paths.isEmpty)
    }

    /// A question about the state is answered, not refused, when nothing is activated: no
    /// biometry factor, no recovery data (`hasBiometryFactor`, `hasActivationRecoveryData` as in
    /// the original SDK); only an operation that needs the activation throws `missingActivation`.
    @Test func questionsAboutTheStateAnswerFalseWithoutAnActivation() async throws {
        var random = SeededRandomSource(seed: 15)
        let application = try PowerAuthServer.Application(using: &random)
        let store = try makeTemporaryStore("pa-questions")
        let server = try PowerAuthTestBackEnd(application: application)
        let client = try PowerAuthClient(configuration: .init(instanceID: "u", core: try application.clientConfiguration(baseURL: "https://pa.example.com"),
                                                              version: .v3_2),
                                         store: store, transport: .single(server))
        #expect(try await client.hasValidActivation() == false)
        #expect(try await client.hasBiometryFactor() == false)
        #expect(try await client.hasActivationRecoveryData() == false)
        #expect(try await client.canStartActivation())
        #expect(try await client.activationIdentifier() == nil)
        let authentication = Authentication(possessionUnlockKey: try SymmetricKey(byteCount: 16, using: &random), password: SecretBytes("1234".utf8))
        await expectError(PowerAuthSDKError.self, code: .missingActivation) { _ = try await client.activationRecoveryData(authentication: authentication) }
        #expect(server.paths.isEmpty)
    }

    /// Checking a server signature with the activation's key and no activation stored says so:
    /// `missingActivation`, as every verb that needs one, not a store failure.
    @Test func serverSignatureWithoutAnActivationIsMissingActivation() async throws {
        var random = SeededRandomSource(seed: 15)
        let application = try PowerAuthServer.Application(using: &random)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pa-sig-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let core = try application.clientConfiguration(baseURL: "https://pa.example.com")
        let client = try PowerAuthClient(configuration: .init(instanceID: "s", core: core, version: .v3_2), store: try SecureStore(directory: directory),
                                         transport: .single(try PowerAuthTestBackEnd(application: application)))
        await expectError(PowerAuthSDKError.self, code: .missingActivation) {
            _ = try await client.verifyServerSignedData(Array("data".utf8), signature: "AAAA", masterKey: false)
        }
    }

    // MARK: Server numbers (§11.4, §10)

    @Test(arguments: [Int64.max, Int64.min, Int64.max - 1_000, -1, 253_402_300_800_000])
    func absurdServerTimeIsATypedErrorNotATrap(serverTime: Int64) async throws {
        let fixture = try SDKFixture.make(seed: 15)
        defer { fixture.cleanUp() }
        fixture.server.setClock(.fixed(serverTime))
        do {
            try await fixture.client.synchronizeTime()
            Issue.record("server time \(serverTime) was accepted")
        } catch {
            #expect(error.code == .invalidResponse)
        }
        await #expect(throws: PowerAuthSDKError.self) { _ = try await fixture.client.serverTime(version: .v3_2) }
        // A sane answer afterwards synchronises as usual.
        fixture.server.setClock(.fixed(1_700_000_005_000))
        #expect(try await fixture.client.serverTime(version: .v3_2) == 1_700_000_005_000)
    }

    @Test func timeSynchronizationArithmeticNeverTraps() {
        for serverTime in [Int64.max, .min, .max - 1, .min + 1] {
            var sync = PowerAuth.TimeSynchronization()
            let accepted = sync.observe(serverTime: serverTime, requestStart: 1_000, responseEnd: 2_000)
            #expect(!accepted && !sync.isSynchronized && sync.adjustment == 0)
        }
        var extreme = PowerAuth.TimeSynchronization()
        let overflowingElapsed = extreme.observe(serverTime: 0, requestStart: .min, responseEnd: .max)
        let overflowingDifference = extreme.observe(serverTime: 253_402_300_799_999, requestStart: .min + 1, responseEnd: .min + 1)
        #expect(!overflowingElapsed && !overflowingDifference && !extreme.isSynchronized)
        var synced = PowerAuth.TimeSynchronization()
        let ahead = synced.observe(serverTime: 253_402_300_799_999, requestStart: 0, responseEnd: 0)
        #expect(ahead && synced.serverTime(atLocal: .max) == .max)
        var behind = PowerAuth.TimeSynchronization()
        let late = behind.observe(serverTime: 0, requestStart: 253_402_300_799_999, responseEnd: 253_402_300_799_999)
        #expect(late && behind.serverTime(atLocal: .min) == .min)
    }

    @Test func temporaryKeyExpiryNeverTraps() throws {
        var random = SeededRandomSource(seed: 16)
        let application = try PowerAuthServer.Application(using: &random)
        let configuration = try application.clientConfiguration(baseURL: "https://pa.example.com")
        let temporary = try P256.KeyAgreement.PrivateKey(using: &random)
        for (now, lifetime) in [(UInt64(1_700_000_000_000), UInt64(300_000)), (UInt64.max - 5, UInt64(1_000)), (0, 0)] {
            let pending = try PowerAuth.PendingKeystore(configuration: configuration, using: &random)
            let response = try #require(try PowerAuthServer.keystoreAnswer(pending.request, application: application, temporaryKey: temporary.publicKey,
                                                                           temporaryKeyID: "tmp", now: now, lifetime: lifetime))
            let key = try pending.process(response, serverKey: application.masterSigningKey.publicKey)
            #expect(key.isExpired(atMilliseconds: .max))
            #expect(key.isExpired(atMilliseconds: key.expiresAt))
            #expect(key.expiresAt <= 10_000 || !key.isExpired(atMilliseconds: key.expiresAt - 10_001))
        }
    }
}

@Suite struct PersistActivationRaceTests {
    /// Two clients on one store both create an activation; the one that persists second must
    /// not overwrite the first one's keys (which the server already counts as active).
    @Test func aSecondPersistNeverOverwritesTheFirst() async throws {
        var fixture = try SDKFixture.make(seed: 41)
        defer { fixture.cleanUp() }
        let other = try PowerAuthClient(configuration: fixture.client.configuration, store: fixture.store, transport: .single(fixture.server))
        _ = try await fixture.client.createActivation(.code(try fixture.issuedCode()))
        _ = try await other.createActivation(.code(try fixture.issuedCode()))
        let authentication = Authentication(possessionUnlockKey: fixture.possession, password: SecretBytes("1234".utf8))
        try await fixture.client.persistActivation(authentication: authentication)
        let first = try #require(try fixture.store.read("powerauth.app.activation"))
        do {
            try await other.persistActivation(authentication: authentication)
            Issue.record("the second activation overwrote the first")
        } catch {
            #expect(error.code == .invalidActivationState)
        }
        #expect(try fixture.store.read("powerauth.app.activation") == first)
    }
}
