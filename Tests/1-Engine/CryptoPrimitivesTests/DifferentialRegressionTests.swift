// Regressions found by the differential fuzz targets (Fuzz/Sources/mfa-fuzz/Differential+*.swift):
// each case is an input on which the engine and BoringSSL (swift-crypto) disagreed and the
// engine was judged wrong.

import CryptoPrimitives
import Testing

@Suite struct DifferentialRegressionTests {
    typealias F = RSAFixtures

    /// `diff-rsa` (key form 2, PKCS #1 private key with one byte of d overwritten): BoringSSL
    /// refuses the key (RSA_check_key: d·e ≢ 1 mod p−1), the engine accepted it. The engine
    /// checks n = p·q, qInv, dP and dQ (its CRT arithmetic never uses d), but not d, which it
    /// still keeps: it keys implicit rejection (RSA+Encryption.swift) and is written back out
    /// by `pkcs1DERRepresentation`/`derRepresentation`, so a corrupted key would be re-exported
    /// as one no other implementation loads. RFC 8017 §3.2 requires e·d ≡ 1 (mod λ(n)).
    @Test func privateKeyWithInconsistentPrivateExponentIsRefused() throws {
        let key = try RSA.Signing.PrivateKey(pemRepresentation: F.pkcs1PEM)
        let der = key.pkcs1DERRepresentation.unsafeExposedBytes
        let d = F.privateExponent
        let start = try #require((0...(der.count - d.count)).first { Array(der[$0..<($0 + d.count)]) == d })
        var corrupted = der
        corrupted[start + d.count / 2] ^= 0x01
        #expect(throws: CryptoError.self) { try RSA.Signing.PrivateKey(derRepresentation: corrupted) }
        let c = key.components
        var flipped = c.privateExponent.unsafeExposedBytes
        flipped[flipped.count / 2] ^= 0x01
        #expect(throws: CryptoError.invalidKey) {
            try RSA.Signing.PrivateKey(modulus: c.modulus, publicExponent: c.publicExponent, privateExponent: SecretBytes(flipped),
                                       prime1: c.prime1, prime2: c.prime2, exponent1: c.exponent1, exponent2: c.exponent2,
                                       coefficient: c.coefficient)
        }
    }

    /// `diff-rsa` (RSA-3072, PKCS #8 with the leading 00 of p's INTEGER content XORed to 01):
    /// BoringSSL refuses the key (p·q ≠ n), the engine accepted it. A prime longer than half
    /// the modulus width sends the key to the direct (non-CRT) arithmetic, which checks d
    /// against e but never looks at p, q, dP, dQ or qInv, so none of the consistency checks
    /// that `init(derRepresentation:)` documents (n = p·q, qInv·q ≡ 1 mod p) run.
    @Test func privateKeyWithOversizedPrimeNotDividingModulusIsRefused() throws {
        let c = try RSA.Signing.PrivateKey(pemRepresentation: F.pkcs1PEM).components
        let oversized = SecretBytes([0x01] + c.prime1.unsafeExposedBytes)  // p + 2^(8·|p|): no factor of n
        #expect(throws: CryptoError.invalidKey) {
            try RSA.Signing.PrivateKey(modulus: c.modulus, publicExponent: c.publicExponent, privateExponent: c.privateExponent,
                                       prime1: oversized, prime2: c.prime2, exponent1: c.exponent1, exponent2: c.exponent2,
                                       coefficient: c.coefficient)
        }
    }

    /// `diff-p256` (private key form 3, unedited): a SEC 1 ECPrivateKey whose embedded public
    /// key is the scalar's own point in compressed form (RFC 5915 §3 / SEC 1 §C.4 allow either
    /// form; `openssl ec -conv_form compressed` writes it) was refused by the engine and
    /// accepted by BoringSSL: the "must match" check compared bytes with the uncompressed form.
    @Test func sec1PrivateKeyWithCompressedPublicKeyIsAccepted() throws {
        let key = try P256.Signing.PrivateKey(rawRepresentation: (1...32).map { UInt8($0) })
        let sec1 = key.sec1DERRepresentation.unsafeExposedBytes
        // 30 77 | version | privateKey | [0] curve | [1] 03 42 00 04‖X‖Y  →  30 57 … [1] 03 22 00 02/03‖X
        #expect(Array(sec1[51..<56]) == [0xA1, 0x44, 0x03, 0x42, 0x00])
        let compressed = [0x30, 0x57] + sec1[2..<51] + [0xA1, 0x24, 0x03, 0x22, 0x00] + key.publicKey.compressedRepresentation
        let decoded = try P256.Signing.PrivateKey(derRepresentation: compressed)
        #expect(decoded.rawRepresentation == key.rawRepresentation)
        // A compressed point of another key is still refused.
        let other = try P256.Signing.PrivateKey(rawRepresentation: (2...33).map { UInt8($0) })
        let mismatched = [0x30, 0x57] + sec1[2..<51] + [0xA1, 0x24, 0x03, 0x22, 0x00] + other.publicKey.compressedRepresentation
        #expect(throws: CryptoError.invalidKey) { try P256.Signing.PrivateKey(derRepresentation: mismatched) }
    }

    /// `diff-rsa` (key form 1, PKCS #1 `RSAPublicKey` with 0xFF inserted before its last byte):
    /// the exponent INTEGER then reads `01 00 FF` and one byte follows the SEQUENCE. BoringSSL's
    /// `d2i_RSAPublicKey_bio` reads the first element and ignores the rest, so it loaded the
    /// key; the engine refuses, as it must: the key is that one DER element (RFC 8017 §A.1.1).
    /// Judged the reference's laxity; this pins the engine's refusal.
    @Test func aPublicKeyFollowedByAnotherByteIsRefused() throws {
        let key = try RSA.Signing.PrivateKey(pemRepresentation: F.pkcs1PEM).publicKey
        let der = key.pkcs1DERRepresentation
        #expect(Array(der.suffix(5)) == [0x02, 0x03, 0x01, 0x00, 0x01])   // e = 65537 ends the SEQUENCE
        #expect(try RSA.Signing.PublicKey(derRepresentation: der).modulus == key.modulus)
        var edited = der
        edited.insert(0xFF, at: der.count - 1)
        #expect(throws: CryptoError.self) { try RSA.Signing.PublicKey(derRepresentation: edited) }
        #expect(throws: CryptoError.self) { try RSA.Signing.PublicKey(derRepresentation: der + [0x00]) }
    }
}
