// RSA keys: every encoding in and out byte for byte against OpenSSL's, and malformed keys
// rejected with typed errors.

import CryptoPrimitives
import CryptoCore
import Foundation
import Testing
import TestSupport

@Suite struct RSAKeyTests {
    typealias F = RSAFixtures

    @Test func openSSLEncodingsRoundTripByteForByte() throws {
        let fromPKCS8 = try RSA.Signing.PrivateKey(pemRepresentation: F.pkcs8PEM)
        let fromPKCS1 = try RSA.Signing.PrivateKey(pemRepresentation: F.pkcs1PEM)
        #expect(String(decoding: fromPKCS8.pemRepresentation.unsafeExposedBytes, as: UTF8.self) == F.pkcs8PEM)
        #expect(String(decoding: fromPKCS8.pkcs1PEMRepresentation.unsafeExposedBytes, as: UTF8.self) == F.pkcs1PEM)
        #expect(String(decoding: fromPKCS1.pemRepresentation.unsafeExposedBytes, as: UTF8.self) == F.pkcs8PEM)
        #expect(fromPKCS8.publicKey.pemRepresentation == F.spkiPEM)
        #expect(fromPKCS8.publicKey.pkcs1PEMRepresentation == F.pkcs1PublicPEM)
        #expect(fromPKCS8.publicKey.modulus == F.modulus)
        #expect(fromPKCS8.publicKey.publicExponent == [0x01, 0x00, 0x01])
        #expect(fromPKCS8.keySizeInBits == 1024)
        let spki = try RSA.Signing.PublicKey(pemRepresentation: F.spkiPEM)
        let pkcs1 = try RSA.Signing.PublicKey(pemRepresentation: F.pkcs1PublicPEM)
        #expect(spki.derRepresentation == pkcs1.derRepresentation)
        #expect(try RSA.Signing.PublicKey(derRepresentation: spki.pkcs1DERRepresentation).modulus == F.modulus)
        #expect(try RSA.Signing.PublicKey(modulus: F.modulus, publicExponent: [1, 0, 1]).pemRepresentation == F.spkiPEM)
    }

    @Test func componentsBuildTheSameKey() throws {
        let key = try RSA.Encryption.PrivateKey(pemRepresentation: F.pkcs8PEM)
        let c = key.components
        let rebuilt = try RSA.Encryption.PrivateKey(
            modulus: c.modulus, publicExponent: c.publicExponent, privateExponent: c.privateExponent, prime1: c.prime1,
            prime2: c.prime2, exponent1: c.exponent1, exponent2: c.exponent2, coefficient: c.coefficient)
        #expect(rebuilt.derRepresentation == key.derRepresentation)
        #expect(c.privateExponent.unsafeExposedBytes == F.privateExponent)
    }

    @Test func privateKeysAreRedacted() throws {
        let key = try RSA.Signing.PrivateKey(pemRepresentation: F.pkcs8PEM)
        #expect(key.description == "RSA.PrivateKey(1024 bits, redacted)")
        var dumped = ""
        dump(key, to: &dumped)
        #expect(!dumped.contains("bb44") && !dumped.contains("187"))
        #expect(Mirror(reflecting: key).children.isEmpty)
    }

