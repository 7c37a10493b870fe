// NIST CAVP RSA files: SigGen15 (verify the given signatures: PKCS #1 v1.5 is deterministic,
// so S^e = EMSA(M) proves our encoding), SigVer15, and the SP 800-56B RSADP component.

import CryptoPrimitives
import VectorFormats

enum CAVPRSA {
    enum Kind { case signatureGeneration, signatureVerification, decryptionPrimitive, signaturePrimitive }

    static func kind(of file: CAVPFile) -> Kind? {
        let header = file.headerText
        if header.contains("SigGen PKCS#1 Ver1.5") { return .signatureGeneration }
        if header.contains("SigVer PKCS#1 Ver 1.5") { return .signatureVerification }
        if header.contains("RSADP") { return .decryptionPrimitive }
        if header.contains("\"RSASP1\"") { return .signaturePrimitive }
        return nil
    }

    static func check(_ file: CAVPFile, kind: Kind, _ log: inout CaseLog) {
        var modulus: [UInt8] = [], exponent: [UInt8] = []
        for block in file.blocks {
            let id = block["COUNT"].map { "COUNT \($0) line \(block.line)" } ?? "line \(block.line)"
            do throws(VectorFormatError) {
                if block.has("n") { modulus = try block.integerBytes("n") }
                if block.has("e") { exponent = try block.integerBytes("e") }
                switch kind {
                case .signatureGeneration, .signatureVerification:
                    guard block.has("S") else { continue }
                    guard let hashName = block["SHAAlg"] else { throw .missingField("SHAAlg") }
                    guard let hash = HashChoice(name: hashName) else {
                        log.skip(id, reason: "hash \(hashName) is not implemented")
                        continue
                    }
                    let expected = kind == .signatureGeneration || block["Result"]?.hasPrefix("P") == true
                    let signature = try block.integerBytes("S"), message = try block.integerBytes("Msg")
                    // A key that does not load fails the record: it is no evidence that the signature is invalid.
                    guard let key = try? RSA.Signing.PublicKey(modulus: modulus, publicExponent: exponent) else {
                        log.fail(id, block["Result"] ?? "", expected: "a usable key (n, e)", got: "key refused")
                        continue
                    }
                    let padded = [UInt8](repeating: 0, count: max(0, key.byteCount - signature.count)) + signature
                    // CAVP prints Msg like an integer, dropping leading zero digits (17 SigVer15
                    // records); every 186-3 PKCS #1 v1.5 message is 128 bytes, so restore them.
                    let digest = hash.hash(RSACheck.leftPadded(message, to: 128))
                    let valid = RSACheck.verify(key, padded, digest: digest, hash: hash, padding: .pkcs1v1_5)
                    log.expect(valid == expected, id, block["Result"] ?? "", expected: expected ? "valid" : "invalid", got: valid ? "valid" : "invalid")
                case .decryptionPrimitive:
                    // The .txt variant carries d, so k = c^d mod n is checked directly; the .rsp
                    // variant has only (n, e), so a Pass record is checked as c = k^e mod n.
                    guard block.has("c"), block.has("Result") else { continue }
                    let ciphertext = try block.integerBytes("c")
                    let privateExponent = block.has("d") ? try block.integerBytes("d") : nil
                    let inRange = RSA.modularPowerVartime(ciphertext, [1], modulus: modulus) != nil
                    if block["Result"] == "Pass" {
                        let k = try block.integerBytes("k")
                        let (input, power, expected) = privateExponent.map { (ciphertext, $0, k) } ?? (k, exponent, ciphertext)
                        let result = RSA.modularPowerVartime(input, power, modulus: modulus)
                        log.expect(result, equals: RSACheck.leftPadded(expected, to: result?.count ?? expected.count), id)
                    } else {
                        log.expect(!inRange, id, "out of range", expected: "rejected", got: "accepted")
                    }
                case .signaturePrimitive:
                    // S = EM^d mod n, and S^e = EM; "S = FAIL" when EM ≥ n.
                    guard block.has("EM"), let signature = block["S"] else { continue }
                    let em = try block.integerBytes("EM")
                    let made = RSA.modularPowerVartime(em, try block.integerBytes("d"), modulus: modulus)
                    if signature.hasPrefix("FAIL") {
                        log.expect(made == nil, id, "EM out of range", expected: "rejected", got: "signed")
                    } else {
                        let expected = try block.integerBytes("S")
                        let opened = made.flatMap { RSA.modularPowerVartime($0, exponent, modulus: modulus) }
                        let signs = made.map { $0 == RSACheck.leftPadded(expected, to: $0.count) } ?? false
                        let opens = opened.map { $0 == RSACheck.leftPadded(em, to: $0.count) } ?? false
                        log.expect(signs && opens, id, "RSASP1", expected: "S, and S^e = EM", got: "S \(signs), S^e = EM \(opens)")
                    }
                }
            } catch {
                log.fail(id, "", expected: "well-formed record", got: error.description)
            }
        }
    }
}
