// RSA operations: the raw primitives against the reference integer, known answers from
// pyca/cryptography, round trips, and one error for every decryption failure.

import CryptoPrimitives
import CryptoCore
import Testing
import TestSupport

@Suite(.enabled(if: TestBuild.isOptimized, "heavy unoptimised; swift test -c release runs it"))
struct RSAOperationTests {
    typealias F = RSAFixtures

    @Test(arguments: [RSAFixtures.pkcs8PEM, RSAFixtures.unbalancedPEM])
    func primitivesMatchTheReferenceInteger(pem: String) throws {
        let key = try RSA.Encryption.PrivateKey(pemRepresentation: pem)
        let k = key.publicKey.modulus.count
        let n = ReferenceInteger(bigEndian: key.publicKey.modulus)
        let d = ReferenceInteger(bigEndian: key.components.privateExponent.unsafeExposedBytes)
        let e = ReferenceInteger(bigEndian: key.publicKey.publicExponent)
        var random = TestRandom("RSA primitives \(k)")
        // The edges 0, 1, n − 1, then random values.
        let edges = [ReferenceInteger.zero, .one, n - .one]
        for sample in 0..<16 {
            let x = sample < edges.count ? edges[sample] : ReferenceInteger(bigEndian: random.bytes(k)) % n
            let input = x.bigEndian(count: k)
            #expect(key.privateOperation(input) == x.power(d, modulo: n).bigEndian(count: k))
            #expect(key.publicKey.publicOperationVartime(input) == x.power(e, modulo: n).bigEndian(count: k))
        }
        #expect(key.privateOperation(key.publicKey.modulus) == nil)               // c = n
        #expect(key.publicKey.publicOperationVartime([UInt8](repeating: 0xFF, count: k)) == nil)
        #expect(key.privateOperation([UInt8](repeating: 0, count: k + 1)) == nil)  // too long
    }

    @Test func signaturesMatchPycaByteForByte() throws {
        let key = try RSA.Signing.PrivateKey(pemRepresentation: F.pkcs8PEM)
        var random = SeededRandomSource(seed: 1)
        let digest = SHA256.hash(data: F.message)
        #expect(try key.signature(for: F.message, padding: .pkcs1v1_5).rawRepresentation == F.pkcs1Signature)
        #expect(try key.signature(for: digest, padding: .pssZeroSalt, using: &random).rawRepresentation == F.pssZeroSaltSignature)
        let unbalanced = try RSA.Signing.PrivateKey(pemRepresentation: F.unbalancedPEM)
        #expect(try unbalanced.signature(for: F.message, padding: .pkcs1v1_5).rawRepresentation == F.unbalancedSignature)
    }

    @Test func verificationFollowsThePaddingAndSaltLength() throws {
        let key = try RSA.Signing.PublicKey(pemRepresentation: F.spkiPEM)
        let pkcs1 = RSA.Signing.RSASignature(rawRepresentation: F.pkcs1Signature)
        let pss0 = RSA.Signing.RSASignature(rawRepresentation: F.pssZeroSaltSignature)
        let pss32 = RSA.Signing.RSASignature(rawRepresentation: F.pssSalt32Signature)
        #expect(key.isValidSignature(pkcs1, for: F.message, padding: .pkcs1v1_5))
        #expect(!key.isValidSignature(pkcs1, for: F.message, padding: .pss))
        #expect(key.isValidSignature(pss32, for: F.message, padding: .pss))
        #expect(key.isValidSignature(pss32, for: F.message, padding: .pssAnySaltLength))
        #expect(!key.isValidSignature(pss32, for: F.message, padding: .pssZeroSalt))
        #expect(key.isValidSignature(pss0, for: F.message, padding: .pssZeroSalt))
        #expect(key.isValidSignature(pss0, for: F.message, padding: .pssAnySaltLength))
        #expect(!key.isValidSignature(pss0, for: F.message, padding: .pss))
        #expect(!key.isValidSignature(pkcs1, for: F.message + [0], padding: .pkcs1v1_5))
        // Malformed signatures are invalid, never a crash: every single-bit flip, a short and a
        // long one, zero, n itself.
        for bit in stride(from: 0, to: F.pkcs1Signature.count * 8, by: 61) {
            var flipped = F.pkcs1Signature
            flipped[bit / 8] ^= 1 << (bit % 8)
            #expect(!key.isValidSignature(.init(rawRepresentation: flipped), for: F.message, padding: .pkcs1v1_5))
        }
        let malformed: [[UInt8]] = [Array(F.pkcs1Signature.dropFirst()), [0] + F.pkcs1Signature, [UInt8](repeating: 0, count: 128), F.modulus, []]
        for raw in malformed {
            #expect(!key.isValidSignature(.init(rawRepresentation: raw), for: F.message, padding: .pkcs1v1_5))
            #expect(!key.isValidSignature(.init(rawRepresentation: raw), for: F.message, padding: .pssAnySaltLength))
        }
    }

