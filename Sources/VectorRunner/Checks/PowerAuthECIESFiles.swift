// `powerauth/ecies-v3.0-v3.1.json` and `powerauth/ecies-v3.2-v3.3.json` (vectors README §B):
// each request is decrypted with the server key, each response re-encrypted with its nonce and
// timestamp must equal the official bytes, and the client decrypts the official response.

import CryptoPrimitives
import FoundationEssentials
import PowerAuth
import VectorFormats

enum PowerAuthECIESFiles {
    static func checker(for name: String, _ json: JSONValue) -> ((JSONValue, inout CaseLog) -> Void)? {
        switch name {
        case "ecies-v3.0-v3.1.json" where json["3.0"]?["cases"] != nil: { json, log in
            for version in ["3.0", "3.1"] { check(json[version], version: version, &log) }
        }
        case "ecies-v3.2-v3.3.json" where json["3.2"]?["cases"] != nil: { json, log in
            for version in ["3.2", "3.3"] { check(json[version], version: version, &log) }
        }
        default: nil
        }
    }

    private static func b64(_ value: JSONValue?) -> [UInt8]? { PowerAuthFiles.base64(value) }

    private static func check(_ group: JSONValue?, version text: String, _ log: inout CaseLog) {
        guard let group, let version = PowerAuth.ProtocolVersion(rawValue: text) else { return log.fail(text, "", expected: "a version group", got: "missing") }
        let constants = group["constants"]
        for (index, entry) in log.array(group["cases"], "\(text).cases").enumerated() {
            let id = "\(text) case \(index) \(entry["encryptorId"]?.string ?? "")"
            let parameters: PowerAuth.ECIES.Parameters
            let privateKeyBytes: [UInt8]?
            if let constants {
                guard let sh1 = entry["sharedInfo1Constant"]?.string.flatMap(PowerAuth.ECIES.SharedInfo1.init(rawValue:)),
                      let appKey = constants["applicationKey"]?.string, let appSecret = constants["applicationSecret"]?.string else {
                    log.fail(id, "", expected: "constants and sharedInfo1Constant", got: "missing")
                    continue
                }
                let temporaryKeyID = entry["temporaryKeyId"]?.string
                if entry["scope"]?.string == "activation" {
                    parameters = .activationScope(sh1, version: version, applicationKey: appKey, applicationSecret: appSecret,
                                                  transportKey: SymmetricKey(data: b64(constants["transportKey"]) ?? []),
                                                  activationID: constants["activationId"]?.string ?? "", temporaryKeyID: temporaryKeyID)
                    privateKeyBytes = b64(constants["serverPrivateKey"])
                } else {
                    parameters = .applicationScope(sh1, version: version, applicationKey: appKey, applicationSecret: appSecret, temporaryKeyID: temporaryKeyID)
                    privateKeyBytes = b64(constants["masterServerPrivateKey"])
                }
                let internals = entry["expectedInternals"]
                log.expect(parameters.associatedData ?? [], equals: b64(internals?["associatedData"]) ?? [], id, "associated data")
                log.expect(parameters.sharedInfo2Base, equals: b64(internals?["sharedInfo2Base"]) ?? [], id, "sharedInfo2 base")
            } else {
                parameters = PowerAuth.ECIES.Parameters(version: version, sharedInfo1: b64(entry["sharedInfo1"]) ?? [],
                                                        sharedInfo2Base: b64(entry["sharedInfo2"]) ?? [], associatedData: nil, temporaryKeyID: nil)
                privateKeyBytes = b64(group["serverPrivateKey"])
            }
            checkExchange(entry, parameters: parameters, privateKey: privateKeyBytes.flatMap { try? P256.KeyAgreement.PrivateKey(rawRepresentation: $0) },
                          id: id, &log)
        }
    }

    private static func checkExchange(_ entry: JSONValue, parameters: PowerAuth.ECIES.Parameters, privateKey: P256.KeyAgreement.PrivateKey?,
                                      id: String, _ log: inout CaseLog) {
        let r = entry["request"], s = entry["response"]
        guard let privateKey, let e = b64(r?["ephemeralPublicKey"]), let requestData = b64(r?["encryptedData"]), let requestMAC = b64(r?["mac"]),
              let responseData = b64(s?["encryptedData"]), let responseMAC = b64(s?["mac"]),
              let requestPlaintext = b64(entry["requestPlaintext"]), let responsePlaintext = b64(entry["responsePlaintext"]),
              let envelopeKey48 = b64(entry["expectedInternals"]?["envelopeKey48"]) else {
            return log.fail(id, "", expected: "keys, request, response, plaintexts and envelope key", got: "missing or not Base64")
        }
        let request = PowerAuth.ECIES.Request(temporaryKeyID: r?["temporaryKeyId"]?.string, ephemeralPublicKey: e, encryptedData: requestData, mac: requestMAC,
                                              nonce: b64(r?["nonce"]), timestamp: r?["timestamp"]?.int.map(UInt64.init))
        let decrypted = try? PowerAuth.ECIES.RequestDecryptor(privateKey: privateKey, parameters: parameters).decrypt(request)
        log.expect(decrypted?.plaintext, equals: requestPlaintext, id, "request decrypts")  // a refusal fails

        // The envelope key, recomputed from the server side.
        let ephemeral = try? P256.KeyAgreement.PublicKey(sec1Representation: e)
        let envelope = (ephemeral.flatMap { try? privateKey.sharedSecretFromKeyAgreement(with: $0) })
            .flatMap { try? PowerAuth.ECIES.EnvelopeKey(sharedSecret: $0, kdfInfo: parameters.kdfInfo, ephemeralPublicKey: e) }
        let keyBytes = envelope.map { [$0.encryptionKey, $0.macKey, $0.ivKey].flatMap { k in k.withUnsafeBytes { Array($0) } } }
        log.expect(keyBytes, equals: envelopeKey48, id, "envelope key")

        let responseNonce = b64(s?["nonce"])
        let responseTimestamp = s?["timestamp"]?.int.map(UInt64.init)
        let response = try? decrypted?.responseEncryptor.encrypt(responsePlaintext, nonce: responseNonce, timestamp: responseTimestamp)
        log.expect(response.map { $0.encryptedData + $0.mac }, equals: responseData + responseMAC, id, "response re-encrypts")

        let requestIV = b64(entry["expectedInternals"]?["iv"]) ?? b64(entry["expectedInternals"]?["requestIv"]) ?? []
        let official = PowerAuth.ECIES.Response(encryptedData: responseData, mac: responseMAC, nonce: responseNonce, timestamp: responseTimestamp)
        let clientPlaintext = envelope.flatMap { try? PowerAuth.ECIES.ResponseDecryptor(envelope: $0, parameters: parameters, requestIV: requestIV).decrypt(official) }
        log.expect(clientPlaintext, equals: responsePlaintext, id, "client decrypts the response")  // a refusal fails
    }
}
