// Engine defects found in review, each pinned by a test: a bounded RSA public
// exponent, PKCS #1 v1.5 decryption with implicit rejection, CBC with a deferred padding
// verdict, Java BigInteger private keys, keys switched between purposes, and keyed state that
// never prints.

import CryptoPrimitives
import Testing
import TestSupport

@Suite struct HardeningTests {
    // MARK: RSA public exponent ≤ 2³² − 1.

    @Test func publicExponentAboveThirtyTwoBitsIsRefused() throws {
        let n = RSAFixtures.modulus
        _ = try RSA.Signing.PublicKey(modulus: n, publicExponent: [0xFF, 0xFF, 0xFF, 0xFF])       // 2³² − 1: accepted
        _ = try RSA.Signing.PublicKey(modulus: n, publicExponent: [0x00, 0x01, 0x00, 0x01])       // leading zeros do not count
        for e in [[0x01, 0x00, 0x00, 0x00, 0x01], [0x01] + [UInt8](repeating: 0, count: 200) + [0x01], Array(n.dropFirst(1))] as [[UInt8]] {
            #expect(throws: CryptoError.invalidKey) { try RSA.Signing.PublicKey(modulus: n, publicExponent: e) }
            // The same through DER: a PKCS #1 RSAPublicKey written by hand.
            let der = Self.pkcs1PublicKey(modulus: n, exponent: e)
            #expect(throws: CryptoError.invalidKey) { try RSA.Encryption.PublicKey(derRepresentation: der) }
        }
    }

    /// SEQUENCE { INTEGER n, INTEGER e } with long-form lengths (n is 2048 bits here).
    static func pkcs1PublicKey(modulus: [UInt8], exponent: [UInt8]) -> [UInt8] {
        func integer(_ bytes: [UInt8]) -> [UInt8] {
            let body = (bytes.first ?? 0) >= 0x80 ? [0] + bytes : bytes
            return [0x02] + length(body.count) + body
        }
        func length(_ count: Int) -> [UInt8] {
            count < 0x80 ? [UInt8(count)] : count < 0x100 ? [0x81, UInt8(count)] : [0x82, UInt8(count >> 8), UInt8(count & 0xFF)]
        }
        let body = integer(modulus) + integer(exponent)
        return [0x30] + length(body.count) + body
    }

    // MARK: Implicit rejection (draft-irtf-cfrg-rsa-guidance §7).

