// Authorizations end to end against the in-process provider (docs/protocols/saltedge-v2.md §5.2, §6.6, §6.7,
// §8, §9): the encrypted list decrypts with the connection key (the vector answer too), final and
// expired items are hidden, one that does not decrypt fails the call, polling yields each
// changed list and ends when the connection is gone; confirm and deny are checked on what the
// provider received — the detached JWS verified with the connection's public key over the exact
// body bytes, `exp`, and the decision decrypted with the provider key.

import AuthNetworking
import CryptoPrimitives
import Foundation
import ProtocolSupport
import SaltEdge
import SaltEdgeSDK
import Testing
import ClientTestSupport
import TestSupport

@Suite(.enabled(if: SaltEdgeVectors.isAvailable, "needs ../shared/vectors/saltedge"))
struct SaltEdgeAuthorizationFlowTests {
    /// The list response of derived_vectors.json (`authorizations_index_response`), encrypted to
    /// the iOS key, decrypts to its plaintext.
    @Test func theVectorListDecrypts() async throws {
        let f = try SaltEdgeClientFixture.make()
        try await f.storeConnection()
        let response = try #require(try SaltEdgeVectors.derived("authorizations_index_response")["response"])
        await f.provider.setLists([Array(try JSONSerialization.data(withJSONObject: response))])
        let list = try await f.client.authorizations(connectionID: "333")
        #expect(list.map(\.id) == ["444"])
        #expect(list.first?.title == "Payment confirmation")
        #expect(list.first?.description.text == "Pay 10.00 EUR to Merchant")
        #expect(list.first?.authorizationCode == "vvUb5wXcHBN3cOxkRyNdsv5JIhJMKSPjH-GJg5qvtvY")
    }

    /// §5.1, §6 row 6: listing is a GET with the access token and no signature.
    @Test func listingCarriesTheAccessTokenAndNoSignature() async throws {
        let f = try SaltEdgeClientFixture.make()
        try await f.storeConnection()
        _ = try await f.client.authorizations(connectionID: "333")
        let sent = try #require(await f.transport.sent.last)
        #expect(sent.method == .get && sent.path == "api/authenticator/v2/authorizations")
        #expect(sent.secretHeader("Access-Token") == SecretBytes("3b1f8c2e9a7d4e60b5c1".utf8))
        #expect(sent.header("x-jws-signature") == nil && sent.body == nil)
    }

    /// §9: final items (no bundle) and items past `expires_at` by the client's clock are not shown.
    @Test func finalAndExpiredAuthorizationsAreHidden() async throws {
        let f = try SaltEdgeClientFixture.make()
        try await f.storeConnection()
        let items = [
            try await f.provider.item(id: 1, status: "pending", plaintext: SaltEdgeProviderStandIn.authorization(title: "Live", code: "a")),
            try await f.provider.item(id: 2, status: "confirmed", plaintext: nil),
            try await f.provider.item(id: 3, status: "closed", plaintext: nil),
            try await f.provider.item(id: 4, status: "pending",
                                      plaintext: SaltEdgeProviderStandIn.authorization(title: "Late", code: "b", expiresAt: "2021-03-11T10:01:00Z")),
        ]
        await f.provider.setLists([JSONText.object([("data", .array(items))]).bytes])
        #expect(try await f.client.authorizations(connectionID: "333").map(\.id) == ["1"])
    }

    /// §3.3: an item that does not decrypt (the iOS fixture with a broken `iv`) fails the call
    /// instead of being left out silently.
    @Test func anAuthorizationThatDoesNotDecryptIsAnError() async throws {
        let f = try SaltEdgeClientFixture.make()
        try await f.storeConnection()
        let broken = try SaltEdgeProviderStandIn.object(Array(try SaltEdgeVectors.text("ios-fixtures/incorrect_encrypted_data.json").utf8))
        var item = broken
        item["id"] = 5
        item["connection_id"] = 333
        item["status"] = "pending"
        await f.provider.setLists([Array(try JSONSerialization.data(withJSONObject: ["data": [item]]))])
        await expectError(SaltEdgeClientError.self, code: .invalidResponse) { try await f.client.authorizations(connectionID: "333") }
    }

