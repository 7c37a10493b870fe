// Addition, subtraction, negation and halving in GF(p), p = 2²⁵⁶ − 2²²⁴ + 2¹⁹² + 2⁹⁶ − 1, written so
// the compiler emits one add/adc (or sub/sbb) chain per pass and no select.
//
// The generic straight-line sum and difference (FixedUInt+MontgomerySpareBits.swift) carry the
// borrow as bit 127 of a 128-bit difference, which x86-64 code generation turns into five
// instructions per word, and finish with a masked select of two candidates. Here:
// - a borrow is carried as its complement, the carry of a + ~b + carry (a − b − borrow =
//   a + ~b + (1 − borrow) − 2⁶⁴), which compiles to a single sbb per word;
// - the correction is "add p masked by the final borrow": the mask is all ones or zero and p's
//   words are (mask, mask >> 32, 0, mask & (2⁶⁴ − 2³² + 1)), so no table of p is read and no
//   second candidate is kept (the technique of the fiat-crypto and BoringSSL P-256 code).
// Every step is straight-line carry arithmetic with no branch: constant time. The field test
// (P256ArithmeticTests) checks these against the reference integer on edge and random values.

import CryptoCore

extension MontgomeryResidue where Modulus == P256FieldModulus {
    /// `a + b`: one carry chain for the sum, one for the trial subtraction of p, one for the
    /// masked correction.
    @inlinable @inline(__always)
    package static func + (a: Self, b: Self) -> Self {
        Self(montgomeryForm: P256FieldArithmetic.sum(a.montgomeryForm, b.montgomeryForm))
    }

    /// `a − b`: one borrow chain and one masked addition of p.
    @inlinable @inline(__always)
    package static func - (a: Self, b: Self) -> Self {
        Self(montgomeryForm: P256FieldArithmetic.difference(a.montgomeryForm, b.montgomeryForm))
    }

    /// `a / 2`: a plus p when a is odd (by mask), shifted right one bit. (The generic
    /// `halved` of the pairing code assumes x + p < 2²⁵⁶, which does not hold for this p.)
    @inlinable @inline(__always)
    package func dividedByTwo() -> Self {
        Self(montgomeryForm: P256FieldArithmetic.half(montgomeryForm))
    }

    /// `−a`, as 0 − a.
    @inlinable @inline(__always)
    package static prefix func - (a: Self) -> Self {
        Self(montgomeryForm: P256FieldArithmetic.difference(.zero, a.montgomeryForm))
    }
}

extension P256FieldArithmetic {
    /// `a + b + carry` with carry ∈ {0, 1}, as (sum, carry out).
    @inlinable @inline(__always)
    static func addingWithCarry(_ a: UInt64, _ b: UInt64, _ carry: UInt64) -> (UInt64, UInt64) {
        let s = UInt128(a) &+ UInt128(b) &+ UInt128(carry)
        return (UInt64(truncatingIfNeeded: s), UInt64(truncatingIfNeeded: s &>> 64))
    }

    /// `a − b − (1 − noBorrow)` with noBorrow ∈ {0, 1}, as (difference, noBorrow out): the
    /// borrow travels complemented, a − b − borrow = a + ~b + (1 − borrow) − 2⁶⁴, so the chain
    /// is an add-with-carry of the complement of b, which compiles to sbb.
    @inlinable @inline(__always)
    static func subtractingWithNoBorrow(_ a: UInt64, _ b: UInt64, _ noBorrow: UInt64) -> (UInt64, UInt64) {
        let s = UInt128(a) &+ UInt128(b ^ UInt64.max) &+ UInt128(noBorrow)
        return (UInt64(truncatingIfNeeded: s), UInt64(truncatingIfNeeded: s &>> 64))
    }

    /// `d + (p & mask)` modulo 2²⁵⁶ for mask all ones or zero: p's words are mask,
    /// mask >> 32, 0 and mask & (2⁶⁴ − 2³² + 1).
    @inlinable @inline(__always)
    static func addingMaskedModulus(_ d0: UInt64, _ d1: UInt64, _ d2: UInt64, _ d3: UInt64, mask: UInt64) -> FixedUInt<4> {
        var c: UInt64
        let r0, r1, r2, r3: UInt64
        (r0, c) = addingWithCarry(d0, mask, 0)
        (r1, c) = addingWithCarry(d1, mask &>> 32, c)
        (r2, c) = addingWithCarry(d2, 0, c)
        (r3, _) = addingWithCarry(d3, mask & topMultiplier, c)
        return FixedUInt(limbs: [r0, r1, r2, r3])
    }

