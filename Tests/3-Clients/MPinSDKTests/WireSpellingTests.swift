// The member names the platform generations spell differently (docs/protocols/mpin.md §7.2 and §7.3): every
// answer decodes under either spelling, two spellings that disagree are refused, and the client
// goes through a whole verification and registration start against a platform using the §7.2
// names. A MIRACL Trust `mpinId` that is not hex never reaches a URL path.

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

@Suite struct WireSpellingTests {
    static func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONResponse.decode(T.self, from: Array(json.utf8), what: "test")
    }

    static func store() throws -> SecureStore {
        try makeTemporaryStore("mpin-spelling")
    }

    static func ok(_ json: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")], body: Array(json.utf8))
    }

    @Test func activationTokenOrActToken() throws {
        #expect(try Self.decode(MPinPlatform.ConfirmationWire.self, #"{"accessId":"a1","activationToken":"t1","expireTime":1}"#).activationToken == "t1")
        #expect(try Self.decode(MPinPlatform.ConfirmationWire.self, #"{"projectId":"p","actToken":"t2"}"#).activationToken == "t2")
        #expect(try Self.decode(MPinPlatform.ConfirmationWire.self, #"{"activationToken":"t3","actToken":"t3"}"#).activationToken == "t3")
        #expect(throws: ProtocolError.self) { try Self.decode(MPinPlatform.ConfirmationWire.self, #"{"activationToken":"t3","actToken":"t4"}"#) }
        #expect(throws: ProtocolError.self) { try Self.decode(MPinPlatform.ConfirmationWire.self, #"{"accessId":"a1"}"#) }
    }

    @Test func dvsRegisterTokenFlatOrNested() throws {
        #expect(try Self.decode(MPinPlatform.AuthenticateWire.self, #"{"status":200,"dvs-register-token":"d1"}"#).dvsRegisterToken == "d1")
        #expect(try Self.decode(MPinPlatform.AuthenticateWire.self, #"{"dvsRegister":{"token":"d2","curve":"BN254CX"}}"#).dvsRegisterToken == "d2")
        #expect(try Self.decode(MPinPlatform.AuthenticateWire.self, #"{"code":"c","otp":"123"}"#).dvsRegisterToken == nil)
        #expect(throws: ProtocolError.self) {
            try Self.decode(MPinPlatform.AuthenticateWire.self, #"{"dvs-register-token":"d1","dvsRegister":{"token":"d2"}}"#)
        }
        #expect(try Self.decode(MPinTrust.AuthenticateWire.self, #"{"jwt":"j","dvsRegister":{"token":"d3","curve":"BN254CX"}}"#).dvsRegisterToken == "d3")
        #expect(try Self.decode(MPinTrust.AuthenticateWire.self, #"{"dvs-register-token":"d4"}"#).dvsRegisterToken == "d4")
        #expect(try Self.decode(MPinTrust.AuthenticateWire.self, #"{"jwt":"j"}"#).dvsRegisterToken == nil)
    }

    @Test func dvsRegisterAnswerHyphenatedOrCamelCase() throws {
        let hyphenated = try Self.decode(MPinPlatform.DVSRegisterWire.self, #"{"cs2-url":"https://d/cs2","mpin-id":"7b7d","dvs-cs1":"04aa","dtas":"x"}"#)
        let camel = try Self.decode(MPinPlatform.DVSRegisterWire.self,
                                    #"{"cs2url":"https://d/cs2","mpinId":"7b7d","dvsClientSecretShare":"04aa","dtas":"x","curve":"BN254CX"}"#)
        for wire in [hyphenated, camel] {
            #expect(wire.cs2URL == "https://d/cs2" && wire.mpinID == "7b7d" && wire.dvsCS1 == "04aa" && wire.dtas == "x")
        }
        #expect(throws: ProtocolError.self) { try Self.decode(MPinPlatform.DVSRegisterWire.self, #"{"cs2url":"https://d/cs2","mpinId":"7b7d"}"#) }
        #expect(throws: ProtocolError.self) {
            try Self.decode(MPinPlatform.DVSRegisterWire.self, #"{"cs2url":"https://a","cs2-url":"https://b","mpinId":"7b7d","dvs-cs1":"04"}"#)
        }
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

    @Test func hexMPinIDs() {
        #expect(MPinPlatform.isHexMPinID("7b226d6f62696c65223a317d") && MPinPlatform.isHexMPinID("ABCDEF0123"))
        for bad in ["", "7", "7g", "7b/2", "..", "%0d", "7b 2", "７b"] { #expect(!MPinPlatform.isHexMPinID(bad), "\(bad)") }
    }
}

/// docs/protocols/mpin.md §7.2 and §7.3 differ on how a registration code is asked for: a server reading either
/// finds it, because the client sends the purpose both ways — as the pass-1 `scope` and as `wam`
/// on authenticate. Asserted on the wire, not only in the body builders.
@Suite struct RegistrationCodePurposeOnTheWireTests {
    @Test func regCodeTravelsAsPassOneScopeAndAsWam() async throws {
        let transport = InProcessTransport { request in
            switch request.path.split(separator: "/").last.map(String.init) ?? "" {
            case "pass1": return WireSpellingTests.ok(#"{"y":"\#(String(repeating: "11", count: 32))"}"#)
            case "pass2": return WireSpellingTests.ok(#"{"authOTT":"a1b2c3"}"#)
            default: return WireSpellingTests.ok(#"{"code":"123456","expireTime":1893456000000,"ttlSeconds":60,"nowTime":1700000000000}"#)
            }
        }
        let (client, store) = try LocalChecksBeforeSendingTests.client(transport)
        await client.setBackend(LocalChecksBeforeSendingTests.backend, settings: try LocalChecksBeforeSendingTests.settings())
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
