// ACVP RSA vector sets: sigVer and sigGen (FIPS 186-4/186-5; PKCS #1 v1.5 and PSS with MGF1,
// RFC 8017 §8.1-8.2) and the decryption and signature primitives (RSADP, SP 800-56B rev 2
// §7.1.2; RSASP1, RFC 8017 §5.2.1).

import CryptoPrimitives
import VectorFormats

enum ACVPRSA {
    static func check(_ file: ACVPFile, _ log: inout CaseLog) {
        ACVPRunner.forEachCase(file, &log) { (group, test, log) throws(ACVPFormatError) in
            switch file.mode {
            case "sigVer", "sigGen": try checkSignature(file.mode == "sigVer", group, test, &log)
            default: try checkPrimitive(decryption: file.mode == "decryptionPrimitive", group, test, &log)
            }
        }
    }

    /// A field of the case, else of its group (ACVP puts n and e at either level).
    private static func field(_ name: String, _ group: ACVPGroup, _ test: ACVPCase) throws(ACVPFormatError) -> [UInt8] {
        test.fields.has(name) ? try test.fields.hex(name, answer: true) : try group.fields.hex(name, answer: true)
    }

    /// Whether the case's signature verifies under (n, e) with the group's padding and hash, or
    /// why the engine cannot say; `signatureIsAnswer` for sigGen, where the IUT made it.
    static func outcome(_ group: ACVPGroup, _ test: ACVPCase, signatureIsAnswer: Bool) throws(ACVPFormatError) -> ACVPECDSA.Outcome {
        if let conformance = group.fields.value("conformance")?.string, !conformance.isEmpty {
            return .unsupported("\(conformance) randomized hashing is not in the engine")
        }
        let hashName = try group.fields.string("hashAlg")
        guard let hash = ACVPHash.choice(hashName) else { return .unsupported(ACVPHash.unsupported(hashName)) }
        let padding: RSA.Signing.Padding
        switch try group.fields.string("sigType") {
        case "pkcs1v1.5":
            padding = .pkcs1v1_5
        case "pss":
            if let mask = group.fields.value("maskFunction")?.string, mask != "mgf1" {
                return .unsupported("PSS mask function \(mask) is not in the engine (MGF1 only)")
            }
            let salt = try group.fields.integer("saltLen")
            switch salt {
            case hash.algorithm.byteCount: padding = .pss
            case 0: padding = .pssZeroSalt
            default: return .unsupported("PSS salt length \(salt) is not selectable in the engine (0 or the digest length)")
            }
        case let other:
            return .unsupported("signature type \(other) is not in the engine")
        }
        let modulus = try field("n", group, test), exponent = try field("e", group, test)
        let exponentBits = bitLength(exponent)
        guard exponentBits <= 32 else {
            return .unsupported("public exponent of \(exponentBits) bits: the engine takes exponents below 2^32")
        }
        let key: RSA.Signing.PublicKey
        do {
            key = try RSA.Signing.PublicKey(modulus: modulus, publicExponent: exponent)
        } catch {
            return .unsupported("the engine does not take a \(bitLength(modulus))-bit modulus with this exponent (\(error))")
        }
        let signature = RSACheck.leftPadded(try test.fields.hex("signature", answer: signatureIsAnswer), to: key.byteCount)
        return .verifies(RSACheck.verify(key, signature, digest: hash.hash(try test.fields.hex("message")), hash: hash, padding: padding))
    }

    /// sigVer: the signature verifies exactly when testPassed. sigGen: the IUT's signature must
    /// verify under the group's (n, e).
    private static func checkSignature(_ verification: Bool, _ group: ACVPGroup, _ test: ACVPCase, _ log: inout CaseLog) throws(ACVPFormatError) {
        let id = ACVPRunner.id(test), comment = ACVPRunner.comment(group)
        switch try outcome(group, test, signatureIsAnswer: !verification) {
        case .unsupported(let reason):
            log.skip(id, reason: reason)
        case .verifies(let valid):
            let expected = verification ? try test.fields.bool("testPassed", answer: true) : true
            log.expect(valid == expected, id, comment, expected: expected ? "valid" : "invalid", got: valid ? "valid" : "invalid")
        }
    }

    /// RSADP (SP 800-56B rev 2 §7.1.2): pt = ct^d mod n, refused unless 1 < ct < n − 1.
    /// RSASP1 (RFC 8017 §5.2.1): signature = m^d mod n, refused unless m < n. The key is
    /// (n, d) or its CRT form (``ACVPRSAPrimitiveKey``).
    private static func checkPrimitive(decryption: Bool, _ group: ACVPGroup, _ test: ACVPCase, _ log: inout CaseLog) throws(ACVPFormatError) {
        let id = ACVPRunner.id(test), comment = ACVPRunner.comment(group)
        let key = try ACVPRSAPrimitiveKey([test.fields, group.fields])
        let modulus = key.modulus
        let input = try test.fields.hex(decryption ? "ct" : "message")
        let (outputName, lower, upper) = decryption ? ("pt", [UInt8(2)], subtractOne(modulus)) : ("signature", [], modulus)
        let inRange = compare(input, lower) >= 0 && compare(input, upper) < 0
        let result = inRange ? key.apply(input) : nil
        guard !inRange || result != nil else {
            return log.skip(id, reason: key.isCRT ? "primes of a CRT key for a \(modulus.count * 8)-bit modulus are outside the engine's 1024-8192 bits"
                                                 : "a modulus of \(modulus.count * 8) bits is outside the engine's 1024-8192")
        }
        let expected = try test.fields.bool("testPassed", answer: true)
        guard let result, expected else {
            return log.expect(inRange == expected, id, comment, expected: expected ? "accepted" : "rejected",
                              got: inRange ? "accepted" : "rejected")
        }
        let answer = try test.fields.hex(outputName, answer: true)
        log.expect(result, equals: RSACheck.leftPadded(answer, to: result.count), id, comment)
    }

    /// The bit length of a big-endian unsigned integer.
    static func bitLength(_ bytes: [UInt8]) -> Int {
        let trimmed = bytes.drop { $0 == 0 }
        guard let first = trimmed.first else { return 0 }
        return (trimmed.count - 1) * 8 + (8 - first.leadingZeroBitCount)
    }

    /// Compares two big-endian unsigned integers of any length.
    static func compare(_ a: [UInt8], _ b: [UInt8]) -> Int {
        let x = Array(a.drop { $0 == 0 }), y = Array(b.drop { $0 == 0 })
        if x.count != y.count { return x.count < y.count ? -1 : 1 }
        for (p, q) in zip(x, y) where p != q { return p < q ? -1 : 1 }
        return 0
    }

    /// n − 1 for an odd modulus n (the last byte loses its low bit).
    static func subtractOne(_ n: [UInt8]) -> [UInt8] {
        guard let last = n.last, last & 1 == 1 else { return n }
        return n.dropLast() + [last - 1]
    }
}
