// Recovery codes end to end from the client's side (docs/protocols/powerauth.md §3.3, §13, §14.2): the code and
// PUK an activation answer carries, recovery/confirm through the server, a RECOVERY activation
// refused for a wrong PUK (ERR_RECOVERY with currentRecoveryPukIndex) and then accepted, and
// malformed recovery input. The server's own rules (postcard codes, offline signatures) are in
// PowerAuthServerTests.

import CryptoPrimitives
import PowerAuth
import PowerAuthServer
import ProtocolSupport
import Testing
import ClientTestSupport
import TestSupport

@Suite struct PowerAuthRecoveryTests {
    let possessionUnlock = SymmetricKey(data: Array(repeating: 0x21, count: 16))
    let password = SecretBytes("1234".utf8)

    @Test(arguments: [PowerAuth.ProtocolVersion.v3_0, .v3_1, .v3_2, .v3_3])
    func recoveryCodeLifecycle(_ version: PowerAuth.ProtocolVersion) throws {
        let server = try PowerAuthTestServer(version: version, seed: 300)
        var serverRandom = SeededRandomSource(seed: 301)
        var random = SeededRandomSource(seed: 302)
        let encryptionKey = server.applicationEncryptionKey

        // The activation answer carries a fresh code (activation-code format) and one PUK.
        var recovery = try PowerAuthServer.RecoveryCode.issue(activationID: server.activationID, using: &serverRandom)
        let puk = String(decoding: try #require(recovery.currentPUK).unsafeExposedBytes, as: UTF8.self)
        #expect(PowerAuth.isValidCode(recovery.code) && PowerAuth.isValidPUK(puk) && recovery.state == .active)
        let pending = try server.pendingCodeActivation(random: &random)
        let result = try pending.process(try server.activate(pending.request, recovery: (recovery.code, puk)).response)
        #expect(result.recovery?.recoveryCode == recovery.code && result.recovery?.puk == SecretBytes(puk.utf8))
        let activation = try result.persist(password: password, possessionUnlockKey: possessionUnlock, version: version, using: &random)

        // recovery/confirm (encrypt-then-sign): the activation's own code is already active.
        let keys = try activation.signatureKeys(for: .possessionKnowledge, possessionUnlockKey: possessionUnlock, password: password)
        let confirm = try PowerAuth.confirmRecoveryCodeRequest("R:" + recovery.code, activation: activation, keys: keys,
                                                               transportKey: try activation.transportKey(possessionUnlockKey: possessionUnlock),
                                                               configuration: server.configuration, encryptionKey: server.activationEncryptionKey,
                                                               version: version, timestamp: 1_700_000_000_100, using: &random)
        var asked: [UInt8] = []
        let answer = try #require(try server.encryptedEndpoint(confirm.request, uriID: "/pa/recovery/confirm", sharedInfo1: .confirmRecoveryCode) { plaintext in
            asked = plaintext
            return try PowerAuthServer.recoveryConfirmAnswer(plaintext, activationID: server.activationID, recoveryCode: &recovery) ?? []
        })
        #expect(asked == Array(#"{"recoveryCode":"\#(recovery.code)"}"#.utf8))
        #expect(try PowerAuth.alreadyConfirmed(from: try confirm.decrypt(answer)))

        // The device is lost; a new one activates with the code and the PUK.
        func recover(puk: String) throws -> (pending: PowerAuth.PendingActivation, response: HTTPResponse,
                                             outcome: PowerAuthServer.RecoveryCode.Redemption) {
            let pending = try PowerAuth.PendingActivation(method: .recovery(code: "R:" + recovery.code, puk: SecretBytes(puk.utf8)),
                                                          configuration: server.configuration, encryptionKey: encryptionKey, version: version,
                                                          timestamp: 1_700_000_000_200, using: &random)
            let received = try PowerAuthServer.ReceivedActivation(pending.request, application: server.application, version: version,
                                                                  temporaryKeyID: server.temporaryKeyID)
            #expect(received.request.type == "RECOVERY" && received.request.identityAttributes == ["recoveryCode": recovery.code, "puk": puk])
            let outcome = recovery.redeem(puk: SecretBytes(puk.utf8), newActivationID: "new-activation")
            guard case .accepted = outcome else {
                let index: Int? = if case .refused(let index) = outcome { index } else { nil }
                return (pending, PowerAuthServer.errorResponse(.powerAuthRecovery, message: "recovery refused", currentRecoveryPukIndex: index), outcome)
            }
            let next = try PowerAuthServer.RecoveryCode.issue(activationID: "new-activation", using: &serverRandom)
            let (_, response) = try received.accept(activationID: "new-activation", recovery: next.activationRecovery, timestamp: 1_700_000_000_300,
                                                    using: &serverRandom)
            return (pending, response, outcome)
        }

