// Operations on GF(p) that the generic Montgomery core does not give: the inversion addition
// chain, the square root, byte encodings and parity.

import CryptoCore

extension MontgomeryResidue where Modulus == P256FieldModulus {
    /// Decodes 32 big-endian bytes; nil unless the length is 32 and the value is below p
    /// (canonical). The input is public.
    package init?(canonicalBytes bytes: some Collection<UInt8>) {
        guard bytes.count == 32, let value = FixedUInt<4>(bigEndian: bytes) else { return nil }
        let (residue, isCanonical) = Self.fromCanonical(value)
        guard isCanonical.isTrueVartime else { return nil }
        self = residue
    }

    /// The canonical value as 32 big-endian bytes.
    package var canonicalBytes: [UInt8] { canonical.bigEndianBytes() }

    /// Whether the canonical value is odd (the SEC 1 compressed-point sign bit).
    package var isOdd: Choice { canonical.isOdd }

    /// `self` squared `count` times.
    package func squared(repeatedly count: Int) -> Self {
        var result = self
        for _ in 0..<count { result = result.squared() }
        return result
    }

    /// The inverse, by divsteps (``CryptoCore/MontgomeryResidue/invertedByDivsteps(_:)``):
    /// constant time; the inverse of zero is zero.
    package func inverted() -> Self { invertedByDivsteps(Modulus.divstep) }

    /// The inverse by Fermat, `self^(p−2)`, with the 255-squaring, 12-multiplication addition
    /// chain of p − 2 (from mmcloughlin/addchain, as Go's crypto/internal/fips140/nistec uses).
    /// Constant time; the inverse of zero is zero. No longer on any path: kept as the
    /// independent algorithm the field test checks ``inverted()`` against.
    package func invertedByAdditionChain() -> Self {
        let x2 = squared() * self                                   // 2¹−1 … _11
        let x3 = x2.squared() * self                                // _111
        let x6 = x3.squared(repeatedly: 3) * x3                     // _111111
        let x12 = x6.squared(repeatedly: 6) * x6
        let x15 = x12.squared(repeatedly: 3) * x3
        let x16 = x15.squared() * self
        let x32 = x16.squared(repeatedly: 16) * x16
        let i53 = x32.squared(repeatedly: 15)
        let x47 = x15 * i53
        let i263 = ((i53.squared(repeatedly: 17) * self).squared(repeatedly: 143) * x47).squared(repeatedly: 47)
        return (x47 * i263).squared(repeatedly: 2) * self
    }

    /// A square root, `self^((p+1)/4)` (p ≡ 3 mod 4), and whether `self` is a square.
    /// Constant time.
    package func squareRoot() -> (root: Self, isSquare: Choice) {
        // (p + 1)/4 = 2²⁵⁴ − 2²²² + 2¹⁹⁰ + 2⁹⁴, through the constant-time windowed ladder.
        let exponent = FixedUInt<4>(limbs: [0x0000_0000_0000_0000, 0x0000_0000_4000_0000, 0x4000_0000_0000_0000, 0x3FFF_FFFF_C000_0000])
        let root = power(exponent)
        return (root, root.squared().isEqual(to: self))
    }

    /// The inverse of a public value by the binary extended Euclidean algorithm.
    /// Leaks: the value (its bits steer the loop); use only on public data.
    package func invertedVartime() -> Self {
        Self(reducing: FixedUInt.modularInverseVartime(canonical, modulus: Modulus.modulus))
    }
}
