// The MIRACL MFA client over real HTTP on 127.0.0.1 against mfa-server's M-Pin platform:
// QR → service → session → verify → register → web login
// with an access code → in-app login (the authorization code redeemed by the app's backend) →
// OTP → registration code → a second device registers with it → DVS register → sign → the
// relying party verifies → wrong PIN until blocked → delete. Faults in MPinFaultTests.

import AuthNetworking
import CryptoPrimitives
import Foundation
import MFAServerCore
import MPinSDK
import MPin
import ProtocolSupport
import SecureStore
import Testing
import URLSessionTransport

/// mfa-server with its M-Pin platform running for the duration of `body` (the server's URL).
func withMPinServer(port: Int = 0, tls: TestTLSIdentity? = nil, _ body: (String, MPinStandIn) async throws -> Void) async throws {
    let mpin = try MPinStandIn()
    try await withRunning({ try MFAServer.application(port: port, powerAuth: try PowerAuthStandIn(), mpin: mpin, tls: tls,
                                                      onRunning: $0) }) { url in
        try await body(url, mpin)
    }
}

enum MPinHarness {
    static func store() throws -> SecureStore {
        try SecureStore(directory: FileManager.default.temporaryDirectory.appendingPathComponent("mpin-e2e-\(UUID().uuidString)").path)
    }

    /// A client for the loopback stand-in (plain HTTP allowed to 127.0.0.1 only).
    static func client(_ store: SecureStore, trustedDomains: [String] = []) -> MPinClient {
        MPinClient(configuration: MPinClient.Configuration(clientID: "mfa-demo", trustedDomains: trustedDomains, urlPolicy: .insecureAllowingPlainHTTPToLoopback),
                   store: store, transport: .perBaseURL { origin in URLSessionTransport(configuration: ActivatedClient.quiet(origin)) })
    }

    /// A call to the stand-in's integration API, or any JSON POST below the server.
    static func post(_ url: String, _ path: String, _ object: [String: Any] = [:]) async throws -> (Int, [String: Any]) {
        let transport = TestTrust.transport(url)
        let response = try await transport.send(HTTPRequest(method: .post, path: path, headers: [HTTPHeader("Content-Type", "application/json")],
                                                            body: Array(try JSONSerialization.data(withJSONObject: object))))
        return (response.status, (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:])
    }

    static func admin(_ url: String, _ path: String, _ object: [String: Any] = [:]) async throws -> [String: Any] {
        try await post(url, "integration/mpin/" + path, object).1
    }

    /// A new user verified by e-mail and registered with `pin`.
    static func registeredUser(_ client: MPinClient, url: String, identity: String, pin: MPin.PIN) async throws -> MPinUser {
        let session = try await admin(url, "session")
        let accessCode = try #require(session["accessCode"] as? String)
        let user = try await client.makeUser(identity: identity, deviceName: "raspberry-pi")
        try await client.startVerification(for: user, accessCode: accessCode)
        #expect(try await client.user(id: identity)?.state == .startedVerification)
        let code = try #require(try await admin(url, "verification-code", ["userId": identity])["code"] as? String)
        let verification = try await client.finishVerification(for: user, code: code)
        var registered = try await client.startRegistration(for: user, accessCode: accessCode, registrationCode: verification.activationToken)
        #expect(registered.state == .startedRegistration)
        registered = try await client.confirmRegistration(for: registered)
        #expect(registered.state == .activated)
        return try await client.finishRegistration(for: registered, pin: pin, pinLength: 6)
    }
}