        // A wrong PUK: ERR_RECOVERY, HTTP 400, the PUK index to use, one failure counted.
        let wrongPUK = String(puk.dropLast()) + (puk.hasSuffix("0") ? "1" : "0")
        let refused = try recover(puk: wrongPUK)
        #expect(refused.outcome == .refused(currentPukIndex: 1) && recovery.failedAttempts == 1)
        #expect(throws: ProtocolError(.powerAuthRecovery, "")) { try refused.pending.process(refused.response) }
        let failure = try #require(PowerAuth.ErrorResponse(refused.response))
        #expect(failure.httpStatus == 400 && failure.code == .powerAuthRecovery && failure.currentRecoveryPukIndex == 1)

        // The right PUK: the old activation is named for removal, the new one gets a new code,
        // and this code (its only PUK used) is revoked.
        let accepted = try recover(puk: puk)
        #expect(accepted.outcome == .accepted(previousActivationID: server.activationID))
        let recovered = try accepted.pending.process(accepted.response)
        #expect(recovered.activationID == "new-activation" && recovered.recovery != nil && recovered.recovery?.recoveryCode != recovery.code)
        #expect(recovery.state == .revoked && recovery.failedAttempts == 0)
        #expect(try recover(puk: puk).outcome == .notActive)
    }

    @Test func malformedRecoveryInputIsRefused() throws {
        var random = SeededRandomSource(seed: 320)
        let server = try PowerAuthTestServer(version: .v3_2, seed: 321)
        let key = PowerAuth.EncryptionKey(publicKey: server.masterKey.publicKey)
        for (code, puk) in [("MMMMM-MMMMM-MMMMM-MUTOA", "012345678"), ("MMMMM-MMMMM-MMMMM-MUTOA", "01234567890"), ("MMMMM-MMMMM-MMMMM-MUTOA", "01234x6789"),
                            ("MMMMM-MMMMM-MMMMM-MUTOB", "0123456789"), ("r:MMMMM-MMMMM-MMMMM-MUTOA", "0123456789")] {
            #expect(throws: ProtocolError(.invalidActivationCode, "")) {
                try PowerAuth.PendingActivation(method: .recovery(code: code, puk: SecretBytes(puk.utf8)), configuration: server.configuration,
                                                encryptionKey: key, version: .v3_2, timestamp: 0, using: &random)
            }
        }
        #expect(throws: ProtocolError.self) {
            try PowerAuthServer.RecoveryCode(code: "MMMMM-MMMMM-MMMMM-MUTOA", puks: [SecretBytes("12".utf8)], activationID: nil, state: .active)
        }
        #expect(throws: ProtocolError.self) {
            try PowerAuthServer.RecoveryCode(code: "MMMMM-MMMMM-MMMMM-MUTOB", puks: [SecretBytes("0123456789".utf8)], activationID: nil, state: .active)
        }
        var code = try PowerAuthServer.RecoveryCode(code: "MMMMM-MMMMM-MMMMM-MUTOA", puks: [SecretBytes("0123456789".utf8)], activationID: "a", state: .active)
        for garbage in ["", "{", "[]", #"{"recoveryCode":1}"#, String(repeating: "[", count: 10_000)] {
            #expect(throws: ProtocolError.self) { try PowerAuthServer.recoveryConfirmAnswer(Array(garbage.utf8), activationID: "a", recoveryCode: &code) }
            #expect(throws: ProtocolError.self) { try PowerAuth.alreadyConfirmed(from: Array(garbage.utf8)) }
            // An error body that is not the envelope is still an error, with the generic code.
            let response = HTTPResponse(status: 400, body: Array(garbage.utf8))
            #expect(PowerAuth.ErrorResponse(response)?.code == .powerAuthGeneric)
        }
        #expect(PowerAuth.ErrorResponse(HTTPResponse(status: 204)) == nil)
        // A field of an unexpected type is dropped; the code survives.
        let odd = PowerAuth.ErrorResponse(HTTPResponse(status: 400, body: Array(#"{"status":"ERROR","responseObject":{"code":"ERR_RECOVERY","message":7,"currentRecoveryPukIndex":"2"}}"#.utf8)))
        #expect(odd?.code == .powerAuthRecovery && odd?.message == nil && odd?.currentRecoveryPukIndex == nil)
        #expect(PowerAuthServer.errorResponse(.powerAuthAuthentication, message: "x").status == 401)
    }
}
