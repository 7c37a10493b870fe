// The files under ../shared/vectors/powerauth, recognised by shape and file name
// (docs/design.md §3). The primitive-level files so far (KDF, CRC, ECDH fold, activation-code
// signature); the protocol-level files are checked elsewhere.

import CryptoCore
import CryptoPrimitives
import FoundationEssentials
import VectorFormats

enum PowerAuthFiles {
    /// The checker for a PowerAuth file name, or nil when the file is not (yet) understood.
    static func checker(for name: String, _ json: JSONValue) -> ((JSONValue, inout CaseLog) -> Void)? {
        switch name {
        case "kdf-x963-sha256.json" where json["cases"] != nil: checkX963
        case "crc16-arc.json" where json["cases"] != nil: checkCRC16
        case "compute-master-secret-key.json" where json["data"] != nil: checkMasterSecret
        case "verify-activation-data-signature-v3.json" where json["data"] != nil: checkActivationSignature
        default: nil
        }
    }

    /// `sharedSecretHex`, `sharedInfoHex`, `outputLengthBytes` → `expectedKeyHex`.
    static func checkX963(_ json: JSONValue, _ log: inout CaseLog) {
        for (index, entry) in log.array(json["cases"], "cases").enumerated() {
            let id = "case \(index)"
            do throws(VectorFormatError) {
                let secret = try bytes(entry, "sharedSecretHex"), info = try bytes(entry, "sharedInfoHex")
                let expected = try bytes(entry, "expectedKeyHex")
                guard let length = entry["outputLengthBytes"]?.int else { throw .missingField("outputLengthBytes") }
                let got = try? X963KDF<SHA256>.deriveKey(sharedSecret: secret, sharedInfo: info, outputByteCount: length)
                log.expect(got?.secret.unsafeExposedBytes, equals: expected, id)
            } catch {
                log.fail(id, "", expected: "well-formed case", got: error.description)
            }
        }
    }

    /// `inputAscii` → `crc16` ("0xC6EB").
    static func checkCRC16(_ json: JSONValue, _ log: inout CaseLog) {
        for (index, entry) in log.array(json["cases"], "cases").enumerated() {
            let id = "case \(index)"
            guard let input = entry["inputAscii"]?.string, let text = entry["crc16"]?.string,
                  text.hasPrefix("0x"), let expected = UInt16(text.dropFirst(2), radix: 16) else {
                log.fail(id, "", expected: "well-formed case", got: "missing inputAscii or crc16")
                continue
            }
            let got = CRC16.arc(Array(input.utf8))
            log.expect(got == expected, id, input.count > 20 ? String(input.prefix(20)) + "…" : input,
                       expected: text, got: "0x" + String(got, radix: 16, uppercase: true))
        }
    }

    /// ECDH then fold16 (docs/protocols/powerauth.md §1): both sides must reach `masterSecretKey`.
    static func checkMasterSecret(_ json: JSONValue, _ log: inout CaseLog) {
        for (index, entry) in log.array(json["data"], "data").enumerated() {
            let id = "data[\(index)]"
            do throws(VectorFormatError) {
                let input = entry["input"] ?? .null
                let expected = try base64(entry["output"] ?? .null, "masterSecretKey")
                for (privateName, publicName) in [("devicePrivateKey", "serverPublicKey"), ("serverPrivateKey", "devicePublicKey")] {
                    let privateField = try base64(input, privateName), publicField = try base64(input, publicName)
                    let ours = try? P256.KeyAgreement.PrivateKey(rawRepresentation: privateField)
                    let peer = try? P256.KeyAgreement.PublicKey(sec1Representation: publicField)
                    let shared = (peer.flatMap { try? ours?.sharedSecretFromKeyAgreement(with: $0) })?.secret.unsafeExposedBytes
                    let folded = shared.flatMap { shared in shared.count == 32 ? (0..<16).map { shared[$0] ^ shared[$0 + 16] } : nil }
                    log.expect(folded, equals: expected, id, "\(privateName) × \(publicName)")
                }
            } catch {
                log.fail(id, "", expected: "well-formed case", got: error.description)
            }
        }
    }

    /// The activation code's ASCII bytes, signed with the master key (docs/protocols/powerauth.md §3.2).
    static func checkActivationSignature(_ json: JSONValue, _ log: inout CaseLog) {
        for (index, entry) in log.array(json["data"], "data").enumerated() {
            let id = "data[\(index)]"
            do throws(VectorFormatError) {
                let input = entry["input"] ?? .null
                guard let code = input["activationCode"]?.string else { throw .missingField("activationCode") }
                let publicField = try base64(input, "masterPublicKey"), privateField = try base64(input, "masterPrivateKey")
                let signatureField = try base64(entry["output"] ?? .null, "activationSignature")
                let publicKey = try? P256.Signing.PublicKey(sec1Representation: publicField)
                let privateKey = try? P256.Signing.PrivateKey(rawRepresentation: privateField)
                let signature = try? P256.Signing.ECDSASignature(derRepresentation: signatureField)
                let consistent = publicKey != nil && privateKey?.publicKey == publicKey
                let verifies = signature.map { publicKey?.isValidSignature($0, for: Array(code.utf8)) ?? false } ?? false
                log.expect(consistent && verifies, id, code, expected: "key pair consistent, signature valid",
                           got: "consistent \(consistent), valid \(verifies)")
            } catch {
                log.fail(id, "", expected: "well-formed case", got: error.description)
            }
        }
    }

    /// A standard Base64 string value, decoded by Foundation (not by the engine under test);
    /// `nil` when absent or not Base64.
    static func base64(_ value: JSONValue?) -> [UInt8]? {
        value?.string.flatMap { Data(base64Encoded: $0) }.map(Array.init)
    }

    /// A standard Base64 field, decoded by Foundation (not by the engine under test).
    static func base64(_ entry: JSONValue, _ name: String) throws(VectorFormatError) -> [UInt8] {
        guard let text = entry[name]?.string else { throw .missingField(name) }
        guard let data = Data(base64Encoded: text) else { throw .malformed("\(name) is not Base64") }
        return Array(data)
    }

    static func bytes(_ entry: JSONValue, _ name: String) throws(VectorFormatError) -> [UInt8] {
        guard let text = entry[name]?.string else { throw .missingField(name) }
        return try HexText.bytes(text, field: name)
    }
}
