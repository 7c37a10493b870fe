// RSA key generation (FIPS 186-5 §A.1.3): e = 65537, two random probable primes, the CRT
// exponents, and the FIPS size checks on |p − q| and d.

import CryptoCore

extension RSA {
    /// A modulus size for key generation.
    public struct KeySize: Sendable, Equatable {
        /// The modulus length in bits.
        public let bitCount: Int

        /// 2048 bits (Salt Edge connection keys).
        public static let bits2048 = KeySize(bitCount: 2048)
        /// 3072 bits.
        public static let bits3072 = KeySize(bitCount: 3072)
        /// 4096 bits.
        public static let bits4096 = KeySize(bitCount: 4096)
    }
}

extension RSA.PrivateKey {
    /// A fresh key pair with e = 65537 from `random`.
    public init(keySize: RSA.KeySize, using random: inout some RandomSource) throws(CryptoError) {
        let components: RSAKeyComponents
        switch keySize.bitCount {
        case 2048: components = try RSAKeyGenerator.generate(bits: 2048, random: &random, as: FixedUInt<16>.self, FixedUInt<32>.self)
        case 3072: components = try RSAKeyGenerator.generate(bits: 3072, random: &random, as: FixedUInt<24>.self, FixedUInt<48>.self)
        case 4096: components = try RSAKeyGenerator.generate(bits: 4096, random: &random, as: FixedUInt<32>.self, FixedUInt<64>.self)
        default: throw .invalidParameter
        }
        try self.init(components: components)
    }

    /// A fresh key pair with e = 65537 from the system random source.
    public init(keySize: RSA.KeySize) throws(CryptoError) {
        var random = SystemRandomSource()
        try self.init(keySize: keySize, using: &random)
    }
}

enum RSAKeyGenerator {
    static let publicExponent: UInt32 = 65537

    /// n, e = 65537, d = e⁻¹ mod φ(n), dP, dQ and qInv for two primes of `bits/2` bits each;
    /// nil when e divides p − 1 or q − 1 or d fails the size check. Constant time in p and q
    /// apart from those outcomes.
    static func keyComponents<let h: Int, let n: Int>(p: FixedUInt<h>, q: FixedUInt<h>, bits: Int,
                                                     width _: FixedUInt<n>.Type) -> RSAKeyComponents? {
        let e = publicExponent
        let one = FixedUInt<h>(1)
        let pMinusOne = p.subtractingReportingBorrow(one).difference, qMinusOne = q.subtractingReportingBorrow(one).difference
        let phi: FixedUInt<n> = RSAPrivateCore<n, h>.join(pMinusOne.multipliedFullWidth(by: qMinusOne))
        guard let d = RSAPrimes.inverseOfPublicExponent(e, modulo: phi),
              let dP = RSAPrimes.inverseOfPublicExponent(e, modulo: pMinusOne),
              let dQ = RSAPrimes.inverseOfPublicExponent(e, modulo: qMinusOne),
              let pContext = MontgomeryContext(modulus: p) else { return nil }
        // d > 2^(nlen/2) (FIPS 186-5 A.1.1); d = e⁻¹ mod φ(n) here (see docs/engine-choices.md).
        guard d.bitLengthVartime > bits / 2 else { return nil }
        // qInv = q^(p−2) mod p: the exponent is secret, so the fixed-window ladder.
        let qInv = pContext.canonical(of: pContext.power(pContext.montgomeryForm(of: q), p.subtractingReportingBorrow(FixedUInt(2)).difference))
        let modulus: FixedUInt<n> = RSAPrivateCore<n, h>.join(p.multipliedFullWidth(by: q))
        let k = (bits + 7) / 8, half = (bits / 2 + 7) / 8
        return RSAKeyComponents(
            modulus: modulus.bigEndianBytes(count: k), publicExponent: [0x01, 0x00, 0x01],
            privateExponent: SecretBytes(d.bigEndianBytes(count: k)), prime1: SecretBytes(p.bigEndianBytes(count: half)),
            prime2: SecretBytes(q.bigEndianBytes(count: half)), exponent1: SecretBytes(dP.bigEndianBytes(count: half)),
            exponent2: SecretBytes(dQ.bigEndianBytes(count: half)), coefficient: SecretBytes(qInv.bigEndianBytes(count: half)))
    }

    static func generate<let h: Int, let n: Int>(bits: Int, random: inout some RandomSource,
                                                as _: FixedUInt<h>.Type, _: FixedUInt<n>.Type) throws(CryptoError) -> RSAKeyComponents {
        let e = publicExponent
        while true {
            let p: FixedUInt<h> = try RSAPrimes.randomPrime(bits: bits / 2, publicExponent: e, random: &random)
            let q: FixedUInt<h> = try RSAPrimes.randomPrime(bits: bits / 2, publicExponent: e, random: &random)
            // |p − q| > 2^(nlen/2 − 100) (FIPS 186-5 A.1.3 step 5.4); reveals only pass or fail.
            let (difference, borrow) = p.subtractingReportingBorrow(q)
            let distance = borrow == 1 ? q.subtractingReportingBorrow(p).difference : difference
            guard distance.bitLengthVartime > bits / 2 - 100 else { continue }
            guard let components = keyComponents(p: p, q: q, bits: bits, width: FixedUInt<n>.self) else { continue }
            return components
        }
    }
}

extension RSA.PrivateKey {
    /// A key with e = 65537 on two given primes of equal size (1024 bits each for RSA-2048),
    /// after Miller–Rabin checks with bases from `random`. For known-answer tests that provide
    /// primes; throws `CryptoError.invalidKey` when they fail.
    package init(primes p: SecretBytes, _ q: SecretBytes, using random: inout some RandomSource) throws(CryptoError) {
        guard let pValue = p.withUnsafeBytes({ FixedUInt<16>(bigEndian: $0) }), let qValue = q.withUnsafeBytes({ FixedUInt<16>(bigEndian: $0) }),
              pValue.bitLengthVartime == 1024, qValue.bitLengthVartime == 1024,
              try RSAPrimes.isProbablePrime(pValue, rounds: 5, random: &random), try RSAPrimes.isProbablePrime(qValue, rounds: 5, random: &random),
              let components = RSAKeyGenerator.keyComponents(p: pValue, q: qValue, bits: 2048, width: FixedUInt<32>.self)
        else { throw .invalidKey }
        try self.init(components: components)
    }
}
