// The §6.4 counter synchronisation acted on (a client far ahead sends the possession-only
// synchronisation signature; a deadlock is reported and refuses to sign), and what a signed
// DELETE is signed over (docs/protocols/powerauth.md §7.2). The networking service's concurrency strategies
// are tested in PowerAuthNetworkingTests.

import ClientTestSupport
import AuthNetworking
import CryptoPrimitives
import Foundation
import PowerAuth
import PowerAuthSDK
import PowerAuthServer
import ProtocolSupport
import SecureStore
import Testing
import TestSupport

@Suite struct PowerAuthCounterAndQueueTests {
    // MARK: Counter synchronisation (§6.4)

    @Test func clientTwelveAheadSendsThePossessionOnlySynchronisationSignature() async throws {
        var fixture = try SDKFixture.make(seed: 21)
        defer { fixture.cleanUp() }
        _ = try await fixture.activate()
        #expect(try await fixture.client.fetchActivationStatus(possessionUnlockKey: fixture.possession).counterSynchronization == .synchronized)
        try fixture.advanceClientCounter(by: 12)  // 12 signatures that never reached the server (window 20)
        let status = try await fixture.client.fetchActivationStatus(possessionUnlockKey: fixture.possession)
        #expect(status.counterSynchronization == .signatureRecommended && !status.isDeadlocked)
        let validations = fixture.server.validations
        #expect(validations.count == 1)
        #expect(validations.first?.factors == "possession")
        #expect(validations.first?.body == #"{"requestObject":{"reason":"COUNTER_SYNCHRONIZATION"}}"#)
        #expect(validations.first?.valid == true)
        #expect(fixture.server.paths.suffix(2) == ["pa/v3/activation/status", "pa/v3/signature/validate"])
        // The server moved forward: the next status is in step and no attempt failed.
        #expect(try await fixture.client.fetchActivationStatus(possessionUnlockKey: fixture.possession).counterSynchronization == .synchronized)
        #expect(fixture.server.failedAttempts == 0)
    }

    @Test func clientTwentyOneAheadIsReportedDeadlockedAndRefusesToSign() async throws {
        var fixture = try SDKFixture.make(seed: 22)
        defer { fixture.cleanUp() }
        let authentication = try await fixture.activate()
        try fixture.advanceClientCounter(by: 21)  // past the look-ahead window of 20
        let status = try await fixture.client.fetchActivationStatus(possessionUnlockKey: fixture.possession)
        #expect(status.isDeadlocked && status.counterSynchronization == .deadlock)
        #expect(status.state == .active)  // the server's own state; the deadlock is the client's
        let requestsBefore = fixture.server.requests.count
        // Every way of signing is refused locally with the typed reason; nothing reaches the server.
        do {
            _ = try await fixture.client.requestSignature(method: "POST", uriID: "/pay", body: [], factors: .possessionKnowledge,
                                                          authentication: authentication)
            Issue.record("a deadlocked activation signed")
        } catch {
            #expect(error.code == .counterDeadlock)
            #expect(error.message.contains("remove the activation"))
        }
        do {
            try await fixture.client.validatePassword(SecretBytes("1234".utf8), possessionUnlockKey: fixture.possession)
            Issue.record("a deadlocked activation validated a password")
        } catch {
            #expect(error.code == .counterDeadlock)
        }
        // Another client on the same store (another process) refuses too.
        let other = try PowerAuthClient(configuration: fixture.client.configuration, store: fixture.store, transport: .single(fixture.server))
        do {
            _ = try await other.sendSignedRequest(HTTPRequest(method: .post, path: "api/item", body: [1]), uriID: "/api/item", factors: .possession,
                                                  authentication: authentication)
            Issue.record("a second client signed for a deadlocked activation")
        } catch {
            #expect(error.code == .counterDeadlock)
        }
        #expect(fixture.server.requests.count == requestsBefore)
        #expect(fixture.server.failedAttempts == 0)
        // Removing the activation locally clears the state: a new activation signs again.
        try await fixture.client.removeActivationLocally()
        let again = try await fixture.activate()
        _ = try await fixture.client.requestSignature(method: "POST", uriID: "/pay", body: [], factors: .possession, authentication: again)
    }

    // MARK: Signed DELETE (§7.2)

    @Test func deleteIsSignedOverItsBodyNotItsQuery() async throws {
        var fixture = try SDKFixture.make(seed: 24)
        defer { fixture.cleanUp() }
        let authentication = try await fixture.activate()
        let body = Array(#"{"requestObject":{"itemId":"7"}}"#.utf8)
        let request = HTTPRequest(method: .delete, path: "api/item", query: [HTTPHeader("itemId", "7"), HTTPHeader("force", "true")], body: body)
        let response = try await fixture.client.sendSignedRequest(request, uriID: "/api/item", factors: .possession, authentication: authentication)
        #expect(response.status == 200)
        let deletions = fixture.server.deletions
        #expect(deletions.count == 1 && deletions.first?.valid == true && deletions.first?.signedOver == body)
        // The same header over the canonical query does not verify: the query is not what is signed.
        #expect(deletions.first?.queryValid == false)
    }
}
