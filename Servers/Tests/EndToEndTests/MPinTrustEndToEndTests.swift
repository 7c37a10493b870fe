// MIRACL Trust (API v2) as the second platform mode of the same MPinClient, against
// mfa-server's `/trust/…` over 127.0.0.1: JWKS → verify
// by e-mail → register (a key pair made on the device; every identity signs) → web login with
// an access code → a JWT for the app's backend, checked against the JWKS → a quick code a second
// device registers with → a signing session completed and one declined → the relying party
// verifies → what Trust lacks (OTP, in-app authorization codes, a separate DVS registration) is
// a flow error → wrong PINs until REVOKED_MPINID blocks the user.

import AuthNetworking
import CryptoPrimitives
import Foundation
import MFAServerCore
import MPinSDK
import MPinPlatform
import MPin
import ProtocolSupport
import SecureStore
import Testing
import URLSessionTransport

extension EndToEnd {
    @Suite struct MPinTrustEndToEndTests {
        static func client(_ store: SecureStore) -> MPinClient {
            MPinClient(configuration: MPinClient.Configuration(platform: .trust(projectID: "mfa-server-project"), urlPolicy: .insecureAllowingPlainHTTPToLoopback),
                       store: store, transport: .perBaseURL { origin in URLSessionTransport(configuration: ActivatedClient.quiet(origin)) })
        }

        @Test func registerLogInQuickCodeSigningSessionsAndBlock() async throws {
            try await withMPinServer { url, _ in
                let client = Self.client(try MPinHarness.store())
                try await client.setBackend(url + "/trust")
                let pin = MPin.PIN(246_810)

                let user = try await MPinHarness.registeredUser(client, url: url, identity: "zoe@example.com", pin: pin)
                #expect(user.state == .registered && user.canSign && !user.mpinID.isEmpty)

                // A browser session, then a JWT for the app's own backend (checked against the JWKS).
                let accessCode = try #require(try await MPinHarness.admin(url, "session")["accessCode"] as? String)
                try await client.authenticate(user, pin: pin, accessCode: accessCode)
                #expect(try await MPinHarness.admin(url, "session-status", ["accessCode": accessCode])["authenticatedUser"] as? String == "zoe@example.com")
                let jwt = try await client.authenticationJWT(for: user, pin: pin)
                let claims = try #require(try JSONSerialization.jsonObject(with: Data(try Base64.decode(jwt.split(separator: ".")[1], alphabet: .urlSafe,
                                                                                                      padded: false))) as? [String: Any])
                #expect(claims["sub"] as? String == "zoe@example.com" && claims["scope"] as? String == "jwt")
                var forged = Array(jwt.utf8)
                forged[forged.count / 2] ^= 0x01
                await #expect(throws: MPinError(.invalidResponse, "")) { try await client.verify(String(decoding: forged, as: UTF8.self)) }

                // A quick code; a second device registers with it and logs in.
                let quick = try await client.generateRegistrationCode(for: user, pin: pin)
                let second = Self.client(try MPinHarness.store())
                try await second.setBackend(url + "/trust")
                var other = try await second.startRegistration(for: try await second.makeUser(identity: "zoe@example.com"), accessCode: nil,
                                                               registrationCode: quick.code)
                other = try await second.finishRegistration(for: try await second.confirmRegistration(for: other), pin: MPin.PIN(1111))
                _ = try await second.authenticationJWT(for: other, pin: MPin.PIN(1111))

                // Signing sessions: one signed (the platform verified it), one declined.
                let hash = MPin.DVS.documentHash(of: "Contract #42")
                let id = try #require(try await MPinHarness.admin(url, "signing-session", ["userId": "zoe@example.com", "hash": Hex.encode(hash),
                                                                                           "description": "Contract #42"])["id"] as? String)
                #expect(try await client.signingSession(id: id).description == "Contract #42")
                let signature = try await client.completeSigningSession(id: id, for: user, pin: pin)
                #expect(try await MPinHarness.admin(url, "signing-session-status", ["id": id])["status"] as? String == "signed")
                let verdict = try await MPinHarness.post(url, "trust/dvs/verify", [
                    "signature": ["hash": Hex.encode(signature.hash), "mpinId": signature.mpinID, "publicKey": Hex.encode(signature.publicKey),
                                  "u": Hex.encode(signature.u), "v": Hex.encode(signature.v)],
                    "timestamp": Int(signature.timestamp), "type": "verification"])
                #expect(verdict.0 == 200)
                let declined = try #require(try await MPinHarness.admin(url, "signing-session", ["userId": "zoe@example.com", "hash": Hex.encode(hash),
                                                                                                 "description": "Another"])["id"] as? String)
                try await client.abortSigningSession(id: declined)
                #expect(try await MPinHarness.admin(url, "signing-session-status", ["id": declined])["status"] as? String == "aborted")

                // What MIRACL Trust does not have.
                await #expect(throws: MPinError(.flowError, "")) { _ = try await client.generateOTP(for: user, pin: pin) }
                await #expect(throws: MPinError(.flowError, "")) { try await client.startSigningRegistration(for: user, pin: pin) }

                // Wrong PINs: UNSUCCESSFUL_AUTHENTICATION twice, then REVOKED_MPINID blocks the user.
                for attempt in 1...3 {
                    do {
                        _ = try await client.authenticationJWT(for: user, pin: MPin.PIN(999_999))
                        Issue.record("a wrong PIN was accepted")
                    } catch let error as MPinError {
                        #expect(error.code == .incorrectPIN && error.userBlocked == (attempt == 3))
                        #expect(error.platformCode == (attempt == 3 ? "REVOKED_MPINID" : "UNSUCCESSFUL_AUTHENTICATION"))
                    }
                }
                #expect(try await client.user(id: "zoe@example.com")?.state == .blocked)
            }
        }
    }
}
