// ECIES client ↔ server round trips for every version and both scopes with a seeded source;
// tampering anywhere gives the one decryption error; malformed responses are typed errors.

import CryptoPrimitives
import Foundation
import PowerAuth
import ProtocolSupport
import Testing
import ClientTestSupport
import TestSupport

@Suite struct PowerAuthECIESTests {
    static let versions: [PowerAuth.ProtocolVersion] = [.v3_0, .v3_1, .v3_2, .v3_3]

    func parameters(_ version: PowerAuth.ProtocolVersion, activation: Bool) -> PowerAuth.ECIES.Parameters {
        activation
            ? .activationScope(.createToken, version: version, applicationKey: "lceX5qe+O+Sb0t8TQqg35A==", applicationSecret: "m3JdVJMIu65fXXFi4VqjjA==",
                               transportKey: SymmetricKey(data: Array(repeating: 9, count: 16)), activationID: "act-1", temporaryKeyID: "tmp-1")
            : .applicationScope(.activationLayer2, version: version, applicationKey: "lceX5qe+O+Sb0t8TQqg35A==",
                                applicationSecret: "m3JdVJMIu65fXXFi4VqjjA==", temporaryKeyID: "tmp-0")
    }

    @Test(arguments: versions) func roundTripsInBothScopes(_ version: PowerAuth.ProtocolVersion) throws {
        var random = SeededRandomSource(seed: 0xEC1E5)
        let serverKey = try P256.KeyAgreement.PrivateKey(using: &random)
        for activation in [false, true] {
            let p = parameters(version, activation: activation)
            let (request, decryptor) = try PowerAuth.ECIES.Encryptor(publicKey: serverKey.publicKey, parameters: p)
                .encryptRequest(Array(#"{"a":1}"#.utf8), timestamp: 1_700_000_000_123, using: &random)
            #expect((request.nonce != nil) == (version >= .v3_1) && (request.timestamp != nil) == (version >= .v3_2))
            #expect((request.temporaryKeyID != nil) == (version >= .v3_3) && request.ephemeralPublicKey.count == 33)
            let (plaintext, encryptor) = try PowerAuth.ECIES.RequestDecryptor(privateKey: serverKey, parameters: p).decrypt(request)
            #expect(plaintext == Array(#"{"a":1}"#.utf8))
            let response = try encryptor.encrypt(Array("ok".utf8), timestamp: 1_700_000_000_456, using: &random)
            let parsed = try PowerAuth.ECIES.Response(jsonBytes: response.json.bytes)
            #expect(try decryptor.decrypt(parsed) == Array("ok".utf8))

            // Tampering: every byte of the MAC or ciphertext, the timestamp, the other scope.
            var badMAC = response
            badMAC.mac[0] ^= 1
            var badData = response
            badData.encryptedData[badData.encryptedData.count - 1] ^= 0x80
            var candidates = [badMAC, badData]
            if version >= .v3_2 {
                var badTime = response
                badTime.timestamp = (badTime.timestamp ?? 0) + 1
                candidates.append(badTime)
            }
            for bad in candidates {
                #expect(throws: ProtocolError.decryptionFailure()) { try decryptor.decrypt(bad) }
            }
            let otherScope = parameters(version, activation: !activation)
            #expect(throws: ProtocolError.decryptionFailure()) { try PowerAuth.ECIES.RequestDecryptor(privateKey: serverKey, parameters: otherScope).decrypt(request) }
            var badPoint = request
            badPoint.ephemeralPublicKey[5] ^= 1
            #expect(throws: ProtocolError.decryptionFailure()) { try PowerAuth.ECIES.RequestDecryptor(privateKey: serverKey, parameters: p).decrypt(badPoint) }
        }
    }

    /// The envelope's IV and tag come from HMAC states keyed once (PowerAuth+ECIES.swift):
    /// they must equal KDF_INTERNAL and HMAC-SHA256 over C ‖ SH2 computed from the keys.
    @Test func envelopeIVAndTagFromKeyedStatesMatchTheDefinitions() throws {
        let shared = SharedSecret(secret: SecretBytes((1...32).map { UInt8($0) }))
        let envelope = try PowerAuth.ECIES.EnvelopeKey(sharedSecret: shared, kdfInfo: [1, 2, 3], ephemeralPublicKey: [4, 5])
        for nonce in [(0..<16).map { UInt8($0 * 3) }, [UInt8](repeating: 0xFF, count: 16)] {
            let expected = PowerAuth.KeyDerivation.deriveInternal(envelope.ivKey, index: nonce).withUnsafeBytes { Array($0) }
            #expect(envelope.iv(nonce: nonce, version: .v3_2) == expected)
            #expect(envelope.iv(nonce: nonce, version: .v3_2) == expected)  // the keyed state is not consumed
        }
        #expect(envelope.iv(nonce: nil, version: .v3_2) == [UInt8](repeating: 0, count: 16))
        for (c, sh2) in [([UInt8]([9, 8, 7]), [UInt8]([6, 5])), ([UInt8](repeating: 1, count: 100), [])] {
            #expect(envelope.tag(c, sharedInfo2: sh2) == HMAC<SHA256>.authenticationCode(for: c + sh2, using: envelope.macKey).bytes)
        }
    }

    /// The envelope's keyed states are wiped on release only if `HMAC<SHA256>` is a plain value
    /// (KeyedMAC's deinit zeroes its bytes in place and skips a type with references inside).
    @Test func keyedMACStateIsPlainDataSoItsWipeRuns() throws {
        #expect(_isPOD(HMAC<SHA256>.self))
        let key = SymmetricKey(data: (0..<16).map { UInt8($0) })
        let keyed = PowerAuth.ECIES.KeyedMAC(key: key)
        #expect(keyed.mac([1, 2], [3]) == HMAC<SHA256>.authenticationCode(for: [1, 2, 3], using: key).bytes)
        #expect(keyed.mac([]) == HMAC<SHA256>.authenticationCode(for: [UInt8](), using: key).bytes)
    }

    @Test func requestJSONCarriesExactlyTheVersionsFields() throws {
        var random = SeededRandomSource(seed: 3)
        let key = try P256.KeyAgreement.PrivateKey(using: &random)
        let (request, _) = try PowerAuth.ECIES.Encryptor(publicKey: key.publicKey, parameters: parameters(.v3_3, activation: false))
            .encryptRequest([1], timestamp: 42, using: &random)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(request.json.bytes)) as? [String: Any])
        #expect(Set(object.keys) == ["temporaryKeyId", "ephemeralPublicKey", "encryptedData", "mac", "nonce", "timestamp"])
        #expect(object["timestamp"] as? Int == 42)
        let (old, _) = try PowerAuth.ECIES.Encryptor(publicKey: key.publicKey, parameters: parameters(.v3_0, activation: false))
            .encryptRequest([1], timestamp: 42, using: &random)
        #expect(String(decoding: old.json.bytes, as: UTF8.self).hasPrefix(#"{"ephemeralPublicKey":""#))
        #expect(!String(decoding: old.json.bytes, as: UTF8.self).contains("nonce"))
    }

