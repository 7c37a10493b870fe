// The IUT's own keys and signatures in an ACVP response: ECDSA keyGen and sigGen over P-256
// (FIPS 186-5 §6.2 and §6.4), RSA sigGen (FIPS 186-5 §5.4,
// key pair by §A.1.3, one per modulus size) and KAS-ECC-SSC (SP 800-56A rev 3 §5.7.1.2). These answers are random:
// `mfa acvp check` validates them against the prompt instead of comparing them with the
// expected results (which hold the server's own random values).

import CryptoCore
import CryptoPrimitives
import VectorFormats

extension ACVPResponder {
    /// The RSA keys made while answering one vector set, one per modulus size: key generation
    /// is slow, and each group's response names its key.
    final class KeyPool {
        var rsa: [Int: RSA.Signing.PrivateKey] = [:]
        init() {}
    }

    /// ECDSA keyGen (FIPS 186-5 §6.2; draft-fussell-acvp-ecdsa, test vector responses):
    /// a fresh key pair per case as `d`, `qx`, `qy`.
    static func ecdsaKeyGen(_ group: ACVPGroup) throws(ACVPFormatError) -> Answer {
        let curve = try group.fields.string("curve")
        guard curve == "P-256" else { return .unanswered(ACVPECDSA.curveReason(curve)) }
        do {
            let key = try P256.Signing.PrivateKey()
            let q = key.publicKey.rawRepresentation
            return .fields(["d": hexValue(key.rawRepresentation.unsafeExposedBytes), "qx": hexValue(Array(q.prefix(32))),
                            "qy": hexValue(Array(q.suffix(32)))])
        } catch {
            return .unanswered("the random source failed (\(error))")
        }
    }

    /// ECDSA sigGen: one fresh P-256 key per group (the group's `qx`, `qy`) and a signature
    /// `r`, `s` over each case's message; a componentTest message is the digest itself.
    static func ecdsaSigGen(_ group: ACVPGroup) -> GroupAnswer {
        do {
            let curve = try group.fields.string("curve")
            guard curve == "P-256" else { return GroupAnswer(group, unanswered: ACVPECDSA.curveReason(curve)) }
            if let conformance = group.fields.value("conformance")?.string, !conformance.isEmpty {
                return GroupAnswer(group, unanswered: "\(conformance) randomized hashing is not in the engine")
            }
            let component = group.fields.has("componentTest") ? try group.fields.bool("componentTest") : false
            let hashName = try group.fields.string("hashAlg")
            let hash = ACVPHash.choice(hashName)
            guard component || hash != nil else { return GroupAnswer(group, unanswered: ACVPHash.unsupported(hashName)) }
            let key = try P256.Signing.PrivateKey()
            let q = key.publicKey.rawRepresentation
            var answer = GroupAnswer(fields: ["qx": hexValue(Array(q.prefix(32))), "qy": hexValue(Array(q.suffix(32)))])
            for test in group.tests {
                let message = try test.fields.hex("message")
                let signature: [UInt8]
                if let hash, !component {
                    signature = try hash.with { signECDSA($0, key, message) }.get()
                } else {
                    // The digest is given: the engine's signing core with a fresh uniform nonce.
                    signature = P256Check.sign(digest: message, key: key, nonce: try P256.Signing.PrivateKey().rawRepresentation.unsafeExposedBytes)
                }
                guard signature.count == 64 else { answer.cases.append((test.id, .unanswered("r or s came out 0"))); continue }
                answer.cases.append((test.id, .fields(["r": hexValue(Array(signature.prefix(32))), "s": hexValue(Array(signature.suffix(32)))])))
            }
            return answer
        } catch {
            return GroupAnswer(group, unanswered: "\(error)")
        }
    }

