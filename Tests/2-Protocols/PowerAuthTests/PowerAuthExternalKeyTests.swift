// The external encryption key (docs/protocols/powerauth.md §4.2): a second zero-IV AES layer over the locked
// knowledge and biometry keys, checked against the AES primitive, and signatures through it
// accepted by the server; without the EEK (or with one the activation does not use) the keys
// are refused, and removing the layer restores the plain storage byte for byte.

import CryptoPrimitives
import PowerAuth
import ProtocolSupport
import Testing
import ClientTestSupport
import TestSupport

@Suite struct PowerAuthExternalKeyTests {
    let possessionUnlock = SymmetricKey(data: Array(repeating: 0x44, count: 16))
    let biometryUnlock = SymmetricKey(data: Array(repeating: 0x55, count: 16))
    let external = SymmetricKey(data: Array(0x10..<0x20))
    let password = SecretBytes("4321".utf8)

    @Test func theLayerWrapsKnowledgeAndBiometryOnly() throws {
        let server = try PowerAuthTestServer(version: .v3_3, seed: 400)
        var random = SeededRandomSource(seed: 401)
        let pending = try server.pendingCodeActivation(random: &random)
        let result = try pending.process(try server.activate(pending.request).response)
        var seedA = SeededRandomSource(seed: 402), seedB = SeededRandomSource(seed: 402)
        let plain = try result.persist(password: password, possessionUnlockKey: possessionUnlock, biometryUnlockKey: biometryUnlock, using: &seedA)
        var layered = try result.persist(password: password, possessionUnlockKey: possessionUnlock, biometryUnlockKey: biometryUnlock,
                                         externalEncryptionKey: external, using: &seedB)
        let zero = [UInt8](repeating: 0, count: 16)
        #expect(layered.usesExternalEncryptionKey && !plain.usesExternalEncryptionKey)
        #expect(layered.lockedKnowledgeKey == (try AES.UnauthenticatedCBC.encrypt(plain.lockedKnowledgeKey, using: external, iv: zero, padding: .none)))
        #expect(layered.lockedBiometryKey == (try AES.UnauthenticatedCBC.encrypt(try #require(plain.lockedBiometryKey), using: external, iv: zero, padding: .none)))
        #expect(layered.lockedPossessionKey == plain.lockedPossessionKey && layered.lockedTransportKey == plain.lockedTransportKey)
        #expect(try layered.removingExternalEncryptionKey(external).serialized == plain.serialized)
        #expect(try plain.addingExternalEncryptionKey(external).serialized == layered.serialized)
        #expect(try PowerAuth.ActivationData(serialized: layered.serialized).usesExternalEncryptionKey)

        // Without the EEK, or with one the activation does not use: refused before any key is made.
        #expect(throws: ProtocolError(.invalidArgument, "")) {
            try layered.signatureKeys(for: .possessionKnowledge, possessionUnlockKey: possessionUnlock, password: password)
        }
        #expect(throws: ProtocolError(.invalidArgument, "")) {
            try plain.signatureKeys(for: .possession, possessionUnlockKey: possessionUnlock, externalEncryptionKey: external)
        }
        #expect(throws: ProtocolError(.invalidArgument, "")) { try layered.addingExternalEncryptionKey(external) }

        // Through the layer, every factor signs what the server accepts, also after a password change.
        for factors in [PowerAuth.SignatureFactors.possessionKnowledge, .possessionBiometry, .possessionKnowledgeBiometry] {
            let keys = try layered.signatureKeys(for: factors, possessionUnlockKey: possessionUnlock, password: password,
                                                 biometryUnlockKey: biometryUnlock, externalEncryptionKey: external)
            let signed = try PowerAuth.sign(method: "POST", uriID: "/x", body: [], activation: layered, factors: factors, keys: keys,
                                            configuration: server.configuration, using: &random)
            #expect(try server.verify(header: signed.header.value, method: "POST", uriID: "/x", body: []))
            layered = signed.next
        }
        let newPassword = SecretBytes("8765".utf8)
        layered = try layered.changingPassword(from: password, to: newPassword, externalEncryptionKey: external, using: &random)
        #expect(layered.usesExternalEncryptionKey)
        let keys = try layered.signatureKeys(for: .possessionKnowledge, possessionUnlockKey: possessionUnlock, password: newPassword,
                                             externalEncryptionKey: external)
        let signed = try PowerAuth.sign(method: "POST", uriID: "/x", body: [], activation: layered, factors: .possessionKnowledge, keys: keys,
                                        configuration: server.configuration, using: &random)
        #expect(try server.verify(header: signed.header.value, method: "POST", uriID: "/x", body: []))
        // A wrong EEK is like a wrong password: some key, and the server refuses it.
        let wrong = try signed.next.signatureKeys(for: .possessionKnowledge, possessionUnlockKey: possessionUnlock, password: newPassword,
                                                  externalEncryptionKey: SymmetricKey(data: Array(repeating: 9, count: 16)))
        let refused = try PowerAuth.sign(method: "POST", uriID: "/x", body: [], activation: signed.next, factors: .possessionKnowledge, keys: wrong,
                                         configuration: server.configuration, using: &random)
        #expect(try !server.verify(header: refused.header.value, method: "POST", uriID: "/x", body: []))
    }
}
