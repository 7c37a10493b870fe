// NIST CAVP ECDSA (SigVer, SigGen, SigGen with k, SigGen component, KeyPair, PKV) and ECC CDH
// files for P-256, and Milagro's copies of them. Other curves' sections are skipped.

import CryptoCore
import CryptoPrimitives
import VectorFormats

enum CAVPEC {
    /// The hash named by a `[P-256,SHA-256]` section, or nil for another curve.
    static func curveAndHash(_ block: CAVPFile.Block) -> (isP256: Bool, hash: HashChoice?) {
        for (name, _) in block.section {
            let parts = name.split(separator: ",").map { $0.filter { $0 != " " } }
            if parts.first == "P-256" { return (true, parts.count > 1 ? HashChoice(name: parts[1]) : nil) }
        }
        return (false, nil)
    }

    /// Which kind of ECDSA/ECDH file this is, from its fields.
    enum Kind { case signatureVerification, signatureGeneration, keyPair, publicKeyValidation, keyAgreement }

    static func kind(of file: CAVPFile) -> Kind? {
        let fields = Set(file.blocks.flatMap { $0.fields.map(\.name) })
        guard file.blocks.contains(where: { curveAndHash($0).isP256 }) else { return nil }
        if fields.isSuperset(of: ["QCAVSx", "dIUT", "ZIUT"]) { return .keyAgreement }
        if fields.isSuperset(of: ["Msg", "Qx", "R", "S", "Result"]) { return .signatureVerification }
        if fields.isSuperset(of: ["Msg", "Qx", "R", "S"]) { return .signatureGeneration }
        if fields.isSuperset(of: ["Qx", "Qy", "Result"]) { return .publicKeyValidation }
        if fields.isSuperset(of: ["d", "Qx", "Qy"]) { return .keyPair }
        return nil
    }

    static func check(_ file: CAVPFile, kind: Kind, _ log: inout CaseLog) {
        let messageIsDigest = file.headerText.contains("SigGenComponent")
        for block in file.blocks {
            let id = block["COUNT"].map { "COUNT \($0) line \(block.line)" } ?? "line \(block.line)"
            let (isP256, hash) = curveAndHash(block)
            guard isP256 else {
                if block.has("Qx") || block.has("QCAVSx") { log.skip(id, reason: "not P-256") }
                continue
            }
            do throws(VectorFormatError) {
                switch kind {
                case .keyAgreement where block.has("ZIUT"):
                    try checkKeyAgreement(block, id, &log)
                case .signatureVerification where block.has("Result"):
                    guard let hash else { log.skip(id, reason: "no hash named"); continue }
                    try checkVerification(block, hash: hash, id, &log)
                case .signatureGeneration where block.has("R"):
                    guard let hash else { log.skip(id, reason: "no hash named"); continue }
                    try checkGeneration(block, hash: hash, messageIsDigest: messageIsDigest, id, &log)
                case .publicKeyValidation where block.has("Result"):
                    let valid: P256.Signing.PublicKey? = ECInputs.publicKey(x: try block.integerBytes("Qx"), y: try block.integerBytes("Qy"))
                    let expected = block["Result"]?.hasPrefix("P") == true
                    log.expect((valid != nil) == expected, id, block["Result"] ?? "", expected: expected ? "accepted" : "rejected",
                               got: valid != nil ? "accepted" : "rejected")
                case .keyPair where block.has("d"):
                    let key: P256.Signing.PrivateKey? = ECInputs.privateKey(try block.integerBytes("d"))
                    let expected = (ECInputs.fixed(try block.integerBytes("Qx")) ?? []) + (ECInputs.fixed(try block.integerBytes("Qy")) ?? [])
                    log.expect(key?.publicKey.rawRepresentation, equals: expected, id)
                default:
                    continue
                }
            } catch {
                log.fail(id, "", expected: "well-formed record", got: error.description)
            }
        }
    }

