// Wycheproof RSA files: OAEP and PKCS #1 v1.5 decryption, PKCS #1 v1.5 and PSS verification,
// and PKCS #1 v1.5 signature generation.

import CryptoPrimitives
import VectorFormats

enum WycheproofRSA {
    /// Decisions on every flag that marks an "acceptable" case in the RSA files:
    /// - `MissingNull` (PKCS #1 v1.5 verify, DigestInfo without the NULL parameter): **reject** —
    ///   we compare with the one canonical encoding, which has the NULL.
    /// - `SmallIntegerCiphertext` (with `Constructed`, `EncryptionWithLabel`; OAEP): **reject** —
    ///   decryption requires 1 < c < n − 1 (SP 800-56B r2 §7.1.2.1), so c = 0 or 1 fails before
    ///   OAEP decoding even when a constructed label would make it decode.
    /// - `WeakHash` (signing with SHA-1): **reject** — we refuse to make SHA-1 signatures; counted
    ///   as skipped with this reason, since refusing cannot be observed through an API that
    ///   offers no SHA-1 signing.
    /// - `SmallPublicKey` (e = 3): **accept** — odd exponents from 3 up are valid keys (RFC 8017);
    ///   only even exponents and e < 3 are refused. Our key generation always uses 65537.
    static let decisions: [String: WycheproofDecisions.Decision] = [
        "MissingNull": .reject, "SmallIntegerCiphertext": .reject, "Constructed": .reject, "EncryptionWithLabel": .reject,
        "WeakHash": .reject, "SmallPublicKey": .accept,
    ]
    static let knownFlags: Set<String> = Set(decisions.keys).union([
        "BerEncodedPadding", "EdgeCaseSignature", "InvalidAsnInPadding", "InvalidPadding", "InvalidSignature", "ModifiedPadding",
        "NoHash", "ShortPadding", "SignatureMalleability", "SmallSignature", "WrongHash", "WrongPrimitive",
        "CVE-2020-14967", "CVE-2021-3580", "InvalidCiphertextFormat", "InvalidPkcs1Padding", "Normal", "SpecialCase",
        "SpecialCasePadding", "Sslv23Padding", "InvalidCiphertext", "InvalidOaepPadding", "SmallModulus", "ModifiedSignature",
        "SpecialCaseHash",
    ])

    enum Kind { case oaepDecrypt, pkcs1Decrypt, pkcs1Verify, pkcs1Generate, pssVerify }

    static func check(_ file: WycheproofFile, kind: Kind, _ log: inout CaseLog) {
        for group in file.groups {
            let hash = group.fields["sha"]?.string.flatMap(HashChoice.init(name:))
            let mgfHash = group.fields["mgfSha"]?.string.flatMap(HashChoice.init(name:))
            let privateKey = group.fields["privateKeyPkcs8"]?.string.flatMap { try? HexText.bytes($0) }
                .flatMap { try? RSA.Encryption.PrivateKey(derRepresentation: $0) }
            let publicKey = group.fields["publicKeyDer"]?.string.flatMap { try? HexText.bytes($0) }
                .flatMap { try? RSA.Signing.PublicKey(derRepresentation: $0) }
            for test in group.tests {
                let id = "#\(test.id)"
                guard WycheproofDecisions.knownFlags(test, knownFlags, &log),
                      let expectSuccess = WycheproofDecisions.expectsSuccess(test, decisions, &log) else { continue }
                do throws(VectorFormatError) {
                    switch kind {
                    case .oaepDecrypt, .pkcs1Decrypt:
                        guard let privateKey else { log.fail(id, test.comment, expected: "a usable key", got: "key refused"); continue }
                        let padding: RSA.Encryption.Padding = kind == .pkcs1Decrypt ? .insecurePKCS1v1_5
                            : .oaep(hash: hash?.algorithm ?? .sha256, mgf1Hash: mgfHash?.algorithm ?? .sha256)
                        let label = (try? test.bytes("label")) ?? []
                        let plaintext = try? privateKey.decrypt(try test.bytes("ct"), padding: padding, label: label)
                        if expectSuccess {
                            log.expect(plaintext ?? [], equals: try test.bytes("msg"), id, test.comment)
                        } else {
                            log.expect(plaintext == nil, id, test.comment, expected: "decryption failure", got: "decrypted")
                        }
                    case .pkcs1Verify, .pssVerify:
                        guard let publicKey, let hash else { log.fail(id, test.comment, expected: "a usable key", got: "key refused"); continue }
                        let padding: RSA.Signing.Padding = kind == .pkcs1Verify ? .pkcs1v1_5 : pssPadding(group, hash: hash)
                        let valid = RSACheck.verify(publicKey, try test.bytes("sig"), digest: hash.hash(try test.bytes("msg")), hash: hash, padding: padding)
                        log.expect(valid == expectSuccess, id, test.comment, expected: expectSuccess ? "valid" : "invalid", got: valid ? "valid" : "invalid")
                    case .pkcs1Generate:
                        guard let hash, let key = privateKey.map(RSA.Signing.PrivateKey.init(sameKeyAs:)) else {
                            log.fail(id, test.comment, expected: "a usable key", got: "key refused")
                            continue
                        }
                        if hash == .sha1 {
                            log.skip(id, reason: "WeakHash: we refuse to sign with SHA-1")
                            continue
                        }
                        let signature = RSACheck.signPKCS1(key, message: try test.bytes("msg"), hash: hash)
                        log.expect(signature ?? [], equals: try test.bytes("sig"), id, test.comment)
                    }
                } catch {
                    log.fail(id, test.comment, expected: "well-formed case", got: error.description)
                }
            }
        }
    }

    /// PSS with the group's salt length; the MGF1 hash must be the message hash (our PSS).
    private static func pssPadding(_ group: WycheproofFile.Group, hash: HashChoice) -> RSA.Signing.Padding {
        switch group.fields["sLen"]?.int {
        case 0: .pssZeroSalt
        case hash.algorithm.byteCount: .pss
        default: .pssAnySaltLength
        }
    }
}
