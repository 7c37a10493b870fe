// Enrolment end to end against the in-process provider (docs/protocols/saltedge-v2.md §4, §6.1, §6.2):
// `beginConnection` fetches the configuration and sends the new key pair's public half encrypted
// to the provider key; `completeConnection` decrypts the redirect's RSA-encrypted access token
// with the pending key, stores the connection and drops the pending record; refused or foreign
// redirects store nothing. Real store on disk; the vector keys and redirect of
// ../shared/vectors/saltedge where they fit.

import CryptoPrimitives
import Foundation
import ProtocolSupport
import SaltEdge
import SaltEdgeSDK
import Testing
import ClientTestSupport
import TestSupport

@Suite(.enabled(if: SaltEdgeVectors.isAvailable, "needs ../shared/vectors/saltedge"))
struct SaltEdgeEnrolmentTests {
    /// One `beginConnection` shared by the tests that need a generated key pair (RSA-2048 key
    /// generation takes tens of seconds unoptimised); each test reads only its own part of it.
    struct Begun: Sendable {
        let fixture: SaltEdgeClientFixture
        let pending: PendingConnection
    }

    static let begun = Task { () async throws -> Begun in
        let fixture = try SaltEdgeClientFixture.make(seed: 3)
        return Begun(fixture: fixture, pending: try await fixture.client.beginConnection(deepLink: SaltEdgeProviderStandIn.connectLink))
    }

    /// §6.2: the provider decrypts, with its private key, exactly the PEM of the key pair the
    /// client keeps for the pending connection.
    @Test func beginConnectionSendsTheNewPublicKeyEncryptedToTheProvider() async throws {
        let begun = try await Self.begun.value
        #expect(begun.pending.id == "333" && begun.pending.authenticationURL == "https://provider.example.com/auth/333")
        #expect(await begun.fixture.provider.receivedPublicKeyPEM == begun.pending.key.publicKeyPEM)
        #expect(await begun.fixture.provider.createConnectionData["connect_query"] == "A12345678")
    }

    /// §6.1, §6.2: configuration then create-connection, neither with an access token or a signature.
    @Test func enrolmentRequestsAreUnauthenticated() async throws {
        let sent = Array(await (try await Self.begun.value).fixture.transport.sent.prefix(2))
        #expect(sent.map(\.method) == [.get, .post])
        #expect(sent.map(\.path) == ["", "api/authenticator/v2/connections"])
        #expect(sent.allSatisfy { $0.header("Access-Token") == nil && $0.header("x-jws-signature") == nil })
    }

    /// §4 with the vector redirect: the token decrypts with the pending key and the connection is
    /// stored active.
    @Test func completeConnectionDecryptsTheVectorRedirect() async throws {
        let f = try SaltEdgeClientFixture.make()
        try await f.storePendingConnection()
        let (redirect, token) = try SaltEdgeClientFixture.vectorRedirect()
        let stored = try await f.client.completeConnection(id: "333", redirectURL: redirect)
        #expect(stored.connection.accessToken == SaltEdge.AccessToken(rawRepresentation: SecretBytes(token.utf8)))
        #expect(stored.isActive)
        #expect(try await f.client.connections().map(\.id) == ["333"])
    }

    /// Completing consumes the pending record: the same redirect a second time finds nothing.
    @Test func completeConnectionDropsThePendingRecord() async throws {
        let f = try SaltEdgeClientFixture.make()
        try await f.storePendingConnection()
        let (redirect, _) = try SaltEdgeClientFixture.vectorRedirect()
        _ = try await f.client.completeConnection(id: "333", redirectURL: redirect)
        await expectError(SaltEdgeClientError.self, code: .unknownConnection) {
            try await f.client.completeConnection(id: "333", redirectURL: redirect)
        }
    }

    /// One rule for every client's lookups: a connection that is not stored is nil, and only an
    /// operation that needs it fails, with `unknownConnection`.
    @Test func aMissingConnectionIsNilToALookupAndUnknownToAnOperation() async throws {
        let f = try SaltEdgeClientFixture.make()
        #expect(try await f.client.connection(id: "333") == nil)
        await expectError(SaltEdgeClientError.self, code: .unknownConnection) { try await f.client.renameConnection(id: "333", to: "Bank") }
        await expectError(SaltEdgeClientError.self, code: .unknownConnection) { try await f.client.revokeConnection(id: "333") }
        await expectError(SaltEdgeClientError.self, code: .unknownConnection) { _ = try await f.client.authorizations(connectionID: "333") }
    }

    /// connect → redirect → complete with a freshly generated key: the token the provider
    /// encrypted to the key it received is the one the next call carries.
    @Test func connectThenCompleteCarriesTheNewTokenOnTheNextCall() async throws {
        let begun = try await Self.begun.value
        let (f, pending) = (begun.fixture, begun.pending)
        await f.provider.setAccessToken("fresh-token-9c1d")
        _ = try await f.client.completeConnection(id: pending.id, redirectURL: try await f.provider.redirect())
        #expect(try await f.client.authorizations(connectionID: pending.id).isEmpty)
        #expect(await f.transport.sent.last?.secretHeader("Access-Token") == SecretBytes("fresh-token-9c1d".utf8))
    }

    /// §4: a redirect with `error_class` is the provider's refusal, reported with its class; the
    /// connection stays pending, so a later good redirect still completes it.
    @Test func aRedirectWithAnErrorIsTheProvidersRefusal() async throws {
        let f = try SaltEdgeClientFixture.make()
        try await f.storePendingConnection()
        let refused = SaltEdge.defaultReturnURL + "?id=333&error_class=AuthenticationError&error_message=Denied"
        let error = await expectError(SaltEdgeClientError.self, code: .server) { try await f.client.completeConnection(id: "333", redirectURL: refused) }
        #expect(error?.errorClass == "AuthenticationError")
        #expect(try await f.client.connections().isEmpty)
        _ = try await f.client.completeConnection(id: "333", redirectURL: try SaltEdgeClientFixture.vectorRedirect().url)
    }

    /// A redirect naming another connection is refused and stores nothing.
    @Test func aRedirectForAnotherConnectionIsRefused() async throws {
        let f = try SaltEdgeClientFixture.make()
        try await f.storePendingConnection()
        let foreign = try SaltEdgeClientFixture.vectorRedirect().url.replacingOccurrences(of: "id=333", with: "id=334")
        await expectError(SaltEdgeClientError.self, code: .invalidInput) { try await f.client.completeConnection(id: "333", redirectURL: foreign) }
        #expect(try await f.client.connections().isEmpty)
    }
}
