// The member names the platform generations spell differently (docs/protocols/mpin.md §7.2 and §7.3), through
// the client: it goes through a whole verification and registration start against a platform
// using the §7.2 names, and a MIRACL Trust `mpinId` that is not hex never reaches a URL path.
// The answers' decoding under either spelling is MPinPlatformTests' WireSpellingTests.

import AuthNetworking
import Foundation
import MPinSDK
import MPinPlatform
import MPin
import ProtocolSupport
import SecureStore
import Testing
import ClientTestSupport
import TestSupport

@Suite struct ClientWireSpellingTests {
    static func store() throws -> SecureStore {
        try makeTemporaryStore("mpin-spelling")
    }

    static func ok(_ json: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")], body: Array(json.utf8))
    }

    /// A 2019 platform answering the confirmation with `activationToken` (§7.2): the client
    /// hands it out and registers with it.
    @Test func verificationWithActivationTokenThroughTheClient() async throws {
        let api = "https://api.example.com"
        let replay = ReplayTransport([
            .init(.get, "rps/clientSettings", response: Self.ok(#"{"registerURL":"/rps/user","signatureURL":"/rps/signature","certivoxURL":"https://d2/","mpinAuthServerURL":"/rps","authenticateURL":"/rps/authenticate","usePermits":false}"#)),
            .init(.post, "verification/email", response: Self.ok("{}")),
            .init(.post, "verification/confirmation", response: Self.ok(#"{"accessId":"s1","activationToken":"tok-2019","expireTime":1800000000}"#)),
        ])
        let client = MPinClient(store: try Self.store(), transport: .single(replay))
        try await client.setBackend(api)
        let user = try await client.makeUser(identity: "alice@example.com")
        try await client.startVerification(for: user, accessCode: nil)
        let result = try await client.finishVerification(for: user, code: "531806")
        #expect(result.activationToken == "tok-2019" && result.accessCode == "s1")
    }

    /// mpinId goes into `GET /rps/v2/signature/{mpinId}`: a platform answer that is not hex is
    /// refused at registration, before anything more is sent.
    @Test(arguments: ["7b22/../../admin", "7b22%0d%0aX-Injected:%201", "7b2", "", "7b22?regOTT=x", "7B22zz"])
    func trustMPinIDThatIsNotHexIsRefused(mpinID: String) async throws {
        let api = "https://api.example.com"
        let replay = ReplayTransport([
            .init(.get, ".well-known/jwks", response: Self.ok(#"{"keys":[]}"#)),
            .init(.put, "rps/v2/user", response: Self.ok(#"{"mpinId":"\#(mpinID)","regOTT":"r1","projectId":"p1"}"#)),
            .init(.get, "rps/v2/signature/" + mpinID, response: Self.ok("{}")),
        ])
        let client = MPinClient(configuration: MPinClient.Configuration(platform: .trust(projectID: "p1")), store: try Self.store(), transport: .single(replay))
        try await client.setBackend(api)
        let user = try await client.makeUser(identity: "alice@example.com")
        await expectError(MPinError.self, code: .invalidResponse) {
            _ = try await client.startRegistration(for: user, accessCode: nil, registrationCode: "act-token")
        }
        await #expect(throws: MPinError.self) { _ = try await client.confirmRegistration(for: user) }
        let sent = await replay.sent
        #expect(sent.count == 2 && !sent.contains { $0.path.hasPrefix("rps/v2/signature") }, "\(sent.map(\.path))")
    }
}

/// docs/protocols/mpin.md §7.2 and §7.3 differ on how a registration code is asked for: a server reading either
/// finds it, because the client sends the purpose both ways — as the pass-1 `scope` and as `wam`
/// on authenticate. Asserted on the wire, not only in the body builders.
@Suite struct RegistrationCodePurposeOnTheWireTests {
    @Test func regCodeTravelsAsPassOneScopeAndAsWam() async throws {
        let transport = InProcessTransport { request in
            switch request.path.split(separator: "/").last.map(String.init) ?? "" {
            case "pass1": return ClientWireSpellingTests.ok(#"{"y":"\#(String(repeating: "11", count: 32))"}"#)
            case "pass2": return ClientWireSpellingTests.ok(#"{"authOTT":"a1b2c3"}"#)
            default: return ClientWireSpellingTests.ok(#"{"code":"123456","expireTime":1893456000000,"ttlSeconds":60,"nowTime":1700000000000}"#)
            }
        }
        let (client, store) = try LocalChecksBeforeSendingTests.client(transport)
        try await client.setBackend(LocalChecksBeforeSendingTests.backend, settings: try LocalChecksBeforeSendingTests.settings())
        let user = try LocalChecksBeforeSendingTests.plant(store, state: .registered, pinLength: 4)
        _ = try? await client.generateRegistrationCode(for: user, pin: MPin.PIN(1234))   // the wire is what this test reads
        let sent = await transport.sent
        let passOne = try #require(sent.first { $0.path.hasSuffix("pass1") })
        let authenticate = try #require(sent.first { $0.path.hasSuffix("authenticate") })
        let scope = String(decoding: passOne.body ?? [], as: UTF8.self)
        let wam = String(decoding: authenticate.body ?? [], as: UTF8.self)
        #expect(scope.contains(#""scope":["reg-code"]"#), "\(scope)")
        #expect(wam.contains(#""wam":"reg-code""#), "\(wam)")
    }
}