    static let garbage = ["", "{}", "[]", #"{"encryptedData":"!!","mac":"AA=="}"#, #"{"encryptedData":"AA==","mac":1}"#,
                          #"{"encryptedData":"AA==","mac":"AA==","nonce":"%%"}"#, #"{"encryptedData":"AA==","mac":"AA==","timestamp":-1}"#,
                          String(repeating: "[", count: 3000)]

    @Test(arguments: garbage) func malformedResponsesAreTypedErrors(_ text: String) {
        #expect(throws: ProtocolError(.malformedInput, "")) { try PowerAuth.ECIES.Response(jsonBytes: Array(text.utf8)) }
    }

    @Test func tokensAndKeystore() throws {
        let token = PowerAuth.Token(id: "5f3f0ef6-1d2b-4ad5-9d4e-4d1b2f0b9c11", secret: SymmetricKey(data: Array(repeating: 7, count: 16)))
        let header = token.headerValue(nonce: Array(0..<16), timestamp: 1_691_762_307_382, version: .v3_3)
        #expect(header.hasPrefix(#"PowerAuth version="3.3", token_id="5f3f0ef6-1d2b-4ad5-9d4e-4d1b2f0b9c11", token_digest=""#))
        #expect(header.hasSuffix(#"nonce="AAECAwQFBgcICQoLDA0ODw==", timestamp="1691762307382""#))
        // 3.2+ binds the version: the same nonce and time give another digest than 3.1.
        #expect(token.digest(nonce: Array(0..<16), timestamp: 1, version: .v3_3) != token.digest(nonce: Array(0..<16), timestamp: 1, version: .v3_1))
        #expect(!"\(token)".contains("07"))
        let jwt = PowerAuth.Keystore.requestJWT(applicationKey: "k/+=", challenge: [0xFF], activationID: "a\"b", key: SymmetricKey(data: [1]))
        let payload = try #require(jwt.split(separator: ".").dropFirst().first)
        var b64 = payload.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while b64.count % 4 != 0 { b64 += "=" }
        let decoded = try #require(Data(base64Encoded: b64))
        let claims = try #require(try JSONSerialization.jsonObject(with: decoded) as? [String: String])
        #expect(claims == ["applicationKey": "k/+=", "challenge": "/w==", "activationId": "a\"b"])
    }