extension EndToEnd {
    @Suite struct MPinEndToEndTests {
        @Test func discoverRegisterLogInSignAndBlock() async throws {
            try await withMPinServer { url, _ in
                let store = try MPinHarness.store()
                let client = MPinHarness.client(store)
                let pin = try #require(MPin.PIN(decimal: "123456"))

                // QR → service → backend → session.
                let session = try await MPinHarness.admin(url, "session")
                let qr = try #require(session["qrURL"] as? String)
                let service = try await client.serviceDetails(for: qr)
                #expect(service.backendURL == url + "/mpin")
                try await client.setBackend(service.backendURL)
                let accessCode = try #require(MPinClient.accessCode(inQRText: qr))
                #expect(try await client.sessionDetails(accessCode: accessCode).customerName == "SwiftMFA")

                // Verify by e-mail, register, finish with the PIN.
                let user = try await MPinHarness.registeredUser(client, url: url, identity: "alice@example.com", pin: pin)
                #expect(user.state == .registered && user.pinLength == 6 && !user.canSign)

                // Web login with the access code of the browser's session.
                try await client.prepareAuthentication(for: user, accessCode: accessCode)
                try await client.authenticate(user, pin: pin, accessCode: accessCode)
                let status = try await MPinHarness.admin(url, "session-status", ["accessCode": accessCode])
                #expect(status["authenticatedUser"] as? String == "alice@example.com")

                // In-app login: the app's backend redeems the authorization code.
                let appCode = try await client.accessCode(authorizationURL: url + "/mpin/authorize?client_id=mfa-demo&response_type=code&scope=openid")
                try await client.prepareAuthentication(for: user, accessCode: appCode)
                let authorization = try await client.authorizationCode(for: user, pin: pin, accessCode: appCode)
                #expect(try await MPinHarness.admin(url, "authorization-code", ["code": authorization])["userId"] as? String == "alice@example.com")
                await #expect(throws: MPinError(.invalidInput, "")) {
                    _ = try await client.accessCode(authorizationURL: url + "/mpin/authorize?client_id=someone-else")
                }

                // OTP, then a registration code that a second device registers with.
                let otp = try await client.generateOTP(for: user, pin: pin)
                #expect(otp.code.count == 6 && otp.timeToLive == 90 && !otp.description.contains(otp.code))
                let registrationCode = try await client.generateRegistrationCode(for: user, pin: pin)
                let second = MPinHarness.client(try MPinHarness.store())
                try await second.setBackend(service.backendURL)
                var other = try await second.startRegistration(for: try await second.makeUser(identity: "alice@example.com"), accessCode: nil,
                                                               registrationCode: registrationCode.code)
                other = try await second.finishRegistration(for: try await second.confirmRegistration(for: other), pin: MPin.PIN(2222))
                let otherSession = try #require(try await MPinHarness.admin(url, "session")["accessCode"] as? String)
                try await second.authenticate(other, pin: MPin.PIN(2222), accessCode: otherSession)
                await #expect(throws: MPinError(.notAuthorized, "")) {    // a registration code is single-use (403)
                    _ = try await second.startRegistration(for: try await second.makeUser(identity: "bob@example.com"), accessCode: nil,
                                                           registrationCode: registrationCode.code)
                }

                // DVS: register a signing identity with its own PIN, sign, the relying party verifies.
                let signingPIN = MPin.PIN(987_654)
                try await client.startSigningRegistration(for: user, pin: pin)
                let signer = try await client.finishSigningRegistration(for: user, signingPIN: signingPIN)
                #expect(signer.canSign)
                let document = "Transfer 100 EUR to NL91ABNA0417164300"
                let hash = MPin.DVS.documentHash(of: document)
                #expect(client.isValidDocumentHash(hash, for: document) && !client.isValidDocumentHash(hash, for: document + "0"))
                let timestamp = Int32(Date().timeIntervalSince1970)
                let signature = try await client.sign(documentHash: hash, timestamp: timestamp, for: signer, pin: signingPIN)
                func verify(_ hash: [UInt8]) async throws -> Int {
                    try await MPinHarness.post(url, "mpin/dvs/verify", ["signature": ["hash": Hex.encode(hash), "mpinId": signature.mpinID,
                                                                                      "publicKey": Hex.encode(signature.publicKey),
                                                                                      "u": Hex.encode(signature.u), "v": Hex.encode(signature.v)],
                                                                        "timestamp": Int(timestamp), "type": "verification"]).0
                }
                #expect(try await verify(hash) == 200)
                #expect(try await verify(MPin.DVS.documentHash(of: "another document")) == 401)
                await #expect(throws: MPinError(.incorrectPIN, "")) {   // the login PIN is not the signing PIN
                    _ = try await client.sign(documentHash: hash, timestamp: timestamp, for: signer, pin: pin)
                }

                // Wrong PINs until the platform blocks the identity; the SDK's user follows.
                let fresh = try #require(try await MPinHarness.admin(url, "session")["accessCode"] as? String)
                for attempt in 1...3 {
                    do {
                        try await client.authenticate(signer, pin: MPin.PIN(111_111), accessCode: fresh)
                        Issue.record("a wrong PIN was accepted")
                    } catch let error as MPinError {
                        #expect(error.code == .incorrectPIN && error.userBlocked == (attempt == 3))
                    }
                }
                let blocked = try #require(try await client.user(id: "alice@example.com"))
                #expect(blocked.state == .blocked && !blocked.canSign)
                await #expect(throws: MPinError(.flowError, "")) { try await client.authenticate(blocked, pin: pin, accessCode: fresh) }

                // Delete: gone from the device, and the identity can be made again.
                try await client.deleteUser(blocked)
                #expect(try await client.users().isEmpty)
                #expect(try await client.makeUser(identity: "alice@example.com").state == .invalid)
            }
        }
    }
}
