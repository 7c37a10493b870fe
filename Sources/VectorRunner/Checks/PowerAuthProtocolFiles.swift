// The official PowerAuth protocol vectors (vectors/powerauth/README.md §A) that need the
// PowerAuth target: derived keys, online and offline signatures, the status blob, fingerprints.
// Base64 fields are decoded by Foundation, not by the engine.

import CryptoPrimitives
import PowerAuth
import ProtocolSupport
import VectorFormats

enum PowerAuthProtocolFiles {
    static func checker(for name: String, _ json: JSONValue) -> ((JSONValue, inout CaseLog) -> Void)? {
        guard json["data"]?.array != nil else { return nil }
        switch name {
        case "compute-derived-keys.json": return checkDerivedKeys
        case "signatures-v3.json": return { check(signatures: $0, format: .decimal(digits: 8), &$1) }
        case "signatures-v31.json": return { check(signatures: $0, format: .base64, &$1) }
        case "signatures-offline.json": return { check(signatures: $0, format: nil, &$1) }
        case "activation-status-blob-iv.json": return checkStatusIV
        case "activation-status-blob-data.json": return checkStatusData
        case "public-key-fingerprint-v3.json": return checkFingerprint
        default: return nil
        }
    }

    /// Runs `body` on every `data[i]` entry with its input and output.
    static func forEachCase(_ json: JSONValue, _ log: inout CaseLog,
                            _ body: (_ id: String, _ input: JSONValue, _ output: JSONValue, _ log: inout CaseLog) throws(VectorFormatError) -> Void) {
        for (index, entry) in log.array(json["data"], "data").enumerated() {
            let id = "data[\(index)]"
            do throws(VectorFormatError) {
                try body(id, entry["input"] ?? .null, entry["output"] ?? .null, &log)
            } catch {
                log.fail(id, "", expected: "well-formed case", got: error.description)
            }
        }
    }

    static func key(_ entry: JSONValue, _ name: String) throws(VectorFormatError) -> SymmetricKey {
        SymmetricKey(data: try PowerAuthFiles.base64(entry, name))
    }

    static func bytes(of key: SymmetricKey) -> [UInt8] { key.withUnsafeBytes { Array($0) } }

    static func checkDerivedKeys(_ json: JSONValue, _ log: inout CaseLog) {
        forEachCase(json, &log) { id, input, output, log throws(VectorFormatError) in
            let keys = PowerAuth.ActivationKeys(masterSecret: try key(input, "masterSecretKey"))
            for (name, derived) in [("signaturePossessionKey", keys.possession), ("signatureKnowledgeKey", keys.knowledge),
                                    ("signatureBiometryKey", keys.biometry), ("transportKey", keys.transport), ("vaultEncryptionKey", keys.vault)] {
                log.expect(bytes(of: derived), equals: try PowerAuthFiles.base64(output, name), id, name)
            }
        }
    }

    static func check(signatures json: JSONValue, format: PowerAuth.SignatureFormat?, _ log: inout CaseLog) {
        forEachCase(json, &log) { id, input, output, log throws(VectorFormatError) in
            guard let type = input["signatureType"]?.string, let factors = PowerAuth.SignatureFactors(rawValue: type) else {
                throw .missingField("signatureType")
            }
            guard let expected = output["signature"]?.string else { throw .missingField("signature") }
            let digits = input["signatureComponentLength"]?.string.flatMap { Int($0) }
            guard let format = format ?? digits.map({ .decimal(digits: $0) }) else { throw .missingField("signatureComponentLength") }
            let counterField = try PowerAuthFiles.base64(input, "counterData"), data = try PowerAuthFiles.base64(input, "data")
            guard let counter = try? PowerAuth.CounterData(rawRepresentation: counterField) else {
                throw .malformed("counterData is not 16 bytes")
            }
            let keys = PowerAuth.SignatureKeys(possession: try key(input, "signaturePossessionKey"), knowledge: try key(input, "signatureKnowledgeKey"),
                                               biometry: try key(input, "signatureBiometryKey"))
            let got = try? PowerAuth.Signature.compute(data: data, counter: counter, factors: factors,
                                                       keys: keys, format: format)
            log.expect(got == expected, id, type, expected: expected, got: got ?? "error")
        }
    }

