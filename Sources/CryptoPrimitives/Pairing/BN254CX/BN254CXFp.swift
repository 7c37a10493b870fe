// Operations on Fp of BN254CX that the generic Montgomery core does not give: byte encodings,
// parity, square roots and inversion (docs/protocols/mpin.md §2.3, §3).

import CryptoCore

extension MontgomeryResidue where Modulus == BN254CXFieldModulus {
    /// Decodes 32 big-endian bytes; nil unless the length is 32 and the value is below p.
    /// The input is public.
    package init?(canonicalBytes bytes: some Collection<UInt8>) {
        guard bytes.count == 32, let value = FixedUInt<4>(bigEndian: bytes) else { return nil }
        let (residue, isCanonical) = Self.fromCanonical(value)
        guard isCanonical.isTrueVartime else { return nil }
        self = residue
    }

    /// The element for a small integer.
    package init(small value: UInt64) {
        self.init(reducing: FixedUInt(value))
    }

    /// The canonical value as 32 big-endian bytes (Milagro `FP_toBytes`, docs/protocols/mpin.md §2.3).
    package var canonicalBytes: [UInt8] { canonical.bigEndianBytes() }

    /// Whether the canonical value is odd ("the root whose integer value is even", docs/protocols/mpin.md §3).
    package var isOdd: Choice { canonical.isOdd }

    /// 2·self.
    package var doubled: Self { self + self }

    /// `self` squared `count` times.
    package func squared(repeatedly count: Int) -> Self {
        var result = self
        for _ in 0..<count { result = result.squared() }
        return result
    }

    /// A square root, `self^((p+1)/4)` (p ≡ 3 mod 4), and whether `self` is a square.
    /// Constant time.
    package func squareRoot() -> (root: Self, isSquare: Choice) {
        let root = power(BN254CXFieldConstants.sqrtExponent)
        return (root, root.squared().isEqual(to: self))
    }

    /// Whether `self` is a square (zero counts), by Euler's criterion. Constant time.
    package var isSquare: Choice {
        let legendre = power(BN254CXFieldConstants.legendreExponent)
        return legendre.isEqual(to: .one) | isZero
    }
}

/// Exponents used in Fp (derived from p; a test recomputes them).
package enum BN254CXFieldConstants {
    /// (p + 1)/4.
    package static var sqrtExponent: FixedUInt<4> {
        FixedUInt(limbs: [0x6F99_88FB_D706_D56D, 0xC90F_F5BB_8602_4FB8, 0x6C2F_77D9_1E98_D9B4, 0x0900_0000_021C_0A83])
    }
    /// (p − 1)/2.
    package static var legendreExponent: FixedUInt<4> {
        FixedUInt(limbs: [0xDF33_11F7_AE0D_AAD9, 0x921F_EB77_0C04_9F70, 0xD85E_EFB2_3D31_B369, 0x1200_0000_0438_1506])
    }
}
