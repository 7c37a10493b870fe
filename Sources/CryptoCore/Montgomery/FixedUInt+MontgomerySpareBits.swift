// Straight-line 4-limb Montgomery arithmetic for moduli below 2²⁵⁴ (BN254CX's p and r).
// The generic CIOS loop (FixedUInt+Montgomery.swift) must carry a fifth
// word and finish every addition with a borrow on that word; a modulus whose top limb leaves
// two bits spare needs neither:
//
// - Product: the "no-carry" CIOS of Bouvier, Le Corre, Minh and Nécaise (gnark-crypto,
//   "Faster big-integer modular multiplication for most moduli", 2022): when the top limb of
//   m is below (2⁶⁴ − 1)/2 − 1, the accumulator of each outer step fits four words, so the
//   step is eight 64×64 products with two independent carry chains and nothing spills.
// - Sum: a + b < 2m < 2²⁵⁵ has no carry out, so the conditional subtraction is decided by
//   the borrow of (a + b) − m alone.
//
// Every function is branch-free and its memory accesses depend on nothing: constant time, as
// the generic core. Tests compare each with the generic functions on random and edge inputs.

extension FixedUInt where limbCount == 4 {
    /// Whether `m`'s top limb leaves the two spare bits these kernels need (public input).
    @inlinable
    package static func hasSpareTopBits(_ m: FixedUInt<4>) -> Bool {
        m.limbs[3] < 1 << 62
    }

    /// `a · b · 2⁻²⁵⁶ mod m` for `a, b < m`, `m` odd with ``hasSpareTopBits(_:)``; fully
    /// reduced.
    @inlinable @inline(__always)
    package static func montgomeryProductSpareBits(
        _ a: FixedUInt<4>, _ b: FixedUInt<4>, modulus m: FixedUInt<4>, inverse: UInt64
    ) -> FixedUInt<4> {
        var t = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        t = productStepSpareBits(t, a, b.limbs[unchecked: 0], modulus: m, inverse: inverse)
        t = productStepSpareBits(t, a, b.limbs[unchecked: 1], modulus: m, inverse: inverse)
        t = productStepSpareBits(t, a, b.limbs[unchecked: 2], modulus: m, inverse: inverse)
        t = productStepSpareBits(t, a, b.limbs[unchecked: 3], modulus: m, inverse: inverse)
        let (t0, t1, t2, t3) = t
        return reducedOnceSpareBits(t0, t1, t2, t3, modulus: m)
    }

    /// One outer step of the product: (t + a·bᵢ + u·m) / 2⁶⁴ with u chosen to clear the low
    /// word; the result is below 2m, so it fits four words by the spare-bits condition.
    @inlinable @inline(__always)
    static func productStepSpareBits(
        _ t: (UInt64, UInt64, UInt64, UInt64), _ a: FixedUInt<4>, _ bi: UInt64, modulus m: FixedUInt<4>, inverse: UInt64
    ) -> (UInt64, UInt64, UInt64, UInt64) {
        var productCarry: UInt64, reductionCarry: UInt64, x: UInt64
        let r0, r1, r2: UInt64
        (x, productCarry) = UInt64.multiplyAdding(a.limbs[unchecked: 0], bi, t.0, carry: 0)
        let u = x &* inverse
        (_, reductionCarry) = UInt64.multiplyAdding(u, m.limbs[unchecked: 0], x, carry: 0)
        (x, productCarry) = UInt64.multiplyAdding(a.limbs[unchecked: 1], bi, t.1, carry: productCarry)
        (r0, reductionCarry) = UInt64.multiplyAdding(u, m.limbs[unchecked: 1], x, carry: reductionCarry)
        (x, productCarry) = UInt64.multiplyAdding(a.limbs[unchecked: 2], bi, t.2, carry: productCarry)
        (r1, reductionCarry) = UInt64.multiplyAdding(u, m.limbs[unchecked: 2], x, carry: reductionCarry)
        (x, productCarry) = UInt64.multiplyAdding(a.limbs[unchecked: 3], bi, t.3, carry: productCarry)
        (r2, reductionCarry) = UInt64.multiplyAdding(u, m.limbs[unchecked: 3], x, carry: reductionCarry)
        return (r0, r1, r2, reductionCarry &+ productCarry)
    }

    /// `t − m` if `t ≥ m`, else `t`, for `t < 2m` given as four words.
    @inlinable @inline(__always)
    package static func reducedOnceSpareBits(
        _ t0: UInt64, _ t1: UInt64, _ t2: UInt64, _ t3: UInt64, modulus m: FixedUInt<4>
    ) -> FixedUInt<4> {
        var borrow: UInt64
        let d0, d1, d2, d3: UInt64
        (d0, borrow) = UInt64.subtractingWithBorrowChained(t0, m.limbs[unchecked: 0], borrow: 0)
        (d1, borrow) = UInt64.subtractingWithBorrowChained(t1, m.limbs[unchecked: 1], borrow: borrow)
        (d2, borrow) = UInt64.subtractingWithBorrowChained(t2, m.limbs[unchecked: 2], borrow: borrow)
        (d3, borrow) = UInt64.subtractingWithBorrowChained(t3, m.limbs[unchecked: 3], borrow: borrow)
        // Keep t where the subtraction borrowed.
        let keep = Choice(bit: borrow).mask
        return FixedUInt<4>(limbs: [d0 ^ ((t0 ^ d0) & keep), d1 ^ ((t1 ^ d1) & keep),
                                    d2 ^ ((t2 ^ d2) & keep), d3 ^ ((t3 ^ d3) & keep)])
    }

