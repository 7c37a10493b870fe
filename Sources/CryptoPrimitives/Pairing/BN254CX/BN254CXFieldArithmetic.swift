// The field operators of Fp and Fr of BN254CX on the straight-line spare-bits kernels
// (CryptoCore FixedUInt+MontgomerySpareBits.swift; issue #18 item 1): p and r are below 2²⁵⁴,
// so products need no fifth accumulator word and sums no carry word.
//
// These overloads are chosen over the generic `MontgomeryResidue` operators wherever the type
// is `BN254CX.Fp` or `BN254CX.Fr` (the constrained extension is the more specific), which is
// every line of the tower (Fp2, Fp4, Fp12), the curve formulas and the M-Pin scalars. Tests
// compare them with the generic CIOS core and the reference integer.

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

    @inlinable @inline(__always)
    package static func - (a: Self, b: Self) -> Self {
        Self(montgomeryForm: .modularDifferenceStraightLine(a.montgomeryForm, b.montgomeryForm, modulus: Modulus.modulus))
    }

    @inlinable @inline(__always)
    package static prefix func - (a: Self) -> Self {
        Self(montgomeryForm: .modularDifferenceStraightLine(.zero, a.montgomeryForm, modulus: Modulus.modulus))
    }
}

extension MontgomeryResidue where Modulus == BN254CXOrderModulus {
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

    @inlinable @inline(__always)
    package static func - (a: Self, b: Self) -> Self {
        Self(montgomeryForm: .modularDifferenceStraightLine(a.montgomeryForm, b.montgomeryForm, modulus: Modulus.modulus))
    }

    @inlinable @inline(__always)
    package static prefix func - (a: Self) -> Self {
        Self(montgomeryForm: .modularDifferenceStraightLine(.zero, a.montgomeryForm, modulus: Modulus.modulus))
    }
}