    /// `a + b mod p` for `a, b < p`: the 257-bit sum, below 2p, reduced once.
    @inlinable @inline(__always)
    package static func sum(_ a: FixedUInt<4>, _ b: FixedUInt<4>) -> FixedUInt<4> {
        var c: UInt64
        let s0, s1, s2, s3, s4: UInt64
        (s0, c) = addingWithCarry(a.limbs[unchecked: 0], b.limbs[unchecked: 0], 0)
        (s1, c) = addingWithCarry(a.limbs[unchecked: 1], b.limbs[unchecked: 1], c)
        (s2, c) = addingWithCarry(a.limbs[unchecked: 2], b.limbs[unchecked: 2], c)
        (s3, s4) = addingWithCarry(a.limbs[unchecked: 3], b.limbs[unchecked: 3], c)
        return subtractingModulusOnce(s0, s1, s2, s3, s4)
    }

    /// The five-word t < 2p reduced below p: t − p, plus p again by mask when that borrowed
    /// (t was below p): one borrow chain, no select of two candidates. Ends every sum and
    /// every product (P256FieldMultiplication.swift).
    @inlinable @inline(__always)
    static func subtractingModulusOnce(_ t0: UInt64, _ t1: UInt64, _ t2: UInt64, _ t3: UInt64, _ t4: UInt64) -> FixedUInt<4> {
        var c: UInt64
        let d0, d1, d2, d3: UInt64
        (d0, c) = subtractingWithNoBorrow(t0, 0xFFFF_FFFF_FFFF_FFFF, 1)
        (d1, c) = subtractingWithNoBorrow(t1, 0x0000_0000_FFFF_FFFF, c)
        (d2, c) = subtractingWithNoBorrow(t2, 0, c)
        (d3, c) = subtractingWithNoBorrow(t3, topMultiplier, c)
        (_, c) = subtractingWithNoBorrow(t4, 0, c)
        return addingMaskedModulus(d0, d1, d2, d3, mask: c &- 1)
    }

    /// `a / 2 mod p` for `a < p`: a + (p if a is odd), an even 257-bit value below 2p,
    /// shifted right one bit; the parity mask comes from the low bit, no branch.
    @inlinable @inline(__always)
    package static func half(_ a: FixedUInt<4>) -> FixedUInt<4> {
        let mask = 0 &- (a.limbs[unchecked: 0] & 1)
        var c: UInt64
        let s0, s1, s2, s3, s4: UInt64
        (s0, c) = addingWithCarry(a.limbs[unchecked: 0], mask, 0)
        (s1, c) = addingWithCarry(a.limbs[unchecked: 1], mask &>> 32, c)
        (s2, c) = addingWithCarry(a.limbs[unchecked: 2], 0, c)
        (s3, s4) = addingWithCarry(a.limbs[unchecked: 3], mask & topMultiplier, c)
        return FixedUInt(limbs: [(s0 &>> 1) | (s1 &<< 63), (s1 &>> 1) | (s2 &<< 63),
                                 (s2 &>> 1) | (s3 &<< 63), (s3 &>> 1) | (s4 &<< 63)])
    }

    /// `a − b mod p` for `a, b < p`: the difference, plus p when it borrowed.
    @inlinable @inline(__always)
    package static func difference(_ a: FixedUInt<4>, _ b: FixedUInt<4>) -> FixedUInt<4> {
        var c: UInt64
        let d0, d1, d2, d3: UInt64
        (d0, c) = subtractingWithNoBorrow(a.limbs[unchecked: 0], b.limbs[unchecked: 0], 1)
        (d1, c) = subtractingWithNoBorrow(a.limbs[unchecked: 1], b.limbs[unchecked: 1], c)
        (d2, c) = subtractingWithNoBorrow(a.limbs[unchecked: 2], b.limbs[unchecked: 2], c)
        (d3, c) = subtractingWithNoBorrow(a.limbs[unchecked: 3], b.limbs[unchecked: 3], c)
        // c = 0 exactly when a < b: then the masked p is added.
        return addingMaskedModulus(d0, d1, d2, d3, mask: c &- 1)
    }
}