    @Test func signingWithSHA1IsRefusedButVerifyingIsNot() throws {
        let key = try RSA.Signing.PrivateKey(pemRepresentation: F.pkcs8PEM)
        var random = SeededRandomSource(seed: 2)
        #expect(throws: CryptoError.invalidParameter) {
            try key.signature(for: Insecure.SHA1.hash(data: F.message), padding: .pkcs1v1_5, using: &random)
        }
    }

    @Test func pycaCiphertextsDecrypt() throws {
        let key = try RSA.Encryption.PrivateKey(pemRepresentation: F.pkcs8PEM)
        #expect(try key.decrypt(F.oaepLabelledCiphertext, padding: .oaepSHA256, label: Array("label".utf8)) == F.wrappedKey)
        #expect(try key.decrypt(F.oaepMGF1SHA1Ciphertext, padding: .oaepSHA256MGF1SHA1) == F.wrappedKey)
        #expect(try key.decrypt(F.pkcs1Ciphertext, padding: .insecurePKCS1v1_5) == F.wrappedKey)
    }

    @Test(arguments: [RSA.Encryption.Padding.oaepSHA256, .oaepSHA256MGF1SHA1, .oaepSHA1,
                      .oaep(hash: .sha384, mgf1Hash: .sha512), .insecurePKCS1v1_5])
    func encryptionRoundTripsUpToTheLongestMessage(padding: RSA.Encryption.Padding) throws {
        let key = try RSA.Encryption.PrivateKey(pemRepresentation: F.pkcs8PEM)
        var random = SeededRandomSource(seed: 3)
        let label: [UInt8] = padding == .insecurePKCS1v1_5 ? [] : Array("context".utf8)
        let longest = 128 - padding.overhead
        for length in [0, 1, longest] {
            let message = [UInt8](repeating: 0xA5, count: length)
            let ciphertext = try key.publicKey.encrypt(message, padding: padding, label: label, using: &random)
            #expect(ciphertext.count == 128)
            #expect(try key.decrypt(ciphertext, padding: padding, label: label) == message)
        }
        #expect(throws: CryptoError.incorrectLength) {
            try key.publicKey.encrypt([UInt8](repeating: 0, count: longest + 1), padding: padding, label: label, using: &random)
        }
    }

    @Test func everyDecryptionFailureIsTheSameError() throws {
        let key = try RSA.Encryption.PrivateKey(pemRepresentation: F.pkcs8PEM)
        let label = Array("label".utf8)
        let good = F.oaepLabelledCiphertext
        var tampered = good
        tampered[64] ^= 0x10
        let n = ReferenceInteger(bigEndian: F.modulus)
        let failures: [(ciphertext: [UInt8], padding: RSA.Encryption.Padding, label: [UInt8])] = [
            (good, .oaepSHA256, []),                                   // wrong label
            (good, .oaepSHA256MGF1SHA1, label),                        // wrong MGF1 hash
            (good, .insecurePKCS1v1_5, []),                            // wrong scheme
            (tampered, .oaepSHA256, label),                            // modified ciphertext
            (F.pkcs1Ciphertext, .oaepSHA256, []),                      // a v1.5 block under OAEP
            (Array(good.dropFirst()), .oaepSHA256, label),             // short
            (good + [0], .oaepSHA256, label),                          // long
            (F.modulus, .oaepSHA256, label),                           // c = n
            ([UInt8](repeating: 0xFF, count: 128), .oaepSHA256, label), // c > n
            (ReferenceInteger.zero.bigEndian(count: 128), .oaepSHA256, label),
            (ReferenceInteger.one.bigEndian(count: 128), .insecurePKCS1v1_5, []),
            ((n - .one).bigEndian(count: 128), .insecurePKCS1v1_5, []),
        ]
        for failure in failures {
            #expect(throws: CryptoError.authenticationFailure) {
                try key.decrypt(failure.ciphertext, padding: failure.padding, label: failure.label)
            }
        }
    }
}

extension RSA.Encryption.Padding {
    /// Bytes of k a padding uses (RFC 8017 §7.1.1 step 1b, §7.2.1 step 1).
    var overhead: Int {
        switch kind {
        case .oaep(let hash, _): 2 * hash.byteCount + 2
        case .pkcs1v1_5: 11
        }
    }
}
