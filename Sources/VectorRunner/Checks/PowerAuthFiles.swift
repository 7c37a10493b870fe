// The files under ../shared/vectors/powerauth, recognised by shape and file name
// (DESIGN.md §3). Only the primitives of the engine so far; the protocol files come with the
// PowerAuth issue and are reported unrecognised until then.

import CryptoCore
import CryptoPrimitives
import VectorFormats

enum PowerAuthFiles {
    /// The checker for a PowerAuth file name, or nil when the file is not (yet) understood.
    static func checker(for name: String, _ json: JSONValue) -> ((JSONValue, inout CaseLog) -> Void)? {
        switch name {
        case "kdf-x963-sha256.json" where json["cases"] != nil: checkX963
        case "crc16-arc.json" where json["cases"] != nil: checkCRC16
        default: nil
        }
    }

    /// `sharedSecretHex`, `sharedInfoHex`, `outputLengthBytes` → `expectedKeyHex`.
    static func checkX963(_ json: JSONValue, _ log: inout CaseLog) {
        for (index, entry) in (json["cases"]?.array ?? []).enumerated() {
            let id = "case \(index)"
            do throws(VectorFormatError) {
                let secret = try bytes(entry, "sharedSecretHex"), info = try bytes(entry, "sharedInfoHex")
                let expected = try bytes(entry, "expectedKeyHex")
                guard let length = entry["outputLengthBytes"]?.int else { throw .missingField("outputLengthBytes") }
                let got = try? X963KDF<SHA256>.deriveKey(sharedSecret: secret, sharedInfo: info, outputByteCount: length)
                log.expect(got?.secret.unsafeExposedBytes ?? [], equals: expected, id)
            } catch {
                log.fail(id, "", expected: "well-formed case", got: error.description)
            }
        }
    }

    /// `inputAscii` → `crc16` ("0xC6EB").
    static func checkCRC16(_ json: JSONValue, _ log: inout CaseLog) {
        for (index, entry) in (json["cases"]?.array ?? []).enumerated() {
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

    static func bytes(_ entry: JSONValue, _ name: String) throws(VectorFormatError) -> [UInt8] {
        guard let text = entry[name]?.string else { throw .missingField(name) }
        return try HexText.bytes(text, field: name)
    }
}
