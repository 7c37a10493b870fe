// The IUT's side of an ACVP vector set: the engine's own answer to each prompt case (`md`,
// `mac`, `ct`/`pt`, MCT `resultsArray`, `testPassed`, derived and transported keys, its own
// keys and signatures), as a response file holds it.

import CryptoPrimitives
import VectorFormats

enum ACVPResponder {
    /// The engine's answer to one case, or why it gives none.
    enum Answer {
        case fields([String: JSONValue])
        case unanswered(String)
    }

    /// The engine's answers for one group: fields at the group's level (the IUT's key of a
    /// sigGen group) and one answer per case, in prompt order.
    struct GroupAnswer {
        var fields: [String: JSONValue] = [:]
        var cases: [(id: Int, answer: Answer)] = []

        init(fields: [String: JSONValue]) { self.fields = fields }

        /// Every case of `group` left unanswered for `reason`.
        init(_ group: ACVPGroup, unanswered reason: String) {
            cases = group.tests.map { ($0.id, .unanswered(reason)) }
        }
    }

    static func hexValue(_ bytes: [UInt8]) -> JSONValue { .string(HexText.string(bytes).uppercased()) }

    /// Answers one group of `file`: a sigGen group signs under one key of its own (RSA keys
    /// drawn from `keys`), every other
    /// group is answered case by case (a malformed case is unanswered, naming the field).
    static func answer(_ file: ACVPFile, _ group: ACVPGroup, keys: KeyPool) -> GroupAnswer {
        switch (file.algorithm, file.mode) {
        case ("ECDSA", "sigGen"): return ecdsaSigGen(group)
        case ("RSA", "sigGen"): return rsaSigGen(group, keys)
        default:
            var answer = GroupAnswer(fields: [:])
            for test in group.tests {
                do {
                    answer.cases.append((test.id, try self.answer(file, group, test)))
                } catch {
                    answer.cases.append((test.id, .unanswered("\(error)")))
                }
            }
            return answer
        }
    }

    /// Answers one case of `file` from its prompt fields alone.
    static func answer(_ file: ACVPFile, _ group: ACVPGroup, _ test: ACVPCase) throws(ACVPFormatError) -> Answer {
        let fields = test.fields
        switch (file.algorithm, file.mode) {
        case (let name, _) where ACVPHash.choice(name) != nil:
            return try sha(ACVPHash.choice(name) ?? .sha256, group, fields)
        case (let name, _) where name.hasPrefix("HMAC-"):
            let hashName = String(name.dropFirst(5))
            guard let hash = ACVPHash.choice(hashName) else { return .unanswered(ACVPHash.unsupported(hashName)) }
            let bits = try group.fields.integer("macLen")
            let mac = hash.hmac(key: try fields.hex("key"), data: try fields.hex("msg"))
            return .fields(["mac": hexValue(ACVPRunner.leftmostBits(mac, bits))])
        case ("ACVP-AES-ECB", _), ("ACVP-AES-CBC", _), ("ACVP-AES-CTR", _):
            return try aes(file.algorithm, group, fields)
        case ("ECDSA", "keyGen"):
            return try ecdsaKeyGen(group)
        case ("KAS-ECC-SSC", _):
            return try kasECC(group, test)
        case ("KDA", "HKDF"):
            return try ACVPKDA.respond(group, test)
        case ("KTS-IFC", _):
            return try ACVPKTS.respond(group, test)
        case ("ECDSA", "keyVer"):
            let name = try group.fields.string("curve")
            guard let curve = CurveChoice(nistName: name) else { return .unanswered(ACVPECDSA.curveReason(name)) }
            return .fields(["testPassed": .bool(curve.verificationKey(x: try fields.hex("qx"), y: try fields.hex("qy")) != nil)])
        case ("ECDSA", "sigVer"):
            let name = try group.fields.string("curve")
            guard let curve = CurveChoice(nistName: name) else { return .unanswered(ACVPECDSA.curveReason(name)) }
            return verdict(try ACVPECDSA.outcome(curve, group, test, keyFromGroup: false))
        case ("RSA", "sigVer"):
            return verdict(try ACVPRSA.outcome(group, test, signatureIsAnswer: false))
        case ("kdf-components", "ansix9.63"):
            let hashName = try group.fields.string("hashAlg")
            guard let hash = ACVPHash.choice(hashName) else { return .unanswered(ACVPHash.unsupported(hashName)) }
            let secret = try fields.hex("z"), info = try fields.hex("sharedInfo"), bits = try group.fields.integer("keyDataLength")
            guard bits % 8 == 0, let data = try? hash.x963(secret: secret, info: info, length: bits / 8) else {
                return .unanswered("the engine derives no \(bits)-bit key data")
            }
            return .fields(["keyData": hexValue(data)])
        case ("PBKDF", _):
            let hashName = try group.fields.string("hmacAlg")
            guard let hash = ACVPHash.choice(hashName) else { return .unanswered(ACVPHash.unsupported(hashName)) }
            let password = Array(try fields.string("password").utf8), salt = try fields.hex("salt")
            let rounds = try fields.integer("iterationCount"), bits = try fields.integer("keyLen")
            guard bits % 8 == 0, let key = try? hash.pbkdf2(password: password, salt: salt, rounds: rounds, length: bits / 8) else {
                return .unanswered("the engine derives no \(bits)-bit key with these parameters")
            }
            return .fields(["derivedKey": hexValue(key)])
        case ("RSA", "decryptionPrimitive"), ("RSA", "signaturePrimitive"):
            let decryption = file.mode == "decryptionPrimitive"
            let key = try ACVPRSAPrimitiveKey([fields, group.fields]), modulus = key.modulus
            let input = try fields.hex(decryption ? "ct" : "message")
            let (lower, upper) = decryption ? ([UInt8(2)], ACVPRSA.subtractOne(modulus)) : ([], modulus)
            guard ACVPRSA.compare(input, lower) >= 0, ACVPRSA.compare(input, upper) < 0 else { return .fields(["testPassed": .bool(false)]) }
            guard let output = key.apply(input) else {
                return .unanswered("a modulus of \(ACVPRSA.bitLength(modulus)) bits is outside the engine's 1024-8192")
            }
            return .fields(["testPassed": .bool(true), decryption ? "pt" : "signature": hexValue(output)])
        default:
            let name = [file.algorithm, file.mode].filter { !$0.isEmpty }.joined(separator: " ")
            return .unanswered("the responder has no answer for \(name)")
        }
    }

