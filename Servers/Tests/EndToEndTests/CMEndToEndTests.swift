// The CM Authenticator client over real HTTP on 127.0.0.1 against mfa-server's CM service.
// Over TLS with pins enforced by the package's TLSTransport: register → SMS code → environment QR → instant
// request → approve → OTP request shown → deny → an expired request never shown → 410 and 401
// typed → unregister. A pin that does not match refuses the connection before a request is
// sent; a list signed by another key pins nothing and the client fails closed. Over plain HTTP:
// garbage bodies, 503 and a server that is gone are typed errors and the store stays intact.

import AuthNetworking
import CMAuthenticator
import CMAuthenticatorSDK
import CryptoPrimitives
import Foundation
import MFAServerCore
import TLS
import TLSTransport
import ProtocolSupport
import SecureStore
import ServiceLifecycle
import Testing
import URLSessionTransport

/// mfa-server with its CM service (over TLS with `identity`) running for the duration of `body`.
func withCMServer(tls identity: TestTLSIdentity? = nil, port: Int = 0, cm: CMStandIn? = nil,
                  _ body: (String, CMStandIn) async throws -> Void) async throws {
    let cm = try cm ?? CMStandIn(listKey: TestKeys.cmList)
    if let identity { await cm.setPins([(identity.certificateSHA256Hex, identity.spkiSHA256Base64)]) }
    try await withRunning({ try MFAServer.application(port: port, powerAuth: try PowerAuthStandIn(), cm: cm, tls: identity,
                                                      onRunning: $0) }) { url in try await body(url, cm) }
}

extension EndToEnd {
    @Suite struct CMEndToEndTests {
        static let device = CMAuthenticator.DeviceDescription(manufacturer: "Raspberry Pi", osVersion: "Debian 12", appVersion: "0.5 (1)",
                                                              appID: "com.example.authenticator", languageCode: "en", model: "Pi 4",
                                                              modelID: "rpi4", platform: "Linux", appKey: "app-key-1")

        static func store() throws -> SecureStore {
            try SecureStore(directory: FileManager.default.temporaryDirectory.appendingPathComponent("cm-\(UUID().uuidString)").path)
        }

        /// An admin call to the stand-in (over TLS trusting `identity` when given).
        static func admin(_ url: String, _ path: String, _ object: [String: Any] = [:], identity: TestTLSIdentity? = nil) async throws -> [String: Any] {
            let transport: any HTTPTransport = identity.map { TLSTransport(configuration: Self.trusting($0, url)) } ?? TestTrust.transport(url)
            let body = Array(try JSONSerialization.data(withJSONObject: object))
            let response = try await transport.send(HTTPRequest(method: .post, path: "integration/cm/" + path,
                                                                headers: [HTTPHeader("Content-Type", "application/json")], body: body))
            return try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any] ?? [:]
        }

        /// TLSTransport's configuration for `url`, trusting the identity's root.
        static func trusting(_ identity: TestTLSIdentity, _ url: String) -> TLSTransport.Configuration {
            var configuration = TLSTransport.Configuration(baseURL: url)
            configuration.trust = .anchors(TrustAnchors(pemBundle: identity.rootPEM))
            return configuration
        }

        /// A client of the TLS service at `url`, pins enforced (by the package's TLSTransport, the
        /// clients' default, here trusting the identity's root), trusting the stand-in's list key.
        static func pinnedClient(_ store: SecureStore, url: String, identity: TestTLSIdentity, listKey: RSA.Signing.PublicKey) throws -> CMAuthenticatorClient {
            let root = TrustAnchors(pemBundle: identity.rootPEM)
            return try CMAuthenticatorClient(configuration: .init(baseURL: url + "/cm", device: device, pinning: .enforced(listKey: listKey)), store: store,
                                             transport: .tls { $0.trust = .anchors(root) })
        }

        static func listKey(_ url: String, identity: TestTLSIdentity) async throws -> RSA.Signing.PublicKey {
            let der = try #require(try await admin(url, "list-key", identity: identity)["spki_der_base64"] as? String)
            return try RSA.Signing.PublicKey(derRepresentation: try Base64.decode(der))
        }

