// Every exchange of mfa_sdk_unit_tests_data.json (the 2017 MfaSDK core against MIRACL's dev
// platform) replayed flow by flow through MPinClient: our client must send each request with
// the recorded method, URL, query and JSON members and values (U and V only checked to be
// BN254CX points), and handle each recorded answer — 400, 401, 406, 410, 412 and a host that
// did not resolve — with the documented outcome. Used: 103 of 104; #32 is listed below.

import AuthNetworking
import CryptoPrimitives
import Foundation
import MPinSDK
import MPinPlatform
import MPin
import ProtocolSupport
import SecureStore
import Testing
import ClientTestSupport
import TestSupport

@Suite(.enabled(if: SharedVectors.isAvailable, "needs ../shared/vectors"))
struct MFAPlatformReplayTests {
    static let api = "https://api.dev.miracl.net"
    static let customer = "8b382b4e-6f35-4475-88c3-1548e4d3248f"
    /// The exchanges our client cannot produce, with the reason.
    static let unusable = [32: "PUT /rps/user with an empty userId (answered 400): MPinClient refuses an empty identity before sending"]

    static func store() throws -> SecureStore {
        try makeTemporaryStore("mpin-replay")
    }

    @Test func everyExchangeIsReplayed() async throws {
        let recording = try RecordedReplay(file: "mfa_sdk_unit_tests_data.json", unusable: Self.unusable)
        let entries = recording.entries
        let client = MPinClient(store: try Self.store(), transport: recording.transport)
        let pin = try #require(MPin.PIN(decimal: "1234"))
        var n = 0

        // @InitNoCID, @Init: without X-MIRACL-CID the platform answers 406.
        await expectError(MPinError.self, code: .server) { try await client.setBackend(Self.api) }
        await client.setClientID("nfoztuxb5dpn4")
        try await client.setBackend(Self.api)
        n = await recording.expectSent([0, 1], from: n)
        let sent = await recording.replay.sent
        #expect(sent[0].header("X-MIRACL-CID") == nil && sent[1].header("X-MIRACL-CID") == "nfoztuxb5dpn4")

        // @ServiceAndSessionDetails
        let service = try await client.serviceDetails(for: "https://mcl.dev.mpin.io#0bdcc77914e8b1e416e22a51d5b4b4a3")
        #expect(service == MPinServiceDetails(name: "MIRACL Trust [dev]", backendURL: Self.api, logoURL: "https://mcl.cdn.dev.miracl.net/service-logo.png"))
        let code3 = try await client.accessCode(authorizationURL: entries[3].request.url)
        #expect(code3 == "0bdcc77914e8b1e416e22a51d5b4b4a3")
        let session = try await client.sessionDetails(accessCode: code3)
        #expect(session.appName == "TCB Demo" && session.customerID == Self.customer && session.customerName == "Miracl" && session.prerollID.isEmpty)
        try await client.abortSession(accessCode: code3)
        n = await recording.expectSent([2, 3, 4, 5], from: n)

        // @TestBackend, @SetBackend: a host that did not resolve is a transport error, and the
        // active backend stays.
        let other = try await client.testBackend("https://m-pindemo.certivox.org")
        #expect(other.usePermits && other.authServerURL == "https://m-pindemo.certivox.org/mpin")
        await expectError(MPinError.self, code: .transport) { try await client.testBackend("https://blabla.certivox.org") }
        await expectError(MPinError.self, code: .transport) { try await client.setBackend("https://blabla.certivox.org") }
        #expect(await client.backend == Self.api)
        try await client.setBackend(Self.api)
        n = await recording.expectSent([6, 7, 8, 9], from: n)

        // @Users: registration without an access code is refused (400); eleven users start.
        let refused = try await client.makeUser(identity: "testUser1@example.com")
        await expectError(MPinError.self, code: .server) { _ = try await client.startRegistration(for: refused, accessCode: nil) }
        let code11 = try await client.accessCode(authorizationURL: entries[11].request.url)
        let identities = ["testUser1@example.com"] + (0...9).map { "testUser00\($0)@example.com" }
        for identity in identities {
            let user = try await client.startRegistration(for: try await client.makeUser(identity: identity), accessCode: code11)
            #expect(user.state == .startedRegistration && user.customerID == Self.customer && !user.mpinID.isEmpty)
            #expect(user.registrationExpiration?.expiresAt.timeIntervalSince1970 ?? 0 > user.registrationExpiration?.serverTime.timeIntervalSince1970 ?? 0)
        }
        #expect(try await client.users().count == 11)
        n = await recording.expectSent(Array(10...22), from: n)

        // @Registration: start → confirm (two D-TA shares) → finish; restart; a second device
        // registering with a push token; an empty identity refused here (#32).
        let code23 = try await client.accessCode(authorizationURL: entries[23].request.url)
        var user1 = try await client.startRegistration(for: try await client.makeUser(identity: "testUser1@example.com"), accessCode: code23)
        user1 = try await client.confirmRegistration(for: user1)
        #expect(user1.state == .activated)
        user1 = try await client.finishRegistration(for: user1, pin: pin)
        #expect(user1.state == .registered && user1.pinLength == 4)
        var user2 = try await client.startRegistration(for: try await client.makeUser(identity: "testUser2@example.com"), accessCode: code23)
        user2 = try await client.restartRegistration(for: user2)
        user2 = try await client.finishRegistration(for: try await client.confirmRegistration(for: user2), pin: pin)
        let secondDevice = MPinClient(configuration: await client.configuration, store: try Self.store(), transport: recording.transport)
        try await secondDevice.setBackend(Self.api, settings: try #require(await client.settings))
        _ = try await secondDevice.startRegistration(for: try await secondDevice.makeUser(identity: "testUser1@example.com"), accessCode: code23,
                                                     pushToken: "test")
        await expectError(MPinError.self, code: .invalidInput) { _ = try await client.makeUser(identity: "") }
        _ = try await client.startRegistration(for: try await client.makeUser(identity: "testUser3@example.com"), accessCode: code23)
        let user4 = try await client.startRegistration(for: try await client.makeUser(identity: "testUser4@example.com"), accessCode: code23)
        #expect(try await client.confirmRegistration(for: user4).state == .activated)
        n = await recording.expectSent(Array(23...31) + Array(33...36), from: n)

        // @Authentication: web logins, an OTP, a wrong PIN then the right one, an unknown
        // access code (412), and three wrong PINs ending in a block (401, 401, 410).
        for first in [37, 42] {
            let code = try await client.accessCode(authorizationURL: entries[first].request.url)
            try await client.prepareAuthentication(for: user1, accessCode: code)
            try await client.authenticate(user1, pin: pin, accessCode: code)
            n = await recording.expectSent(Array(first...first + 4), from: n)
        }
        let otp = try await client.generateOTP(for: user1, pin: pin)
        #expect(otp.code == "157001" && otp.timeToLive == 90 && otp.expiresAt == Date(timeIntervalSince1970: 1_489_503_014.098))
        n = await recording.expectSent([47, 48, 49], from: n)
        let code50 = try await client.accessCode(authorizationURL: entries[50].request.url)
        try await client.prepareAuthentication(for: user1, accessCode: code50)
        await #expect(throws: MPinError(.incorrectPIN, "")) { try await client.authenticate(user1, pin: MPin.PIN(1111), accessCode: code50) }
        #expect(try await client.user(id: user1.identity)?.failedAuthentications == 1)
        try await client.authenticate(user1, pin: pin, accessCode: code50)
        #expect(try await client.user(id: user1.identity)?.failedAuthentications == 0)
        try await client.prepareAuthentication(for: user1, accessCode: "1234")
        await expectError(MPinError.self, code: .invalidAccessCode) { try await client.authenticate(user1, pin: pin, accessCode: "1234") }
        n = await recording.expectSent(Array(50...61), from: n)
        let code62 = try await client.accessCode(authorizationURL: entries[62].request.url)
        try await client.prepareAuthentication(for: user1, accessCode: code62)
        for wrong: UInt32 in [1111, 2222] {
            await #expect(throws: MPinError(.incorrectPIN, "")) { try await client.authenticate(user1, pin: MPin.PIN(wrong), accessCode: code62) }
        }
        await #expect(throws: MPinError(.incorrectPIN, "", userBlocked: true)) {
            try await client.authenticate(user1, pin: MPin.PIN(3333), accessCode: code62)
        }
        let blocked = try #require(try await client.user(id: user1.identity))
        #expect(blocked.state == .blocked && blocked.failedAuthentications == 3)
        await expectError(MPinError.self, code: .flowError) { try await client.authenticate(blocked, pin: pin, accessCode: code62) }
        n = await recording.expectSent(Array(62...72), from: n)

        // @TrustedDomains: a URL outside them is refused before sending; the whole flow inside.
        await client.addTrustedDomain("mpin.io")
        await client.addTrustedDomain("miracl.net")
        await expectError(MPinError.self, code: .untrustedDomain) { _ = try await client.serviceDetails(for: "https://mcl.example.com#x") }
        await expectError(MPinError.self, code: .untrustedDomain) { _ = try await client.serviceDetails(for: "http://mcl.dev.mpin.io#x") }
        _ = try await client.serviceDetails(for: "https://mcl.dev.mpin.io#275889c0a07f4490b192c7afdeb4c194")
        let code74 = try await client.accessCode(authorizationURL: entries[74].request.url)
        _ = try await client.sessionDetails(accessCode: code74)
        try await client.abortSession(accessCode: code74)
        let code77 = try await client.accessCode(authorizationURL: entries[77].request.url)
        var user5 = try await client.startRegistration(for: try await client.makeUser(identity: "testUser5@example.com"), accessCode: code77)
        user5 = try await client.finishRegistration(for: try await client.confirmRegistration(for: user5), pin: pin)
        try await client.prepareAuthentication(for: user5, accessCode: code77)
        try await client.authenticate(user5, pin: pin, accessCode: code77)
        n = await recording.expectSent(Array(73...84), from: n)
        await client.removeAllTrustedDomains()

        // @Misc: the recording stops after the first D-TA share (#88) and after pass 2 (#97,
        // #100, #103); our client goes on to the unrecorded request, which the replay cannot
        // answer — a transport error, with everything up to it checked.
        try await client.setBackend(Self.api)
        let code86 = try await client.accessCode(authorizationURL: entries[86].request.url)
        let misc2 = try await client.startRegistration(for: try await client.makeUser(identity: "misc2@example.com"), accessCode: code86)
        await expectError(MPinError.self, code: .transport) { _ = try await client.confirmRegistration(for: misc2) }
        #expect(try await client.user(id: misc2.identity)?.state == .startedRegistration)
        n = await recording.expectSent([85, 86, 87, 88], from: n, unrecorded: 1)
        let code89 = try await client.accessCode(authorizationURL: entries[89].request.url)
        var misc3 = try await client.startRegistration(for: try await client.makeUser(identity: "misc3@example.com"), accessCode: code89)
        misc3 = try await client.finishRegistration(for: try await client.confirmRegistration(for: misc3), pin: pin)
        let code93 = try await client.accessCode(authorizationURL: entries[93].request.url)
        try await client.prepareAuthentication(for: misc3, accessCode: code93)
        n = await recording.expectSent(Array(89...94), from: n)
        for first in [95, 98, 101] {
            let code = try await client.accessCode(authorizationURL: entries[first].request.url)
            await expectError(MPinError.self, code: .transport) { try await client.authenticate(misc3, pin: pin, accessCode: code) }
            n = await recording.expectSent(Array(first...first + 2), from: n, unrecorded: 1)
        }
        #expect(await recording.replay.remaining == 0)
        #expect(recording.played.count == 103 && recording.entries.count == 104)
    }
}
