// A straight-line 4-limb Montgomery product for any odd modulus (used for P-256's
// group order n, whose top limb is all ones, so the spare-bits kernel of
// FixedUInt+MontgomerySpareBits.swift does not apply). It is the CIOS of the generic core
// (FixedUInt+Montgomery.swift) unrolled: each outer step carries a fifth accumulator word, and
// the final subtraction folds that word into its decision. Branch-free, and its memory
// accesses depend on nothing: constant time, as the generic core. Tests compare it with the
// generic core and the reference integer.

extension FixedUInt where limbCount == 4 {
    /// `a · b · 2⁻²⁵⁶ mod m` for `a, b < m`, `m` odd; fully reduced.
    @inlinable @inline(__always)
    package static func montgomeryProductStraightLine(
        _ a: FixedUInt<4>, _ b: FixedUInt<4>, modulus m: FixedUInt<4>, inverse: UInt64
    ) -> FixedUInt<4> {
        var t = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        t = productStepWithCarryWord(t, a, b.limbs[unchecked: 0], modulus: m, inverse: inverse)
        t = productStepWithCarryWord(t, a, b.limbs[unchecked: 1], modulus: m, inverse: inverse)
        t = productStepWithCarryWord(t, a, b.limbs[unchecked: 2], modulus: m, inverse: inverse)
        t = productStepWithCarryWord(t, a, b.limbs[unchecked: 3], modulus: m, inverse: inverse)
        // t < 2m: subtract m when t ≥ m, that is when the fifth word is set or nothing borrows.
        var borrow: UInt64
        let d0, d1, d2, d3: UInt64
        (d0, borrow) = UInt64.subtractingWithBorrow(t.0, m.limbs[unchecked: 0], borrow: 0)
        (d1, borrow) = UInt64.subtractingWithBorrow(t.1, m.limbs[unchecked: 1], borrow: borrow)
        (d2, borrow) = UInt64.subtractingWithBorrow(t.2, m.limbs[unchecked: 2], borrow: borrow)
        (d3, borrow) = UInt64.subtractingWithBorrow(t.3, m.limbs[unchecked: 3], borrow: borrow)
        let keep = Choice(bit: borrow & ~t.4 & 1).mask
        return FixedUInt<4>(limbs: [d0 ^ ((t.0 ^ d0) & keep), d1 ^ ((t.1 ^ d1) & keep),
                                    d2 ^ ((t.2 ^ d2) & keep), d3 ^ ((t.3 ^ d3) & keep)])
    }

    /// One outer step: (t + a·bᵢ + u·m) / 2⁶⁴ with u clearing the low word; t < 2m in, t < 2m
    /// out, held in five words.
    @inlinable @inline(__always)
    static func productStepWithCarryWord(
        _ t: (UInt64, UInt64, UInt64, UInt64, UInt64), _ a: FixedUInt<4>, _ bi: UInt64, modulus m: FixedUInt<4>, inverse: UInt64
    ) -> (UInt64, UInt64, UInt64, UInt64, UInt64) {
        var c: UInt64
        let x0, x1, x2, x3, x4, x5: UInt64
        (x0, c) = UInt64.multiplyAdding(a.limbs[unchecked: 0], bi, t.0, carry: 0)
        (x1, c) = UInt64.multiplyAdding(a.limbs[unchecked: 1], bi, t.1, carry: c)
        (x2, c) = UInt64.multiplyAdding(a.limbs[unchecked: 2], bi, t.2, carry: c)
        (x3, c) = UInt64.multiplyAdding(a.limbs[unchecked: 3], bi, t.3, carry: c)
        (x4, x5) = UInt64.addingWithCarry(t.4, c, carry: 0)
        let u = x0 &* inverse
        let r0, r1, r2, r3: UInt64
        var top: UInt64
        (_, c) = UInt64.multiplyAdding(u, m.limbs[unchecked: 0], x0, carry: 0)
        (r0, c) = UInt64.multiplyAdding(u, m.limbs[unchecked: 1], x1, carry: c)
        (r1, c) = UInt64.multiplyAdding(u, m.limbs[unchecked: 2], x2, carry: c)
        (r2, c) = UInt64.multiplyAdding(u, m.limbs[unchecked: 3], x3, carry: c)
        (r3, top) = UInt64.addingWithCarry(x4, c, carry: 0)
        return (r0, r1, r2, r3, x5 &+ top)
    }
}
