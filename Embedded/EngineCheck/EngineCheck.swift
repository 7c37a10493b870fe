// engine-check: the engine's self-tests, a draw from the system's random source and the vector
// table, with a count per suite; or one operation repeated, for instruction counting. The same
// sources build as a SwiftPM executable on the host and with Embedded Swift for ARM Linux
// (Embedded/arm-linux, docs/static-and-embedded.md).
//
//     engine-check TABLE               exit 0 when every case and self-test passed
//     engine-check --repeat OP COUNT   OP: none, pairing, p256-sign; exit 0

import CryptoPrimitives

/// What one suite's cases came to.
struct Tally {
    /// Cases whose outcome was the expected one.
    var passed = 0
    /// Cases whose outcome was not.
    var failed = 0
    /// Wycheproof's "acceptable" cases: either outcome, counted apart.
    var acceptable = 0
    /// The failed cases' names, the first few printed.
    var failures = [String]()
}

/// The command: self-tests, randomness, the table, or one operation repeated.
enum EngineCheck {
    /// Runs the command line `arguments` (without the program name) and returns the exit status.
    static func run(_ arguments: [[UInt8]]) -> Int32 {
        let words = arguments.map { String(decoding: $0, as: UTF8.self) }
        if words.count == 3, words[0] == "--repeat" {
            return repeatOperation(words[1], words[2])
        }
        guard words.count == 1, !words[0].hasPrefix("-") else {
            print("usage: engine-check TABLE | engine-check --repeat none|pairing|p256-sign COUNT")
            return 2
        }
        var failed = selfTest() + randomness()
        do throws(TableError) {
            failed += try runTable(try readWholeFile(arguments[0]))
        } catch {
            print("engine-check: \(error.message)")
            return 1
        }
        print(failed == 0 ? "engine-check: passed" : "engine-check: FAILED")
        return failed == 0 ? 0 : 1
    }

    /// The start-up known-answer tests; the number that failed.
    static func selfTest() -> Int {
        let results = CryptoSelfTest.runKnownAnswerTests()
        let failed = results.filter { !$0.passed }.map { $0.algorithm }
        print("self-test: \(results.count - failed.count) of \(results.count) known answers passed")
        for algorithm in failed { print("  FAIL self-test \(algorithm)") }
        return failed.count
    }

    /// Two 32-byte draws from the system source (getrandom on Linux): both succeed and differ.
    static func randomness() -> Int {
        var source = SystemRandomSource()
        let first: [UInt8], second: [UInt8]
        do throws(CryptoError) {
            first = SymmetricChecks.bytes(of: try SymmetricKey(byteCount: 32, using: &source))
            second = SymmetricChecks.bytes(of: try SymmetricKey(byteCount: 32, using: &source))
        } catch {
            print("random: FAIL, the system source refused")
            return 1
        }
        guard first != second else {
            print("random: FAIL, two draws are equal")
            return 1
        }
        print("random: two 32-byte draws from the system source differ")
        return 0
    }

    /// Every case of the table, a line per suite and a total; the number of failed cases.
    static func runTable(_ text: [UInt8]) throws(TableError) -> Int {
        var suite = "", tally = Tally(), total = Tally(), keys = TableKeys()
        func finish() {
            guard !suite.isEmpty else { return }
            print("\(suite): \(tally.passed) passed, \(tally.failed) failed\(tally.acceptable > 0 ? ", \(tally.acceptable) acceptable (either outcome)" : "")")
            for failure in tally.failures.prefix(5) { print("  FAIL \(failure)") }
            total.passed += tally.passed
            total.failed += tally.failed
            total.acceptable += tally.acceptable
            tally = Tally()
        }
        for tokens in tableLines(text) {
            switch tokens[0] {
            case Array("suite".utf8):
                finish()
                guard tokens.count == 2 else { throw TableError(message: "a suite line has no name") }
                suite = String(decoding: tokens[1], as: UTF8.self)
                keys = TableKeys()
            case Array("key".utf8):
                try keys.set(tokens)
            default:
                let line = try TableCase(tokens)
                let succeeded = try check(line, keys)
                switch line.expectation {
                case .acceptable: tally.acceptable += 1
                case .valid where succeeded, .invalid where !succeeded: tally.passed += 1
                case .valid, .invalid:
                    tally.failed += 1
                    tally.failures.append("\(line.op) \(line.id): expected \(line.expectation == .valid ? "valid" : "invalid")")
                }
            }
        }
        finish()
        print("total: \(total.passed) passed, \(total.failed) failed, \(total.acceptable) acceptable (either outcome)")
        guard total.passed + total.failed > 0 else { throw TableError(message: "the table holds no case") }
        return total.failed
    }

    /// Whether the case's operation succeeded with the recorded output.
    static func check(_ line: TableCase, _ keys: TableKeys) throws(TableError) -> Bool {
        switch line.op {
        case "digest": try SymmetricChecks.digest(line)
        case "sha256-monte": try SymmetricChecks.sha256Monte(line)
        case "hmac": try SymmetricChecks.hmac(line)
        case "pbkdf2": try SymmetricChecks.pbkdf2(line)
        case "x963": try SymmetricChecks.x963(line)
        case "aes-cbc": try SymmetricChecks.aesCBC(line)
        case "aes-cbc-pkcs7": try SymmetricChecks.aesCBCPKCS7(line)
        case "aes-ctr": try SymmetricChecks.aesCTR(line)
        case "ecdsa-p256": try PublicKeyChecks.ecdsaP256(line)
        case "ecdh-p256": try PublicKeyChecks.ecdhP256(line)
        case "rsa-oaep": try PublicKeyChecks.rsaOAEP(line, keys)
        case "rsa-pkcs1-decrypt": try PublicKeyChecks.rsaPKCS1Decrypt(line, keys)
        case "rsa-pkcs1-verify": try PublicKeyChecks.rsaPKCS1Verify(line, keys)
        case "rsa-pss-verify": try PublicKeyChecks.rsaPSSVerify(line, keys)
        case "rsa-pkcs1-sign": try PublicKeyChecks.rsaPKCS1Sign(line, keys)
        case "pairing": try PairingChecks.pairing(line)
        case "mpin": try PairingChecks.mpin(line)
        default: throw TableError(message: "case \(line.id): unknown operation \(line.op)")
        }
    }

    /// Runs `operation` `count` times on fixed inputs; an instruction counter run twice with two
    /// counts gives the instructions of one operation by difference (Embedded/arm-linux).
    static func repeatOperation(_ operation: String, _ countText: String) -> Int32 {
        guard let count = Int(countText), count >= 0, count <= 1_000_000 else {
            print("engine-check: COUNT must be a number from 0 to 1000000")
            return 2
        }
        let message = [UInt8](repeating: 0x61, count: 64)
        let key: P256.Signing.PrivateKey
        do throws(CryptoError) { key = try P256.Signing.PrivateKey(rawRepresentation: [UInt8](repeating: 0x11, count: 32)) } catch {
            print("engine-check: the fixed P-256 key is refused")
            return 1
        }
        var sink = 0
        switch operation {
        case "none":
            break
        case "pairing":
            for _ in 0..<count { sink &+= BN254CX.pairing(BN254CX.G2.generator, BN254CX.G1.generator).rawRepresentation.count }
        case "p256-sign":
            for _ in 0..<count { sink &+= key.deterministicSignature(for: message).rawRepresentation.count }
        default:
            print("engine-check: OP must be none, pairing or p256-sign")
            return 2
        }
        print("\(operation) × \(count): \(sink) bytes of output")
        return 0
    }
}
