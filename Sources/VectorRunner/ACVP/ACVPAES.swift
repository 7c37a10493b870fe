// ACVP AES-ECB, AES-CBC and AES-CTR vector sets (draft-celi-acvp-symmetric): AFT, MCT and the
// CTR counter tests with bit-length payloads.

import CryptoPrimitives
import VectorFormats

enum ACVPAES {
    static func check(_ file: ACVPFile, _ log: inout CaseLog) {
        let mode: CAVPAES.Mode = switch file.algorithm {
        case "ACVP-AES-ECB": .ecb
        case "ACVP-AES-CBC": .cbc
        default: .ctr
        }
        ACVPRunner.forEachCase(file, &log) { (group, test, log) throws(ACVPFormatError) in
            let id = ACVPRunner.id(test), comment = ACVPRunner.comment(group)
            let encrypt: Bool
            switch try group.fields.string("direction") {
            case "encrypt": encrypt = true
            case "decrypt": encrypt = false
            case let other: throw .wrongType("direction", expected: "encrypt or decrypt (not \(other))", at: group.fields.place)
            }
            let key = try test.fields.hex("key")
            guard [16, 24, 32].contains(key.count) else {
                log.skip(id, reason: "AES key of \(key.count) bytes")
                return
            }
            let (inputName, outputName) = encrypt ? ("pt", "ct") : ("ct", "pt")
            switch try group.fields.string("testType") {
            case "AFT", "CTR":
                // CTR encryption: the IUT picks the counter; the expected results carry it.
                let iv = mode == .ecb ? [] : try test.fields.hex("iv")
                var input = try test.fields.hex(inputName)
                var expected = try test.fields.hex(outputName, answer: true)
                if mode == .ctr, test.fields.has("payloadLen") {
                    let bits = try test.fields.integer("payloadLen")
                    input = ACVPRunner.leftmostBits(input, bits)
                    expected = ACVPRunner.leftmostBits(expected, bits)
                }
                let got = try? CAVPAES.run(mode, key: SymmetricKey(data: key), iv: iv, input: input, encrypt: encrypt)
                let trimmed = mode == .ctr && test.fields.has("payloadLen")
                    ? ACVPRunner.leftmostBits(got ?? [], try test.fields.integer("payloadLen")) : got ?? []
                log.expect(trimmed, equals: expected, id, comment + " " + (encrypt ? "encrypt" : "decrypt"))
            case "MCT" where mode != .ctr:
                let iv = mode == .ecb ? [] : try test.fields.hex("iv")
                let expected = try test.fields.objects("resultsArray")
                guard expected.count <= ACVPFields.monteCarloRoundLimit else {
                    throw .wrongType("resultsArray", expected: "at most \(ACVPFields.monteCarloRoundLimit) rounds (the file has \(expected.count))",
                                     at: test.fields.place)
                }
                var failure: String?
                let rounds: [[String: [UInt8]]]
                do {
                    rounds = try monteCarlo(mode, key: key, iv: iv, input: try test.fields.hex(inputName), encrypt: encrypt, rounds: expected.count)
                } catch {
                    log.fail(id, comment, expected: "\(expected.count) rounds", got: "\(error)")
                    return
                }
                for (index, (round, entry)) in zip(rounds, expected).enumerated() where failure == nil {
                    var names = ["key", inputName, outputName]
                    if mode == .cbc { names.append("iv") }
                    for name in names where try entry.hex(name) != round[name] {
                        failure = "round \(index) \(name): expected \(hex(try entry.hex(name))), got \(hex(round[name] ?? []))"
                        break
                    }
                }
                log.expect(failure == nil, id, comment + " MCT " + (encrypt ? "encrypt" : "decrypt"),
                           expected: "\(expected.count) rounds", got: failure ?? "")
            case let other:
                log.skip(id, reason: "AES test type \(other) is not supported for \(file.algorithm)")
            }
        }
    }

    /// The ACVP AES Monte Carlo test (draft-celi-acvp-symmetric, "AES Monte Carlo Test - ECB
    /// mode" and "- CBC mode"): per
    /// round, 1000 chained block operations, then the key is XORed with the last output bits
    /// and the chain restarts. Each round's key, iv and input/output by ACVP field name.
    static func monteCarlo(_ mode: CAVPAES.Mode, key: [UInt8], iv: [UInt8], input: [UInt8], encrypt: Bool,
                           rounds: Int) throws(CryptoError) -> [[String: [UInt8]]] {
        let (inputName, outputName) = encrypt ? ("pt", "ct") : ("ct", "pt")
        var key = key, iv = iv, input = input, results: [[String: [UInt8]]] = []
        for _ in 0..<rounds {
            let symmetric = SymmetricKey(data: key)
            var round = ["key": key, inputName: input]
            if mode == .cbc { round["iv"] = iv }
            var text = input, chain = iv, output: [UInt8] = [], previous: [UInt8] = []
            for j in 0..<1000 {
                previous = output
                switch mode {
                case .cbc:
                    // Encrypt: CT[j] = E(PT[j] ⊕ CT[j−1]) with CT[−1] = IV; PT[j+1] = IV when j = 0, else CT[j−1].
                    // Decrypt: PT[j] = D(CT[j]) ⊕ CT[j−1]; CT[j+1] = IV when j = 0, else PT[j−1].
                    if encrypt {
                        output = try AES.encryptBlock(zip(text, chain).map { $0 ^ $1 }, using: symmetric)
                        chain = output
                    } else {
                        output = zip(try AES.decryptBlock(text, using: symmetric), chain).map { $0 ^ $1 }
                        chain = text
                    }
                    text = j == 0 ? iv : previous
                default:
                    output = encrypt ? try AES.encryptBlock(text, using: symmetric) : try AES.decryptBlock(text, using: symmetric)
                    text = output
                }
            }
            round[outputName] = output
            results.append(round)
            // "AES Monte Carlo Key Shuffle": Key ⊕ CT[j] (128), ⊕ LSB64(CT[j−1]) ‖ CT[j] (192), ⊕ CT[j−1] ‖ CT[j] (256).
            let material: [UInt8] = switch key.count {
            case 16: output
            case 24: Array(previous.suffix(8)) + output
            default: previous + output
            }
            key = zip(key, material).map { $0 ^ $1 }
            if mode == .cbc {
                // "AES Monte Carlo Test - CBC mode": IV[i+1] = CT[j]; PT[0] = CT[j−1] (encrypt), mirrored for decrypt.
                iv = output
                input = previous
            } else {
                input = output
            }
        }
        return results
    }
}
