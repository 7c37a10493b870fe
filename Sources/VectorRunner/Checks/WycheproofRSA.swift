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
            let hash: HashChoice?, mgfHash: HashChoice?, privateKey: RSA.Encryption.PrivateKey?, publicKey: RSA.Signing.PublicKey?
            do throws(VectorFormatError) {
                // A missing or non-hex key field is a malformed file; only the engine refusing
                // a well-formed key becomes nil.
                hash = kind == .pkcs1Decrypt ? nil : try groupHash(group, "sha")
                mgfHash = kind == .oaepDecrypt ? try groupHash(group, "mgfSha") : nil
                privateKey = try groupBytes(group, "privateKeyPkcs8", required: kind == .oaepDecrypt || kind == .pkcs1Decrypt || kind == .pkcs1Generate)
                    .flatMap { try? RSA.Encryption.PrivateKey(derRepresentation: $0) }
                publicKey = try groupBytes(group, "publicKeyDer", required: kind == .pkcs1Verify || kind == .pssVerify)
                    .flatMap { try? RSA.Signing.PublicKey(derRepresentation: $0) }
            } catch {
                log.fileError("a test group: \(error.description)")
                continue
            }
            for test in group.tests {
                let id = "#\(test.id)"
                guard WycheproofDecisions.knownFlags(test, knownFlags, &log),
                      let expectSuccess = WycheproofDecisions.expectsSuccess(test, decisions, &log) else { continue }
                if kind != .pkcs1Decrypt, let unknown = unknownHash(group, hash: hash, mgfHash: mgfHash, kind: kind) {
                    log.skip(id, reason: "hash \(unknown) is not implemented")
                    continue
                }
                do throws(VectorFormatError) {
                    switch kind {
                    case .oaepDecrypt, .pkcs1Decrypt:
                        // Every field is read before decrypting, so only the engine's refusal becomes nil.
                        let label = kind == .oaepDecrypt ? try test.bytes("label") : []
                        let ciphertext = try test.bytes("ct"), message = try test.bytes("msg")
                        guard let privateKey else { log.fail(id, test.comment, expected: "a usable key", got: "key refused"); continue }
                        let padding: RSA.Encryption.Padding
                        if kind == .pkcs1Decrypt {
                            padding = .insecurePKCS1v1_5
                        } else if let hash, let mgfHash {
                            padding = .oaep(hash: hash.algorithm, mgf1Hash: mgfHash.algorithm)
                        } else {
                            continue  // unreachable: an unknown or missing hash was skipped above
                        }
                        let plaintext = try? privateKey.decrypt(ciphertext, padding: padding, label: label)
                        if expectSuccess {
                            log.expect(plaintext, equals: message, id, test.comment)
                        } else {
                            log.expect(plaintext == nil, id, test.comment, expected: "decryption failure", got: "decrypted")
                        }
                    case .pkcs1Verify, .pssVerify:
                        let signature = try test.bytes("sig"), message = try test.bytes("msg")
                        guard let publicKey, let hash else { log.fail(id, test.comment, expected: "a usable key", got: "key refused"); continue }
                        let padding: RSA.Signing.Padding = kind == .pkcs1Verify ? .pkcs1v1_5 : pssPadding(group, hash: hash)
                        let valid = RSACheck.verify(publicKey, signature, digest: hash.hash(message), hash: hash, padding: padding)
                        log.expect(valid == expectSuccess, id, test.comment, expected: expectSuccess ? "valid" : "invalid", got: valid ? "valid" : "invalid")
                    case .pkcs1Generate:
                        let message = try test.bytes("msg"), signature = try test.bytes("sig")
                        guard let hash, let key = privateKey.map(RSA.Signing.PrivateKey.init(sameKeyAs:)) else {
                            log.fail(id, test.comment, expected: "a usable key", got: "key refused")
                            continue
                        }
                        if hash == .sha1 {
                            log.skip(id, reason: "WeakHash: we refuse to sign with SHA-1")
                            continue
                        }
                        log.expect(RSACheck.signPKCS1(key, message: message, hash: hash), equals: signature, id, test.comment)
                    }
                } catch {
                    log.fail(id, test.comment, expected: "well-formed case", got: error.description)
                }
            }
        }
    }

    /// The group's hash field `name`: nil when it names a hash we do not implement (the cases
    /// are then skipped with that reason); a missing field is a malformed file.
    private static func groupHash(_ group: WycheproofFile.Group, _ name: String) throws(VectorFormatError) -> HashChoice? {
        guard let text = group.fields[name]?.string else { throw .missingField(name) }
        return HashChoice(name: text)
    }

    /// The group's hex field `name`, or nil when it is absent and not `required`.
    private static func groupBytes(_ group: WycheproofFile.Group, _ name: String, required: Bool) throws(VectorFormatError) -> [UInt8]? {
        guard let value = group.fields[name] else {
            if required { throw .missingField(name) }
            return nil
        }
        guard let text = value.string else { throw .malformed("\(name) is not a string") }
        return try HexText.bytes(text, field: name)
    }

    /// The name of a hash the group asks for that we do not implement, if any.
    private static func unknownHash(_ group: WycheproofFile.Group, hash: HashChoice?, mgfHash: HashChoice?, kind: Kind) -> String? {
        if hash == nil { return group.fields["sha"]?.string ?? "(none)" }
        if kind == .oaepDecrypt, mgfHash == nil { return "MGF1 " + (group.fields["mgfSha"]?.string ?? "(none)") }
        return nil
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