    @Test func implicitRejectionReturnsTheMessageOrADeterministicStandIn() throws {
        let key = try RSA.Encryption.PrivateKey(pemRepresentation: RSAFixtures.pkcs8PEM)
        var random = SeededRandomSource(seed: 77)
        let message = try random.bytes(count: 32)
        let ciphertext = try key.publicKey.encrypt(message, padding: .insecurePKCS1v1_5, using: &random)
        #expect(try key.decryptWithImplicitRejection(ciphertext, messageByteCount: 32).unsafeExposedBytes == message)

        // A 31-byte message asked for as 32, a 16-byte one, and a raw block that is no
        // PKCS #1 v1.5 at all: no error, 32 bytes that are not the message, the same each time.
        let short = try key.publicKey.encrypt(Array(message.prefix(31)), padding: .insecurePKCS1v1_5, using: &random)
        let iv = try key.publicKey.encrypt(Array(message.prefix(16)), padding: .insecurePKCS1v1_5, using: &random)
        var raw = [UInt8](repeating: 0x33, count: ciphertext.count)
        raw[0] = 0
        var standIns: [[UInt8]] = []
        for bad in [short, iv, raw] {
            let first = try key.decryptWithImplicitRejection(bad, messageByteCount: 32).unsafeExposedBytes
            #expect(first.count == 32 && first != message && !first.allSatisfy { $0 == 0 })
            #expect(try key.decryptWithImplicitRejection(bad, messageByteCount: 32).unsafeExposedBytes == first)
            standIns.append(first)
        }
        #expect(Set(standIns).count == 3)  // derived from each ciphertext
        // Public conditions still throw: wrong length, c ≥ n, an impossible message length.
        #expect(throws: CryptoError.authenticationFailure) { try key.decryptWithImplicitRejection(ciphertext.dropLast(), messageByteCount: 32) }
        #expect(throws: CryptoError.authenticationFailure) {
            try key.decryptWithImplicitRejection([UInt8](repeating: 0xFF, count: ciphertext.count), messageByteCount: 32)
        }
        #expect(throws: CryptoError.invalidParameter) { try key.decryptWithImplicitRejection(ciphertext, messageByteCount: 250) }
    }

    // MARK: CBC with the padding verdict returned, not acted on.

    @Test func cbcDeferringPaddingCheckReportsInsteadOfThrowing() throws {
        let key = SymmetricKey(data: [UInt8](repeating: 4, count: 32)), iv = [UInt8](repeating: 5, count: 16)
        let ciphertext = try AES.UnauthenticatedCBC.encrypt(Array("seventeen bytes!!".utf8), using: key, iv: iv)
        let good = try AES.UnauthenticatedCBC.decryptDeferringPaddingCheck(ciphertext, using: key, iv: iv)
        #expect(good.hasValidPadding && good.plaintext == Array("seventeen bytes!!".utf8))
        var tampered = ciphertext
        tampered[tampered.count - 17] ^= 0x01  // flips the last pad byte of the plaintext
        let bad = try AES.UnauthenticatedCBC.decryptDeferringPaddingCheck(tampered, using: key, iv: iv)
        #expect(!bad.hasValidPadding && bad.plaintext.count == ciphertext.count)
        #expect(throws: CryptoError.authenticationFailure) { try AES.UnauthenticatedCBC.decrypt(tampered, using: key, iv: iv) }
    }

    // MARK: Java BigInteger private keys (1…33 bytes).

    @Test func shortAndSignedRawPrivateKeysAreAccepted() throws {
        // d = 1: the public key is G (SEC 2 §2.4.2).
        let one = try P256.Signing.PrivateKey(rawRepresentation: [0x01])
        #expect(TestHex.string(one.publicKey.rawRepresentation)
                == "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296"
                + "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5")
        var random = SeededRandomSource(seed: 15)
        let key = try P256.Signing.PrivateKey(using: &random)
        let full = key.rawRepresentation.unsafeExposedBytes
        #expect(try P256.Signing.PrivateKey(rawRepresentation: [0] + full).publicKey == key.publicKey)     // sign byte
        var shortScalar = full
        shortScalar[0] = 0
        let padded = try P256.Signing.PrivateKey(rawRepresentation: shortScalar)
        #expect(try P256.Signing.PrivateKey(rawRepresentation: Array(shortScalar.dropFirst())).publicKey == padded.publicKey)  // 31 bytes
        #expect(throws: CryptoError.invalidKey) { try P256.Signing.PrivateKey(rawRepresentation: [UInt8]()) }
        #expect(throws: CryptoError.invalidKey) { try P256.Signing.PrivateKey(rawRepresentation: [1] + full) }           // 33, not a sign byte
        #expect(throws: CryptoError.invalidKey) { try P256.Signing.PrivateKey(rawRepresentation: [0, 0] + full) }        // 34
        #expect(throws: CryptoError.invalidKey) { try P256.Signing.PrivateKey(rawRepresentation: [0]) }                  // d = 0
    }

    @Test func keysSwitchPurposeWithoutLeavingWipedStorage() throws {
        var random = SeededRandomSource(seed: 16)
        let signing = try P256.Signing.PrivateKey(using: &random)
        let agreement = P256.KeyAgreement.PrivateKey(sameKeyAs: signing)
        #expect(agreement.rawRepresentation == signing.rawRepresentation)
        #expect(P256.Signing.PublicKey(sameKeyAs: agreement.publicKey) == signing.publicKey)
    }

    // MARK: Keyed state is redacted.

    @Test func keyedStatesNeverPrintTheirBytes() throws {
        let key = SymmetricKey(data: [UInt8](repeating: 0xAB, count: 32))
        var mac = HMAC<SHA256>(key: key)
        mac.update(data: [1, 2, 3])
        let stream = try AES.UnauthenticatedCTR.Stream(key: key, counterBlock: [UInt8](repeating: 0, count: 16))
        var dumped = ""
        dump(mac, to: &dumped)
        dump(stream, to: &dumped)
        let printed = "\(mac) \(stream) \(String(reflecting: mac)) \(String(reflecting: stream))" + dumped
        #expect(printed.contains("redacted"))
        for leak in ["171", "0xab", "ab, ab", "inner", "outer", "cipher", "keystream", "roundKeys"] {
            #expect(!printed.contains(leak), "\(leak) in \(printed)")
        }
    }
}
