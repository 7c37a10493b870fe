// The engine's decoders: encodings, DER/PEM keys and signatures, curve points and scalars, RSA
// private-key operations on chosen inputs — and the fixed keys they use.
import BenchmarkKit
import CryptoPrimitives

// Hex, Base64 (strict in both alphabets, padded and not, and lenient), Base32 and PEM: every
// decoder on arbitrary text, and decode ∘ encode = id on arbitrary bytes.

extension FuzzTarget {
    static let encodings: [FuzzTarget] = [
        FuzzTarget("hex", seeds: [.jsonStrings(under: "wycheproof/testvectors_v1/ecdsa_secp256r1_sha256_test.json", keys: ["msg", "sig"], decodeHex: false)]) { input in
            _ = try? Hex.decode(text(input))
            guard let decoded = try? Hex.decode(Hex.encode(input)), decoded == input else { violated("hex round trip", input) }
        },
        FuzzTarget("base64", seeds: [.jsonStrings(under: "powerauth", keys: ["encryptedData", "mac", "ephemeralPublicKey", "nonce", "publicKey"], decodeHex: false)]) { input in
            let text = text(input)
            for alphabet in [Base64.Alphabet.standard, .urlSafe] {
                for padded in [true, false] {
                    _ = try? Base64.decode(text, alphabet: alphabet, padded: padded)
                    let encoded = Base64.encode(input, alphabet: alphabet, padded: padded)
                    guard let decoded = try? Base64.decode(encoded, alphabet: alphabet, padded: padded), decoded == input else {
                        violated("base64 round trip (\(alphabet), padded \(padded))", input)
                    }
                }
            }
            _ = try? Base64.decodeLenient(text)
            // The secret decoder reads what the String one reads, and refuses what it refuses.
            let plain = try? Base64.decode(text), secret = try? Base64.decode(secret: SecretBytes(text.utf8))
            guard plain == secret?.unsafeExposedBytes else { violated("base64 secret decoder disagrees", input) }
            guard let lenient = try? Base64.decodeLenient(Base64.encode(input)), lenient == input else { violated("lenient base64 round trip", input) }
        },
        FuzzTarget("base32", seeds: [.jsonStrings(under: "cm", keys: ["secret", "qr", "value"], decodeHex: false)]) { input in
            _ = try? Base32.decode(text(input))
            guard let decoded = try? Base32.decode(Base32.encode(input)), decoded == input else { violated("base32 round trip", input) }
        },
    ]
}

// DER and PEM key and signature decoders: SubjectPublicKeyInfo, PKCS #1, PKCS #8, SEC 1 and
// ECDSA signatures, each also through its PEM wrapper; a decoded value must re-encode to
// something that decodes to the same value.

