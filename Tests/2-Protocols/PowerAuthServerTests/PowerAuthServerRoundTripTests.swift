// Client ↔ PowerAuthServer round trips for every version with seeded randomness: issued codes,
// activation, signatures (in step, drifting, replayed, wrong password, blocking), status,
// tokens with their timestamp window, the vault, and the 3.3 keystore in both scopes.

import CryptoPrimitives
import PowerAuth
import PowerAuthServer
import ProtocolSupport
import Testing
import TestSupport

@Suite struct PowerAuthServerRoundTripTests {
    let possessionUnlock = SymmetricKey(data: Array(repeating: 0x33, count: 16))
    let password = SecretBytes("0000 1111".utf8)

    @Test(arguments: [PowerAuth.ProtocolVersion.v3_0, .v3_1, .v3_2, .v3_3])
    func everyFlow(_ version: PowerAuth.ProtocolVersion) throws {
        var serverRandom = SeededRandomSource(seed: 700)
        var random = SeededRandomSource(seed: 701)
        let application = try PowerAuthServer.Application(using: &serverRandom)
        let configuration = try application.clientConfiguration(baseURL: "https://pa.example.com")

        // 3.3: an application-scope temporary key from the keystore first.
        var appKey = PowerAuth.EncryptionKey(publicKey: application.masterAgreementKey.publicKey)
        var appTemporary: (key: P256.KeyAgreement.PrivateKey, id: String)?
        if version >= .v3_3 {
            let temporary = try P256.KeyAgreement.PrivateKey(using: &serverRandom)
            let keystore = try PowerAuth.PendingKeystore(configuration: configuration, using: &random)
            let answer = try #require(try PowerAuthServer.keystoreAnswer(keystore.request, application: application, temporaryKey: temporary.publicKey,
                                                                          temporaryKeyID: "tmp-app", now: 1_700_000_000_000))
            appKey = try keystore.process(answer, serverKey: configuration.masterServerPublicKey).encryptionKey
            appTemporary = (temporary, "tmp-app")
        }

        // An issued, signed activation code.
        let issued = try application.issueActivationCode(using: &serverRandom)
        let code = try PowerAuth.ActivationCode(parsing: issued.code + "#" + issued.signature)
        #expect(code.isSignatureValid(masterServerPublicKey: configuration.masterServerPublicKey))

        let pending = try PowerAuth.PendingActivation(method: .code(code, otp: "1234"), configuration: configuration, encryptionKey: appKey,
                                                      version: version, timestamp: 1_700_000_000_000, using: &random)
        var (server, request, response) = try PowerAuthServer.Activation.process(
            pending.request, application: application, version: version, encryptionKey: appTemporary?.key, temporaryKeyID: appTemporary?.id,
            activationID: "7c1e9d1f-5b0a-4f66-9a0e-2f7d3c4b5a69", timestamp: 1_700_000_000_100, using: &serverRandom)
        #expect(request == PowerAuthServer.ActivationRequest(type: "CODE", identityAttributes: ["code": issued.code], activationOTP: "1234", platform: "unknown"))
        let result = try pending.process(response)
        #expect(result.fingerprint == PowerAuth.activationFingerprint(devicePublicKey: server.devicePublicKey, activationID: server.id,
                                                                      serverPublicKey: server.serverPublicKey))
        var activation = try result.persist(password: password, possessionUnlockKey: possessionUnlock, version: version, using: &random)
        let transport = try activation.transportKey(possessionUnlockKey: possessionUnlock)
        let twoFactor = try activation.signatureKeys(for: .possessionKnowledge, possessionUnlockKey: possessionUnlock, password: password)

        func sign(_ keys: PowerAuth.SignatureKeys, _ factors: PowerAuth.SignatureFactors = .possessionKnowledge) throws -> PowerAuth.SignedRequest {
            try PowerAuth.sign(method: "POST", uriID: "/pa/signature/validate", body: [7], activation: activation, factors: factors, keys: keys,
                               configuration: configuration, version: version, using: &random)
        }
        func verify(_ signed: PowerAuth.SignedRequest) -> PowerAuthServer.SignatureVerification {
            server.verify(header: signed.header.value, method: "POST", uriID: "/pa/signature/validate", body: [7], applicationSecret: application.applicationSecret)
        }

        // In step, then replayed.
        let first = try sign(twoFactor)
        #expect(verify(first) == .valid(steps: 0))
        #expect(verify(first) == .invalid)
        activation = first.next
        // Drift: five signatures lost on the way, the sixth is found five steps ahead.
        for _ in 0..<5 { activation = try sign(twoFactor).next }
        let sixth = try sign(twoFactor)
        #expect(verify(sixth) == .valid(steps: 5))
        activation = sixth.next
        // A wrong password: refused and counted (the sixth reset the replay's failure); the
        // client's counter moved on, so the next good 2FA signature is found one step ahead
        // and resets the count.
        let wrongKeys = try activation.signatureKeys(for: .possessionKnowledge, possessionUnlockKey: possessionUnlock, password: SecretBytes("nope".utf8))
        let wrong = try sign(wrongKeys)
        #expect(verify(wrong) == .invalid && server.failedAttempts == 1)
        activation = wrong.next
        let good = try sign(twoFactor)
        #expect(verify(good) == .valid(steps: 1) && server.failedAttempts == 0)
        activation = good.next

        // Status reflects the server's counter; in step.
        let status = try PowerAuth.PendingStatus(activationID: activation.activationID, using: &random)
        let decrypted = try status.process(try server.status(status.request, using: &serverRandom), transportKey: transport)
        #expect(decrypted.state == .active && decrypted.counterByte == activation.counterByte)
        #expect(PowerAuth.counterSynchronization(for: activation, status: decrypted, transportKey: transport) == .synchronized)

        // Token: create (encrypt-then-sign), then headers checked inside and outside the window.
        var activationTemporary: (key: P256.KeyAgreement.PrivateKey, id: String)?
        var activationKey: PowerAuth.EncryptionKey?
        if version >= .v3_3 {
            let temporary = try P256.KeyAgreement.PrivateKey(using: &serverRandom)
            let keystore = try PowerAuth.PendingKeystore(configuration: configuration, activation: (activation.activationID, transport), using: &random)
            let answer = try #require(try PowerAuthServer.keystoreAnswer(keystore.request, application: application, activation: server,
                                                                          temporaryKey: temporary.publicKey, temporaryKeyID: "tmp-act", now: 1_700_000_000_000))
            let serverSigning = try P256.Signing.PublicKey(x963Representation: server.serverPublicKey.x963Representation)
            activationKey = try keystore.process(answer, serverKey: serverSigning).encryptionKey
            activationTemporary = (temporary, "tmp-act")
        }
        let create = try PowerAuth.createTokenRequest(activation: activation, factors: .possessionKnowledge, keys: twoFactor, transportKey: transport,
                                                      configuration: configuration, encryptionKey: activationKey, version: version,
                                                      timestamp: 1_700_000_000_200, using: &random)
        #expect(server.verify(header: try #require(create.request.header("X-PowerAuth-Authorization")), method: "POST", uriID: "/pa/token/create",
                              body: create.request.body ?? [], applicationSecret: application.applicationSecret) == .valid(steps: 0))
        let (plain, encryptor) = try server.decrypt(create.request.body ?? [], sharedInfo1: .createToken, application: application, temporaryKey: activationTemporary)
        #expect(plain == Array("{}".utf8))
        let (serverToken, answer) = try PowerAuthServer.issueToken(id: "e0b1c3d4-0000-4000-8000-000000000001", using: &serverRandom)
        let tokenResponse = try encryptor.encrypt(answer, timestamp: 1_700_000_000_300, using: &serverRandom)
        let token = try PowerAuth.token(from: try create.decrypt(HTTPResponse(status: 200, body: tokenResponse.json.bytes)))
        activation = create.next
        #expect(token.id == serverToken.id && token.secret == serverToken.secret)
        let header = try token.headerValue(timestamp: 1_700_000_050_000, version: version, using: &random)
        #expect(PowerAuthServer.isValidTokenHeader(header, token: serverToken, now: 1_700_000_060_000))
        #expect(!PowerAuthServer.isValidTokenHeader(header, token: serverToken, now: 1_700_000_200_000))   // expired
        #expect(!PowerAuthServer.isValidTokenHeader(header, token: serverToken, now: 1_699_999_900_000))   // from the future
        let otherToken = PowerAuth.Token(id: token.id, secret: SymmetricKey(data: Array(repeating: 1, count: 16)))
        #expect(!PowerAuthServer.isValidTokenHeader(header, token: otherToken, now: 1_700_000_060_000))

        // Vault unlock with the server's answer.
        let keys3 = try activation.signatureKeys(for: .possessionKnowledge, possessionUnlockKey: possessionUnlock, password: password)
        let unlock = try PowerAuth.vaultUnlockRequest(reason: .fetchEncryptionKey, activation: activation, keys: keys3, transportKey: transport,
                                                      configuration: configuration, encryptionKey: activationKey, version: version,
                                                      timestamp: 1_700_000_000_400, using: &random)
        #expect(server.verify(header: try #require(unlock.request.header("X-PowerAuth-Authorization")), method: "POST", uriID: "/pa/vault/unlock",
                              body: unlock.request.body ?? [], applicationSecret: application.applicationSecret) == .valid(steps: 0))
        let (reason, vaultEncryptor) = try server.decrypt(unlock.request.body ?? [], sharedInfo1: .vaultUnlock, application: application,
                                                          temporaryKey: activationTemporary)
        #expect(reason == Array(#"{"reason":"FETCH_ENCRYPTION_KEY"}"#.utf8))
        let vaultResponse = try vaultEncryptor.encrypt(try server.vaultUnlockAnswer(), timestamp: 1_700_000_000_500, using: &serverRandom)
        let vaultKey = try PowerAuth.vaultKey(from: try unlock.decrypt(HTTPResponse(status: 200, body: vaultResponse.json.bytes)), transportKey: transport)
        let signature = try unlock.next.deviceSignature(for: [1, 2, 3], vaultKey: vaultKey)
        let deviceSigning = try P256.Signing.PublicKey(x963Representation: server.devicePublicKey.x963Representation)
        #expect(PowerAuth.isValidServerSignature(signature, for: [1, 2, 3], publicKey: deviceSigning))
        activation = unlock.next

        // Five wrong signatures in a row block the activation.
        for _ in 0..<5 {
            let bad = try sign(wrongKeys)
            _ = verify(bad)
            activation = bad.next
        }
        let afterBlock = try sign(twoFactor)
        #expect(server.state == .blocked && verify(afterBlock) == .notActive)
    }

    @Test func malformedHeadersAndRequestsAreRefused() throws {
        var random = SeededRandomSource(seed: 710)
        let application = try PowerAuthServer.Application(using: &random)
        for header in ["", "PowerAuth", "Bearer x", #"PowerAuth pa_version="3.3", pa_nonce=AAAA"#, #"PowerAuth pa_activation_id="x""#] {
            let token = PowerAuth.Token(id: "x", secret: SymmetricKey(data: Array(repeating: 0, count: 16)))
            #expect(!PowerAuthServer.isValidTokenHeader(header, token: token, now: 0))
        }
        for body in [[], Array("{}".utf8), Array("[1]".utf8)] as [[UInt8]] {
            #expect(throws: ProtocolError.self) {
                try PowerAuthServer.Activation.process(HTTPRequest(method: .post, path: "", body: body), application: application, version: .v3_3,
                                                       activationID: "a", timestamp: 0, using: &random)
            }
        }
    }
}
