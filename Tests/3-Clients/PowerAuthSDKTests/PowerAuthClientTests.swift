// The client object against the shared in-process back end (`PowerAuthTestBackEnd`, over
// `PowerAuthServer`; `mfa-server` serves the same over loopback in Servers/): activation,
// persistence, status, signatures, a restored older record recovered by the §6.4 adoption,
// server refusals as typed errors, and local removal — one behaviour per test.

import AuthNetworking
import CryptoPrimitives
import Foundation
import PowerAuth
import PowerAuthSDK
import PowerAuthServer
import ProtocolSupport
import SecureStore
import ClientTestSupport
import Testing
import TestSupport

/// A client and the in-process back end, with an activation code the application issued.
struct PowerAuthClientFixture {
    let server: PowerAuthTestBackEnd
    let store: SecureStore
    let client: PowerAuthClient
    let activationCode: PowerAuth.ActivationCode
    let possession: SymmetricKey
    let authentication: Authentication

    init() throws {
        var random = SeededRandomSource(seed: 5)
        let application = try PowerAuthServer.Application(using: &random)
        server = try PowerAuthTestBackEnd(application: application, activationID: "act-1", seed: 99)
        store = try makeTemporaryStore("pa-client")
        let configuration = PowerAuthClient.Configuration(instanceID: "app", core: try application.clientConfiguration(baseURL: "https://pa.example.com"),
                                                          version: .v3_2, clock: { Date(timeIntervalSince1970: 1_700_000_000) })
        client = try PowerAuthClient(configuration: configuration, store: store, transport: .single(server))
        let (code, signature) = try application.issueActivationCode(using: &random)
        activationCode = try PowerAuth.ActivationCode(parsing: code + "#" + signature)
        possession = try SymmetricKey(byteCount: 16, using: &random)
        authentication = Authentication(possessionUnlockKey: possession, password: SecretBytes("1234".utf8))
    }

    /// Creates and persists the activation.
    func activate() async throws {
        _ = try await client.createActivation(.code(activationCode))
        try await client.persistActivation(authentication: authentication)
    }

    /// Signs `body` for `POST /pay` and asks the server whether it verifies.
    func signatureVerifies(_ body: [UInt8], factors: PowerAuth.SignatureFactors = .possessionKnowledge) async throws -> Bool {
        let header = try await client.requestSignature(method: "POST", uriID: "/pay", body: body, factors: factors, authentication: authentication)
        return server.verifies(header: header.value, uriID: "/pay", body: body)
    }
}

@Suite struct PowerAuthClientTests {
    @Test func aNewClientCanStartAndHasNoActivation() async throws {
        let fixture = try PowerAuthClientFixture()
        #expect(try await fixture.client.canStartActivation())
        #expect(try await !fixture.client.hasValidActivation())
    }

    @Test func aRefusedActivationIsTheServersTypedErrorAndKeepsNothing() async throws {
        let fixture = try PowerAuthClientFixture()
        fixture.server.failNextRequest(status: 400, code: "ERR_ACTIVATION")
        let error = await expectError(PowerAuthSDKError.self, code: .server) { try await fixture.client.createActivation(.code(fixture.activationCode)) }
        #expect(error?.protocolError?.code.rawValue == "ERR_ACTIVATION")   // docs/protocols/powerauth.md §14.2
        #expect(error?.httpStatus == 400)
        #expect(try await fixture.client.canStartActivation())
    }

    @Test func createMakesAPendingActivationAndPersistAValidOne() async throws {
        let fixture = try PowerAuthClientFixture()
        let result = try await fixture.client.createActivation(.code(fixture.activationCode))
        #expect(result.fingerprint.count == 8)
        #expect(await fixture.client.hasPendingActivation())
        try await fixture.client.persistActivation(authentication: fixture.authentication)
        #expect(try await fixture.client.hasValidActivation())
        #expect(await !fixture.client.hasPendingActivation())
    }

    @Test func thePersistedActivationIsActiveOnTheServer() async throws {
        let fixture = try PowerAuthClientFixture()
        try await fixture.activate()
        #expect(try await fixture.client.fetchActivationStatus(possessionUnlockKey: fixture.possession).state == .active)
    }

    @Test func everySignatureVerifiesOnTheServer() async throws {
        let fixture = try PowerAuthClientFixture()
        try await fixture.activate()
        for n in 0..<3 {
            #expect(try await fixture.signatureVerifies(Array("{\"n\":\(n)}".utf8)))
        }
    }

    /// A crash that lost the last writes: the older record comes back. The status check finds
    /// the server three steps ahead and adopts its counter (docs/protocols/powerauth.md §6.4), and the next
    /// signature is accepted.
    @Test func aRestoredOlderRecordIsRecoveredByTheStatusCheck() async throws {
        let fixture = try PowerAuthClientFixture()
        try await fixture.activate()
        let saved = try #require(try fixture.store.read("powerauth.app.activation"))
        for n in 0..<3 { _ = try await fixture.signatureVerifies(Array("{\"n\":\(n)}".utf8)) }
        try fixture.store.write(saved, to: "powerauth.app.activation")
        _ = try await fixture.client.fetchActivationStatus(possessionUnlockKey: fixture.possession)
        #expect(try await fixture.signatureVerifies(Array(#"{"after":"recovery"}"#.utf8), factors: .possession))
    }

    @Test func removingLocallyForgetsTheActivation() async throws {
        let fixture = try PowerAuthClientFixture()
        try await fixture.activate()
        try await fixture.client.removeActivationLocally()
        #expect(try await !fixture.client.hasValidActivation())
        #expect(try await fixture.client.canStartActivation())
        _ = await expectError(PowerAuthSDKError.self, code: .missingActivation) {
            try await fixture.client.fetchActivationStatus(possessionUnlockKey: fixture.possession)
        }
    }
}
