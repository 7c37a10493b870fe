// The field operators of Fp of BN254CX on the straight-line spare-bits kernels (CryptoCore
// FixedUInt+MontgomerySpareBits.swift): p is below 2²⁵⁴, so products need no
// fifth accumulator word and sums no carry word.
//
// These overloads are chosen over the generic `MontgomeryResidue` operators wherever the type
// is `BN254CX.Fp` (the constrained extension is the more specific), which is every line of the
// tower (Fp2, Fp4, Fp12) and the curve formulas. Fr (scalars mod r, also below 2²⁵⁴) keeps the
// generic core: its few operations per protocol step gain nothing measurable. Tests compare
// the kernels with the generic CIOS core and the reference integer, for p and for r.

import CryptoCore

extension MontgomeryResidue where Modulus == BN254CXFieldModulus {
    /// `a · b` (Montgomery product). Called, not inlined: the tower's functions hold dozens of
    /// products, and inlining every one of them straight-line made the optimiser run for tens
    /// of minutes on this module.
    @inline(never)
    package static func * (a: Self, b: Self) -> Self {
        Self(montgomeryForm: .montgomeryProductSpareBits(a.montgomeryForm, b.montgomeryForm, modulus: Modulus.modulus, inverse: Modulus.inverse))
    }

    /// `self²`.
    @inline(__always)
    package func squared() -> Self { self * self }

    @inlinable @inline(__always)
    package static func + (a: Self, b: Self) -> Self {
        Self(montgomeryForm: .modularSumSpareBits(a.montgomeryForm, b.montgomeryForm, modulus: Modulus.modulus))
    }

    /// `a + b` left below 2p, unreduced: valid **only** as an operand of `*`, which reduces
    /// its result fully (``FixedUInt/sumBelowTwiceModulus(_:_:)`` says why). Karatsuba sums
    /// in Fp2 use it.
    @inlinable @inline(__always)
    package static func unreducedSum(_ a: Self, _ b: Self) -> Self {
        Self(montgomeryForm: .sumBelowTwiceModulus(a.montgomeryForm, b.montgomeryForm))
    }

    /// `self / 2`: `(x + p)/2` for odd x, `x/2` for even x (Montgomery form halves the same
    /// way), with p added under a mask and the shift over the four words: constant time, and
    /// no product. x + p < 2p < 2²⁵⁵, so no bit is lost.
    @inlinable @inline(__always)
    package var halved: Self {
        let x = montgomeryForm
        let odd = Choice(bit: x.limbs[unchecked: 0] & 1).mask
        let m = Modulus.modulus
        var carry: UInt64
        let s0, s1, s2, s3: UInt64
        (s0, carry) = UInt64.addingWithCarry(x.limbs[unchecked: 0], m.limbs[unchecked: 0] & odd, carry: 0)
        (s1, carry) = UInt64.addingWithCarry(x.limbs[unchecked: 1], m.limbs[unchecked: 1] & odd, carry: carry)
        (s2, carry) = UInt64.addingWithCarry(x.limbs[unchecked: 2], m.limbs[unchecked: 2] & odd, carry: carry)
        s3 = x.limbs[unchecked: 3] &+ (m.limbs[unchecked: 3] & odd) &+ carry
        return Self(montgomeryForm: FixedUInt(limbs: [s0 >> 1 | s1 << 63, s1 >> 1 | s2 << 63, s2 >> 1 | s3 << 63, s3 >> 1]))
    }

    @inlinable @inline(__always)
    package static func - (a: Self, b: Self) -> Self {
        Self(montgomeryForm: .modularDifference(a.montgomeryForm, b.montgomeryForm, modulus: Modulus.modulus))
    }

    @inlinable @inline(__always)
    package static prefix func - (a: Self) -> Self {
        Self(montgomeryForm: .modularDifference(.zero, a.montgomeryForm, modulus: Modulus.modulus))
    }

    /// `self^exponent` on the spare-bits product (the generic `power` runs on the generic
    /// core), by ``BN254CXCurveField/fixedWindowPower(_:)``. Constant time.
    package func power(_ exponent: FixedUInt<4>) -> Self { fixedWindowPower(exponent) }

    /// The inverse, by divsteps (``CryptoCore/MontgomeryResidue/invertedByDivsteps(_:)``):
    /// constant time; the inverse of zero is zero.
    package func inverted() -> Self { invertedByDivsteps(Modulus.divstep) }

    /// The inverse by Fermat, `self^(p−2)`; p − 2 is public, so its windows index the table
    /// directly (``CryptoCore/FixedUInt/powerByPublicExponent(_:_:one:times:)``): constant time
    /// in `self`; the inverse of zero is zero. A test checks ``inverted()`` against it.
    package func invertedByFermat() -> Self {
        FixedUInt<4>.powerByPublicExponent(self, FixedUInt(limbs: [0xBE66_23EF_5C1B_55B1, 0x243F_D6EE_1809_3EE1, 0xB0BD_DF64_7A63_66D3, 0x2400_0000_0870_2A0D]),
                               one: Self.one, times: { $0 * $1 })
    }
}

extension BN254CXCurveField where Self: ConditionallySelectable {
    /// `self^exponent` with a fixed 4-bit window over all 256 bits and a table read that scans
    /// every entry (Fp and Fp2 share it). Constant time in `self` and in the exponent.
    package func fixedWindowPower(_ exponent: FixedUInt<4>) -> Self {
        var table = InlineArray<16, Self>(repeating: .one)
        for i in 1..<16 { table[i] = table[i - 1] * self }
        var result = Self.one
        for window in stride(from: 63, through: 0, by: -1) {
            for _ in 0..<4 { result = result.squared() }
            let bits = (exponent.limbs[window >> 4] >> UInt64((window & 15) * 4)) & 0xF
            result = result * ConstantTime.lookup(table, at: bits)
        }
        return result
    }
}
