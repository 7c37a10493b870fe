// Answers a real Salt Edge server may give that the happy path never shows (saltedge-v2.md
// §6.1, §6.5, §6.6, §9–§11): list items that name no connection are dropped (as Salt Edge's
// Android client drops them) without hiding the others; a closed authorization is reported as
// gone, not as one that "does not decrypt"; revoking a connection the server has already
// forgotten still removes it here, while a revoke refused for another reason keeps it; and a
// configuration that is not API v2 is refused.

import AuthNetworking
import Foundation
import ProtocolSupport
import SaltEdge
import SaltEdgeSDK
import Testing
import ClientTestSupport
import TestSupport

@Suite(.enabled(if: SaltEdgeVectors.isAvailable, "needs ../shared/vectors/saltedge"))
struct SaltEdgeServerAnswerTests {
    /// §6.6: items whose `connection_id` is empty, null or missing are left out; the rest decrypt.
    @Test func listItemsWithoutAConnectionAreDropped() async throws {
        let f = try SaltEdgeClientFixture.make()
        try await f.storeConnection()
        let live = SaltEdgeProviderStandIn.authorization(title: "Live", code: "a")
        let items = [
            try await f.provider.item(id: 1, status: "pending", plaintext: live),
            try await f.provider.item(id: 2, status: "pending", plaintext: live, connectionID: .string("")),
            try await f.provider.item(id: 3, status: "pending", plaintext: live, connectionID: .null),
            try await f.provider.item(id: 4, status: "pending", plaintext: live, connectionID: nil),
            try await f.provider.item(id: 5, status: "pending", plaintext: live, connectionID: .string("333")),
        ]
        await f.provider.setLists([JSONText.object([("data", .array(items))]).bytes])
        #expect(try await f.client.authorizations(connectionID: "333").map(\.id) == ["1", "5"])
    }

    /// A `connection_id` of the wrong type is still a malformed answer, not a dropped item.
    @Test func aConnectionIDOfTheWrongTypeIsMalformed() async throws {
        let f = try SaltEdgeClientFixture.make()
        try await f.storeConnection()
        let item = try await f.provider.item(id: 1, status: "pending", plaintext: nil, connectionID: .bool(true))
        await f.provider.setLists([JSONText.object([("data", .array([item]))]).bytes])
        await expectError(SaltEdgeClientError.self, code: .invalidResponse) { try await f.client.authorizations(connectionID: "333") }
    }

    /// §9: `closed` means the authorization is gone; showing it says so.
    @Test func aClosedAuthorizationIsReportedAsGone() async throws {
        let f = try SaltEdgeClientFixture.make()
        try await f.storeConnection()
        await f.provider.setShown(try await f.provider.item(id: 7, status: "closed", plaintext: nil))
        let error = await expectError(SaltEdgeClientError.self, code: .server) { try await f.client.authorization(id: "7", connectionID: "333") }
        #expect(error?.message.contains("closed") == true)
        #expect(try await f.client.authorizationStatus(id: "7", connectionID: "333") == .closed)
    }

    /// §6.5, §10: the server already says `ConnectionNotFound`: nothing is left to revoke, and
    /// the record and its key go as after a revoke that succeeded.
    @Test func revokingAConnectionTheServerForgotRemovesIt() async throws {
        let f = try SaltEdgeClientFixture.make()
        try await f.storeConnection()
        await f.provider.revoke()
        try await f.client.revokeConnection(id: "333")
        #expect(try await f.client.connection(id: "333") == nil)
    }

    /// §6.5: the revoke is a signed PUT of `{"data":{},"exp":N}`; once the server has revoked
    /// it, the record goes.
    @Test func aRevokeIsSignedAndRemovesTheConnection() async throws {
        let f = try SaltEdgeClientFixture.make()
        try await f.storeConnection()
        try await f.client.revokeConnection(id: "333")
        let sent = try #require(await f.provider.signedRequests.last)
        #expect(sent.request.method == .put && sent.request.path == "api/authenticator/v2/connections/333/revoke")
        #expect(sent.signatureIsValid && sent.expiresAt == Int64(SaltEdgeClientFixture.now.timeIntervalSince1970) + 300)
        #expect(await f.provider.isRevoked)
        #expect(try await f.client.connection(id: "333") == nil)
    }

    /// A revoke the server refuses for another reason keeps the connection, so the user can try
    /// again: a 500, and a bare 401 whose class does not say the connection is gone.
    @Test(arguments: [(500, "InternalServerError"), (401, "UserNotFound"), (401, "")])
    func aRevokeRefusedForAnotherReasonKeepsTheConnection(status: Int, errorClass: String) async throws {
        let f = try SaltEdgeClientFixture.make()
        try await f.storeConnection()
        let body = errorClass.isEmpty ? Array("unauthorized".utf8) : SaltEdgeProviderStandIn.error(status, errorClass).body
        await f.provider.refuseRevoke(with: HTTPResponse(status: status, body: body))
        await expectError(SaltEdgeClientError.self, code: .server) { try await f.client.revokeConnection(id: "333") }
        #expect(try await f.client.connection(id: "333")?.isActive == true)
    }

    /// §6.1: `api_version` "2" and "2.0" are read; "1", "3", "2.", "2.x" and "" are refused.
    @Test func onlyAVersion2ConfigurationIsRead() async throws {
        let provider = try SaltEdgeProviderStandIn()
        let body = String(decoding: await provider.configuration().body ?? [], as: UTF8.self)
        #expect(body.contains(#""api_version":"2""#))
        for (version, accepted) in [("2", true), ("2.0", true), ("2.10", true), ("1", false), ("3", false), ("2.", false), ("2.x", false), ("20", false), ("", false)] {
            let changed = Array(body.replacingOccurrences(of: #""api_version":"2""#, with: #""api_version":"\#(version)""#).utf8)
            if accepted {
                #expect(try SaltEdge.ProviderConfiguration(responseBody: changed).apiVersion == version)
            } else {
                #expect(throws: ProtocolError.self, "api_version \(version)") { try SaltEdge.ProviderConfiguration(responseBody: changed) }
            }
        }
    }
}
