// ACVP ECDSA (keyGen, keyVer, sigGen, sigVer; FIPS 186-4/186-5) on P-256 and P-384, and
// KAS-ECC-SSC (SP 800-56A rev 3 shared secret) on P-256; other curves are skipped.

import CryptoPrimitives
import VectorFormats

enum ACVPECDSA {
    static func curveReason(_ curve: String) -> String {
        "curve \(curve) is not in the engine (P-256 and P-384 only)"
    }

    static func check(_ file: ACVPFile, _ log: inout CaseLog) {
        ACVPRunner.forEachCase(file, &log) { (group, test, log) throws(ACVPFormatError) in
            let id = ACVPRunner.id(test), comment = ACVPRunner.comment(group)
            let name = try group.fields.string("curve")
            guard let curve = CurveChoice(nistName: name) else { return log.skip(id, reason: curveReason(name)) }
            let width = curve.scalarByteCount
            switch file.mode {
            case "keyGen":
                // The IUT's key pair: Q must be d·G.
                let publicKey = curve.publicKey(privateKey: try test.fields.hex("d", answer: true))
                let expected = [0x04] + (ECInputs.fixed(try test.fields.hex("qx", answer: true), width) ?? [])
                    + (ECInputs.fixed(try test.fields.hex("qy", answer: true), width) ?? [])
                log.expect(publicKey, equals: expected, id, comment + " Q = d·G")
            case "keyVer":
                let key = curve.verificationKey(x: try test.fields.hex("qx"), y: try test.fields.hex("qy"))
                let expected = try test.fields.bool("testPassed", answer: true)
                log.expect((key != nil) == expected, id, comment, expected: expected ? "accepted" : "rejected", got: key != nil ? "accepted" : "rejected")
            default:
                try checkSignature(file.mode == "sigVer", curve, group, test, &log)
            }
        }
    }

    /// Whether a signature verifies, or why the engine cannot say.
    enum Outcome { case verifies(Bool), unsupported(String) }

    /// Verifies (r, s) over the case's message under (qx, qy): from the case (sigVer) or from
    /// the group's expected results (sigGen, `fromGroup`). `componentTest` groups give the
    /// digest itself as the message.
    static func outcome(_ curve: CurveChoice, _ group: ACVPGroup, _ test: ACVPCase, keyFromGroup: Bool) throws(ACVPFormatError) -> Outcome {
        if let conformance = group.fields.value("conformance")?.string, !conformance.isEmpty {
            return .unsupported("\(conformance) randomized hashing is not in the engine")
        }
        let hashName = try group.fields.string("hashAlg")
        let component = group.fields.has("componentTest") ? try group.fields.bool("componentTest") : false
        let message = try test.fields.hex("message")
        let digest: [UInt8]
        if component {
            digest = message
        } else {
            guard let hash = ACVPHash.choice(hashName) else { return .unsupported(ACVPHash.unsupported(hashName)) }
            digest = hash.hash(message)
        }
        let fields = keyFromGroup ? group.fields : test.fields
        let key = curve.verificationKey(x: try fields.hex("qx", answer: true), y: try fields.hex("qy", answer: true))
        let r = try test.fields.hex("r", answer: true), s = try test.fields.hex("s", answer: true)
        return .verifies(key.map { curve.isValid(r: r, s: s, digest: digest, key: $0) } ?? false)
    }

    /// sigVer: (r, s) verifies exactly when testPassed. sigGen: ECDSA signing is randomised, so
    /// the IUT's (r, s) must verify under the group's key.
    private static func checkSignature(_ verification: Bool, _ curve: CurveChoice, _ group: ACVPGroup, _ test: ACVPCase,
                                       _ log: inout CaseLog) throws(ACVPFormatError) {
        let id = ACVPRunner.id(test), comment = ACVPRunner.comment(group)
        switch try outcome(curve, group, test, keyFromGroup: !verification) {
        case .unsupported(let reason):
            log.skip(id, reason: reason)
        case .verifies(let valid):
            let expected = verification ? try test.fields.bool("testPassed", answer: true) : true
            log.expect(valid == expected, id, comment, expected: expected ? "valid" : "invalid", got: valid ? "valid" : "invalid")
        }
    }

    /// KAS-ECC-SSC: Z = x(d·Q) for the ephemeralUnified and staticUnified schemes (SP 800-56A
    /// rev 3 §6.3.2 and §6.5.2, with the ECC CDH primitive §5.7.1.2). VAL cases judge the given Z;
    /// AFT cases need the IUT's own private keys, which the expected results do not carry.
    static func checkKAS(_ file: ACVPFile, _ log: inout CaseLog) {
        ACVPRunner.forEachCase(file, &log) { (group, test, log) throws(ACVPFormatError) in
            let id = ACVPRunner.id(test), comment = ACVPRunner.comment(group)
            let curve = try group.fields.string("domainParameterGenerationMode")
            guard curve == "P-256" else { return log.skip(id, reason: curveReason(curve)) }
            let scheme = try group.fields.string("scheme")
            let prefix: String
            switch scheme {
            case "ephemeralUnified": prefix = "ephemeral"
            case "staticUnified": prefix = "static"
            default: return log.skip(id, reason: "KAS scheme \(scheme) is not in the engine")
            }
            guard test.fields.has(prefix + "PrivateIut") else {
                return log.skip(id, reason: "the IUT's \(prefix) private key is not in the vector set (an AFT answer the IUT chooses)")
            }
            let ours: P256.KeyAgreement.PrivateKey? = ECInputs.privateKey(try test.fields.hex(prefix + "PrivateIut"))
            let peer: P256.KeyAgreement.PublicKey? = ECInputs.publicKey(x: try test.fields.hex(prefix + "PublicServerX"),
                                                                       y: try test.fields.hex(prefix + "PublicServerY"))
            let z = peer.flatMap { peer in try? ours?.sharedSecretFromKeyAgreement(with: peer) }?.secret.unsafeExposedBytes
            let expectedZ = try test.fields.hex("z", answer: true)
            if try group.fields.string("testType") == "VAL" {
                let expected = try test.fields.bool("testPassed", answer: true)
                let agrees = z == ECInputs.fixed(expectedZ)
                log.expect(agrees == expected, id, comment, expected: expected ? "Z agrees" : "Z differs", got: agrees ? "Z agrees" : "Z differs")
            } else {
                log.expect(z, equals: ECInputs.fixed(expectedZ) ?? expectedZ, id, comment)
            }
        }
    }
}
