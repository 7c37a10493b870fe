// A PowerAuth server half for the tests: answers activation/create (both ECIES layers), keeps
// the server's counter, verifies signatures with its look-ahead window, and builds status blobs.
// It uses the vector-checked ECIES server half and the primitives, never the client's code paths.

import CryptoPrimitives
import Foundation
import PowerAuth
import ProtocolSupport
import TestSupport

final class PowerAuthTestServer {
    let masterKey: P256.KeyAgreement.PrivateKey
    let configuration: PowerAuth.Configuration
    let version: PowerAuth.ProtocolVersion
    var random: SeededRandomSource
    var activationID = "4a5e0fbe-6f9e-4a53-9ad1-1c1d2e3f4a5b"
    var serverKey: P256.KeyAgreement.PrivateKey?
    var keys: PowerAuth.ActivationKeys?
    var counter: PowerAuth.CounterData?
    var counterIndex = 0
    var devicePublicKey: P256.KeyAgreement.PublicKey?
    var lookAhead = 20

    init(version: PowerAuth.ProtocolVersion, seed: UInt64) throws {
        random = SeededRandomSource(seed: seed)
        masterKey = try P256.KeyAgreement.PrivateKey(using: &random)
        self.version = version
        let signingMaster = try P256.Signing.PublicKey(x963Representation: masterKey.publicKey.x963Representation)
        configuration = try PowerAuth.Configuration(applicationKey: "lceX5qe+O+Sb0t8TQqg35A==", applicationSecret: "m3JdVJMIu65fXXFi4VqjjA==",
                                                    masterServerPublicKey: signingMaster, baseURL: "https://pa.example.com")
    }

    var temporaryKeyID: String? { version >= .v3_3 ? "tmp-app-1" : nil }

    func parameters(_ sh1: PowerAuth.ECIES.SharedInfo1) -> PowerAuth.ECIES.Parameters {
        .applicationScope(sh1, version: version, applicationKey: configuration.applicationKey, applicationSecret: configuration.applicationSecret,
                          temporaryKeyID: temporaryKeyID)
    }

    /// Answers `POST /pa/v3/activation/create`; returns the layer-1 type and identity it read.
    func activate(_ request: HTTPRequest, recovery: (String, String)? = nil) throws -> (response: HTTPResponse, type: String, identity: [String: String]) {
        let outer = try PowerAuth.ECIES.Request(jsonBytes: request.body ?? [])
        let (layer1, outerEncryptor) = try PowerAuth.ECIES.RequestDecryptor(privateKey: masterKey, parameters: parameters(.applicationScopeGeneric)).decrypt(outer)
        let l1 = try JSONSerialization.jsonObject(with: Data(layer1)) as? [String: Any] ?? [:]
        let innerJSON = try JSONSerialization.data(withJSONObject: l1["activationData"] ?? [:])
        let (layer2, innerEncryptor) = try PowerAuth.ECIES.RequestDecryptor(privateKey: masterKey, parameters: parameters(.activationLayer2))
            .decrypt(try PowerAuth.ECIES.Request(jsonBytes: Array(innerJSON)))
        let l2 = try JSONSerialization.jsonObject(with: Data(layer2)) as? [String: Any] ?? [:]
        let device = try P256.KeyAgreement.PublicKey(sec1Representation: Array(Data(base64Encoded: l2["devicePublicKey"] as? String ?? "") ?? Data()))
        devicePublicKey = device
        let server = try P256.KeyAgreement.PrivateKey(using: &random)
        serverKey = server
        let master = try PowerAuth.KeyDerivation.masterSecret(devicePrivateKey: server, serverPublicKey: device)
        keys = PowerAuth.ActivationKeys(masterSecret: master)
        let ctr = try random.bytes(count: 16)
        counter = try PowerAuth.CounterData(rawRepresentation: ctr)
        var answer: [String: Any] = ["activationId": activationID, "serverPublicKey": Data(server.publicKey.x963Representation).base64EncodedString(),
                                     "ctrData": Data(ctr).base64EncodedString()]
        if let recovery { answer["activationRecovery"] = ["recoveryCode": recovery.0, "puk": recovery.1] }
        let now: UInt64 = 1_700_000_000_500
        let innerResponse = try innerEncryptor.encrypt(Array(try JSONSerialization.data(withJSONObject: answer)), timestamp: now, using: &random)
        let layer1Answer = try JSONSerialization.data(withJSONObject: ["activationData": try JSONSerialization.jsonObject(with: Data(innerResponse.json.bytes))])
        let outerResponse = try outerEncryptor.encrypt(Array(layer1Answer), timestamp: now, using: &random)
        let identity = (l1["identityAttributes"] as? [String: String]) ?? [:]
        return (HTTPResponse(status: 200, body: outerResponse.json.bytes), l1["type"] as? String ?? "", identity)
    }

