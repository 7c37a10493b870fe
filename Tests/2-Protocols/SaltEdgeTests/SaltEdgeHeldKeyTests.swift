// A connection key held outside the process (docs/protocols/saltedge-v2.md §2–§5 with `HeldConnectionKey`): the
// core signs and decrypts through it exactly as with a software key, folds a block the holder
// refuses into the one decryption error, and reports a holder that cannot be used as
// `keyUnavailable` — never as a bad answer. The holder here behaves as a PKCS #11 token does
// (explicit PKCS #1 v1.5 decryption, nil for a bad block, an error when "unplugged"); the real
// tokens (SoftHSM2, swtpm) run the same calls in the Servers end-to-end matrix.

import CryptoPrimitives
import Foundation
import ProtocolSupport
import SaltEdge
import Synchronization
import Testing
import ClientTestSupport
import TestSupport

/// A token stand-in: the test's connection key, answering as `C_Sign`/`C_Decrypt` would, and
/// counting private operations.
final class TokenLikeKey: SaltEdge.HeldConnectionKey, Sendable {
    let privateKey: RSA.Signing.PrivateKey
    let unplugged = Atomic<Bool>(false)
    let operations = Atomic<Int>(0)

    init(_ privateKey: RSA.Signing.PrivateKey) { self.privateKey = privateKey }

    var publicKey: RSA.Signing.PublicKey { privateKey.publicKey }

    func signSHA256PKCS1(_ message: [UInt8]) throws(ProtocolError) -> RSA.Signing.RSASignature {
        try check()
        do { return try privateKey.signature(for: message, padding: .pkcs1v1_5) } catch { throw ProtocolError(error, "sign") }
    }

    func decryptPKCS1v15(_ block: [UInt8], messageByteCount: Int?) throws(ProtocolError) -> SecretBytes? {
        try check()
        guard let message = try? RSA.Encryption.PrivateKey(sameKeyAs: privateKey).decrypt(block, padding: .insecurePKCS1v1_5),
              messageByteCount.map({ message.count == $0 }) ?? true else { return nil }  // CKR_ENCRYPTED_DATA_INVALID: no message
        return SecretBytes(message)
    }

    private func check() throws(ProtocolError) {
        operations.add(1, ordering: .relaxed)
        if unplugged.load(ordering: .relaxed) {
            throw ProtocolError(keyUnavailable: TestFailure("CKR_TOKEN_NOT_PRESENT"), "the token is not present")
        }
    }
}

struct TestFailure: Error, Sendable, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

@Suite struct SaltEdgeHeldKeyTests {
    let token = TokenLikeKey(SaltEdgeTestServer.keys.connection)
    var connectionKey: SaltEdge.ConnectionKey { SaltEdge.ConnectionKey(held: token) }

    @Test func aHeldKeyShowsNoKeyAndItsPublicHalf() {
        #expect(connectionKey.softwareKey == nil && connectionKey.heldKey != nil)
        #expect(connectionKey.publicKey.modulus == SaltEdgeTestServer.keys.connection.publicKey.modulus)
        #expect("\(connectionKey)" == "SaltEdge.ConnectionKey(2048 bits, held)")
    }

