// NIST ACVP vector sets in `mfa vectors`: a folder's prompt.json paired with its
// expectedResults.json (or one combined file), recognised by algorithm/mode/revision and
// dispatched to the checkers in this folder.

import FoundationEssentials
import VectorFormats

/// Runs ACVP vector sets against the engine.
enum ACVPRunner {
    static let promptName = "prompt.json"
    static let expectedName = "expectedResults.json"

    /// The sibling expectedResults.json of a prompt.json, when it exists.
    static func expectedPath(forPrompt path: String) -> String? {
        guard fileName(path) == promptName else { return nil }
        let sibling = directory(path) + expectedName
        return FileKind(atPath: sibling) == .file ? sibling : nil
    }

    /// The sibling prompt.json of an expectedResults.json, when it exists: the pair is then
    /// reported once, under the prompt.
    static func promptPath(forExpected path: String) -> String? {
        guard fileName(path) == expectedName else { return nil }
        let sibling = directory(path) + promptName
        return FileKind(atPath: sibling) == .file ? sibling : nil
    }

    /// Checks an ACVP document read from `path`: with its expected results when `path` is a
    /// prompt.json beside an expectedResults.json (the report is then named by the folder),
    /// as a combined file otherwise.
    static func check(_ json: JSONValue, path: String) -> FileReport {
        var reportPath = path
        let file: ACVPFile
        do {
            if let expectedPath = expectedPath(forPrompt: path) {
                reportPath = String(directory(path).dropLast())
                let expected = try JSONValue.parse(try Data(contentsOf: URL(fileURLWithPath: expectedPath)))
                file = try ACVPFile(prompt: json, expected: expected)
            } else if let promptPath = promptPath(forExpected: path) {
                reportPath = String(directory(path).dropLast())
                let prompt = try JSONValue.parse(try Data(contentsOf: URL(fileURLWithPath: promptPath)))
                file = try ACVPFile(prompt: prompt, expected: json)
            } else {
                file = try ACVPFile(prompt: json)
            }
        } catch {
            var log = CaseLog(path: reportPath)
            log.fileError("\(error)")
            return log.report
        }
        var log = CaseLog(path: reportPath)
        check(file, &log)
        return log.report
    }

    /// Dispatches on algorithm, mode and revision; an algorithm this runner does not know has
    /// every case skipped with the reason (never passed).
    static func check(_ file: ACVPFile, _ log: inout CaseLog) {
        switch (file.algorithm, file.mode) {
        case (let name, _) where ACVPHash.choice(name) != nil || name.hasPrefix("SHA3-") || name.hasPrefix("SHA2-512/"):
            ACVPDigests.checkSHA(file, &log)
        case (let name, _) where name.hasPrefix("HMAC-"):
            ACVPDigests.checkHMAC(file, &log)
        case ("ACVP-AES-ECB", _), ("ACVP-AES-CBC", _), ("ACVP-AES-CTR", _):
            ACVPAES.check(file, &log)
        case ("ECDSA", "keyGen"), ("ECDSA", "keyVer"), ("ECDSA", "sigGen"), ("ECDSA", "sigVer"):
            ACVPECDSA.check(file, &log)
        case ("KAS-ECC-SSC", _):
            ACVPECDSA.checkKAS(file, &log)
        case ("kdf-components", "ansix9.63"):
            ACVPKDF.checkX963(file, &log)
        case ("PBKDF", _):
            ACVPKDF.checkPBKDF(file, &log)
        case ("KTS-IFC", _):
            ACVPKTS.check(file, &log)
        case ("KDA", "HKDF"):
            ACVPKDA.checkHKDF(file, &log)
        case ("RSA", "sigVer"), ("RSA", "sigGen"), ("RSA", "decryptionPrimitive"), ("RSA", "signaturePrimitive"):
            ACVPRSA.check(file, &log)
        default:
            let name = [file.algorithm, file.mode, file.revision].filter { !$0.isEmpty }.joined(separator: " ")
            for group in file.groups { skip(group, reason: "ACVP \(name) is not supported by this runner", &log) }
        }
    }

    /// The report id of a case (`#7`, as `file #tcId comment`, docs/design.md §3) and its comment (`tgId 1 AFT`).
    static func id(_ test: ACVPCase) -> String { "#\(test.id)" }

    static func comment(_ group: ACVPGroup) -> String {
        let type = group.fields.value("testType")?.string.map { " " + $0 } ?? ""
        return "tgId \(group.id)\(type)"
    }

    /// Runs `body` on every case; a case without an expected result, or whose fields are
    /// missing or malformed, fails with the reason naming the field.
    static func forEachCase(_ file: ACVPFile, _ log: inout CaseLog,
                            _ body: (ACVPGroup, ACVPCase, inout CaseLog) throws(ACVPFormatError) -> Void) {
        for group in file.groups {
            for test in group.tests {
                guard test.hasExpectedResult else {
                    log.fail(id(test), comment(group), expected: "an expected result", got: "none for this tcId")
                    continue
                }
                do {
                    try body(group, test, &log)
                } catch {
                    log.fail(id(test), comment(group), expected: "well-formed case", got: error.description)
                }
            }
        }
    }

    /// Skips every case of a group with the reason.
    static func skip(_ group: ACVPGroup, reason: String, _ log: inout CaseLog) {
        for test in group.tests { log.skip(id(test), reason: reason) }
    }

    /// The first `bits` bits of `bytes`, the unused low bits of the last byte cleared (ACVP
    /// bit lengths, e.g. AES-CTR `payloadLen`, HMAC `macLen`).
    static func leftmostBits(_ bytes: [UInt8], _ bits: Int) -> [UInt8] {
        var out = Array(bytes.prefix((bits + 7) / 8))
        if bits % 8 != 0, !out.isEmpty { out[out.count - 1] &= UInt8(0xFF) << (8 - bits % 8) }
        return out
    }

    private static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// The folder of `path` with a trailing slash (`./` for a bare name).
    private static func directory(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "./" }
        return String(path[...slash])
    }
}

/// ACVP hash names (`SHA-1`, `SHA2-256`, …) to the engine's hashes; nil for those the
/// engine does not have (SHA2-512/224, SHA2-512/256, SHA-3, SHAKE).
enum ACVPHash {
    static func choice(_ name: String) -> HashChoice? {
        switch name {
        case "SHA-1", "SHA1": .sha1
        case "SHA2-224": .sha224
        case "SHA2-256": .sha256
        case "SHA2-384": .sha384
        case "SHA2-512": .sha512
        default: nil
        }
    }

    /// The reason a group naming an unsupported hash is skipped.
    static func unsupported(_ name: String) -> String {
        "hash \(name) is not in the engine (SHA-1 and SHA2-224/256/384/512 only)"
    }
}
