// The server's recovery codes and offline signatures (docs/protocols/powerauth.md §3.3, §7.6, §13): postcard
// codes that need confirmation, use their PUKs in order and block after wrong ones; offline
// signatures of every digit count accepted once, and typos, other data and malformed digits
// refused and counted until the activation blocks.

import CryptoPrimitives
import Foundation
import PowerAuth
import PowerAuthServer
import ProtocolSupport
import Testing
import ClientTestSupport
import TestSupport

@Suite struct PowerAuthServerRecoveryTests {
    let possessionUnlock = SymmetricKey(data: Array(repeating: 0x21, count: 16))
    let password = SecretBytes("1234".utf8)

    @Test func postcardCodesNeedConfirmationAndBlock() throws {
        var random = SeededRandomSource(seed: 310)
        var postcard = try PowerAuthServer.RecoveryCode.issue(pukCount: 3, activationID: "a1", state: .created, using: &random)
        let wrong = SecretBytes("0000000000".utf8)
        #expect(postcard.puks.count == 3 && !postcard.puks.contains(wrong))
        #expect(postcard.redeem(puk: postcard.puks[0], newActivationID: "a2") == .notActive)   // not confirmed yet

        let request = Array(#"{"recoveryCode":"\#(postcard.code)"}"#.utf8)
        #expect(try PowerAuthServer.recoveryConfirmAnswer(request, activationID: "other", recoveryCode: &postcard) == nil)
        #expect(try PowerAuthServer.recoveryConfirmAnswer(request, activationID: "a1", recoveryCode: &postcard) == Array(#"{"alreadyConfirmed":false}"#.utf8))
        #expect(try PowerAuthServer.recoveryConfirmAnswer(request, activationID: "a1", recoveryCode: &postcard) == Array(#"{"alreadyConfirmed":true}"#.utf8))

        // PUKs are used in order, each once.
        #expect(postcard.redeem(puk: postcard.puks[0], newActivationID: "a2") == .accepted(previousActivationID: "a1"))
        #expect(postcard.currentPukIndex == 2 && postcard.state == .active && postcard.activationID == "a2")
        #expect(postcard.redeem(puk: postcard.puks[0], newActivationID: "a3") == .refused(currentPukIndex: 2))
        for _ in 0..<4 { _ = postcard.redeem(puk: wrong, newActivationID: "a3") }
        #expect(postcard.state == .blocked && postcard.failedAttempts == 5)
        #expect(postcard.redeem(puk: postcard.puks[1], newActivationID: "a3") == .notActive)
        #expect(postcard.confirm() == nil)
    }

    @Test(arguments: [PowerAuth.ProtocolVersion.v3_0, .v3_3])
    func offlineSignaturesAreCheckedByTheServer(_ version: PowerAuth.ProtocolVersion) throws {
        let server = try PowerAuthTestServer(version: version, seed: 330)
        var random = SeededRandomSource(seed: 331)
        var activation = try server.activatedClient(password: password, possessionUnlockKey: possessionUnlock, random: &random)
        let keys = try activation.signatureKeys(for: .possessionKnowledge, possessionUnlockKey: possessionUnlock, password: password)
        let nonce = "QUJDREVGR0hJSktMTU5PUA=="   // 16 bytes, from the operation's QR data
        let data = Array("A1*A100CZK*Q238400856/0300**D20190629*NFlight".utf8)

        for digits in [8, 4, 6] {
            let (signature, next) = try PowerAuth.offlineSignature(nonce: nonce, data: data, activation: activation, factors: .possessionKnowledge,
                                                                   keys: keys, digits: digits)
            #expect(signature.count == 2 * digits + 1)
            #expect(server.verifyOffline(signature, factors: .possessionKnowledge, nonce: nonce, data: data) == .valid(steps: 0))
            #expect(server.verifyOffline(signature, factors: .possessionKnowledge, nonce: nonce, data: data) == .invalid)   // replayed
            activation = next
        }
        // Typed wrong, other data, malformed digits: each refused and counted.
        let (signature, _) = try PowerAuth.offlineSignature(nonce: nonce, data: data, activation: activation, factors: .possessionKnowledge, keys: keys)
        let typo = String(signature.dropLast()) + (signature.hasSuffix("0") ? "1" : "0")
        #expect(server.verifyOffline(typo, factors: .possessionKnowledge, nonce: nonce, data: data) == .invalid)
        #expect(server.verifyOffline(signature, factors: .possessionKnowledge, nonce: nonce, data: [1]) == .invalid)
        #expect(server.verifyOffline("123-12345678", factors: .possessionKnowledge, nonce: nonce, data: data) == .invalid)
        #expect(server.verifyOffline(signature, factors: .possessionKnowledge, nonce: "short", data: data) == .notActive)   // the fifth failure blocks
    }
}
