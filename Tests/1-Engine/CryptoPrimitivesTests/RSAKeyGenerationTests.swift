// RSA key generation: every key invariant checked with the reference integer, determinism
// under an injected random source, and the primality test on primes and pseudoprimes.

import CryptoPrimitives
import CryptoCore
import Testing
import TestSupport

@Suite(.enabled(if: TestBuild.isOptimized, "heavy unoptimised; swift test -c release runs it"))
struct RSAKeyGenerationTests {
    @Test func generatedKeysSatisfyEveryInvariant() throws {
        var random = SeededRandomSource(seed: Array("RSA key generation test".utf8))
        let key = try RSA.Signing.PrivateKey(keySize: .bits2048, using: &random)
        let c = key.components
        let n = ReferenceInteger(bigEndian: c.modulus), e = ReferenceInteger(bigEndian: c.publicExponent)
        let d = ReferenceInteger(bigEndian: c.privateExponent.unsafeExposedBytes)
        let p = ReferenceInteger(bigEndian: c.prime1.unsafeExposedBytes), q = ReferenceInteger(bigEndian: c.prime2.unsafeExposedBytes)
        let one = ReferenceInteger.one, half = one << 1024
        #expect(key.keySizeInBits == 2048 && c.modulus.count == 256)
        #expect(e == ReferenceInteger(65537))
        #expect(p * q == n)
        // Both primes of 1024 bits with the top two set (so p, q ≥ √2·2¹⁰²³), far apart.
        let floor = (one << 1023) + (one << 1022)
        #expect(!(p < floor) && p < half && !(q < floor) && q < half)
        let distance = p < q ? q - p : p - q
        #expect(!(distance < one << 924))                                  // FIPS 186-5 A.1.3 5.4
        // Fermat base 2: an independent primality check of both.
        #expect(ReferenceInteger(2).power(p - one, modulo: p) == one)
        #expect(ReferenceInteger(2).power(q - one, modulo: q) == one)
        // d inverts e modulo p − 1 and q − 1, exceeds 2^1024, and the CRT values follow from it.
        #expect((d * e) % (p - one) == one && (d * e) % (q - one) == one)
        #expect(!(d < half))
        #expect(ReferenceInteger(bigEndian: c.exponent1.unsafeExposedBytes) == d % (p - one))
        #expect(ReferenceInteger(bigEndian: c.exponent2.unsafeExposedBytes) == d % (q - one))
        #expect(ReferenceInteger(bigEndian: c.coefficient.unsafeExposedBytes) * q % p == one)
        // It works and survives its encodings.
        let signature = try key.signature(for: RSAFixtures.message, padding: .pss)
        #expect(key.publicKey.isValidSignature(signature, for: RSAFixtures.message, padding: .pss))
        let reloaded = try RSA.Encryption.PrivateKey(derRepresentation: key.pkcs1DERRepresentation.unsafeExposedBytes)
        let ciphertext = try reloaded.publicKey.encrypt(RSAFixtures.wrappedKey, padding: .oaepSHA256)
        #expect(try reloaded.decrypt(ciphertext, padding: .oaepSHA256) == RSAFixtures.wrappedKey)
    }

    @Test func theRandomSourceDecidesTheKey() throws {
        var first = SeededRandomSource(seed: 7), second = SeededRandomSource(seed: 7), other = SeededRandomSource(seed: 8)
        let a = try RSA.Encryption.PrivateKey(keySize: .bits2048, using: &first)
        let b = try RSA.Encryption.PrivateKey(keySize: .bits2048, using: &second)
        let c = try RSA.Encryption.PrivateKey(keySize: .bits2048, using: &other)
        #expect(a.derRepresentation == b.derRepresentation)
        #expect(a.publicKey != c.publicKey)
    }

    @Test(arguments: [RSA.KeySize.bits3072, .bits4096])
    func largerKeysHaveTheirSizeAndWork(size: RSA.KeySize) throws {
        var random = SeededRandomSource(seed: UInt64(size.bitCount))
        let key = try RSA.Signing.PrivateKey(keySize: size, using: &random)
        #expect(key.keySizeInBits == size.bitCount)
        let signature = try key.signature(for: RSAFixtures.message, padding: .pkcs1v1_5)
        #expect(key.publicKey.isValidSignature(signature, for: RSAFixtures.message, padding: .pkcs1v1_5))
    }

    @Test func aFailingRandomSourceIsReported() {
        struct Exhausted: RandomSource {
            mutating func fill(_ buffer: UnsafeMutableRawBufferPointer) throws(CryptoError) { throw .randomSourceFailure }
        }
        var random = Exhausted()
        #expect(throws: CryptoError.randomSourceFailure) { try RSA.Signing.PrivateKey(keySize: .bits2048, using: &random) }
    }

    @Test func millerRabinSeparatesPrimesFromPseudoprimes() throws {
        var random = SeededRandomSource(seed: 11)
        func probablePrime(_ hex: String) throws -> Bool {
            try RSAPrimes.isProbablePrime(FixedUInt<16>(bigEndian: TestHex.bytes(hex))!, rounds: 5, random: &random)
        }
        // Primes: 2¹²⁷ − 1, the P-256 field prime, 2⁵²¹ − 1.
        #expect(try probablePrime("7fffffffffffffffffffffffffffffff"))
        #expect(try probablePrime("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff"))
        #expect(try probablePrime("01" + String(repeating: "ff", count: 65)))
        // Carmichael numbers (Fermat liars for every coprime base) and strong pseudoprimes.
        for composite in ["561".decimalHex, "41041".decimalHex, "825265".decimalHex, "3215031751".decimalHex, "2047".decimalHex, "3825123056546413051".decimalHex] {
            #expect(try !probablePrime(composite.count % 2 == 1 ? "0" + composite : composite))
        }
        // A product of two 256-bit primes, and 2¹²⁷ − 1 squared.
        let p256 = ReferenceInteger(hex: "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff")
        let n256 = ReferenceInteger(hex: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
        #expect(try !probablePrime(TestHex.string((p256 * n256).bigEndian(count: 64))))
        let mersenne = ReferenceInteger(hex: "7fffffffffffffffffffffffffffffff")
        #expect(try !probablePrime(TestHex.string((mersenne * mersenne).bigEndian(count: 32))))
    }
}

extension String {
    /// A decimal number written in hex.
    fileprivate var decimalHex: String {
        var value = ReferenceInteger.zero
        for digit in self { value = value * ReferenceInteger(10) + ReferenceInteger(UInt64(digit.wholeNumberValue ?? 0)) }
        return TestHex.string(value.bigEndian(count: 8)).drop { $0 == "0" }.description
    }
}
