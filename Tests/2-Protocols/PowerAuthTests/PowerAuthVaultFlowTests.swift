// Tokens, vault, password change, biometry, device signatures and recovery confirmation against
// the test server, for the ECIES-key rules of 3.2 (activation's server key) and 3.3 (temporary key).

import CryptoPrimitives
import Foundation
import PowerAuth
import PowerAuthServer
import ProtocolSupport
import Testing
import ClientTestSupport
import TestSupport

@Suite struct PowerAuthVaultFlowTests {
    let possessionUnlock = SymmetricKey(data: Array(repeating: 0x5A, count: 16))
    let password = SecretBytes("correct horse".utf8)

    @Test(arguments: [PowerAuth.ProtocolVersion.v3_0, .v3_1, .v3_2, .v3_3])
    func vaultTokensPasswordAndBiometry(_ version: PowerAuth.ProtocolVersion) throws {
        let server = try PowerAuthTestServer(version: version, seed: 300)
        var random = SeededRandomSource(seed: 301)
        var activation = try server.activatedClient(password: password, possessionUnlockKey: possessionUnlock, random: &random)
        let transport = try activation.transportKey(possessionUnlockKey: possessionUnlock)
        let activationKey = server.activationEncryptionKey
        let twoFactor = try activation.signatureKeys(for: .possessionKnowledge, possessionUnlockKey: possessionUnlock, password: password)

        // Token create: encrypt-then-sign; the server's token verifies our header's digest.
        let tokenRequest = try PowerAuth.createTokenRequest(activation: activation, factors: .possessionKnowledge, keys: twoFactor, transportKey: transport,
                                                            configuration: server.configuration, encryptionKey: activationKey, version: version,
                                                            timestamp: 10, using: &random)
        #expect(tokenRequest.request.header("X-PowerAuth-Encryption") == nil)
        let tokenSecret = try random.bytes(count: 16)
        let tokenResponse = try #require(try server.encryptedEndpoint(tokenRequest.request, uriID: "/pa/token/create", sharedInfo1: .createToken) { plain in
            #expect(plain == Array("{}".utf8))
            return Array(try JSONSerialization.data(withJSONObject: ["tokenId": "tok-1", "tokenSecret": Data(tokenSecret).base64EncodedString()]))
        })
        let token = try PowerAuth.token(from: try tokenRequest.decrypt(tokenResponse))
        activation = tokenRequest.next
        #expect(token.id == "tok-1" && token.secret == SymmetricKey(data: tokenSecret))

        // Vault unlock → vault key → device signature and a new biometry factor.
        let keys2 = try activation.signatureKeys(for: .possessionKnowledge, possessionUnlockKey: possessionUnlock, password: password)
        let unlock = try PowerAuth.vaultUnlockRequest(reason: .addBiometry, activation: activation, keys: keys2, transportKey: transport,
                                                      configuration: server.configuration, encryptionKey: activationKey, version: version,
                                                      timestamp: 11, using: &random)
        let unlockResponse = try #require(try server.encryptedEndpoint(unlock.request, uriID: "/pa/vault/unlock", sharedInfo1: .vaultUnlock) { plain in
            #expect(plain == Array(#"{"reason":"ADD_BIOMETRY"}"#.utf8))
            return try server.vaultUnlockAnswer()
        })
        let vaultKey = try PowerAuth.vaultKey(from: try unlock.decrypt(unlockResponse), transportKey: transport)
        activation = unlock.next
        let signature = try activation.deviceSignature(for: Array("data".utf8), vaultKey: vaultKey)
        let devicePublic = try P256.Signing.PublicKey(x963Representation: try #require(server.devicePublicKey).x963Representation)
        #expect(PowerAuth.isValidServerSignature(signature, for: Array("data".utf8), publicKey: devicePublic))
        let serverActivation = try #require(server.activation)
        #expect(PowerAuth.Vault.encryptionKey(vaultKey: vaultKey, index: 5) == serverActivation.encryptionKey(index: 5))

        let biometryUnlock = SymmetricKey(data: try random.bytes(count: 16))
        activation = try activation.addingBiometry(vaultKey: vaultKey, biometryUnlockKey: biometryUnlock)
        // A wrong vault key fails to unseal the private key (or, rarely, to match the derived vault key).
        #expect(throws: ProtocolError.self) { try activation.addingBiometry(vaultKey: transport, biometryUnlockKey: biometryUnlock) }
        let threeFactor = try activation.signatureKeys(for: .possessionKnowledgeBiometry, possessionUnlockKey: possessionUnlock, password: password,
                                                       biometryUnlockKey: biometryUnlock)
        let signed3 = try PowerAuth.sign(method: "POST", uriID: "/x", body: [], activation: activation, factors: .possessionKnowledgeBiometry,
                                         keys: threeFactor, configuration: server.configuration, version: version, using: &random)
        #expect(try server.verify(header: signed3.header.value, method: "POST", uriID: "/x", body: []))
        activation = signed3.next.removingBiometry
        #expect(activation.lockedBiometryKey == nil)

        // Password change: the new password signs, the old one no longer does.
        activation = try activation.changingPassword(from: password, to: SecretBytes("battery staple".utf8), using: &random)
        for (text, accepted) in [("battery staple", true), ("correct horse", false)] {
            let keys = try activation.signatureKeys(for: .possessionKnowledge, possessionUnlockKey: possessionUnlock, password: SecretBytes(text.utf8))
            let signed = try PowerAuth.sign(method: "POST", uriID: "/y", body: [1], activation: activation, factors: .possessionKnowledge, keys: keys,
                                            configuration: server.configuration, version: version, using: &random)
            #expect(try server.verify(header: signed.header.value, method: "POST", uriID: "/y", body: [1]) == accepted)
            activation = signed.next
        }

        // Token removal and activation removal are signed plain bodies.
        let possession = try activation.signatureKeys(for: .possession, possessionUnlockKey: possessionUnlock)
        let remove = try PowerAuth.removeTokenRequest(token, activation: activation, factors: .possession, keys: possession,
                                                      configuration: server.configuration, version: version, using: &random)
        #expect(remove.request.body == Array(#"{"requestObject":{"tokenId":"tok-1"}}"#.utf8))
        #expect(try server.verify(header: try #require(remove.request.header("X-PowerAuth-Authorization")), method: "POST", uriID: "/pa/token/remove",
                                  body: remove.request.body ?? []))
    }

    @Test func threePointThreeNeedsTheTemporaryKey() throws {
        let server = try PowerAuthTestServer(version: .v3_3, seed: 310)
        var random = SeededRandomSource(seed: 311)
        let activation = try server.activatedClient(password: password, possessionUnlockKey: possessionUnlock, random: &random)
        let keys = try activation.signatureKeys(for: .possession, possessionUnlockKey: possessionUnlock)
        #expect(throws: ProtocolError(.invalidArgument, "")) {
            try PowerAuth.createTokenRequest(activation: activation, factors: .possession, keys: keys,
                                             transportKey: try activation.transportKey(possessionUnlockKey: possessionUnlock),
                                             configuration: server.configuration, timestamp: 1, using: &random)
        }
    }
}