    private static func verdict(_ outcome: ACVPECDSA.Outcome) -> Answer {
        switch outcome {
        case .verifies(let valid): .fields(["testPassed": .bool(valid)])
        case .unsupported(let reason): .unanswered(reason)
        }
    }

    private static func sha(_ hash: HashChoice, _ group: ACVPGroup, _ fields: ACVPFields) throws(ACVPFormatError) -> Answer {
        switch try group.fields.string("testType") {
        case "AFT", "MCT":
            let bits = try fields.integer("len")
            guard bits % 8 == 0 else { return .unanswered("bit-oriented message (len \(bits))") }
            let message = Array(try fields.hex("msg").prefix(bits / 8))
            if try group.fields.string("testType") == "AFT" { return .fields(["md": hexValue(hash.hash(message))]) }
            let alternate = group.fields.value("mctVersion")?.string == "alternate"
            let results = ACVPDigests.monteCarlo(hash, seed: message, alternate: alternate, rounds: 100)
            return .fields(["resultsArray": .array(results.map { .object(["md": hexValue($0)]) })])
        case "LDT":
            let large = try fields.object("largeMsg")
            let content = try large.hex("content"), fullBits = try large.integer("fullLength")
            guard try large.string("expansionTechnique") == "repeating", !content.isEmpty, fullBits % 8 == 0,
                  fullBits / 8 <= ACVPDigests.largeMessageLimit else {
                return .unanswered("LDT message over the \(ACVPDigests.largeMessageLimit >> 20) MiB limit or not byte-oriented")
            }
            return .fields(["md": hexValue(ACVPDigests.hashRepeating(hash, content, totalBytes: fullBits / 8))])
        case let other:
            return .unanswered("SHA test type \(other)")
        }
    }

    private static func aes(_ algorithm: String, _ group: ACVPGroup, _ fields: ACVPFields) throws(ACVPFormatError) -> Answer {
        let mode: CAVPAES.Mode = algorithm == "ACVP-AES-ECB" ? .ecb : algorithm == "ACVP-AES-CBC" ? .cbc : .ctr
        let encrypt = try group.fields.string("direction") == "encrypt"
        let (inputName, outputName) = encrypt ? ("pt", "ct") : ("ct", "pt")
        let key = try fields.hex("key")
        if mode == .ctr, !fields.has("iv") { return .unanswered("CTR encryption: the IUT would choose the counter") }
        let iv = mode == .ecb ? [] : try fields.hex("iv")
        switch try group.fields.string("testType") {
        case "MCT" where mode != .ctr:
            let input = try fields.hex(inputName)
            guard let rounds = try? ACVPAES.monteCarlo(mode, key: key, iv: iv, input: input, encrypt: encrypt, rounds: 100) else {
                return .unanswered("AES refuses a key of \(key.count) bytes")
            }
            return .fields(["resultsArray": .array(rounds.map { round in .object(round.mapValues(hexValue)) })])
        case "AFT", "CTR":
            var input = try fields.hex(inputName)
            let bits = fields.has("payloadLen") ? try fields.integer("payloadLen") : input.count * 8
            input = ACVPRunner.leftmostBits(input, bits)
            guard let output = try? CAVPAES.run(mode, key: SymmetricKey(data: key), iv: iv, input: input, encrypt: encrypt) else {
                return .unanswered("AES refuses this key or length")
            }
            return .fields([outputName: hexValue(ACVPRunner.leftmostBits(output, bits))])
        case let other:
            return .unanswered("AES test type \(other)")
        }
    }
}
