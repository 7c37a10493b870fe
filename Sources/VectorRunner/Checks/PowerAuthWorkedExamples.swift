// `powerauth/worked-examples-self-computed.json` (vectors README §B, not official): token
// digests, normalised data with online and offline signatures and the next counter, and the
// keystore JWT with its activation-scope key.

import CryptoPrimitives
import FoundationEssentials
import PowerAuth
import VectorFormats

enum PowerAuthWorkedExamples {
    static func checker(for name: String, _ json: JSONValue) -> ((JSONValue, inout CaseLog) -> Void)? {
        guard name == "worked-examples-self-computed.json", json["tokenDigest"] != nil else { return nil }
        return check
    }

    private static func b64(_ value: JSONValue?) -> [UInt8] { PowerAuthFiles.base64(value) ?? [] }

    static func check(_ json: JSONValue, _ log: inout CaseLog) {
        for (index, entry) in log.array(json["tokenDigest"], "tokenDigest").enumerated() {
            let version = entry["version"]?.string.flatMap(PowerAuth.ProtocolVersion.init(rawValue:)) ?? .v3_3
            let token = PowerAuth.Token(id: "id", secret: SymmetricKey(data: b64(entry["tokenSecret"])))
            let digest = token.digest(nonce: b64(entry["nonce"]), timestamp: UInt64(entry["timestamp"]?.string ?? "") ?? 0, version: version)
            log.expect(digest, equals: b64(entry["tokenDigest"]), "tokenDigest[\(index)]", version.rawValue)
        }

        let online = json["onlineSignature"]
        let keys = PowerAuth.SignatureKeys(possession: SymmetricKey(data: b64(online?["signaturePossessionKey"])),
                                           knowledge: SymmetricKey(data: b64(online?["signatureKnowledgeKey"])))
        let factors = PowerAuth.SignatureFactors(rawValue: online?["signatureType"]?.string ?? "") ?? .possession
        guard let counter = try? PowerAuth.CounterData(rawRepresentation: b64(online?["ctrData"])) else {
            return log.fail("onlineSignature", "", expected: "16-byte ctrData", got: "missing")
        }
        let data = PowerAuth.NormalizedData.make(method: online?["method"]?.string ?? "", uriID: online?["uriId"]?.string ?? "",
                                                 nonce: online?["nonce"]?.string ?? "", body: Array((online?["bodyUtf8"]?.string ?? "").utf8),
                                                 secret: online?["appSecret"]?.string ?? "")
        log.expect(String(decoding: data, as: UTF8.self) == online?["normalizedData"]?.string, "onlineSignature", "normalized data",
                   expected: online?["normalizedData"]?.string ?? "", got: String(decoding: data, as: UTF8.self))
        for (name, format) in [("signatureBase64", PowerAuth.SignatureFormat.base64), ("signatureDecimal", .decimal(digits: 8))] {
            let got = try? PowerAuth.Signature.compute(data: data, counter: counter, factors: factors, keys: keys, format: format)
            log.expect(got == online?[name]?.string, "onlineSignature", name, expected: online?[name]?.string ?? "", got: got ?? "error")
        }
        log.expect(counter.next.rawRepresentation.unsafeExposedBytes, equals: b64(online?["nextCtrData"]), "onlineSignature", "next CTR_DATA")

        let offline = json["offlineSignature"]
        let offlineData = PowerAuth.NormalizedData.make(method: "POST", uriID: offline?["uriId"]?.string ?? "", nonce: offline?["nonce"]?.string ?? "",
                                                        body: Array((offline?["bodyUtf8"]?.string ?? "").utf8), secret: "offline")
        log.expect(String(decoding: offlineData, as: UTF8.self) == offline?["normalizedData"]?.string, "offlineSignature", "normalized data",
                   expected: offline?["normalizedData"]?.string ?? "", got: String(decoding: offlineData, as: UTF8.self))
        for (name, digits) in [("componentLength8", 8), ("componentLength4", 4)] {
            let got = try? PowerAuth.Signature.compute(data: offlineData, counter: counter, factors: factors, keys: keys, format: .decimal(digits: digits))
            log.expect(got == offline?[name]?.string, "offlineSignature", name, expected: offline?[name]?.string ?? "", got: got ?? "error")
        }

        let jwtCase = json["keystoreJwtApplicationScope"]
        let expectedJWT = jwtCase?["jwt"]?.string ?? ""
        // The challenge is read back from the expected payload with Foundation.
        let payloadSegment = expectedJWT.split(separator: ".").dropFirst().first.map(String.init) ?? ""
        let padded = String(payloadSegment.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
            + String(repeating: "=", count: (4 - payloadSegment.count % 4) % 4)
        let payload = Data(base64Encoded: padded).flatMap { try? JSONValue.parse($0) }
        let challenge = b64(payload?["challenge"])
        let jwt = PowerAuth.Keystore.requestJWT(applicationKey: jwtCase?["applicationKey"]?.string ?? "", challenge: challenge,
                                                key: PowerAuth.Keystore.requestKey(applicationSecretBytes: b64(jwtCase?["appSecret"])))
        log.expect(jwt == expectedJWT, "keystoreJwtApplicationScope", expected: expectedJWT, got: jwt)
        let keyCase = json["keystoreJwtActivationScopeKey"]
        let activationKey = PowerAuth.Keystore.requestKey(applicationSecretBytes: b64(keyCase?["appSecret"]),
                                                          transportKey: SymmetricKey(data: b64(keyCase?["transportKey"])))
        log.expect(activationKey.withUnsafeBytes { Array($0) }, equals: b64(keyCase?["hs256Key"]), "keystoreJwtActivationScopeKey")
    }
}