    static func checkStatusIV(_ json: JSONValue, _ log: inout CaseLog) {
        forEachCase(json, &log) { id, input, output, log throws(VectorFormatError) in
            let iv = PowerAuth.StatusBlob.iv(transportKey: try key(input, "transportKey"), challenge: try PowerAuthFiles.base64(input, "challenge"),
                                             nonce: try PowerAuthFiles.base64(input, "nonce"))
            log.expect(iv, equals: try PowerAuthFiles.base64(output, "iv"), id)
        }
    }

    static func checkStatusData(_ json: JSONValue, _ log: inout CaseLog) {
        forEachCase(json, &log) { id, input, output, log throws(VectorFormatError) in
            let transport = try key(input, "transportKey")
            let blob = try PowerAuthFiles.base64(input, "encryptedStatusBlob"), challenge = try PowerAuthFiles.base64(input, "challenge")
            let nonce = try PowerAuthFiles.base64(input, "nonce"), counterField = try PowerAuthFiles.base64(input, "ctrData")
            // No counterDistance (or null): the local counter is not within the look-ahead window
            // of the server's (docs/protocols/powerauth.md §6.4), and "not found" is the expected result.
            let expectedDistance: String?
            switch output["counterDistance"] {
            case nil, .null?: expectedDistance = nil
            case let value?:
                guard let text = value.string ?? value.int.map(String.init) else { throw .malformed("counterDistance is not a number") }
                expectedDistance = text
            }
            let status = try? PowerAuth.StatusBlob.decrypt(blob, transportKey: transport, challenge: challenge, nonce: nonce)
            guard let status else { return log.fail(id, "", expected: "a status", got: "decryption or parse error") }
            let fields: [(String, UInt8)] = [("activationStatus", status.state.rawValue), ("currentVersion", status.currentVersion),
                                             ("upgradeVersion", status.upgradeVersion), ("failedAttempts", status.failedAttempts),
                                             ("maxFailedAttempts", status.maxFailedAttempts), ("ctrLookAhead", status.lookAheadWindow),
                                             ("ctrByte", status.counterByte)]
            for (name, value) in fields {
                log.expect(output[name]?.string == String(value), id, name, expected: output[name]?.string ?? "?", got: String(value))
            }
            log.expect(status.counterDataHash, equals: try PowerAuthFiles.base64(output, "ctrDataHash"), id, "ctrDataHash")
            let local = try? PowerAuth.CounterData(rawRepresentation: counterField)
            let distance = local.flatMap {
                PowerAuth.StatusBlob.counterDistance(from: $0, serverHash: status.counterDataHash, transportKey: transport, window: Int(status.lookAheadWindow))
            }
            log.expect(distance.map(String.init) == expectedDistance, id, "counterDistance", expected: expectedDistance ?? "none",
                       got: distance.map(String.init) ?? "none")
        }
    }

    static func checkFingerprint(_ json: JSONValue, _ log: inout CaseLog) {
        forEachCase(json, &log) { id, input, output, log throws(VectorFormatError) in
            guard let activationID = output["activationId"]?.string, let expected = output["fingerprint"]?.string else {
                throw .missingField("activationId/fingerprint")
            }
            let deviceField = try PowerAuthFiles.base64(input, "devicePublicKey"), serverField = try PowerAuthFiles.base64(input, "serverPublicKey")
            let device = try? P256.KeyAgreement.PublicKey(sec1Representation: deviceField)
            let server = try? P256.KeyAgreement.PublicKey(sec1Representation: serverField)
            guard let device, let server else { return log.fail(id, "", expected: "two P-256 points", got: "not decodable") }
            let got = PowerAuth.activationFingerprint(devicePublicKey: device, activationID: activationID, serverPublicKey: server)
            log.expect(got == expected, id, "fingerprint", expected: expected, got: got)
        }
    }
}
