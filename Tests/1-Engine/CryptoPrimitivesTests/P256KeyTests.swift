// P-256 keys: every encoding in and out, OpenSSL-made keys, ECDH agreement, malformed input.
// The OpenSSL values below were produced by pyca/cryptography for the scalar 2c1f5bce…e7f809.

import CryptoPrimitives
import CryptoCore
import Foundation
import Testing
import TestSupport

@Suite struct P256KeyTests {
    static let scalar = TestHex.bytes("2c1f5bce7b1f5c9f5e6b3e0b2e8e4f8f1a2b3c4d5e6f708192a3b4c5d6e7f809")
    static let uncompressed = TestHex.bytes("04ec79bf03540ad89d7f703e709ae674a3212ec457828ea6179addc15941ce5009"
                                            + "7a625e49a715d1f3c558d8e05fad7f05fff30020d740bd35ad53364a3f33aad9")
    static let pkcs8 = TestHex.bytes("308187020100301306072a8648ce3d020106082a8648ce3d030107046d306b0201010420"
                                     + "2c1f5bce7b1f5c9f5e6b3e0b2e8e4f8f1a2b3c4d5e6f708192a3b4c5d6e7f809a144034200"
                                     + "04ec79bf03540ad89d7f703e709ae674a3212ec457828ea6179addc15941ce50097a625e49a715"
                                     + "d1f3c558d8e05fad7f05fff30020d740bd35ad53364a3f33aad9")
    static let sec1 = TestHex.bytes("307702010104202c1f5bce7b1f5c9f5e6b3e0b2e8e4f8f1a2b3c4d5e6f708192a3b4c5d6e7f809"
                                    + "a00a06082a8648ce3d030107a14403420004ec79bf03540ad89d7f703e709ae674a3212ec45782"
                                    + "8ea6179addc15941ce50097a625e49a715d1f3c558d8e05fad7f05fff30020d740bd35ad53364a3f33aad9")
    static let spkiPEM = """
        -----BEGIN PUBLIC KEY-----
        MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE7Hm/A1QK2J1/cD5wmuZ0oyEuxFeC
        jqYXmt3BWUHOUAl6Yl5JpxXR88VY2OBfrX8F//MAINdAvTWtUzZKPzOq2Q==
        -----END PUBLIC KEY-----

        """

    @Test func openSSLKeysDecodeAndReencodeByteForByte() throws {
        let key = try P256.Signing.PrivateKey(rawRepresentation: Self.scalar)
        #expect(key.publicKey.x963Representation == Self.uncompressed)
        #expect(TestHex.string(key.publicKey.compressedRepresentation) == "03ec79bf03540ad89d7f703e709ae674a3212ec457828ea6179addc15941ce5009")
        #expect(try P256.Signing.PrivateKey(derRepresentation: Self.pkcs8).rawRepresentation == key.rawRepresentation)
        #expect(try P256.Signing.PrivateKey(derRepresentation: Self.sec1).rawRepresentation == key.rawRepresentation)
        #expect(key.derRepresentation.unsafeExposedBytes == Self.pkcs8)
        #expect(key.sec1DERRepresentation.unsafeExposedBytes == Self.sec1)
        #expect(key.publicKey.pemRepresentation == Self.spkiPEM)
        #expect(try P256.Signing.PublicKey(pemRepresentation: Self.spkiPEM) == key.publicKey)
        let pem = String(decoding: key.pemRepresentation.unsafeExposedBytes, as: UTF8.self)
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgLB9bznsfXJ9eaz4L\n"))
        #expect(try P256.Signing.PrivateKey(pemRepresentation: pem).publicKey == key.publicKey)
        for representation in [key.publicKey.rawRepresentation] {
            #expect(try P256.Signing.PublicKey(rawRepresentation: representation) == key.publicKey)
        }
        #expect(try P256.Signing.PublicKey(compressedRepresentation: key.publicKey.compressedRepresentation) == key.publicKey)
        #expect(try P256.Signing.PublicKey(derRepresentation: key.publicKey.derRepresentation) == key.publicKey)
        #expect(!"\(key)".contains("2c1f"))
    }