extension FuzzTarget {
    static let keys: [FuzzTarget] = [
        FuzzTarget("p256-public-der", seeds: [.jsonStrings(under: "wycheproof/testvectors_v1/ecdsa_secp256r1_sha256_test.json", keys: ["keyDer"], decodeHex: true),
                                              .jsonStrings(under: "wycheproof/testvectors_v1/ecdh_secp256r1_test.json", keys: ["public"], decodeHex: true)]) { input in
            if let key = try? P256.Signing.PublicKey(derRepresentation: input) {
                guard let again = try? P256.Signing.PublicKey(derRepresentation: key.derRepresentation), again == key else { violated("SPKI round trip", input) }
            }
            _ = try? P256.KeyAgreement.PublicKey(pemRepresentation: text(input))
        },
        FuzzTarget("p256-private-der", seeds: [.files(["wycheproof/testvectors_v1/ecdh_secp256r1_test.json"])]) { input in
            _ = try? P256.Signing.PrivateKey(derRepresentation: input)
            _ = try? P256.KeyAgreement.PrivateKey(pemRepresentation: text(input))
            _ = try? P256.Signing.PrivateKey(rawRepresentation: input)
        },
        FuzzTarget("ecdsa-signature", seeds: [.jsonStrings(under: "wycheproof/testvectors_v1/ecdsa_secp256r1_sha256_test.json", keys: ["sig"], decodeHex: true),
                                              .jsonStrings(under: "wycheproof/testvectors_v1/ecdsa_secp256r1_sha256_p1363_test.json", keys: ["sig"], decodeHex: true)]) { input in
            if let signature = try? P256.Signing.ECDSASignature(derRepresentation: input) {
                guard let again = try? P256.Signing.ECDSASignature(derRepresentation: signature.derRepresentation),
                      again.rawRepresentation == signature.rawRepresentation else { violated("ECDSA DER round trip", input) }
                _ = Fixtures.p256Public.isValidSignature(signature, for: input)
            }
            _ = try? P256.Signing.ECDSASignature(rawRepresentation: input)
        },
        FuzzTarget("rsa-public-der", seeds: [.jsonStrings(under: "wycheproof/testvectors_v1/rsa_signature_2048_sha256_test.json", keys: ["publicKeyDer", "publicKeyAsn"], decodeHex: true),
                                             .files(["saltedge/ios-fixtures/test_public.pem", "saltedge/android-test-tools/public_key.pem"])]) { input in
            if let key = try? RSA.Signing.PublicKey(derRepresentation: input) {
                guard let again = try? RSA.Signing.PublicKey(derRepresentation: key.derRepresentation), again == key else { violated("RSA public round trip", input) }
            }
            _ = try? RSA.Encryption.PublicKey(pemRepresentation: text(input))
        },
        FuzzTarget("rsa-private-der", seeds: [.jsonStrings(under: "wycheproof/testvectors_v1/rsa_oaep_2048_sha256_mgf1sha256_test.json", keys: ["privateKeyPkcs8"], decodeHex: true),
                                              .files(["saltedge/ios-fixtures/test_private.pem", "saltedge/android-test-tools/private_key_pkcs8.pem",
                                                      "saltedge/android-test-tools/private_key.pem"])]) { input in
            _ = try? RSA.Encryption.PrivateKey(derRepresentation: input)
            _ = try? RSA.Signing.PrivateKey(pemRepresentation: text(input))
        },
    ]
}

// Point and scalar decoders of both curves: P-256 (raw, X9.63, compressed) and BN254CX (G1 in
// both SEC 1 forms, G2, GT, scalars). Every point that decodes re-encodes to the same bytes.

extension FuzzTarget {
    static let curvePoints: [FuzzTarget] = [
        FuzzTarget("p256-point", seeds: [.jsonStrings(under: "wycheproof/testvectors_v1/ecdh_secp256r1_ecpoint_test.json", keys: ["public"], decodeHex: true)]) { input in
            if let key = try? P256.KeyAgreement.PublicKey(x963Representation: input) {
                guard let again = try? P256.KeyAgreement.PublicKey(compressedRepresentation: key.compressedRepresentation), again == key else {
                    violated("P-256 compressed round trip", input)
                }
            }
            _ = try? P256.KeyAgreement.PublicKey(compressedRepresentation: input)
            _ = try? P256.KeyAgreement.PublicKey(rawRepresentation: input)
        },
        FuzzTarget("bn254-g1", seeds: [.jsonStrings(under: "mpin/milagro-crypto-c/mpin/BN254_CX.json", keys: ["CS1", "TP1", "SEC", "U", "UT", "V", "TOKEN"], decodeHex: true)]) { input in
            if let point = try? BN254CX.G1(encoded: input) {
                let encoded = point.uncompressedRepresentation
                guard let again = try? BN254CX.G1(encoded: encoded), again.uncompressedRepresentation == encoded else { violated("G1 round trip", input) }
                guard let compressed = try? BN254CX.G1(encoded: point.compressedRepresentation), compressed.uncompressedRepresentation == encoded else {
                    violated("G1 compressed round trip", input)
                }
            }
        },
        FuzzTarget("bn254-g2", seeds: [.jsonStrings(under: "mpin/milagro-crypto-c/mpin/BN254_CX.json", keys: ["SS1", "SERVER_SECRET"], decodeHex: true)]) { input in
            if let point = try? BN254CX.G2(encoded: input) {
                guard let again = try? BN254CX.G2(encoded: point.rawRepresentation), again.rawRepresentation == point.rawRepresentation else {
                    violated("G2 round trip", input)
                }
            }
        },
        FuzzTarget("bn254-gt-scalar") { input in
            if let value = try? BN254CX.GT(rawRepresentation: input) {
                guard let again = try? BN254CX.GT(rawRepresentation: value.rawRepresentation), again.rawRepresentation == value.rawRepresentation else {
                    violated("GT round trip", input)
                }
            }
            _ = try? BN254CX.Scalar(rawRepresentation: input)
        },
    ]
}