    /// §3.3: what the test server encrypts decrypts, with exactly two private operations.
    @Test func aBundleDecryptsThroughTheHolderInTwoOperations() throws {
        let bundle = try SaltEdgeTestServer.encrypt(#"{"title":"Pay"}"#, to: token.publicKey, seed: 21)
        let before = token.operations.load(ordering: .relaxed)
        let plaintext = try SaltEdge.EncryptedBundle(key: try #require(bundle["key"]), iv: try #require(bundle["iv"]),
                                                     data: try #require(bundle["data"])).decrypt(with: connectionKey)
        #expect(plaintext == Array(#"{"title":"Pay"}"#.utf8))
        #expect(token.operations.load(ordering: .relaxed) - before == 2)
    }

    /// §3.3: every way a bundle can fail is the one decryption error, as with a software key.
    @Test func everyBrokenBundleIsTheOneDecryptionError() throws {
        let good = try SaltEdgeTestServer.encrypt("{}", to: token.publicKey, seed: 22)
        let other = try SaltEdgeTestServer.encrypt("{}", to: SaltEdgeTestServer.keys.provider.publicKey, seed: 23)
        let (key, iv, data) = (try #require(good["key"]), try #require(good["iv"]), try #require(good["data"]))
        let broken: [SaltEdge.EncryptedBundle] = [
            .init(key: "", iv: iv, data: data),
            .init(key: iv, iv: key, data: data),
            .init(key: try #require(other["key"]), iv: iv, data: data),
            .init(key: key, iv: iv, data: String(data.dropLast(6)) + "AAAA\n"),
        ]
        for bundle in broken {
            let error = expectError(code: .decryptionFailed) { try bundle.decrypt(with: connectionKey) }
            #expect(error?.message == "decryption failed")
        }
    }

    /// §4: the access token in one block and in two, decrypted by the holder.
    @Test func theAccessTokenDecryptsThroughTheHolder() throws {
        var random = SeededRandomSource(seed: 24)
        let recipient = RSA.Encryption.PublicKey(sameKeyAs: token.publicKey)
        let one = try recipient.encrypt(Array(#"{"access_token":"secret-token"}"#.utf8), padding: .insecurePKCS1v1_5, using: &random)
        let redirect = SaltEdge.AccessTokenRedirect.success(connectionID: "1", encryptedAccessToken: Base64.encode(one))
        #expect(try redirect.accessToken(with: connectionKey).rawRepresentation == SecretBytes("secret-token".utf8))
        let first = try recipient.encrypt(Array(#"{"access_token":"ab"#.utf8), padding: .insecurePKCS1v1_5, using: &random)
        let second = try recipient.encrypt(Array(#"xyz"}"#.utf8), padding: .insecurePKCS1v1_5, using: &random)
        let chunked = SaltEdge.AccessTokenRedirect.success(connectionID: "1", encryptedAccessToken: Base64.encode(first + second))
        #expect(try chunked.accessToken(with: connectionKey).rawRepresentation == SecretBytes("abxyz".utf8))
        let foreign = SaltEdge.AccessTokenRedirect.success(connectionID: "1", encryptedAccessToken: Base64.encode(first.reversed()))
        expectError(code: .decryptionFailed) { try foreign.accessToken(with: connectionKey) }
    }

    /// §5.2: a request signed through the holder verifies with the test server's own verifier.
    @Test func aSignedRequestVerifiesAtTheServer() throws {
        let connection = SaltEdge.Connection(id: "333", providerID: "1", scaServiceURL: "https://sca.example.com/base", key: connectionKey,
                                             accessToken: .init(rawRepresentation: SecretBytes("tok-1".utf8)),
                                             providerPublicKey: RSA.Encryption.PublicKey(sameKeyAs: SaltEdgeTestServer.keys.provider.publicKey))
        let requests = SaltEdge.Requests(connection: connection, client: .linux(app: "mfa", version: "1.0", build: "7", system: "Debian 13"))
        let request = try requests.updatePushToken("a/b", now: Date(timeIntervalSince1970: 1_615_456_800))
        let signature = try #require(request.header("x-jws-signature"))
        #expect(SaltEdgeTestServer.verify(signature: signature, body: try #require(request.body), connectionPublicKey: token.publicKey))
    }

    /// A holder that cannot be used is `keyUnavailable` with its own error kept — for a bundle,
    /// the access token and a signature alike — not a decryption failure.
    @Test func anUnpluggedHolderIsKeyUnavailableNotABadAnswer() throws {
        let bundle = try SaltEdgeTestServer.encrypt("{}", to: token.publicKey, seed: 25)
        token.unplugged.store(true, ordering: .relaxed)
        let encrypted = SaltEdge.EncryptedBundle(key: try #require(bundle["key"]), iv: try #require(bundle["iv"]), data: try #require(bundle["data"]))
        let error = expectError(code: .keyUnavailable) { try encrypted.decrypt(with: connectionKey) }
        #expect((error?.keyError as? TestFailure)?.description == "CKR_TOKEN_NOT_PRESENT")
        let redirect = SaltEdge.AccessTokenRedirect.success(connectionID: "1", encryptedAccessToken: try #require(bundle["key"]))
        expectError(code: .keyUnavailable) { try redirect.accessToken(with: connectionKey) }
        expectError(code: .keyUnavailable) { try SaltEdge.detachedSignature(for: Array("{}".utf8), with: connectionKey) }
    }
}