    @Test func activationCodeSignatureIsCheckedWithTheMasterKey() throws {
        var random = SeededRandomSource(seed: 11)
        let master = try P256.Signing.PrivateKey(using: &random)
        let code = "VVVVV-VVVVV-VVVVV-VTFVA"
        let signature = try master.signature(for: Array(code.utf8), randomness: &random)
        let parsed = try PowerAuth.ActivationCode(parsing: code + "#" + Data(signature.derRepresentation).base64EncodedString())
        #expect(parsed.isSignatureValid(masterServerPublicKey: master.publicKey))
        let other = try P256.Signing.PrivateKey(using: &random)
        #expect(!parsed.isSignatureValid(masterServerPublicKey: other.publicKey))
        #expect(try PowerAuth.ActivationCode(parsing: code).isSignatureValid(masterServerPublicKey: other.publicKey))
        #expect(!(try PowerAuth.ActivationCode(parsing: code + "#AAAA")).isSignatureValid(masterServerPublicKey: master.publicKey))
    }
}

@Suite struct PowerAuthGenericEncryptionTests {
    @Test func genericActivationScopeRequestCarriesTheHeaderAndDecrypts() throws {
        var random = SeededRandomSource(seed: 500)
        let server = try P256.KeyAgreement.PrivateKey(using: &random)
        let master = try P256.Signing.PrivateKey(using: &random)
        let configuration = try PowerAuth.Configuration(applicationKey: "lceX5qe+O+Sb0t8TQqg35A==", applicationSecret: "m3JdVJMIu65fXXFi4VqjjA==",
                                                        masterServerPublicKey: master.publicKey, baseURL: "https://x")
        let transport = SymmetricKey(data: Array(repeating: 4, count: 16))
        let (request, decryptor) = try PowerAuth.encryptedRequest(path: "pa/v3/user/info", plaintext: Array("{}".utf8),
                                                                  scope: .activation(id: "act-2", transportKey: transport), configuration: configuration,
                                                                  encryptionKey: .init(publicKey: server.publicKey, temporaryKeyID: "t-1"),
                                                                  timestamp: 77, using: &random)
        #expect(request.header("X-PowerAuth-Encryption") == #"PowerAuth version="3.3", application_key="lceX5qe+O+Sb0t8TQqg35A==", activation_id="act-2""#)
        let parameters = PowerAuth.ECIES.Parameters.activationScope(.activationScopeGeneric, version: .v3_3, applicationKey: configuration.applicationKey,
                                                                    applicationSecret: configuration.applicationSecret, transportKey: transport,
                                                                    activationID: "act-2", temporaryKeyID: "t-1")
        let (plain, encryptor) = try PowerAuth.ECIES.RequestDecryptor(privateKey: server, parameters: parameters)
            .decrypt(try PowerAuth.ECIES.Request(jsonBytes: request.body ?? []))
        #expect(plain == Array("{}".utf8))
        #expect(try decryptor.decrypt(try encryptor.encrypt(Array(#"{"sub":"u"}"#.utf8), timestamp: 78, using: &random)) == Array(#"{"sub":"u"}"#.utf8))
    }

    @Test(arguments: [PowerAuth.ProtocolVersion.v3_1, .v3_3])
    func appEndpointsSignThePlaintextThenEncrypt(_ version: PowerAuth.ProtocolVersion) throws {
        let server = try PowerAuthTestServer(version: version, seed: 510)
        var random = SeededRandomSource(seed: 511)
        let unlock = SymmetricKey(data: Array(repeating: 0x61, count: 16))
        let activation = try server.activatedClient(password: SecretBytes("1111".utf8), possessionUnlockKey: unlock, random: &random)
        let transport = try activation.transportKey(possessionUnlockKey: unlock)
        let keys = try activation.signatureKeys(for: .possessionKnowledge, possessionUnlockKey: unlock, password: SecretBytes("1111".utf8))
        let encryptionKey = try server.activationEncryptionKey ?? PowerAuth.EncryptionKey(publicKey: try #require(server.serverPublicKey))
        let plaintext = Array(#"{"amount":"100.00","currency":"CZK"}"#.utf8)
        func request(_ activation: PowerAuth.ActivationData) throws -> PowerAuth.PendingEncryptedRequest {
            try PowerAuth.signedEncryptedRequest(path: "api/payment", uriID: "/payment/confirm", plaintext: plaintext,
                                                 scope: .activation(id: activation.activationID, transportKey: transport), activation: activation,
                                                 factors: .possessionKnowledge, keys: keys, configuration: server.configuration,
                                                 encryptionKey: encryptionKey, version: version, timestamp: 2, using: &random)
        }
        let first = try request(activation)
        #expect(first.request.header("X-PowerAuth-Encryption") == nil && first.request.header("X-PowerAuth-Authorization") != nil)
        #expect(first.next.counterByte == activation.counterByte &+ 1)
        let answer = try #require(try server.decryptThenVerify(first.request, uriID: "/payment/confirm", answer: Array(#"{"ok":true}"#.utf8)))
        #expect(try first.decrypt(answer) == Array(#"{"ok":true}"#.utf8))
        // The signature covers the plaintext, not the ECIES body the standard endpoints sign.
        let second = try request(first.next)
        #expect(try server.encryptedEndpoint(second.request, uriID: "/payment/confirm", sharedInfo1: .activationScopeGeneric) { $0 } == nil)
    }
}