    /// Java `BigInteger.toByteArray()` forms: a sign byte (33 bytes) or a short scalar.
    @Test func rawPrivateKeysAcceptJavaBigIntegerForms() throws {
        let key = try P256.Signing.PrivateKey(rawRepresentation: [0] + Self.scalar)
        #expect(key.rawRepresentation.unsafeExposedBytes == Self.scalar)
        let short = try P256.Signing.PrivateKey(rawRepresentation: Array(Self.scalar.dropFirst()))
        #expect(short.rawRepresentation.unsafeExposedBytes == [0] + Array(Self.scalar.dropFirst()))
        let n = TestHex.bytes("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
        for bad in [[1] + Self.scalar, [UInt8](), [0, 0] + Self.scalar, [UInt8](repeating: 0, count: 32), n, [UInt8](repeating: 0xFF, count: 32)] {
            #expect(throws: CryptoError.invalidKey) { try P256.Signing.PrivateKey(rawRepresentation: bad) }
        }
    }

    @Test func malformedKeyEncodingsAreTypedErrors() {
        var mismatched = Self.sec1
        mismatched[mismatched.count - 1] ^= 1  // embedded public key no longer matches (and is off the curve)
        let decodingFailures: [[UInt8]] = [Array(Self.pkcs8.dropLast()), Self.pkcs8 + [0], Array(Self.sec1.prefix(10)), [], [0x30, 0x00]]
        for bytes in decodingFailures {
            #expect(throws: CryptoError.self) { try P256.Signing.PrivateKey(derRepresentation: bytes) }
        }
        #expect(throws: CryptoError.invalidKey) { try P256.Signing.PrivateKey(derRepresentation: mismatched) }
        let spki = (try? P256.KeyAgreement.PublicKey(pemRepresentation: Self.spkiPEM))?.derRepresentation ?? []
        var otherOID = spki
        otherOID[22] ^= 1  // 1.2.840.10045.3.1.7 (secp256r1) → …3.1.6
        #expect(throws: CryptoError.invalidKey) { try P256.KeyAgreement.PublicKey(derRepresentation: otherOID) }
        #expect(throws: CryptoError.invalidEncoding) { try P256.KeyAgreement.PublicKey(derRepresentation: spki + [0]) }
        #expect(throws: CryptoError.invalidEncoding) { try P256.KeyAgreement.PublicKey(x963Representation: Array(Self.uncompressed.dropLast())) }
        #expect(throws: CryptoError.invalidEncoding) { try P256.KeyAgreement.PublicKey(compressedRepresentation: Self.uncompressed) }
        #expect(throws: CryptoError.invalidEncoding) { try P256.Signing.PrivateKey(pemRepresentation: Self.spkiPEM) }
    }

    @Test func keyAgreementMatchesOpenSSLAndBothSidesAgree() throws {
        let ours = try P256.KeyAgreement.PrivateKey(rawRepresentation: Self.scalar)
        let peer = try P256.KeyAgreement.PublicKey(x963Representation: TestHex.bytes(
            "04471c3e758c4904285bba7e53118ed0f524adeb0757d25bd2f8e7b0d76dfa714cdd520f7aca8a8b917acc37f51de8f0c9bbe3ad858382e702dc25a12d09f7a858"))
        let shared = try ours.sharedSecretFromKeyAgreement(with: peer)
        #expect(TestHex.string(shared.secret.unsafeExposedBytes) == "cf7851bb7555bff1ea4b7a215c7251ceb4d7d1b4a311d399445bb88613cce3a6")
        var random = SeededRandomSource(seed: 56)
        for _ in 0..<5 {
            let a = try P256.KeyAgreement.PrivateKey(using: &random), b = try P256.KeyAgreement.PrivateKey(using: &random)
            let ab = try a.sharedSecretFromKeyAgreement(with: b.publicKey), ba = try b.sharedSecretFromKeyAgreement(with: a.publicKey)
            #expect(ab == ba)
            let key = try ab.x963DerivedSymmetricKey(using: SHA256.self, sharedInfo: [1, 2], outputByteCount: 48)
            #expect(key == (try X963KDF<SHA256>.deriveKey(sharedSecret: ab.secret, sharedInfo: [1, 2], outputByteCount: 48)))
            #expect(try ab.hkdfDerivedSymmetricKey(using: SHA256.self, salt: [], sharedInfo: [], outputByteCount: 16).byteCount == 16)
        }
        #expect(!"\(shared)".contains("cf78"))
    }

    /// The ECIES sender's one-step agreement (one inversion for two points) against drawing a
    /// key and agreeing separately from the same seed: the same public key, the same secret.
    @Test func ephemeralAgreementEqualsAKeyDrawnThenAgreed() throws {
        var seeds = SeededRandomSource(seed: 7)
        for _ in 0..<5 {
            let peer = try P256.KeyAgreement.PrivateKey(using: &seeds).publicKey
            let seed = try seeds.bytes(count: 1)[0]
            var a = SeededRandomSource(seed: UInt64(seed)), b = SeededRandomSource(seed: UInt64(seed))
            let (publicKey, shared) = try P256.KeyAgreement.ephemeralAgreement(with: peer, using: &a)
            let key = try P256.KeyAgreement.PrivateKey(using: &b)
            #expect(publicKey.x963Representation == key.publicKey.x963Representation)
            #expect(shared == (try key.sharedSecretFromKeyAgreement(with: peer)))
            #expect(try a.bytes(count: 8) == b.bytes(count: 8))  // the same bytes were drawn
        }
    }

    @Test func generatedKeysAreInRangeAndDeterministicFromASeed() throws {
        var a = SeededRandomSource(seed: 1), b = SeededRandomSource(seed: 1)
        let first = try P256.Signing.PrivateKey(using: &a), second = try P256.Signing.PrivateKey(using: &b)
        #expect(first.rawRepresentation == second.rawRepresentation)
        #expect(first.publicKey.point.isOnCurve.isTrueVartime)
    }
}