    /// Verifies an `X-PowerAuth-Authorization` over `body` within the look-ahead window and
    /// advances the counter past the match; `false` when nothing matches.
    func verify(header: String, method: String, uriID: String, body: [UInt8]) throws -> Bool {
        var fields: [String: String] = [:]
        for part in header.dropFirst("PowerAuth ".count).components(separatedBy: ", ") {
            let kv = part.split(separator: "=", maxSplits: 1)
            guard kv.count == 2 else { return false }
            fields[String(kv[0])] = String(kv[1].dropFirst().dropLast())
        }
        guard let keys, var candidate = counter, let nonce = fields["pa_nonce"], let type = fields["pa_signature_type"],
              let factors = PowerAuth.SignatureFactors(rawValue: type), fields["pa_activation_id"] == activationID else { return false }
        let data = PowerAuth.NormalizedData.make(method: method, uriID: uriID, nonce: nonce, body: body, secret: configuration.applicationSecret)
        let all = PowerAuth.SignatureKeys(possession: keys.possession, knowledge: keys.knowledge, biometry: keys.biometry)
        for step in 0..<lookAhead {
            let expected = try PowerAuth.Signature.compute(data: data, counter: candidate, factors: factors, keys: all,
                                                           format: fields["pa_version"] == "3.0" ? .decimal(digits: 8) : .base64)
            if expected == fields["pa_signature"] {
                counter = candidate.next
                counterIndex += step + 1
                return true
            }
            candidate = candidate.next
        }
        return false
    }

    /// Answers an encrypt-then-sign standard endpoint: verifies the signature over the ECIES body,
    /// decrypts it (activation scope; in 3.3 the temporary key is the server key, id
    /// `tmp-act-1`), and encrypts `answer(plaintext)`. `nil` when the signature fails.
    func encryptedEndpoint(_ request: HTTPRequest, uriID: String, sharedInfo1: PowerAuth.ECIES.SharedInfo1,
                           answer: ([UInt8]) throws -> [UInt8]) throws -> HTTPResponse? {
        guard let keys, let serverKey, let header = request.header("X-PowerAuth-Authorization"),
              try verify(header: header, method: "POST", uriID: uriID, body: request.body ?? []) else { return nil }
        let parameters = PowerAuth.ECIES.Parameters.activationScope(sharedInfo1, version: version, applicationKey: configuration.applicationKey,
                                                                    applicationSecret: configuration.applicationSecret, transportKey: keys.transport,
                                                                    activationID: activationID, temporaryKeyID: version >= .v3_3 ? "tmp-act-1" : nil)
        let (plaintext, encryptor) = try PowerAuth.ECIES.RequestDecryptor(privateKey: serverKey, parameters: parameters)
            .decrypt(try PowerAuth.ECIES.Request(jsonBytes: request.body ?? []))
        let response = try encryptor.encrypt(try answer(plaintext), timestamp: 1_700_000_001_000, using: &random)
        return HTTPResponse(status: 200, body: response.json.bytes)
    }

    /// The vault key wrapped under the transport key, as vault unlock returns it (§12).
    func vaultUnlockAnswer() throws -> [UInt8] {
        guard let keys else { return [] }
        let wrapped = try keys.vault.withUnsafeBytes { raw throws(CryptoError) in
            try AES.UnauthenticatedCBC.encrypt(raw, using: keys.transport, iv: [UInt8](repeating: 0, count: 16))
        }
        return Array(try JSONSerialization.data(withJSONObject: ["activationId": activationID, "encryptedVaultEncryptionKey": Data(wrapped).base64EncodedString()]))
    }

    /// The status answer for `request`: an ACTIVE blob with the server's counter (§6.3).
    func status(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try JSONSerialization.jsonObject(with: Data(request.body ?? [])) as? [String: [String: String]]
        let challenge = Array(Data(base64Encoded: body?["requestObject"]?["challenge"] ?? "") ?? Data())
        guard let keys, let counter else { return HTTPResponse(status: 400) }
        let nonce = try random.bytes(count: 16)
        let counterKey = PowerAuth.KeyDerivation.derive(keys.transport, index: 4000)
        let hash = PowerAuth.KeyDerivation.deriveInternal(counterKey, index: counter.rawRepresentation.unsafeExposedBytes).withUnsafeBytes { Array($0) }
        let blob: [UInt8] = [0xDE, 0xC0, 0xDE, 0xD1, 3, 3, 3, 9, 9, 9, 9, 9, UInt8(counterIndex & 0xFF), 0, 5, UInt8(lookAhead)] + hash
        let iv = PowerAuth.StatusBlob.iv(transportKey: keys.transport, challenge: challenge, nonce: nonce)
        let encrypted = try AES.UnauthenticatedCBC.encrypt(blob, using: keys.transport, iv: iv, padding: .none)
        let answer: [String: Any] = ["status": "OK", "responseObject": ["activationId": activationID, "encryptedStatusBlob": Data(encrypted).base64EncodedString(),
                                                                        "nonce": Data(nonce).base64EncodedString()]]
        return HTTPResponse(status: 200, body: Array(try JSONSerialization.data(withJSONObject: answer)))
    }
}
