// The server's answers that clients of every version depend on, each pinned by a test that
// failed before its fix: the status answer of a 3.0 client (no challenge: a zero IV and no
// nonce, docs/protocols/powerauth.md §6.1), the bounds of the look-ahead window (§6.3, it travels in one byte of
// the status blob), and the keystore request's HS256 checked on all 32 bytes (§10, RFC 7518 §3.2).

import CryptoPrimitives
import Foundation
import PowerAuth
import PowerAuthServer
import ProtocolSupport
import Testing
import ClientTestSupport
import TestSupport

@Suite struct PowerAuthServerStatusAndKeystoreTests {
    // MARK: §6.1 status for 3.0 clients: no challenge, zero IV, no nonce.

    @Test func serverAnswersAStatusRequestWithoutAChallenge() throws {
        let server = try PowerAuthTestServer(version: .v3_0, seed: 3001)
        var random = SeededRandomSource(seed: 3002)
        let possessionUnlock = SymmetricKey(data: [UInt8](repeating: 5, count: 16))
        let activation = try server.activatedClient(password: SecretBytes("1234".utf8), possessionUnlockKey: possessionUnlock, random: &random)
        let body = Array(#"{"requestObject":{"activationId":"\#(activation.activationID)"}}"#.utf8)
        let response = try server.status(HTTPRequest(method: .post, path: "pa/v3/activation/status", body: body))
        #expect(response.status == 200)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        let object = try #require(json["responseObject"] as? [String: Any])
        #expect(object["nonce"] == nil)
        let blobText = try #require(object["encryptedStatusBlob"] as? String)
        let encrypted = Array(try #require(Data(base64Encoded: blobText)))
        let transport = try activation.transportKey(possessionUnlockKey: possessionUnlock)
        let blob = try AES.UnauthenticatedCBC.decrypt(encrypted, using: transport, iv: [UInt8](repeating: 0, count: 16), padding: .none)
        #expect(Array(blob[0..<4]) == [0xDE, 0xC0, 0xDE, 0xD1])
        #expect(blob[4] == PowerAuth.ActivationState.active.rawValue && blob[13] == 0 && blob[14] == 5)
        // With a challenge the same server still answers the 3.1+ way, which the client reads.
        let pending = try PowerAuth.PendingStatus(activationID: activation.activationID, using: &random)
        #expect(try pending.process(try server.status(pending.request), transportKey: transport).state == .active)
        // A challenge that is not 16 bytes is refused.
        let short = Array(#"{"requestObject":{"activationId":"\#(activation.activationID)","challenge":"AAAA"}}"#.utf8)
        #expect(throws: ProtocolError(.malformedInput, "")) { try server.status(HTTPRequest(method: .post, path: "pa/v3/activation/status", body: short)) }
    }

    @Test func lookAheadWindowIsValidatedWhenSet() throws {
        let server = try PowerAuthTestServer(version: .v3_3, seed: 402)
        var random = SeededRandomSource(seed: 403)
        let unlock = SymmetricKey(data: [UInt8](repeating: 6, count: 16))
        _ = try server.activatedClient(password: SecretBytes("1234".utf8), possessionUnlockKey: unlock, random: &random)
        var activation = try #require(server.activation)
        for bad in [-1, 0, 65, 256, Int.max] {
            #expect(throws: ProtocolError(.invalidArgument, "")) { try activation.setLookAheadWindow(bad) }
        }
        try activation.setLookAheadWindow(64)
        #expect(activation.lookAheadWindow == 64)
    }

    // MARK: RFC 7518 §3.2: the server's HS256 check wants all 32 bytes.

    @Test func keystoreRequestWithATruncatedMACIsRefused() throws {
        let server = try PowerAuthTestServer(version: .v3_3, seed: 406)
        var random = SeededRandomSource(seed: 407)
        let pending = try PowerAuth.PendingKeystore(configuration: server.configuration, using: &random)
        let temporary = try P256.KeyAgreement.PrivateKey(using: &random).publicKey
        func answer(_ request: HTTPRequest) throws -> HTTPResponse? {
            try PowerAuthServer.keystoreAnswer(request, application: server.application, temporaryKey: temporary, temporaryKeyID: "t", now: 1_000)
        }
        #expect(try answer(pending.request) != nil)
        // Cut the MAC to its first 16 bytes (22 Base64url characters): RFC 2104 would allow it.
        let text = String(decoding: pending.request.body ?? [], as: UTF8.self)
        let jwt = try #require(text.split(separator: "\"").first { $0.split(separator: ".").count == 3 })
        let parts = jwt.split(separator: ".")
        let truncated = parts[0] + "." + parts[1] + "." + parts[2].prefix(22)
        let body = Array(text.replacingOccurrences(of: String(jwt), with: String(truncated)).utf8)
        #expect(try answer(HTTPRequest(method: .post, path: "pa/v3/keystore/create", body: body)) == nil)
    }
}
