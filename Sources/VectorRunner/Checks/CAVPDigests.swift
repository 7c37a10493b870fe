// SHA-2 (SHAVS short, long and Monte Carlo messages) and HMAC (CAVS HMAC, RFC 4231) files.

import CryptoPrimitives
import VectorFormats

enum CAVPDigests {
    /// The hash of a SHAVS file from its `[L = n]` section (digest bytes).
    static func shaHash(of file: CAVPFile) -> HashChoice? {
        guard file.headerText.contains("SHA"), let block = file.blocks.first,
              let length = block.sectionValue("L").flatMap(Int.init) else { return nil }
        return HashChoice(digestLength: length)
    }

    /// ShortMsg/LongMsg: `Len` bits of `Msg` hash to `MD`. Monte: SHAVS §6.4.
    static func checkSHA(_ file: CAVPFile, hash: HashChoice, _ log: inout CaseLog) {
        var seed: [UInt8]?
        for block in file.blocks {
            let id = block["COUNT"].map { "COUNT \($0)" } ?? "line \(block.line)"
            do throws(VectorFormatError) {
                if block.has("Seed") {
                    seed = try block.bytes("Seed")
                } else if block.has("Msg") {
                    let length = try block.integer("Len")
                    let message = Array(try block.bytes("Msg").prefix(length / 8))
                    log.expect(hash.hash(message), equals: try block.bytes("MD"), id, "Len = \(length)")
                } else if let current = seed, block.has("MD") {
                    var md0 = current, md1 = current, md2 = current
                    for _ in 3..<1003 {
                        let next = hash.hash(md0 + md1 + md2)
                        (md0, md1, md2) = (md1, md2, next)
                    }
                    seed = md2
                    log.expect(md2, equals: try block.bytes("MD"), id, "Monte Carlo")
                }
            } catch {
                log.fail(id, "", expected: "well-formed record", got: error.description)
            }
        }
    }

    /// CAVS HMAC: `[L = digest bytes]`, `Key`, `Msg`, `Mac` truncated to `Tlen` bytes.
    static func checkCAVSHMAC(_ file: CAVPFile, _ log: inout CaseLog) {
        for block in file.blocks where block.has("Mac") {
            let id = "Count \(block["Count"] ?? "?") line \(block.line)"
            guard let hash = block.sectionValue("L").flatMap(Int.init).flatMap(HashChoice.init(digestLength:)) else {
                log.skip(id, reason: "unknown digest length \(block.sectionValue("L") ?? "")")
                continue
            }
            do throws(VectorFormatError) {
                let tagLength = try block.integer("Tlen")
                let mac = hash.hmac(key: try block.bytes("Key"), data: try block.bytes("Msg"))
                log.expect(Array(mac.prefix(tagLength)), equals: try block.bytes("Mac"), id, "Tlen = \(tagLength)")
            } catch {
                log.fail(id, "", expected: "well-formed record", got: error.description)
            }
        }
    }

    /// RFC 4231 (pyca layout): `Key`, `Msg`, `MD` for the hash in the header.
    static func checkRFC4231(_ file: CAVPFile, hash: HashChoice, _ log: inout CaseLog) {
        for block in file.blocks where block.has("MD") {
            let id = "line \(block.line)"
            do throws(VectorFormatError) {
                log.expect(hash.hmac(key: try block.bytes("Key"), data: try block.bytes("Msg")), equals: try block.bytes("MD"), id)
            } catch {
                log.fail(id, "", expected: "well-formed record", got: error.description)
            }
        }
    }
}