        @Test func registerLinkApproveShowOTPDenyAndUnregister() async throws {
            let identity = try TestTrust.identity()
            try await withCMServer(tls: identity) { url, cm in
                #expect(url.hasPrefix("https://"))
                let store = try Self.store()
                defer { try? FileManager.default.removeItem(atPath: store.directory) }
                let client = try Self.pinnedClient(store, url: url, identity: identity, listKey: try await Self.listKey(url, identity: identity))
                let admin = { (path: String, object: [String: Any]) in try await Self.admin(url, path, object, identity: identity) }

                // Phone registration with the SMS code; the pins were fetched, verified and cached.
                #expect(try await client.register(phoneNumber: "+31 6 0123 4567") == .pending)
                let deviceID = try #require(try await client.deviceID)
                let code = try #require(try await admin("sms", ["device_id": deviceID])["code"] as? String)
                #expect(try await client.verify(code: code) == .verified)
                #expect(try await client.deviceStatus() == .verified)
                let pins = try #require(try await client.certificatePins())
                #expect(pins.certificateSHA256 == [try Hex.decode(identity.certificateSHA256Hex)])
                try await client.updatePushToken(nil, pushEnabled: false)
                #expect(try await admin("sms", ["device_id": deviceID])["push_enabled"] as? Bool == false)

                // An environment from its QR code, named from the server's list.
                let environment = try await admin("environment", ["name": "Example web shop"])
                let environmentID = try #require(environment["environment_id"] as? String)
                let stored = try await client.addEnvironment(qrCode: try #require(environment["qr_code"] as? String))
                #expect(stored.id == environmentID && stored.name == "Example web shop")
                #expect(try await client.linkedEnvironments().map(\.id) == [environmentID])

                // An instant request appears in the poll and is approved.
                var updates = client.requestUpdates(every: .milliseconds(200)).makeAsyncIterator()
                #expect(try await updates.next()?.isEmpty == true)
                let instant = try #require(try await admin("request", ["environment_id": environmentID, "device_id": deviceID])["auth_id"] as? String)
                var seen: [PendingAuthentication] = []
                while seen.isEmpty { seen = try #require(try await updates.next()) }
                #expect(seen.map(\.request.id) == [instant] && seen[0].request.kind == .instant && seen[0].environmentName == "Example web shop")
                #expect(try await client.approve(seen[0]) == "approved")
                #expect(try await admin("request/status", ["auth_id": instant])["auth_status"] as? String == "approved")

                // An OTP request is shown with the server's PIN until it expires; it cannot be answered.
                let otp = try await admin("request", ["environment_id": environmentID, "device_id": deviceID, "auth_type": "otp", "expiry": 90])
                let shown = try #require(try await client.pendingRequest(environmentID: environmentID))
                guard case .oneTimePIN(let pin) = shown.request.kind else { Issue.record("not an OTP request"); return }
                #expect(pin.displayText == otp["pin"] as? String && "\(pin)".contains("redacted"))
                #expect(shown.request.expiresAt == shown.request.createdAt.addingTimeInterval(90))
                await #expect(throws: CMClientError.self) { try await client.approve(shown) }
                _ = try await admin("request/status", ["auth_id": try #require(otp["auth_id"] as? String), "expire": true])

                // Deny another; an expired one is never shown; one the server expired is 410, typed.
                let denied = try #require(try await admin("request", ["environment_id": environmentID, "device_id": deviceID])["auth_id"] as? String)
                let toDeny = try #require(try await client.pendingRequest(environmentID: environmentID))
                #expect(toDeny.request.id == denied)
                #expect(try await client.deny(toDeny) == "denied")
                _ = try await admin("request", ["environment_id": environmentID, "device_id": deviceID, "age": 200, "expiry": 120])
                #expect(try await client.pendingRequests().isEmpty)
                let late = try #require(try await admin("request", ["environment_id": environmentID, "device_id": deviceID])["auth_id"] as? String)
                let lateRequest = try #require(try await client.pendingRequest(environmentID: environmentID))
                _ = try await admin("request/status", ["auth_id": late, "expire": true])
                do {
                    try await client.approve(lateRequest)
                    Issue.record("an expired request was answered")
                } catch let error as CMClientError {
                    #expect(error.code == .requestExpired && error.httpStatus == 410, "\(error)")
                } catch {
                    Issue.record("not a typed error: \(error)")
                }

                // A QR code with the wrong secret is refused by the server: 401, typed, nothing stored.
                do {
                    _ = try await client.addEnvironment(qrCode: environmentID + ",not-the-secret")
                    Issue.record("a wrong secret linked an environment")
                } catch let error as CMClientError {
                    #expect(error.code == .environmentInvalid && error.httpStatus == 401, "\(error)")
                } catch {
                    Issue.record("not a typed error: \(error)")
                }

                // Unregister: gone on the server and here.
                try await client.unregisterEnvironment(id: environmentID)
                #expect(try await client.linkedEnvironments().isEmpty)
                #expect(try await client.environments().isEmpty)
                #expect(await cm.deviceCount == 1)
            }
        }

        @Test func aWrongPinOrAnUnverifiedListRefusesTheConnection() async throws {
            let identity = try TestTrust.identity()
            try await withCMServer(tls: identity) { url, cm in
                let listKey = try await Self.listKey(url, identity: identity)
                // The list pins another certificate: the TLS handshake is refused, no request is sent.
                let other = try TestTrust.identity()
                await cm.setPins([(other.certificateSHA256Hex, other.spkiSHA256Base64)])
                let store = try Self.store()
                defer { try? FileManager.default.removeItem(atPath: store.directory) }
                let client = try Self.pinnedClient(store, url: url, identity: identity, listKey: listKey)
                do {
                    try await client.register(phoneNumber: "+31601234567")
                    Issue.record("a connection matching no pin was used")
                } catch let error as CMClientError {
                    #expect(error.code == .pinning && error.transportError?.kind == .tls, "\(error)")
                } catch {
                    Issue.record("not a typed error: \(error)")
                }
                #expect(await cm.deviceCount == 0)

                // The list verifies under no trusted key: nothing is pinned and the client fails closed.
                await cm.setPins([(identity.certificateSHA256Hex, identity.spkiSHA256Base64)])
                let elsewhere = try Self.store()
                defer { try? FileManager.default.removeItem(atPath: elsewhere.directory) }
                let untrusting = try Self.pinnedClient(elsewhere, url: url, identity: identity,
                                                       listKey: TestKeys.saltEdgeProvider.publicKey)
                do {
                    try await untrusting.register(phoneNumber: "+31601234567")
                    Issue.record("an unverified list was trusted")
                } catch let error as CMClientError {
                    #expect(error.code == .pinning, "\(error)")
                } catch {
                    Issue.record("not a typed error: \(error)")
                }
                #expect(await cm.deviceCount == 0)

                // With the right pin the same client goes through.
                #expect(try await client.certificatePins(refresh: true) != nil)
                #expect(try await client.register(phoneNumber: "+31601234567") == .pending)
                #expect(await cm.deviceCount == 1)
            }
        }
    }
}
