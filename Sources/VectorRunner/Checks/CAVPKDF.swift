// Key-derivation files: ANSI X9.63 (CAVS SP 800-135 component) and HKDF (RFC 5869 layout).

import CryptoPrimitives
import VectorFormats

enum CAVPKDF {
    /// X9.63: `[SHA-256]` sections with `Z`, `SharedInfo`, `key_data`.
    static func checkX963(_ file: CAVPFile, _ log: inout CaseLog) {
        for block in file.blocks where block.has("key_data") {
            let id = "COUNT \(block["COUNT"] ?? "?") line \(block.line)"
            guard let hash = block.section.lazy.compactMap({ HashChoice(name: $0.name) }).first else {
                log.skip(id, reason: "no hash named in the section")
                continue
            }
            do throws(VectorFormatError) {
                let expected = try block.bytes("key_data")
                let secret = try block.bytes("Z"), info = try block.bytes("SharedInfo")
                let got = try? hash.x963(secret: secret, info: info, length: expected.count)
                log.expect(got, equals: expected, id)
            } catch {
                log.fail(id, "", expected: "well-formed record", got: error.description)
            }
        }
    }

    /// HKDF: `Hash`, `IKM`, `salt`, `info`, `L`, `OKM`.
    static func checkHKDF(_ file: CAVPFile, _ log: inout CaseLog) {
        for block in file.blocks where block.has("OKM") {
            let id = "COUNT \(block["COUNT"] ?? "?") line \(block.line)"
            guard let hash = block["Hash"].flatMap(HashChoice.init(name:)) else {
                log.skip(id, reason: "unsupported hash \(block["Hash"] ?? "")")
                continue
            }
            do throws(VectorFormatError) {
                let ikm = try block.bytes("IKM"), salt = try block.bytes("salt"), info = try block.bytes("info")
                let length = try block.integer("L"), expected = try block.bytes("OKM")
                let got = try? hash.hkdf(ikm: ikm, salt: salt, info: info, length: length)
                log.expect(got, equals: expected, id)
            } catch {
                log.fail(id, "", expected: "well-formed record", got: error.description)
            }
        }
    }
}
