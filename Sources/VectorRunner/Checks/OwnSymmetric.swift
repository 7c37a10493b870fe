// Our recorded vectors (Vectors/, schema swiftmfa-vectors-v1) for the symmetric primitives.

import CryptoPrimitives
import VectorFormats

enum OwnSymmetric {
    /// The checker for an algorithm name of our schema, or nil when not (yet) supported.
    static func checker(for algorithm: String) -> ((OwnVectorFile.Case) throws(VectorFormatError) -> Outcome)? {
        let parts = algorithm.split(separator: "-", maxSplits: 1).map(String.init)
        switch parts.first {
        case "SHA" where HashChoice(name: algorithm) != nil:
            guard let hash = HashChoice(name: algorithm) else { return nil }
            return { (c) throws(VectorFormatError) in .compare(hash.hash(try c.input("msg")), try c.output("digest")) }
        case "HMAC" where parts.count == 2 && HashChoice(name: parts[1]) != nil:
            guard let hash = HashChoice(name: parts[1]) else { return nil }
            return { (c) throws(VectorFormatError) in try hmac(hash, c) }
        case "PBKDF2" where parts.count == 2:
            guard let hash = HashChoice(name: parts[1].replacingPrefix("HMAC-", with: "")) else { return nil }
            return { (c) throws(VectorFormatError) in
                let expected = try c.output("key")
                let password = try c.input("password"), salt = try c.input("salt"), rounds = try c.integer("rounds")
                // The bound of ACVP's PBKDF iteration counts: a file asking for more is refused, not run for hours.
                guard let limit = ACVPFields.workLimits["iterationCount"], limit.contains(rounds) else {
                    throw .malformed("rounds \(rounds) is outside 1...10000000")
                }
                let got = try? hash.pbkdf2(password: password, salt: salt, rounds: rounds, length: expected.count)
                return .compare(got, expected)
            }
        case "HKDF" where parts.count == 2:
            guard let hash = HashChoice(name: parts[1]) else { return nil }
            return { (c) throws(VectorFormatError) in
                let expected = try c.output("okm")
                let ikm = try c.input("ikm"), salt = try c.input("salt"), info = try c.input("info")
                let got = try? hash.hkdf(ikm: ikm, salt: salt, info: info, length: expected.count)
                return .compare(got, expected)
            }
        case "X963KDF" where parts.count == 2:
            guard let hash = HashChoice(name: parts[1]) else { return nil }
            return { (c) throws(VectorFormatError) in
                let expected = try c.output("key")
                let secret = try c.input("z"), info = try c.input("sharedInfo")
                let got = try? hash.x963(secret: secret, info: info, length: expected.count)
                return .compare(got, expected)
            }
        case "AES" where parts.count == 2:
            return aes(parts[1])
        default:
            return nil
        }
    }

    /// What a case came to.
    enum Outcome {
        case compare([UInt8]?, [UInt8])
        case rejected(Bool)
        /// A case the engine deliberately does not follow, with the reason.
        case skipped(String)
    }

    private static func hmac(_ hash: HashChoice, _ c: OwnVectorFile.Case) throws(VectorFormatError) -> Outcome {
        let key = try c.input("key"), msg = try c.input("msg"), tag = try c.output("tag")
        guard c.isValid else { return .rejected(!hash.isValidHMAC(tag, key: key, data: msg)) }
        let full = hash.hmac(key: key, data: msg)
        let verifies = hash.isValidHMAC(tag, key: key, data: msg)
        return .compare(verifies ? Array(full.prefix(tag.count)) : nil, tag)
    }

    private static func aes(_ mode: String) -> ((OwnVectorFile.Case) throws(VectorFormatError) -> Outcome)? {
        switch mode {
        case "CBC-PKCS7", "CBC-NOPAD":
            let padding: AES.UnauthenticatedCBC.Padding = mode == "CBC-PKCS7" ? .pkcs7 : .none
            return { (c) throws(VectorFormatError) in
                let key = SymmetricKey(data: try c.input("key")), iv = try c.input("iv")
                if !c.isValid {
                    let ct = try c.input("ct")  // read first: a malformed ct is a malformed case, not a refusal
                    return .rejected((try? AES.UnauthenticatedCBC.decrypt(ct, using: key, iv: iv, padding: padding)) == nil)
                }
                let pt = try c.input("pt"), ct = try c.output("ct")
                let encrypted = try? AES.UnauthenticatedCBC.encrypt(pt, using: key, iv: iv, padding: padding)
                let decrypted = try? AES.UnauthenticatedCBC.decrypt(ct, using: key, iv: iv, padding: padding)
                return .compare(decrypted == pt ? encrypted : nil, ct)
            }
        case "CTR":
            return { (c) throws(VectorFormatError) in
                let key = SymmetricKey(data: try c.input("key")), counter = try c.input("counter")
                let pt = try c.input("pt"), ct = try c.output("ct")
                // Also feed the stream in uneven pieces: the keystream must continue exactly.
                var stream = try? AES.UnauthenticatedCTR.Stream(key: key, counterBlock: counter)
                var pieces: [UInt8] = []
                var offset = 0, size = 1
                while offset < pt.count, stream != nil {
                    let end = min(pt.count, offset + size)
                    pieces += stream?.process(pt[offset..<end]) ?? []
                    offset = end
                    size = size * 3 % 97 + 1
                }
                let oneShot = try? AES.UnauthenticatedCTR.encrypt(pt, using: key, counterBlock: counter)
                return .compare(oneShot == pieces || pt.isEmpty ? oneShot : nil, ct)
            }
        case "ECB":
            return { (c) throws(VectorFormatError) in
                let key = SymmetricKey(data: try c.input("key")), pt = try c.input("pt"), ct = try c.output("ct")
                return .compare(try? AES.encryptBlock(pt, using: key), ct)
            }
        default:
            return nil
        }
    }

    static func check(_ file: OwnVectorFile, _ log: inout CaseLog) -> Bool {
        guard let checker = checker(for: file.algorithm) ?? OwnAEAD.checker(for: file.algorithm) ?? OwnCurves.checker(for: file.algorithm)
                ?? OwnX509.checker(for: file.algorithm)
                ?? OwnP256.checker(for: file.algorithm)
                ?? OwnRSA.checker(for: file.algorithm)
                ?? OwnPowerAuth.checker(for: file.algorithm) ?? OwnSaltEdgeCM.checker(for: file.algorithm)
                ?? OwnBN254CX.checker(for: file.algorithm) ?? OwnMPin.checker(for: file.algorithm) else { return false }
        for c in file.cases {
            let id = "#\(c.id)"
            do throws(VectorFormatError) {
                switch try checker(c) {
                case .compare(let got, let expected):
                    log.expect(got, equals: expected, id, c.comment)  // nil (the operation failed) always fails
                case .rejected(let rejected):
                    log.expect(rejected, id, c.comment, expected: "rejected", got: "accepted")
                case .skipped(let reason):
                    log.skip(id, reason: reason)
                }
            } catch {
                log.fail(id, c.comment, expected: "well-formed case", got: error.description)
            }
        }
        return true
    }
}

extension String {
    /// The string with `prefix` replaced when it starts with it.
    func replacingPrefix(_ prefix: String, with replacement: String) -> String {
        hasPrefix(prefix) ? replacement + dropFirst(prefix.count) : self
    }
}
