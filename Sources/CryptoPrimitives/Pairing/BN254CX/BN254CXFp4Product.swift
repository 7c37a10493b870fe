// The Fp4 product and square with lazy reduction one level above Fp2 (Aranha, Karabina,
// Longa, Gebotys and López, "Faster explicit formulas for computing pairings over ordinary
// curves", EUROCRYPT 2011, §3-§4): every Fp2 product or square of the Karatsuba formula is
// kept as two 512-bit integers, the Fp4 combination (the sums, the product by ξ) is made on
// those, and each of the four Fp coordinates is Montgomery-reduced once — four reductions
// where three reduced Fp2 products take six.
//
// Bounds (p < 2²⁵⁴ and 7p < 2²⁵⁶, so anything in (−7p², 7p²) is reducible, see
// `reduceSigned`). Values are two's-complement 512-bit integers; every operand below p.
// - Fp2 product by Karatsuba, x·y: real x0y0 − x1y1 ∈ (−p², p²), imaginary
//   (x0 + x1)(y0 + y1) − x0y0 − x1y1 = x0y1 + x1y0 ∈ [0, 2p²).
// - Fp2 square: real (x0 + x1)·(x0 − x1 mod p) ∈ [0, 2p²), imaginary (2x0)·x1 ∈ [0, 2p²)
//   (the sums unreduced, below 2p).
// - Fp4 product: c0 = A0 + ξ·A1 has real A0r + A1r − A1i ∈ (−4p², 2p²) and imaginary
//   A0i + A1r + A1i ∈ (−p², 5p²); c1 = A2 − A0 − A1 (A2 from the reduced sums a0 + a1,
//   b0 + b1) lies in (−3p², 3p²) and (−4p², 2p²).
// - Fp4 square: c0 = T0 + ξ·T1 in (−2p², 4p²) and [0, 6p²); c1 = S − T0 − T1 with S the square
//   of the reduced sum, in (−4p², 2p²) each.
// Everything is straight-line carry arithmetic and masks: constant time.

import CryptoCore

