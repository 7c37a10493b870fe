// Faults of the MIRACL MFA client against mfa-server over 127.0.0.1:
// an identity not verified yet, an expired registration, revoked time
// permits (a 503 on the permit request is not a revocation), an untrusted domain, a server that is gone and garbage bodies — each a typed error,
// and the users stored on the device unchanged by it.

import AuthNetworking
import CryptoPrimitives
import Foundation
import MFAServerCore
import MPinSDK
import MPin
import ProtocolSupport
import SecureStore
import Testing

extension EndToEnd {
    @Suite struct MPinFaultTests {
        /// Every record of the store, read raw: what "intact" is compared with.
        static func snapshot(_ store: SecureStore) throws -> [String: [UInt8]] {
            var records: [String: [UInt8]] = [:]
            for name in try store.names() { records[name] = try store.read(name).map { Array($0.unsafeExposedBytes) } }
            return records
        }

        @Test func notVerifiedThenVerifiedAndExpired() async throws {
            try await withMPinServer { url, _ in
                let store = try MPinHarness.store()
                let client = MPinHarness.client(store)
                try await client.setBackend(url + "/mpin")
                let accessCode = try #require(try await MPinHarness.admin(url, "session")["accessCode"] as? String)
                let user = try await client.startRegistration(for: try await client.makeUser(identity: "carol@example.com"), accessCode: accessCode)
                let before = try Self.snapshot(store)
                await #expect(throws: MPinError(.identityNotVerified, "")) { _ = try await client.confirmRegistration(for: user) }
                #expect(try Self.snapshot(store) == before)
                _ = try await MPinHarness.admin(url, "verify-identity", ["userId": "carol@example.com"])   // the e-mailed link, clicked
                #expect(try await client.confirmRegistration(for: user).state == .activated)

                let late = try await client.startRegistration(for: try await client.makeUser(identity: "dave@example.com"), accessCode: accessCode)
                _ = try await MPinHarness.admin(url, "expire-registrations")
                let stored = try Self.snapshot(store)
                await #expect(throws: MPinError(.registrationExpired, "")) { _ = try await client.confirmRegistration(for: late) }
                let dave = try await client.user(id: "dave@example.com")
                #expect(try Self.snapshot(store) == stored && dave?.state == .startedRegistration)
            }
        }

        @Test func revokedTimePermitsAreReportedBeforeThePIN() async throws {
            try await withMPinServer { url, _ in
                _ = try await MPinHarness.admin(url, "config", ["usePermits": true])
                let client = MPinHarness.client(try MPinHarness.store())
                try await client.setBackend(url + "/mpin")
                #expect(await client.settings?.usePermits == true)
                let pin = MPin.PIN(4321)
                let erin = try await MPinHarness.registeredUser(client, url: url, identity: "erin@example.com", pin: pin)
                try await client.prepareAuthentication(for: erin)          // permits from both D-TAs, cached for today
                try await client.authenticate(erin, pin: pin, accessCode: nil)
                let frank = try await MPinHarness.registeredUser(client, url: url, identity: "frank@example.com", pin: pin)
                // A 503 on the permit request says nothing of the identity: `.server`, not `.revoked`.
                _ = try await MPinHarness.admin(url, "fault", ["kind": "unavailable"])
                await #expect(throws: MPinError(.server, "")) { try await client.prepareAuthentication(for: frank) }
                _ = try await MPinHarness.admin(url, "fault", [:])
                _ = try await MPinHarness.admin(url, "revoke", ["userId": "frank@example.com"])
                await #expect(throws: MPinError(.revoked, "")) { try await client.prepareAuthentication(for: frank) }
                #expect(try await client.user(id: "frank@example.com")?.state == .registered)
            }
        }

        /// `body` fails with the refusal of an infinite sum itself, not with any invalid answer
        /// (a share that did not decode is `.invalidResponse` too).
        static func expectCancellingShares(_ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) async {
            do {
                try await body()
                Issue.record("shares that cancel were accepted", sourceLocation: sourceLocation)
            } catch let error as MPinError {
                #expect(error.code == .invalidResponse && error.message.contains("cancel out"), "\(error)", sourceLocation: sourceLocation)
            } catch {
                Issue.record("not an MPinError: \(error)", sourceLocation: sourceLocation)
            }
        }