    /// §9: the poller yields the first list at once and then only a changed one.
    @Test func pollingYieldsEachChangedList() async throws {
        let f = try SaltEdgeClientFixture.make()
        try await f.storeConnection()
        let item = try await f.provider.item(id: 444, status: "pending", plaintext: SaltEdgeProviderStandIn.authorization(title: "Pay", code: "c"))
        let empty = Array(#"{"data":[]}"#.utf8)
        await f.provider.setLists([empty, empty, JSONText.object([("data", .array([item]))]).bytes])
        let clock = RecordingClock()
        var updates = f.client.authorizationUpdates(connectionID: "333", every: .seconds(3), clock: clock).makeAsyncIterator()
        let first = try await updates.next()
        let second = try await updates.next()
        #expect(first?.map(\.id) == [])
        #expect(second?.map(\.id) == ["444"])
        #expect(await f.transport.count == 3)   // the unchanged second list was fetched, not yielded
        #expect(clock.sleeps == [.seconds(3), .seconds(3)])  // the waits were the caller's clock's
    }

    /// §10: once the provider answers `ConnectionNotFound`, polling ends with that error and the
    /// stored connection is marked inactive.
    @Test func pollingEndsWhenTheConnectionIsGone() async throws {
        let f = try SaltEdgeClientFixture.make()
        try await f.storeConnection()
        var updates = f.client.authorizationUpdates(connectionID: "333", every: .milliseconds(100)).makeAsyncIterator()
        _ = try await updates.next()
        await f.provider.revoke()
        let error = await expectError(SaltEdgeClientError.self, code: .server) { try await updates.next() }
        #expect(error?.errorClass == "ConnectionNotFound" && error?.connectionIsGone == true)
        #expect(try await f.client.connection(id: "333")?.isActive == false)
    }

    /// §5.2: `x-jws-signature` verifies with the connection's public key over the exact body
    /// bytes sent, and not over the same body with one byte changed.
    @Test func confirmIsSignedOverTheExactBodyBytes() async throws {
        let f = try SaltEdgeClientFixture.make()
        let authorization = try await f.listedAuthorization()
        _ = try await f.client.confirm(authorization)
        let received = try #require(await f.provider.signedRequests.first)
        #expect(received.signatureIsValid)
        let body = try #require(received.request.body)
        let signature = try #require(received.request.header("x-jws-signature"))
        let connectionKey = try SaltEdgeVectors.connectionKey().publicKey
        #expect(SaltEdge.isValidDetachedSignature(signature, for: body, publicKey: connectionKey))
        var altered = body
        altered[altered.count - 2] ^= 0x01   // a digit of `exp`
        #expect(!SaltEdge.isValidDetachedSignature(signature, for: altered, publicKey: connectionKey))
    }

    /// §5.2: the signed body carries `exp` = the client's clock + 300 s.
    @Test func confirmCarriesExpFiveMinutesAhead() async throws {
        let f = try SaltEdgeClientFixture.make()
        _ = try await f.client.confirm(try await f.listedAuthorization())
        #expect(await f.provider.signedRequests.first?.expiresAt == 1_615_456_900 + 300)
    }

    /// §6.7, §8: the provider decrypts the decision with its key and finds the decrypted
    /// authorization code echoed exactly; the status it answers is returned.
    @Test func confirmSendsTheEchoedCodeEncryptedToTheProvider() async throws {
        let f = try SaltEdgeClientFixture.make()
        let status = try await f.client.confirm(try await f.listedAuthorization(code: "c0de/+="), unlockedWith: .biometrics)
        #expect(status == .confirmProcessing)
        let received = try #require(await f.provider.signedRequests.first)
        #expect(received.request.method == .put && received.request.path == "api/authenticator/v2/authorizations/444/confirm")
        #expect(received.payload == #"{"authorization_code":"c0de/+=","user_authorization_type":"biometrics","geolocation":""}"#)
    }

    /// §6.7: deny goes to `…/deny`, signed, with the same payload shape; `deny_processing` is returned.
    @Test func denySendsTheDecisionToTheDenyPath() async throws {
        let f = try SaltEdgeClientFixture.make()
        let status = try await f.client.deny(try await f.listedAuthorization(code: "d3ny"))
        #expect(status == .denyProcessing)
        let received = try #require(await f.provider.signedRequests.first)
        #expect(received.signatureIsValid)
        #expect(received.request.path == "api/authenticator/v2/authorizations/444/deny")
        #expect(received.payload == #"{"authorization_code":"d3ny","user_authorization_type":"passcode","geolocation":""}"#)
    }
}
