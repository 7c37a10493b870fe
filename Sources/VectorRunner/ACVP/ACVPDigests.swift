// ACVP SHA-1/SHA-2 (AFT, MCT, LDT) and HMAC vector sets (draft-celi-acvp-sha,
// draft-fussell-acvp-mac).

import CryptoPrimitives
import FoundationEssentials
import VectorFormats

enum ACVPDigests {
    /// The largest LDT message hashed (bytes): 64 MiB, or `MFA_ACVP_LDT_MIB` mebibytes when set.
    /// Larger ones (the samples' 1–8 GiB) are skipped with the reason, as they take minutes.
    static let largeMessageLimit: Int = {
        let mebibytes = ProcessInfo.processInfo.environment["MFA_ACVP_LDT_MIB"].flatMap { Int($0) }.map { min(max($0, 0), 1 << 30) }
        return (mebibytes ?? 64) << 20
    }()

    static func checkSHA(_ file: ACVPFile, _ log: inout CaseLog) {
        guard let hash = ACVPHash.choice(file.algorithm) else {
            for group in file.groups { ACVPRunner.skip(group, reason: ACVPHash.unsupported(file.algorithm), &log) }
            return
        }
        ACVPRunner.forEachCase(file, &log) { (group, test, log) throws(ACVPFormatError) in
            let id = ACVPRunner.id(test), comment = ACVPRunner.comment(group)
            switch try group.fields.string("testType") {
            case "AFT":
                let bits = try test.fields.integer("len")
                guard bits % 8 == 0 else {
                    log.skip(id, reason: "bit-oriented message (len \(bits)): the engine hashes whole bytes")
                    return
                }
                let message = try test.fields.hex("msg")
                guard message.count >= bits / 8 else { throw .wrongType("msg", expected: "at least len bits", at: test.fields.place) }
                log.expect(hash.hash(Array(message.prefix(bits / 8))), equals: try test.fields.hex("md", answer: true), id, comment)
            case "MCT":
                let bits = try test.fields.integer("len")
                guard bits % 8 == 0 else {
                    log.skip(id, reason: "bit-oriented MCT seed (len \(bits)): the engine hashes whole bytes")
                    return
                }
                let seed = Array(try test.fields.hex("msg").prefix(bits / 8))
                let alternate = group.fields.value("mctVersion")?.string == "alternate"
                let expected = try test.fields.objects("resultsArray").map { (entry) throws(ACVPFormatError) in try entry.hex("md") }
                guard expected.count <= ACVPFields.monteCarloRoundLimit else {
                    throw .wrongType("resultsArray", expected: "at most \(ACVPFields.monteCarloRoundLimit) rounds (the file has \(expected.count))",
                                     at: test.fields.place)
                }
                let got = monteCarlo(hash, seed: seed, alternate: alternate, rounds: expected.count)
                log.expect(got == expected, id, comment + (alternate ? " alternate" : ""),
                           expected: "\(expected.count) digests, last \(hex(expected.last ?? []))",
                           got: mismatch(got, expected))
            case "LDT":
                let large = try test.fields.object("largeMsg")
                let content = try large.hex("content"), contentBits = try large.integer("contentLength")
                let fullBits = try large.integer("fullLength")
                guard try large.string("expansionTechnique") == "repeating" else {
                    log.skip(id, reason: "LDT expansion \(try large.string("expansionTechnique")) is not supported")
                    return
                }
                guard contentBits % 8 == 0, fullBits % 8 == 0, contentBits > 0, content.count == contentBits / 8 else {
                    log.skip(id, reason: "bit-oriented LDT content: the engine hashes whole bytes")
                    return
                }
                guard fullBits / 8 <= largeMessageLimit else {
                    log.skip(id, reason: "LDT message of \((fullBits / 8) >> 20) MiB is over the \(largeMessageLimit >> 20) MiB limit of a vector run")
                    return
                }
                log.expect(hashRepeating(hash, content, totalBytes: fullBits / 8), equals: try test.fields.hex("md", answer: true), id, comment)
            case let other:
                log.skip(id, reason: "SHA test type \(other) is not supported")
            }
        }
    }

    /// The ACVP SHA Monte Carlo test (draft-celi-acvp-sha, "Monte Carlo tests for SHA-1 and
    /// SHA-2", standard and alternate versions): 1000 chained hashes of A‖B‖C per round, the
    /// last digest seeding the next.
    static func monteCarlo(_ hash: HashChoice, seed: [UInt8], alternate: Bool, rounds: Int) -> [[UInt8]] {
        var seed = seed, results: [[UInt8]] = []
        let seedLength = seed.count
        for _ in 0..<rounds {
            var (a, b, c) = (seed, seed, seed)
            for _ in 0..<1000 {
                var message = a + b + c
                if alternate {
                    // draft-celi-acvp-sha alternate MCT: MSG cut or zero-padded to INITIAL_SEED_LENGTH.
                    message = message.count >= seedLength ? Array(message.prefix(seedLength))
                        : message + [UInt8](repeating: 0, count: seedLength - message.count)
                }
                (a, b, c) = (b, c, hash.hash(message))
            }
            results.append(c)
            seed = c
        }
        return results
    }

    /// The digest of `content` repeated to `totalBytes` bytes (draft-celi-acvp-sha, "Large Data
    /// tests for SHA-1 and SHA-2", the "repeating" expansion), streamed in chunks.
    static func hashRepeating(_ hash: HashChoice, _ content: [UInt8], totalBytes: Int) -> [UInt8] {
        hash.with { type in streamRepeating(type, content, totalBytes) }
    }

    private static func streamRepeating<H: HashFunction>(_: H.Type, _ content: [UInt8], _ totalBytes: Int) -> [UInt8] {
        var hasher = H()
        var chunk: [UInt8] = []
        while chunk.count < 1 << 16 { chunk += content }
        var remaining = totalBytes
        while remaining > 0 {
            let count = min(remaining, chunk.count - chunk.count % content.count)
            hasher.update(data: chunk.prefix(count))
            remaining -= count
        }
        return hasher.finalize().bytes
    }

    /// HMAC AFT: `key`, `msg` → the first `macLen` bits of the MAC.
    static func checkHMAC(_ file: ACVPFile, _ log: inout CaseLog) {
        let hashName = String(file.algorithm.dropFirst("HMAC-".count))
        guard let hash = ACVPHash.choice(hashName) else {
            for group in file.groups { ACVPRunner.skip(group, reason: ACVPHash.unsupported(hashName), &log) }
            return
        }
        ACVPRunner.forEachCase(file, &log) { (group, test, log) throws(ACVPFormatError) in
            let id = ACVPRunner.id(test), comment = ACVPRunner.comment(group)
            let macBits = try group.fields.integer("macLen")
            guard macBits % 8 == 0 else {
                log.skip(id, reason: "bit-oriented MAC length \(macBits)")
                return
            }
            let mac = hash.hmac(key: try test.fields.hex("key"), data: try test.fields.hex("msg"))
            log.expect(Array(mac.prefix(macBits / 8)), equals: try test.fields.hex("mac", answer: true), id, comment)
        }
    }

    /// Where two result lists first differ.
    static func mismatch(_ got: [[UInt8]], _ expected: [[UInt8]]) -> String {
        guard let index = got.indices.first(where: { $0 < expected.count && got[$0] != expected[$0] }) else {
            return got.count == expected.count ? "equal" : "\(got.count) results"
        }
        return "round \(index): \(hex(got[index]))"
    }
}
