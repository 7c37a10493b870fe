// Every exchange of mpin_sdk_unit_tests_data.json (the 2016 MPinSDK core against an on-premise
// M-Pin server with time permits) that an MPinMFA-generation client makes, replayed through
// MPinClient: relative URLs in the client settings, registration without an access code, time
// permits from the first D-TA, the storage cache's 404 and the second D-TA, pass 1 with UT, OTPs,
// access numbers, and the 401/410/412 answers. Used: 91 of 99; the 8 listed below are requests
// the browser, the relying party or the older SDK's logout made, or an empty identity.

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
struct OnPremiseReplayTests {
    static let backend = "http://10.10.40.62:8005"
    static let unusable = [
        22: "PUT /rps/user with an empty userId: MPinClient refuses an empty identity before sending",
        71: "POST /rps/getAccessNumber: the browser asks for the access number, not the device",
        77: "POST /rps/accessnumber: the browser polls for the authOTT of its access number",
        78: "POST /mpinAuthenticate from the browser with the polled authOTT (the relying party's login)",
        80: "POST /logout: the 2016 MPinSDK's Logout, which MPinMFA does not have",
        84: "POST /rps/getAccessNumber: the browser, as #71",
        97: "POST /rps/accessnumber: the browser, as #77 (answered 401 after the wrong PIN)",
        98: "POST /mpinAuthenticate with an empty mpinResponse: the browser, as #78",
    ]

    @Test func everyDeviceExchangeIsReplayed() async throws {
        let recording = try RecordedReplay(file: "mpin_sdk_unit_tests_data.json", unusable: Self.unusable)
        let entries = recording.entries
        // The lab server spoke plain HTTP; the recordings are of 11 October 2016 (day 17085).
        let configuration = MPinClient.Configuration(urlPolicy: .insecureAllowingPlainHTTPForReplayTests,
                                                     clock: { Date(timeIntervalSince1970: 1_476_194_300) })
        let store = try makeTemporaryStore("mpin-onprem")
        let client = MPinClient(configuration: configuration, store: store, transport: recording.transport)
        let pin = try #require(MPin.PIN(decimal: "1234"))
        var n = 0

        try await client.setBackend(Self.backend)
        let settings = try #require(await client.settings)
        #expect(settings.usePermits && settings.authServerURL == Self.backend + "/rps" && settings.authenticateURL == Self.backend + "/mpinAuthenticate")
        #expect(settings.mobileAuthenticateURL == Self.backend + "/rps/authenticate" && settings.certivoxURL == "https://mpinapi-qa.certivox.org/v3/")
        _ = try await client.testBackend("https://m-pindemo.certivox.org")
        await expectError(MPinError.self, code: .transport) { try await client.testBackend("https://blabla.certivox.org") }
        await expectError(MPinError.self, code: .transport) { try await client.setBackend("https://blabla.certivox.org") }
        try await client.setBackend(Self.backend)
        n = await recording.expectSent([0, 1, 2, 3, 4], from: n)

        // Users: registration needs no access code here; times arrive as ISO texts.
        for identity in ["testUser", "testUser"] + (0...9).map({ "testUser00\($0)" }) + ["testUser"] {
            let user = try await client.startRegistration(for: try await client.makeUser(identity: identity), accessCode: nil)
            #expect(user.state == .startedRegistration && user.registrationExpiration != nil)
        }
        n = await recording.expectSent(Array(5...17), from: n)

        // Registration, incl. a restart-free second attempt and the refused empty identity.
        // Each of the original tests made "testUser" afresh: here the old one is deleted first.
        func fresh(_ identity: String = "testUser") async throws -> MPinUser {
            if let old = try await client.user(id: identity) { try await client.deleteUser(old) }
            return try await client.makeUser(identity: identity)
        }
        func register(_ identity: String = "testUser") async throws -> MPinUser {
            let started = try await client.startRegistration(for: try await fresh(identity), accessCode: nil)
            return try await client.finishRegistration(for: try await client.confirmRegistration(for: started), pin: pin)
        }
        _ = try await register()
        _ = try await client.startRegistration(for: try await fresh(), accessCode: nil)
        await expectError(MPinError.self, code: .invalidInput) { _ = try await client.makeUser(identity: "") }
        _ = try await register()
        n = await recording.expectSent(Array(18...21) + [23, 24, 25], from: n)

        // testAuthenticate1: permits (first D-TA, the cache's 404, the second D-TA), then four
        // authentications on the one cached permit: right, right, wrong (401), right.
        var user = try await register()
        try await client.prepareAuthentication(for: user)
        for wrong in [false, false, true, false] {
            if wrong {
                await #expect(throws: MPinError(.incorrectPIN, "")) { try await client.authenticate(user, pin: MPin.PIN(1235), accessCode: nil) }
            } else {
                try await client.authenticate(user, pin: pin, accessCode: nil)
            }
        }
        n = await recording.expectSent(Array(26...43), from: n, echoedMPinResponse: true)

        // testAuthenticate2: three wrong PINs, the third blocks (410).
        user = try await register()
        try await client.prepareAuthentication(for: user)
        for wrong: UInt32 in [1111, 1112] {
            await #expect(throws: MPinError(.incorrectPIN, "")) { try await client.authenticate(user, pin: MPin.PIN(wrong), accessCode: nil) }
        }
        await #expect(throws: MPinError(.incorrectPIN, "", userBlocked: true)) { try await client.authenticate(user, pin: MPin.PIN(1113), accessCode: nil) }
        #expect(try await client.user(id: "testUser")?.state == .blocked)
        n = await recording.expectSent(Array(44...58), from: n, echoedMPinResponse: true)

        // testAuthenticateOTP
        user = try await register()
        try await client.prepareAuthentication(for: user)
        let otp = try await client.generateOTP(for: user, pin: pin)
        #expect(otp.code == "612614" && otp.timeToLive == 60)
        n = await recording.expectSent(Array(59...67), from: n, echoedMPinResponse: true)

        // testAuthenticateAN1/AN2: access numbers go to mobileAuthenticateURL; 412 for a stale
        // one, 401 for a wrong PIN.
        user = try await register()
        try await client.prepareAuthentication(for: user, accessCode: "4241703")
        try await client.authenticate(user, pin: pin, accessCode: "4241703")
        n = await recording.expectSent([68, 69, 70, 72, 73, 74, 75, 76, 79], from: n, echoedMPinResponse: true)
        user = try await register()
        try await client.prepareAuthentication(for: user, accessCode: "6419791")
        await expectError(MPinError.self, code: .invalidAccessCode) { try await client.authenticate(user, pin: pin, accessCode: "6419791") }
        await expectError(MPinError.self, code: .invalidAccessCode) { try await client.authenticate(user, pin: MPin.PIN(1233), accessCode: "6419791") }
        await #expect(throws: MPinError(.incorrectPIN, "")) { try await client.authenticate(user, pin: MPin.PIN(1235), accessCode: "6418791") }
        n = await recording.expectSent([81, 82, 83, 85, 86, 87] + Array(88...96), from: n, echoedMPinResponse: true)

        #expect(await recording.replay.remaining == 0)
        #expect(recording.played.count == 91 && entries.count == 99)
    }
}