/// The word-level kernels of the lazy Fp4 product and square.
@usableFromInline
package enum BN254CXFp4Kernel {
    package typealias Limbs = FixedUInt<4>

    /// The Fp2 product (x0 + x1·i)(y0 + y1·i), unreduced: (real, imaginary) as above.
    /// Out of line, as is ``fp2Square(_:_:)``: inlined three times into one Fp4 kernel, the
    /// six 512-bit results and their operands spill around every `mul`; called, each keeps
    /// its own registers. About 2 % more instructions, and the pairing takes 0.96 of the time.
    @inline(never)
    static func fp2Product(_ x0: Limbs, _ x1: Limbs, _ y0: Limbs, _ y1: Limbs) -> (WideUInt512, WideUInt512) {
        let v0 = Limbs.wideProduct(x0, y0), v1 = Limbs.wideProduct(x1, y1)
        let v2 = Limbs.wideProduct(.sumBelowTwiceModulus(x0, x1), .sumBelowTwiceModulus(y0, y1))
        return (wideDifference(v0, v1), wideDifference(wideDifference(v2, v0), v1))
    }

    /// The Fp2 square (x0 + x1·i)², unreduced: ((x0 + x1)(x0 − x1), 2·x0·x1), both in [0, 2p²).
    @inline(never)
    static func fp2Square(_ x0: Limbs, _ x1: Limbs) -> (WideUInt512, WideUInt512) {
        let m = BN254CXFieldModulus.modulus
        return (Limbs.wideProduct(.sumBelowTwiceModulus(x0, x1), .modularDifference(x0, x1, modulus: m)),
                Limbs.wideProduct(.sumBelowTwiceModulus(x0, x0), x1))
    }

    /// (a0 + a1·s)(b0 + b1·s) = a0b0 + ξ·a1b1 + ((a0 + a1)(b0 + b1) − a0b0 − a1b1)·s, each
    /// Fp2 coefficient given as its two Fp Montgomery forms (below p); the four results below p.
    @inline(never)
    static func product(_ a0: (Limbs, Limbs), _ a1: (Limbs, Limbs), _ b0: (Limbs, Limbs), _ b1: (Limbs, Limbs))
        -> (Limbs, Limbs, Limbs, Limbs)
    {
        let m = BN254CXFieldModulus.modulus
        let (r0, i0) = fp2Product(a0.0, a0.1, b0.0, b0.1)
        let (r1, i1) = fp2Product(a1.0, a1.1, b1.0, b1.1)
        let (r2, i2) = fp2Product(.modularSumSpareBits(a0.0, a1.0, modulus: m), .modularSumSpareBits(a0.1, a1.1, modulus: m),
                                  .modularSumSpareBits(b0.0, b1.0, modulus: m), .modularSumSpareBits(b0.1, b1.1, modulus: m))
        return combine(r0, i0, r1, i1, r2, i2)
    }

    /// The Fp4 coefficients from the three Fp2 results A0 = r0 + i0·i, A1 = r1 + i1·i and
    /// A2 = r2 + i2·i: c0 = A0 + ξ·A1, with ξ·(r1 + i1·i) = (r1 − i1) + (r1 + i1)·i, and
    /// c1 = A2 − A0 − A1. The sums r0 + r1 and i0 + i1 are formed once and shared by both
    /// coefficients (six 512-bit additions, not eight); arithmetic modulo 2⁵¹² is associative,
    /// so each value is the one the bounds in the header describe.
    @inline(__always)
    static func combine(_ r0: WideUInt512, _ i0: WideUInt512, _ r1: WideUInt512, _ i1: WideUInt512,
                        _ r2: WideUInt512, _ i2: WideUInt512) -> (Limbs, Limbs, Limbs, Limbs) {
        let realSum = wideSum(r0, r1), imaginarySum = wideSum(i0, i1)
        return (reduceSigned(wideDifference(realSum, i1)),
                reduceSigned(wideSum(imaginarySum, r1)),
                reduceSigned(wideDifference(r2, realSum)),
                reduceSigned(wideDifference(i2, imaginarySum)))
    }

    /// (c0 + c1·s)² = c0² + ξ·c1² + ((c0 + c1)² − c0² − c1²)·s: three Fp2 squares (six 512-bit
    /// products) and four reductions.
    @inline(never)
    static func square(_ c0: (Limbs, Limbs), _ c1: (Limbs, Limbs)) -> (Limbs, Limbs, Limbs, Limbs) {
        let m = BN254CXFieldModulus.modulus
        let (r0, i0) = fp2Square(c0.0, c0.1)
        let (r1, i1) = fp2Square(c1.0, c1.1)
        let (r2, i2) = fp2Square(.modularSumSpareBits(c0.0, c1.0, modulus: m), .modularSumSpareBits(c0.1, c1.1, modulus: m))
        return combine(r0, i0, r1, i1, r2, i2)
    }

    /// `t · 2⁻²⁵⁶ mod p` for a two's-complement `t` in (−7p², 7p²): a negative `t` gets
    /// p·2²⁵⁶ added to its top four words under a mask (the carry out of the top cancels the
    /// wrap), which leaves it in (0, p·2²⁵⁶) as ``BN254CXFp2Kernel/reduce(_:)`` needs; a
    /// non-negative one is already below 7p² < p·2²⁵⁶ (7p < 2²⁵⁶). |t| < 2⁵¹¹, so bit 511 is
    /// the sign.
    @inline(__always)
    package static func reduceSigned(_ t: WideUInt512) -> Limbs {
        let m = BN254CXFieldModulus.modulus
        let mask = 0 &- (t.w7 >> 63)
        var t = t, carry: UInt64
        (t.w4, carry) = UInt64.addingWithCarry(t.w4, m.limbs[unchecked: 0] & mask, carry: 0)
        (t.w5, carry) = UInt64.addingWithCarry(t.w5, m.limbs[unchecked: 1] & mask, carry: carry)
        (t.w6, carry) = UInt64.addingWithCarry(t.w6, m.limbs[unchecked: 2] & mask, carry: carry)
        t.w7 = t.w7 &+ (m.limbs[unchecked: 3] & mask) &+ carry
        return BN254CXFp2Kernel.reduce(t)
    }

    /// `a + b` modulo 2⁵¹².
    @inline(__always)
    static func wideSum(_ a: WideUInt512, _ b: WideUInt512) -> WideUInt512 {
        var r = a, carry: UInt64
        (r.w0, carry) = UInt64.addingWithCarry(a.w0, b.w0, carry: 0)
        (r.w1, carry) = UInt64.addingWithCarry(a.w1, b.w1, carry: carry)
        (r.w2, carry) = UInt64.addingWithCarry(a.w2, b.w2, carry: carry)
        (r.w3, carry) = UInt64.addingWithCarry(a.w3, b.w3, carry: carry)
        (r.w4, carry) = UInt64.addingWithCarry(a.w4, b.w4, carry: carry)
        (r.w5, carry) = UInt64.addingWithCarry(a.w5, b.w5, carry: carry)
        (r.w6, carry) = UInt64.addingWithCarry(a.w6, b.w6, carry: carry)
        r.w7 = a.w7 &+ b.w7 &+ carry
        return r
    }

    /// `a − b` modulo 2⁵¹², and 1 when it borrowed (a < b), else 0: one `sbb` a word
    /// (``Swift/UInt64/subtractingWithBorrowChained(_:_:borrow:)``).
    @inline(__always)
    static func wideDifferenceWithBorrow(_ a: WideUInt512, _ b: WideUInt512) -> (value: WideUInt512, borrow: UInt64) {
        var r = a, borrow: UInt64
        (r.w0, borrow) = UInt64.subtractingWithBorrowChained(a.w0, b.w0, borrow: 0)
        (r.w1, borrow) = UInt64.subtractingWithBorrowChained(a.w1, b.w1, borrow: borrow)
        (r.w2, borrow) = UInt64.subtractingWithBorrowChained(a.w2, b.w2, borrow: borrow)
        (r.w3, borrow) = UInt64.subtractingWithBorrowChained(a.w3, b.w3, borrow: borrow)
        (r.w4, borrow) = UInt64.subtractingWithBorrowChained(a.w4, b.w4, borrow: borrow)
        (r.w5, borrow) = UInt64.subtractingWithBorrowChained(a.w5, b.w5, borrow: borrow)
        (r.w6, borrow) = UInt64.subtractingWithBorrowChained(a.w6, b.w6, borrow: borrow)
        (r.w7, borrow) = UInt64.subtractingWithBorrowChained(a.w7, b.w7, borrow: borrow)
        return (r, borrow)
    }

    /// `a − b` modulo 2⁵¹².
    @inline(__always)
    static func wideDifference(_ a: WideUInt512, _ b: WideUInt512) -> WideUInt512 {
        wideDifferenceWithBorrow(a, b).value
    }
}