    @Test func malformedPublicKeysAreTypedErrors() {
        let n = F.modulus
        // Structure: truncated, trailing bytes, wrong PEM label, not a sequence.
        let der = RSA.Signing.PublicKey.derFixture
        #expect(throws: CryptoError.invalidEncoding) { try RSA.Signing.PublicKey(derRepresentation: der.dropLast()) }
        #expect(throws: CryptoError.invalidEncoding) { try RSA.Signing.PublicKey(derRepresentation: der + [0]) }
        #expect(throws: CryptoError.invalidEncoding) { try RSA.Signing.PublicKey(derRepresentation: [0x31] + der.dropFirst()) }
        #expect(throws: CryptoError.invalidEncoding) {
            try RSA.Signing.PublicKey(pemRepresentation: F.spkiPEM.replacingOccurrences(of: "PUBLIC KEY", with: "CERTIFICATE"))
        }
        #expect(throws: CryptoError.invalidEncoding) { try RSA.Signing.PublicKey(pemRepresentation: "not PEM") }
        // Integers: negative (top bit without a zero byte), non-minimal (a needless zero byte).
        #expect(throws: CryptoError.invalidEncoding) { try RSA.Signing.PublicKey(derRepresentation: pkcs1(n, [0x81, 0x00, 0x01], rawModulus: true)) }
        #expect(throws: CryptoError.invalidEncoding) { try RSA.Signing.PublicKey(derRepresentation: pkcs1(n, [0x00, 0x01, 0x00, 0x01], rawExponent: true)) }
        // Values: even or tiny exponents, e ≥ n, even or short moduli.
        for e: [UInt8] in [[0x01], [0x02], [0x01, 0x00, 0x00]] {
            #expect(throws: CryptoError.invalidKey) { try RSA.Signing.PublicKey(modulus: n, publicExponent: e) }
        }
        #expect(throws: CryptoError.invalidKey) { try RSA.Signing.PublicKey(modulus: n, publicExponent: n + [1]) }
        #expect(throws: CryptoError.invalidKey) { try RSA.Signing.PublicKey(modulus: n.dropLast() + [n[n.count - 1] ^ 1], publicExponent: [3]) }
        #expect(throws: CryptoError.invalidKey) { try RSA.Signing.PublicKey(modulus: n.prefix(64), publicExponent: [3]) }  // 512 bits
        #expect(throws: CryptoError.invalidKey) { try RSA.Signing.PublicKey(modulus: [UInt8](repeating: 0xFF, count: 1025), publicExponent: [3]) }
    }

    @Test func inconsistentPrivateKeysAreRefused() throws {
        let c = try RSA.Signing.PrivateKey(pemRepresentation: F.pkcs8PEM).components
        func build(p: [UInt8]? = nil, dP: [UInt8]? = nil, qInv: [UInt8]? = nil, e: [UInt8]? = nil) throws {
            _ = try RSA.Signing.PrivateKey(
                modulus: c.modulus, publicExponent: e ?? c.publicExponent,
                privateExponent: c.privateExponent,
                prime1: SecretBytes(p ?? c.prime1.unsafeExposedBytes), prime2: c.prime2,
                exponent1: SecretBytes(dP ?? c.exponent1.unsafeExposedBytes), exponent2: c.exponent2,
                coefficient: SecretBytes(qInv ?? c.coefficient.unsafeExposedBytes))
        }
        func flipped(_ secret: SecretBytes) -> [UInt8] { var b = secret.unsafeExposedBytes; b[b.count - 1] ^= 2; return b }
        try build()
        #expect(throws: CryptoError.invalidKey) { try build(p: flipped(c.prime1)) }       // n ≠ p·q
        #expect(throws: CryptoError.invalidKey) { try build(qInv: flipped(c.coefficient)) } // qInv·q ≢ 1
        #expect(throws: CryptoError.invalidKey) { try build(e: [0x01, 0x00, 0x03]) }       // e does not match d
        #expect(throws: CryptoError.invalidKey) { try build(dP: flipped(c.exponent1)) }    // dP does not match e
    }

    @Test func malformedPrivateKeysAreTypedErrors() throws {
        let der = try RSA.Signing.PrivateKey(pemRepresentation: F.pkcs8PEM).derRepresentation.unsafeExposedBytes
        #expect(throws: CryptoError.invalidEncoding) { try RSA.Signing.PrivateKey(derRepresentation: der.dropLast()) }
        #expect(throws: CryptoError.invalidEncoding) { try RSA.Signing.PrivateKey(derRepresentation: der + [0]) }
        #expect(throws: CryptoError.invalidEncoding) { try RSA.Signing.PrivateKey(derRepresentation: [UInt8]()) }
        var wrongAlgorithm = der
        if let oid = wrongAlgorithm.firstIndex(of: 0x86) { wrongAlgorithm[oid + 7] ^= 0x01 }  // 1.2.840.113549.1.1.1 → …1.1.0
        #expect(throws: CryptoError.invalidKey) { try RSA.Signing.PrivateKey(derRepresentation: wrongAlgorithm) }  // not an RSA key
        #expect(throws: CryptoError.invalidEncoding) {
            try RSA.Signing.PrivateKey(pemRepresentation: F.pkcs8PEM.replacingOccurrences(of: "PRIVATE KEY", with: "PUBLIC KEY"))
        }
        // Every truncation of the DER is a typed error, never a crash.
        for length in stride(from: 0, to: der.count, by: 7) {
            #expect(throws: CryptoError.self) { try RSA.Signing.PrivateKey(derRepresentation: der.prefix(length)) }
        }
    }

    /// RSAPublicKey DER from n and e (each given as content bytes, adding a zero byte to a
    /// modulus with its top bit set unless `rawModulus`).
    private func pkcs1(_ n: [UInt8], _ e: [UInt8], rawModulus: Bool = false, rawExponent: Bool = false) -> [UInt8] {
        let modulus = rawModulus || n[0] < 0x80 ? n : [0] + n
        return tlv(0x30, tlv(0x02, modulus) + tlv(0x02, e))
    }

    private func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        let length: [UInt8] = content.count < 128 ? [UInt8(content.count)]
            : content.count < 256 ? [0x81, UInt8(content.count)] : [0x82, UInt8(content.count >> 8), UInt8(content.count & 0xFF)]
        return [tag] + length + content
    }
}

extension RSA.PublicKey where Purpose == RSA.Signing {
    /// The fixture key's SubjectPublicKeyInfo DER.
    static var derFixture: [UInt8] {
        (try? RSA.Signing.PublicKey(pemRepresentation: RSAFixtures.spkiPEM).derRepresentation) ?? []
    }
}
