// The Salt Edge client over real HTTP on 127.0.0.1 against mfa-server's provider:
// link → connect → poll →
// an authorization appears (an expired one never does) → confirm (the provider decrypts the
// decision and checks the code; the JWS is verified over the exact body) → deny another →
// instant action → consent revoke → connection revoke → the poll ends. A connection the bank
// revoked is a typed error and marked inactive in the store.

import CryptoPrimitives
import Foundation
import MFAServerCore
import ProtocolSupport
import SaltEdge
import SaltEdgeSDK
import SecureStore
import Testing
import URLSessionTransport

extension EndToEnd {
    @Suite struct SaltEdgeEndToEndTests {
        static func client(_ store: SecureStore) -> SaltEdgeAuthenticatorClient {
            SaltEdgeAuthenticatorClient(configuration: .init(urlPolicy: .insecureAllowingPlainHTTPToLoopback), store: store,
                                        transport: .perBaseURL { URLSessionTransport(configuration: ActivatedClient.quiet($0)) })
        }

        static func admin(_ url: String, _ path: String, _ object: [String: Any] = [:]) async throws -> [String: Any] {
            try await integration(url, "integration/saltedge/" + path, object)
        }

        /// Links a connection the way a user does: the deep link, then the bank's page, whose body
        /// here is the redirect, then the redirect back to the client.
        static func connect(_ client: SaltEdgeAuthenticatorClient, url: String) async throws -> StoredConnection {
            let link = try #require(try await admin(url, "connect-link")["deep_link"] as? String)
            let pending = try await client.beginConnection(deepLink: link)
            let page = try await URLSessionTransport(configuration: ActivatedClient.quiet(pending.authenticationURL)).send(HTTPRequest(method: .get, path: ""))
            return try await client.completeConnection(id: pending.id, redirectURL: String(decoding: page.body, as: UTF8.self))
        }

        @Test func linkPollDecideAndRevoke() async throws {
            try await withSaltEdgeServer { url, _ in
                let store = try SecureStore(directory: FileManager.default.temporaryDirectory.appendingPathComponent("se-\(UUID().uuidString)").path)
                defer { try? FileManager.default.removeItem(atPath: store.directory) }
                let client = Self.client(store)
                let connection = try await Self.connect(client, url: url)
                #expect(try await client.connections().map(\.id) == [connection.id] && connection.isActive)
                #expect(connection.name == "mfa-server bank")

                // Poll: an expired authorization never shows; a fresh one does.
                var updates = client.authorizationUpdates(connectionID: connection.id, every: .milliseconds(200)).makeAsyncIterator()
                #expect(try await updates.next()?.isEmpty == true)
                _ = try await Self.admin(url, "authorization", ["connection_id": connection.id, "expires_in": -10, "title": "expired"])
                let created = try await Self.admin(url, "authorization", ["connection_id": connection.id, "title": "Pay 10.00 EUR to Alice"])
                let first = try #require(created["authorization_id"] as? Int)
                var seen: [SaltEdge.Authorization] = []
                while seen.isEmpty { seen = try #require(try await updates.next()) }
                #expect(seen.map(\.id) == [String(first)] && seen[0].title == "Pay 10.00 EUR to Alice")
                #expect(seen[0].authorizationCode == created["authorization_code"] as? String)

                // Confirm: the provider decrypted the decision and matched the code.
                #expect(try await client.confirm(seen[0]) == .confirmed)
                let recorded = try await Self.admin(url, "authorization/status", ["authorization_id": first])
                let decision = try #require(recorded["decision"] as? [String: Any])
                #expect(recorded["status"] as? String == "confirmed" && decision["user_authorization_type"] as? String == "passcode"
                        && decision["geolocation"] as? String == "")

                // Deny another, with a location.
                let second = try #require(try await Self.admin(url, "authorization", ["connection_id": connection.id])["authorization_id"] as? Int)
                let authorization = try await client.authorization(id: String(second), connectionID: connection.id)
                #expect(try await client.deny(authorization, geolocation: try SaltEdge.Geolocation(latitude: "52.506931", longitude: "13.144558")) == .denied)
                let denied = try await Self.admin(url, "authorization/status", ["authorization_id": second])
                #expect((denied["decision"] as? [String: Any])?["geolocation"] as? String == "GEO:52.506931;13.144558")
                #expect(try await client.authorizations(connectionID: connection.id).isEmpty)

                // An instant action needs a decision on the authorization it creates.
                let link = try #require(try await Self.admin(url, "action")["deep_link"] as? String)
                guard case .needsDecision(let actionAuthorization, let actionConnection, _) = try await client.submitAction(deepLink: link) else {
                    Issue.record("the action needed no decision")
                    return
                }
                #expect(actionConnection == connection.id)
                let fromAction = try await client.authorization(id: actionAuthorization, connectionID: connection.id)
                #expect(try await client.confirm(fromAction) == .confirmed)

                // Consents: listed decrypted, revoked.
                _ = try await Self.admin(url, "consent", ["connection_id": connection.id, "tpp_name": "Budget app"])
                let consents = try await client.consents(connectionID: connection.id)
                #expect(consents.map(\.tppName) == ["Budget app"])
                try await client.revokeConsent(id: consents[0].id, connectionID: connection.id)
                #expect(try await client.consents(connectionID: connection.id).isEmpty)

                // Revoke: the server says so, the record is gone, and the poll ends with an error.
                try await client.revokeConnection(id: connection.id)
                #expect(try await Self.admin(url, "connection", ["connection_id": connection.id])["revoked"] as? Bool == true)
                #expect(try await client.connections().isEmpty)
                await #expect(throws: SaltEdgeClientError.self) { while try await updates.next() != nil {} }
            }
        }

        @Test func aConnectionTheBankRevokedIsTypedAndMarkedInactive() async throws {
            try await withSaltEdgeServer { url, _ in
                let store = try SecureStore(directory: FileManager.default.temporaryDirectory.appendingPathComponent("se-\(UUID().uuidString)").path)
                defer { try? FileManager.default.removeItem(atPath: store.directory) }
                let client = Self.client(store)
                let connection = try await Self.connect(client, url: url)
                _ = try await Self.admin(url, "connection", ["connection_id": connection.id, "revoke": true])
                do {
                    _ = try await client.authorizations(connectionID: connection.id)
                    Issue.record("a revoked connection listed authorizations")
                } catch let error as SaltEdgeClientError {
                    #expect(error.code == .server && error.errorClass == "ConnectionRevoked" && error.httpStatus == 401 && error.connectionIsGone,
                            "\(error)")
                } catch {
                    Issue.record("not a SaltEdgeClientError: \(error)")
                }
                #expect(try await client.connection(id: connection.id)?.isActive == false)
                // A redirect carrying an error is the provider's refusal, typed.
                let link = try #require(try await Self.admin(url, "connect-link")["deep_link"] as? String)
                let pending = try await client.beginConnection(deepLink: link)
                do {
                    _ = try await client.completeConnection(id: pending.id, redirectURL: "authenticator://oauth/redirect?id=\(pending.id)&error_class=AccessDenied")
                    Issue.record("a refused redirect made a connection")
                } catch let error as SaltEdgeClientError {
                    #expect(error.code == .server && error.errorClass == "AccessDenied", "\(error)")
                } catch {
                    Issue.record("not a SaltEdgeClientError: \(error)")
                }
            }
        }
    }
}