    /// SigVer: the signature over SHA(Msg) verifies exactly when Result is P.
    private static func checkVerification(_ block: CAVPFile.Block, hash: HashChoice, _ id: String, _ log: inout CaseLog) throws(VectorFormatError) {
        let key: P256.Signing.PublicKey? = ECInputs.publicKey(x: try block.integerBytes("Qx"), y: try block.integerBytes("Qy"))
        let signature = ECInputs.signature(r: try block.integerBytes("R"), s: try block.integerBytes("S"))
        let digest = hash.hash(try block.bytes("Msg"))
        let verifies = signature.map { P256Check.isValid($0, key: key, digest: digest) } ?? false
        let expected = block["Result"]?.hasPrefix("P") == true
        log.expect(verifies == expected, id, block["Result"] ?? "", expected: expected ? "valid" : "invalid", got: verifies ? "valid" : "invalid")
    }

    /// SigGen: with the given nonce k, signing must give exactly (R, S); without k, (R, S)
    /// must verify and Q must be d·G when d is given.
    private static func checkGeneration(_ block: CAVPFile.Block, hash: HashChoice, messageIsDigest: Bool, _ id: String, _ log: inout CaseLog) throws(VectorFormatError) {
        let message = try block.bytes("Msg")
        let digest = messageIsDigest ? message : hash.hash(message)
        let expected = (ECInputs.fixed(try block.integerBytes("R")) ?? []) + (ECInputs.fixed(try block.integerBytes("S")) ?? [])
        let key: P256.Signing.PublicKey? = ECInputs.publicKey(x: try block.integerBytes("Qx"), y: try block.integerBytes("Qy"))
        if block.has("d") {
            let privateKey: P256.Signing.PrivateKey? = ECInputs.privateKey(try block.integerBytes("d"))
            guard let privateKey, privateKey.publicKey == key else {
                log.fail(id, "", expected: "Q = d·G", got: "mismatch")
                return
            }
            if block.has("k"), let k = ECInputs.fixed(try block.integerBytes("k")) {
                let got = P256Check.sign(digest: digest, key: privateKey, nonce: k)
                log.expect(got, equals: expected, id, "with k")
                return
            }
        }
        let signature = try? P256.Signing.ECDSASignature(rawRepresentation: expected)
        log.expect(signature.map { P256Check.isValid($0, key: key, digest: digest) } ?? false, id, "verify",
                   expected: "valid", got: "invalid")
    }

    /// ECC CDH: d_IUT and Q_CAVS give Z_IUT, and d_IUT gives Q_IUT.
    private static func checkKeyAgreement(_ block: CAVPFile.Block, _ id: String, _ log: inout CaseLog) throws(VectorFormatError) {
        let ours: P256.KeyAgreement.PrivateKey? = ECInputs.privateKey(try block.integerBytes("dIUT"))
        let peer: P256.KeyAgreement.PublicKey? = ECInputs.publicKey(x: try block.integerBytes("QCAVSx"), y: try block.integerBytes("QCAVSy"))
        let ourPublic = (ECInputs.fixed(try block.integerBytes("QIUTx")) ?? []) + (ECInputs.fixed(try block.integerBytes("QIUTy")) ?? [])
        guard ours?.publicKey.rawRepresentation == ourPublic else {
            log.fail(id, "", expected: "Q_IUT = d_IUT·G", got: "mismatch")
            return
        }
        let shared = peer.flatMap { peer in try? ours?.sharedSecretFromKeyAgreement(with: peer) }
        log.expect(shared?.secret.unsafeExposedBytes, equals: try block.bytes("ZIUT"), id)
    }
}

/// Calls into the engine that the public API keeps out of reach (a given nonce, a raw digest).
enum P256Check {
    static func isValid(_ signature: P256.Signing.ECDSASignature, key: P256.Signing.PublicKey?, digest: [UInt8]) -> Bool {
        guard let key else { return false }
        return P256.isValidSignature(P256.SignatureValues(signature), digest: digest, publicKey: key.point)
    }

    static func sign(digest: [UInt8], key: P256.Signing.PrivateKey, nonce: [UInt8]) -> [UInt8] {
        guard let k = FixedUInt<4>(bigEndian: nonce),
              let values = P256.sign(digest: digest, privateKey: key.scalar, nonce: k) else { return [] }
        return values.r.bigEndianBytes() + values.s.bigEndianBytes()
    }
}
