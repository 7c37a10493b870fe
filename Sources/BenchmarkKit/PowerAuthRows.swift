// Benchmark rows of the PowerAuth 3.x protocol core: the signature a
// client makes per request (keys unlocked, and with the PBKDF2 unlock of the knowledge key),
// offline signatures, token headers, one ECIES exchange and the status blob.

import CryptoPrimitives
import PowerAuth

extension BenchmarkCatalog {
    static func powerAuthRows() throws -> [BenchmarkCase] {
        var seeded = SeededRandomSource(seed: 8)
        let keys = PowerAuth.ActivationKeys(masterSecret: SymmetricKey(data: Array(0..<16)))
        let unlocked = PowerAuth.SignatureKeys(possession: keys.possession, knowledge: keys.knowledge)
        let counter = try PowerAuth.CounterData(rawRepresentation: Array(repeating: 0x42, count: 16))
        let serverKey = try P256.KeyAgreement.PrivateKey(using: &seeded)
        let salt = try seeded.bytes(count: 16)
        let body = Array(#"{"requestObject":{"reason":"COUNTER_SYNCHRONIZATION"}}"#.utf8)
        let nonce = "paWlpaWlpaWlpaWlpaWlpQ=="
        let appSecret = "fLz13bJJtBHZCgJve1oHUQ=="
        // The knowledge key as stored: AES-CBC, no padding, zero IV, under the PBKDF2 key (docs/protocols/powerauth.md §4.2).
        let passwordKey = try PBKDF2<Insecure.SHA1>.deriveKey(from: Array("1234".utf8), salt: salt, rounds: 10_000, outputByteCount: 16)
        let lockedKnowledge = try keys.knowledge.withUnsafeBytes { raw throws(CryptoError) in
            try AES.UnauthenticatedCBC.encrypt(Array(raw), using: passwordKey, iv: [UInt8](repeating: 0, count: 16), padding: .none)
        }
        let parameters = PowerAuth.ECIES.Parameters.activationScope(.createToken, version: .v3_3, applicationKey: "WQBeNgCHGlW58rzUlP7Ehg==",
                                                                    applicationSecret: appSecret, transportKey: keys.transport, activationID: "act", temporaryKeyID: "tmp")
        let challenge = Array(repeating: UInt8(1), count: 16), statusNonce = Array(repeating: UInt8(2), count: 16)
        let blob: [UInt8] = [0xDE, 0xC0, 0xDE, 0xD1, 3, 3, 3, 0, 0, 0, 0, 0, 7, 0, 5, 20] + Array(repeating: 9, count: 16)
        let encryptedBlob = try AES.UnauthenticatedCBC.encrypt(blob, using: keys.transport,
                                                              iv: PowerAuth.StatusBlob.iv(transportKey: keys.transport, challenge: challenge, nonce: statusNonce),
                                                              padding: .none)
        let token = PowerAuth.Token(id: "5f3f0ef6-1d2b-4ad5-9d4e-4d1b2f0b9c11", secret: SymmetricKey(data: Array(repeating: 7, count: 16)))

        let encryptor = PowerAuth.ECIES.Encryptor(publicKey: serverKey.publicKey, parameters: parameters)
        let (request, decryptor) = try encryptor.encryptRequest(Array("{}".utf8), timestamp: 1_700_000_000_000, using: &seeded)
        let response = try serverAnswer(request, serverKey: serverKey, parameters: parameters)
        let prepared = (decryptor: decryptor, response: response)

        @Sendable func sign(_ keys: PowerAuth.SignatureKeys) throws -> String {
            let data = PowerAuth.NormalizedData.make(method: "POST", uriID: "/pa/signature/validate", nonce: nonce, body: body, secret: appSecret)
            return try PowerAuth.Signature.compute(data: data, counter: counter, factors: .possessionKnowledge, keys: keys, format: .base64)
        }
        return [
            // Normalised data, the two-factor signature and the counter advance.
            BenchmarkCase("powerauth/sign/possession_knowledge", repeating: { (try sign(unlocked), counter.next) }),
            BenchmarkCase("powerauth/sign/possession_knowledge+unlock", repeating: {
                let key = try PBKDF2<Insecure.SHA1>.deriveKey(from: Array("1234".utf8), salt: salt, rounds: 10_000, outputByteCount: 16)
                let knowledge = try AES.UnauthenticatedCBC.decrypt(lockedKnowledge, using: key, iv: [UInt8](repeating: 0, count: 16), padding: .none)
                return (try sign(PowerAuth.SignatureKeys(possession: keys.possession, knowledge: SymmetricKey(data: knowledge))), counter.next)
            }),
            BenchmarkCase("powerauth/offline-sign", repeating: {
                let data = PowerAuth.NormalizedData.make(method: "POST", uriID: "/operation/authorize/offline", nonce: nonce, body: body, secret: "offline")
                return try PowerAuth.Signature.compute(data: data, counter: counter, factors: .possessionKnowledge, keys: unlocked, format: .decimal(digits: 8))
            }),
            BenchmarkCase("powerauth/token-header", repeating: {
                var random = SystemRandomSource()
                return try token.headerValue(timestamp: 1_691_762_307_382, using: &random)
            }),
            // The client's work in one exchange: encrypt a request (ephemeral key, ECDH, KDF, AES,
            // MAC) and decrypt a response (MAC, AES). The server's half is prepared outside.
            BenchmarkCase("powerauth/ecies/request+response", repeating: {
                var random = SystemRandomSource()
                let request = try encryptor.encryptRequest(Array("{}".utf8), timestamp: 1_700_000_000_000, using: &random)
                return (request.request, try prepared.decryptor.decrypt(prepared.response))
            }),
            BenchmarkCase("powerauth/status-decrypt", repeating: {
                try PowerAuth.StatusBlob.decrypt(encryptedBlob, transportKey: keys.transport, challenge: challenge, nonce: statusNonce)
            }),
        ]
    }

    /// The server's answer to a request, prepared once for the ECIES row.
    static func serverAnswer(_ request: PowerAuth.ECIES.Request, serverKey: P256.KeyAgreement.PrivateKey,
                             parameters: PowerAuth.ECIES.Parameters) throws -> PowerAuth.ECIES.Response {
        let (_, encryptor) = try PowerAuth.ECIES.RequestDecryptor(privateKey: serverKey, parameters: parameters).decrypt(request)
        return try encryptor.encrypt(Array("{}".utf8), nonce: Array(repeating: 3, count: 16), timestamp: 1_700_000_000_001)
    }
}