        /// A hostile D-TA 2 sends the negation of D-TA 1's share: the sum is the point at infinity.
        /// Registration, the signing registration and time permits refuse it as an invalid
        /// answer (it once trapped the process), and nothing of it is stored.
        @Test func sharesThatCancelAreRefused() async throws {
            try await withMPinServer { url, _ in
                let store = try MPinHarness.store()
                let client = MPinHarness.client(store)
                try await client.setBackend(url + "/mpin")
                let pin = MPin.PIN(112_233)
                let ivan = try await MPinHarness.registeredUser(client, url: url, identity: "ivan@example.com", pin: pin)
                _ = try await MPinHarness.admin(url, "config", ["cancellingShares": true])

                let session = try #require(try await MPinHarness.admin(url, "session")["accessCode"] as? String)
                let judy = try await client.makeUser(identity: "judy@example.com", deviceName: "raspberry-pi")
                try await client.startVerification(for: judy, accessCode: session)
                let code = try #require(try await MPinHarness.admin(url, "verification-code", ["userId": "judy@example.com"])["code"] as? String)
                let verification = try await client.finishVerification(for: judy, code: code)
                let started = try await client.startRegistration(for: judy, accessCode: session, registrationCode: verification.activationToken)
                await Self.expectCancellingShares { _ = try await client.confirmRegistration(for: started) }
                #expect(try await client.user(id: "judy@example.com")?.state == .startedRegistration)

                try await client.startSigningRegistration(for: ivan, pin: pin)
                let before = try Self.snapshot(store)
                await Self.expectCancellingShares { _ = try await client.finishSigningRegistration(for: ivan, signingPIN: pin) }
                #expect(try Self.snapshot(store) == before)
                let unchanged = try await client.user(id: "ivan@example.com")
                #expect(unchanged?.canSign == false)

                _ = try await MPinHarness.admin(url, "config", ["usePermits": true])
                try await client.setBackend(url + "/mpin")   // the settings that now ask for permits
                #expect(await client.settings?.usePermits == true)
                let withoutPermit = try Self.snapshot(store)
                await Self.expectCancellingShares { try await client.prepareAuthentication(for: ivan) }
                #expect(try Self.snapshot(store) == withoutPermit)
                _ = try await MPinHarness.admin(url, "config", ["cancellingShares": false])
                try await client.prepareAuthentication(for: ivan)
                try await client.authenticate(ivan, pin: pin, accessCode: nil)
            }
        }

        @Test func untrustedDomainServerDownAndGarbage() async throws {
            try await withMPinServer { url, _ in
                // Trusted domains set: plain HTTP to 127.0.0.1 is refused before anything is sent.
                let guarded = MPinHarness.client(try MPinHarness.store(), trustedDomains: ["mpin.example.com"])
                await #expect(throws: MPinError(.untrustedDomain, "")) { try await guarded.setBackend(url + "/mpin") }
                #expect(try await MPinHarness.admin(url, "stats")["identities"] as? Int == 0)

                let store = try MPinHarness.store()
                let client = MPinHarness.client(store)
                try await client.setBackend(url + "/mpin")
                let pin = MPin.PIN(24680)
                let user = try await MPinHarness.registeredUser(client, url: url, identity: "grace@example.com", pin: pin)
                let before = try Self.snapshot(store)

                _ = try await MPinHarness.admin(url, "fault", ["kind": "garbage"])
                await #expect(throws: MPinError(.invalidResponse, "")) { _ = try await client.generateOTP(for: user, pin: pin) }
                _ = try await MPinHarness.admin(url, "fault", ["kind": "unavailable"])
                await #expect(throws: MPinError(.server, "")) { _ = try await client.generateOTP(for: user, pin: pin) }
                _ = try await MPinHarness.admin(url, "fault", [:])
                #expect(try Self.snapshot(store) == before)
                #expect(try await client.generateOTP(for: user, pin: pin).code.count == 6)
            }
            // The server is gone: a transport error, and the user stays registered.
            let store = try MPinHarness.store()
            let client = MPinHarness.client(store)
            var port = 0
            try await withMPinServer { url, _ in
                port = Int(url.split(separator: ":").last ?? "") ?? 0
                try await client.setBackend(url + "/mpin")
                _ = try await MPinHarness.registeredUser(client, url: url, identity: "heidi@example.com", pin: MPin.PIN(1357))
            }
            let before = try Self.snapshot(store)
            let user = try #require(try await client.user(id: "heidi@example.com"))
            await #expect(throws: MPinError(.transport, "")) { try await client.authenticate(user, pin: MPin.PIN(1357), accessCode: nil) }
            #expect(try Self.snapshot(store) == before && port > 0)
        }
    }
}