// RSA private-key operations on attacker-chosen ciphertexts and signatures: OAEP (three hash
// pairings), PKCS #1 v1.5 with an error and with implicit rejection, and signature checks.
// Inputs are stretched or cut to the modulus length so most reach the padding checks.

extension FuzzTarget {
    static let rsaInputs: [FuzzTarget] = [
        FuzzTarget("rsa-decrypt", seeds: [.jsonStrings(under: "wycheproof/testvectors_v1/rsa_oaep_2048_sha256_mgf1sha256_test.json", keys: ["ct"], decodeHex: true),
                                          .jsonStrings(under: "wycheproof/testvectors_v1/rsa_pkcs1_2048_test.json", keys: ["ct"], decodeHex: true)]) { input in
            let key = Fixtures.rsaEncryption
            let block = Fixtures.modulusSized(input)
            for padding in [RSA.Encryption.Padding.oaepSHA256, .oaepSHA1, .oaepSHA256MGF1SHA1, .insecurePKCS1v1_5] {
                _ = try? key.decrypt(block, padding: padding)
            }
            _ = try? key.decrypt(input, padding: .oaepSHA256)
            if let secret = try? key.decryptWithImplicitRejection(block, messageByteCount: 32), secret.count != 32 {
                violated("implicit rejection length", input)
            }
        },
        FuzzTarget("rsa-verify", seeds: [.jsonStrings(under: "wycheproof/testvectors_v1/rsa_signature_2048_sha256_test.json", keys: ["sig"], decodeHex: true)]) { input in
            let signature = RSA.Signing.RSASignature(rawRepresentation: Fixtures.modulusSized(input))
            for padding in [RSA.Signing.Padding.pkcs1v1_5, .pss, .pssZeroSalt, .pssAnySaltLength] {
                if Fixtures.rsaSigning.publicKey.isValidSignature(signature, for: input, padding: padding) { violated("a forged RSA signature verified", input) }
            }
        },
    ]
}

// Keys the targets decrypt and verify with, decoded once from the benchmark fixtures (fixed
// keys, so a crash reproduces from its input alone).

enum Fixtures {
    /// The 2048-bit fixture key for decryption.
    static let rsaEncryption: RSA.Encryption.PrivateKey = decode { try RSA.Encryption.PrivateKey(pemRepresentation: BenchmarkFixtures.rsa2048PrivateKeyPEM) }
    /// The same key for signatures.
    static let rsaSigning: RSA.Signing.PrivateKey = decode { try RSA.Signing.PrivateKey(pemRepresentation: BenchmarkFixtures.rsa2048PrivateKeyPEM) }
    /// A P-256 key with scalar 1…32, for signature checks.
    static let p256Public: P256.Signing.PublicKey = decode { try P256.Signing.PrivateKey(rawRepresentation: (1...32).map { UInt8($0) }).publicKey }

    /// `input` repeated or cut to 256 bytes (the modulus length).
    static func modulusSized(_ input: [UInt8]) -> [UInt8] {
        guard !input.isEmpty else { return [UInt8](repeating: 0, count: 256) }
        return (0..<256).map { input[$0 % input.count] }
    }

    private static func decode<T>(_ make: () throws -> T) -> T {
        do { return try make() } catch { fatalError("fixture does not decode: \(error)") }
    }
}