    /// `a + b mod m` for `a, b < m < 2²⁵⁴`.
    @inlinable @inline(__always)
    package static func modularSumSpareBits(_ a: FixedUInt<4>, _ b: FixedUInt<4>, modulus m: FixedUInt<4>) -> FixedUInt<4> {
        var carry: UInt64
        let s0, s1, s2, s3: UInt64
        (s0, carry) = UInt64.addingWithCarry(a.limbs[unchecked: 0], b.limbs[unchecked: 0], carry: 0)
        (s1, carry) = UInt64.addingWithCarry(a.limbs[unchecked: 1], b.limbs[unchecked: 1], carry: carry)
        (s2, carry) = UInt64.addingWithCarry(a.limbs[unchecked: 2], b.limbs[unchecked: 2], carry: carry)
        s3 = a.limbs[unchecked: 3] &+ b.limbs[unchecked: 3] &+ carry  // below 2²⁵⁵: no carry out
        return reducedOnceSpareBits(s0, s1, s2, s3, modulus: m)
    }

    /// `a − b mod m` for `a, b < m`, any 4-limb modulus (it needs no spare bit): the borrows of
    /// ``Swift/UInt64/subtractingWithBorrowChained(_:_:borrow:)`` (one `sbb` a word instead of
    /// five instructions), then m added back by mask where the subtraction borrowed. BN254CX's
    /// Fp uses it.
    @inlinable @inline(__always)
    package static func modularDifference(_ a: FixedUInt<4>, _ b: FixedUInt<4>, modulus m: FixedUInt<4>) -> FixedUInt<4> {
        var borrow: UInt64
        let d0, d1, d2, d3: UInt64
        (d0, borrow) = UInt64.subtractingWithBorrowChained(a.limbs[unchecked: 0], b.limbs[unchecked: 0], borrow: 0)
        (d1, borrow) = UInt64.subtractingWithBorrowChained(a.limbs[unchecked: 1], b.limbs[unchecked: 1], borrow: borrow)
        (d2, borrow) = UInt64.subtractingWithBorrowChained(a.limbs[unchecked: 2], b.limbs[unchecked: 2], borrow: borrow)
        (d3, borrow) = UInt64.subtractingWithBorrowChained(a.limbs[unchecked: 3], b.limbs[unchecked: 3], borrow: borrow)
        // Add m back where the subtraction borrowed.
        let mask = Choice(bit: borrow).mask
        var carry: UInt64
        let r0, r1, r2, r3: UInt64
        (r0, carry) = UInt64.addingWithCarry(d0, m.limbs[unchecked: 0] & mask, carry: 0)
        (r1, carry) = UInt64.addingWithCarry(d1, m.limbs[unchecked: 1] & mask, carry: carry)
        (r2, carry) = UInt64.addingWithCarry(d2, m.limbs[unchecked: 2] & mask, carry: carry)
        r3 = d3 &+ (m.limbs[unchecked: 3] & mask) &+ carry
        return FixedUInt<4>(limbs: [r0, r1, r2, r3])
    }

    /// `a + b` with no reduction, for `a, b < m < 2²⁵⁴`: a value below 2m, which
    /// ``montgomeryProductSpareBits(_:_:modulus:inverse:)`` accepts as an operand. For operands
    /// a, b < 2m each outer step's value stays below a + m + 1 < 2²⁵⁶ (four words, so the two
    /// carry chains stay exact) and a·b < 4m² < m·2²⁵⁶, so one final subtraction still reduces
    /// the product fully. Lazy reduction: a Karatsuba sum that only feeds a
    /// product skips its conditional subtraction.
    @inlinable @inline(__always)
    package static func sumBelowTwiceModulus(_ a: FixedUInt<4>, _ b: FixedUInt<4>) -> FixedUInt<4> {
        var carry: UInt64
        let s0, s1, s2: UInt64
        (s0, carry) = UInt64.addingWithCarry(a.limbs[unchecked: 0], b.limbs[unchecked: 0], carry: 0)
        (s1, carry) = UInt64.addingWithCarry(a.limbs[unchecked: 1], b.limbs[unchecked: 1], carry: carry)
        (s2, carry) = UInt64.addingWithCarry(a.limbs[unchecked: 2], b.limbs[unchecked: 2], carry: carry)
        return FixedUInt<4>(limbs: [s0, s1, s2, a.limbs[unchecked: 3] &+ b.limbs[unchecked: 3] &+ carry])
    }
}

extension UInt64 {
    /// `a − b − borrow` as (difference, borrow out), `borrow` 0 or 1: the value of
    /// ``subtractingWithBorrow(_:_:borrow:)``, computed as a + ¬b + (1 − borrow), whose carry
    /// out is 1 − borrow out. The compiler turns a chain of these into one `sub`/`sbb` a word;
    /// the 128-bit difference shifted by 127 costs five instructions a word. Branch-free.
    @inlinable @inline(__always)
    package static func subtractingWithBorrowChained(_ a: UInt64, _ b: UInt64, borrow: UInt64) -> (difference: UInt64, borrow: UInt64) {
        let s = UInt128(a) &+ UInt128(~b) &+ UInt128(1 &- borrow)
        return (UInt64(truncatingIfNeeded: s), 1 &- UInt64(truncatingIfNeeded: s &>> 64))
    }
}