    /// RSA sigGen: a fresh key of the group's `modulo`, shared by the groups of that size in
    /// `keys` (the group's `n`, `e`), and a signature over each case's message with the
    /// group's padding.
    static func rsaSigGen(_ group: ACVPGroup, _ keys: KeyPool) -> GroupAnswer {
        do {
            if let conformance = group.fields.value("conformance")?.string, !conformance.isEmpty {
                return GroupAnswer(group, unanswered: "\(conformance) randomized hashing is not in the engine")
            }
            let hashName = try group.fields.string("hashAlg")
            guard let hash = ACVPHash.choice(hashName), hash != .sha1 else {
                return GroupAnswer(group, unanswered: "the engine signs with SHA2-224/256/384/512 only, not \(hashName)")
            }
            let padding: RSA.Signing.Padding
            switch try group.fields.string("sigType") {
            case "pkcs1v1.5":
                padding = .pkcs1v1_5
            case "pss":
                let mask = group.fields.value("maskFunction")?.string ?? "mgf1"
                let salt = try group.fields.integer("saltLen")
                guard mask == "mgf1", salt == 0 || salt == hash.algorithm.byteCount else {
                    return GroupAnswer(group, unanswered: "PSS with \(mask) and a \(salt)-byte salt is not in the engine (MGF1, salt 0 or the digest length)")
                }
                padding = salt == 0 ? .pssZeroSalt : .pss
            case let other:
                return GroupAnswer(group, unanswered: "signature type \(other) is not in the engine")
            }
            let bits = try group.fields.integer("modulo")
            guard let size = [RSA.KeySize.bits2048, .bits3072, .bits4096].first(where: { $0.bitCount == bits }) else {
                return GroupAnswer(group, unanswered: "the engine generates 2048-, 3072- and 4096-bit keys, not \(bits)")
            }
            let key = try keys.rsa[bits] ?? RSA.Signing.PrivateKey(keySize: size)
            keys.rsa[bits] = key
            var answer = GroupAnswer(fields: ["n": hexValue(key.publicKey.modulus), "e": hexValue(key.publicKey.publicExponent)])
            for test in group.tests {
                let message = try test.fields.hex("message")
                let signature = try hash.with { signRSA($0, key, message, padding) }.get()
                answer.cases.append((test.id, .fields(["signature": hexValue(signature)])))
            }
            return answer
        } catch {
            return GroupAnswer(group, unanswered: "\(error)")
        }
    }

    /// KAS-ECC-SSC over P-256 (SP 800-56A rev 3 §6.3.2 ephemeralUnified, §6.5.2
    /// staticUnified): AFT a fresh IUT key and Z = x(d·Q_server) as `…PublicIutX`, `…PublicIutY`,
    /// `z`; VAL `testPassed`, whether the given IUT key and server key give the given `z`.
    static func kasECC(_ group: ACVPGroup, _ test: ACVPCase) throws(ACVPFormatError) -> Answer {
        let curve = try group.fields.string("domainParameterGenerationMode")
        guard curve == "P-256" else { return .unanswered(ACVPECDSA.curveReason(curve)) }
        let prefix: String
        switch try group.fields.string("scheme") {
        case "ephemeralUnified": prefix = "ephemeral"
        case "staticUnified": prefix = "static"
        case let other: return .unanswered("KAS scheme \(other) is not in the engine")
        }
        if let hashZ = group.fields.value("hashFunctionZ")?.string, !hashZ.isEmpty { return .unanswered("hashZ (\(hashZ)) is not answered") }
        let peer: P256.KeyAgreement.PublicKey? = ECInputs.publicKey(x: try test.fields.hex(prefix + "PublicServerX"),
                                                                   y: try test.fields.hex(prefix + "PublicServerY"))
        if try group.fields.string("testType") == "VAL" {
            let ours: P256.KeyAgreement.PrivateKey? = ECInputs.privateKey(try test.fields.hex(prefix + "PrivateIut"))
            let z = peer.flatMap { peer in try? ours?.sharedSecretFromKeyAgreement(with: peer) }?.secret.unsafeExposedBytes
            let given = ECInputs.fixed(try test.fields.hex("z"))
            return .fields(["testPassed": .bool(z != nil && z == given)])
        }
        guard let peer else { return .unanswered("the server's public key is not a P-256 point") }
        do {
            let ours = try P256.KeyAgreement.PrivateKey()
            let z = try ours.sharedSecretFromKeyAgreement(with: peer).secret.unsafeExposedBytes
            let q = ours.publicKey.rawRepresentation
            return .fields([prefix + "PublicIutX": hexValue(Array(q.prefix(32))), prefix + "PublicIutY": hexValue(Array(q.suffix(32))),
                            "z": hexValue(z)])
        } catch {
            return .unanswered("no shared secret (\(error))")
        }
    }
}

private func signECDSA<H: HashFunction>(_: H.Type, _ key: P256.Signing.PrivateKey, _ message: [UInt8]) -> Result<[UInt8], CryptoError> {
    Result { () throws(CryptoError) in
        var random = SystemRandomSource()
        return try key.signature(for: H.hash(data: message), randomness: &random).rawRepresentation
    }
}

private func signRSA<H: HashFunction>(_: H.Type, _ key: RSA.Signing.PrivateKey, _ message: [UInt8],
                                      _ padding: RSA.Signing.Padding) -> Result<[UInt8], CryptoError> {
    Result { () throws(CryptoError) in
        var random = SystemRandomSource()
        return try key.signature(for: H.hash(data: message), padding: padding, using: &random).rawRepresentation
    }
}