extension BN254CX.Fp4 {
    /// The product by ``BN254CXFp4Kernel/product(_:_:_:_:)``: nine 512-bit products, four
    /// reductions.
    @inline(__always)
    static func lazyProduct(_ a: BN254CX.Fp4, _ b: BN254CX.Fp4) -> BN254CX.Fp4 {
        let (c00, c01, c10, c11) = BN254CXFp4Kernel.product(
            (a.c0.c0.montgomeryForm, a.c0.c1.montgomeryForm), (a.c1.c0.montgomeryForm, a.c1.c1.montgomeryForm),
            (b.c0.c0.montgomeryForm, b.c0.c1.montgomeryForm), (b.c1.c0.montgomeryForm, b.c1.c1.montgomeryForm))
        return BN254CX.Fp4(BN254CX.Fp2(BN254CX.Fp(montgomeryForm: c00), BN254CX.Fp(montgomeryForm: c01)),
                           BN254CX.Fp2(BN254CX.Fp(montgomeryForm: c10), BN254CX.Fp(montgomeryForm: c11)))
    }

    /// The square by ``BN254CXFp4Kernel/square(_:_:)``: six 512-bit products, four reductions.
    @inline(__always)
    func lazySquared() -> BN254CX.Fp4 {
        let (c00, c01, c10, c11) = BN254CXFp4Kernel.square(
            (c0.c0.montgomeryForm, c0.c1.montgomeryForm), (c1.c0.montgomeryForm, c1.c1.montgomeryForm))
        return BN254CX.Fp4(BN254CX.Fp2(BN254CX.Fp(montgomeryForm: c00), BN254CX.Fp(montgomeryForm: c01)),
                           BN254CX.Fp2(BN254CX.Fp(montgomeryForm: c10), BN254CX.Fp(montgomeryForm: c11)))
    }
}
