// The Fp2 product with lazy reduction (issue #18 item 1; Aranha, Karabina, Longa, Gebotys and
// López, "Faster explicit formulas for computing pairings over ordinary curves", EUROCRYPT
// 2011, §3): the three Karatsuba products a0·b0, a1·b1 and (a0 + a1)(b0 + b1) are kept as
// 512-bit integers, combined, and only then Montgomery-reduced — two reductions instead of
// three. p < 2²⁵⁴ leaves room for it:
//
// - c1 = (a0 + a1)(b0 + b1) − a0·b0 − a1·b1 = a0·b1 + a1·b0 is non-negative and below
//   (2p)² < p·2²⁵⁶ (the sums are unreduced, below 2p; 4p < 2²⁵⁶);
// - c0 = a0·b0 − a1·b1 is in (−p², p²); when it is negative p·2²⁵⁶ is added under a mask,
//   which leaves it in (p·2²⁵⁶ − p², p·2²⁵⁶).
//
// Both are below p·2²⁵⁶, so a Montgomery reduction gives a value below 2p and one
// conditional subtraction finishes. Every step is straight-line carry arithmetic and masks:
// constant time.

import CryptoCore

/// A 512-bit integer as eight words, least significant first.
@usableFromInline
struct BN254CXWideInteger {
    @usableFromInline var w0, w1, w2, w3, w4, w5, w6, w7: UInt64

    @inlinable @inline(__always)
    init(_ w0: UInt64, _ w1: UInt64, _ w2: UInt64, _ w3: UInt64, _ w4: UInt64, _ w5: UInt64, _ w6: UInt64, _ w7: UInt64) {
        (self.w0, self.w1, self.w2, self.w3, self.w4, self.w5, self.w6, self.w7) = (w0, w1, w2, w3, w4, w5, w6, w7)
    }
}

/// The word-level kernels of the lazy Fp2 product.
@usableFromInline
enum BN254CXFp2Kernel {
    /// (a0 + a1·i)(b0 + b1·i) for Montgomery forms below p, returning Montgomery forms below p.
    @inline(never)
    static func product(_ a0: FixedUInt<4>, _ a1: FixedUInt<4>, _ b0: FixedUInt<4>, _ b1: FixedUInt<4>) -> (FixedUInt<4>, FixedUInt<4>) {
        let v0 = wideProduct(a0, b0)
        let v1 = wideProduct(a1, b1)
        let v2 = wideProduct(.sumBelowTwiceModulus(a0, a1), .sumBelowTwiceModulus(b0, b1))
        let imaginary = difference(difference(v2, v0).value, v1).value
        var (real, negative) = difference(v0, v1)
        // c0 < 0: add p·2²⁵⁶ (the top four words), the carry out cancelling the wrap.
        let m = BN254CXFieldModulus.modulus, mask = 0 &- negative
        var carry: UInt64
        (real.w4, carry) = UInt64.addingWithCarry(real.w4, m.limbs[unchecked: 0] & mask, carry: 0)
        (real.w5, carry) = UInt64.addingWithCarry(real.w5, m.limbs[unchecked: 1] & mask, carry: carry)
        (real.w6, carry) = UInt64.addingWithCarry(real.w6, m.limbs[unchecked: 2] & mask, carry: carry)
        real.w7 = real.w7 &+ (m.limbs[unchecked: 3] & mask) &+ carry
        return (reduce(real), reduce(imaginary))
    }

    /// The 512-bit product of two 256-bit values, by rows.
    @inlinable @inline(__always)
    static func wideProduct(_ a: FixedUInt<4>, _ b: FixedUInt<4>) -> BN254CXWideInteger {
        let a0 = a.limbs[unchecked: 0], a1 = a.limbs[unchecked: 1], a2 = a.limbs[unchecked: 2], a3 = a.limbs[unchecked: 3]
        var w0: UInt64, w1: UInt64, w2: UInt64, w3: UInt64, w4: UInt64, w5: UInt64, w6: UInt64, w7: UInt64
        var carry: UInt64
        var bi = b.limbs[unchecked: 0]
        (w0, carry) = UInt64.multiplyAdding(a0, bi, 0, carry: 0)
        (w1, carry) = UInt64.multiplyAdding(a1, bi, 0, carry: carry)
        (w2, carry) = UInt64.multiplyAdding(a2, bi, 0, carry: carry)
        (w3, w4) = UInt64.multiplyAdding(a3, bi, 0, carry: carry)
        bi = b.limbs[unchecked: 1]
        (w1, carry) = UInt64.multiplyAdding(a0, bi, w1, carry: 0)
        (w2, carry) = UInt64.multiplyAdding(a1, bi, w2, carry: carry)
        (w3, carry) = UInt64.multiplyAdding(a2, bi, w3, carry: carry)
        (w4, w5) = UInt64.multiplyAdding(a3, bi, w4, carry: carry)
        bi = b.limbs[unchecked: 2]
        (w2, carry) = UInt64.multiplyAdding(a0, bi, w2, carry: 0)
        (w3, carry) = UInt64.multiplyAdding(a1, bi, w3, carry: carry)
        (w4, carry) = UInt64.multiplyAdding(a2, bi, w4, carry: carry)
        (w5, w6) = UInt64.multiplyAdding(a3, bi, w5, carry: carry)
        bi = b.limbs[unchecked: 3]
        (w3, carry) = UInt64.multiplyAdding(a0, bi, w3, carry: 0)
        (w4, carry) = UInt64.multiplyAdding(a1, bi, w4, carry: carry)
        (w5, carry) = UInt64.multiplyAdding(a2, bi, w5, carry: carry)
        (w6, w7) = UInt64.multiplyAdding(a3, bi, w6, carry: carry)
        return BN254CXWideInteger(w0, w1, w2, w3, w4, w5, w6, w7)
    }

    /// `a − b` modulo 2⁵¹², and 1 when it borrowed (a < b), else 0.
    @inlinable @inline(__always)
    static func difference(_ a: BN254CXWideInteger, _ b: BN254CXWideInteger) -> (value: BN254CXWideInteger, borrow: UInt64) {
        var r = a, borrow: UInt64
        (r.w0, borrow) = UInt64.subtractingWithBorrow(a.w0, b.w0, borrow: 0)
        (r.w1, borrow) = UInt64.subtractingWithBorrow(a.w1, b.w1, borrow: borrow)
        (r.w2, borrow) = UInt64.subtractingWithBorrow(a.w2, b.w2, borrow: borrow)
        (r.w3, borrow) = UInt64.subtractingWithBorrow(a.w3, b.w3, borrow: borrow)
        (r.w4, borrow) = UInt64.subtractingWithBorrow(a.w4, b.w4, borrow: borrow)
        (r.w5, borrow) = UInt64.subtractingWithBorrow(a.w5, b.w5, borrow: borrow)
        (r.w6, borrow) = UInt64.subtractingWithBorrow(a.w6, b.w6, borrow: borrow)
        (r.w7, borrow) = UInt64.subtractingWithBorrow(a.w7, b.w7, borrow: borrow)
        return (r, borrow)
    }

    /// `t · 2⁻²⁵⁶ mod p` for `t < p·2²⁵⁶`: four Montgomery steps, each clearing one low word
    /// with u = tᵢ·(−p⁻¹) and carrying into the word four above; (t + U·p)/2²⁵⁶ < 2p fits four
    /// words (nothing carries out of the top), and one conditional subtraction finishes.
    @inlinable @inline(__always)
    static func reduce(_ t: BN254CXWideInteger) -> FixedUInt<4> {
        let m = BN254CXFieldModulus.modulus, inverse = BN254CXFieldModulus.inverse
        let m0 = m.limbs[unchecked: 0], m1 = m.limbs[unchecked: 1], m2 = m.limbs[unchecked: 2], m3 = m.limbs[unchecked: 3]
        var t0 = t.w0, t1 = t.w1, t2 = t.w2, t3 = t.w3, t4 = t.w4, t5 = t.w5, t6 = t.w6, t7 = t.w7
        var k: UInt64, pending: UInt64, u: UInt64
        // Step 0: clears t0, carries into t4.
        u = t0 &* inverse
        (_, k) = UInt64.multiplyAdding(u, m0, t0, carry: 0)
        (t1, k) = UInt64.multiplyAdding(u, m1, t1, carry: k)
        (t2, k) = UInt64.multiplyAdding(u, m2, t2, carry: k)
        (t3, k) = UInt64.multiplyAdding(u, m3, t3, carry: k)
        (t4, pending) = UInt64.addingWithCarry(t4, k, carry: 0)
        // Step 1: clears t1, carries into t5.
        u = t1 &* inverse
        (_, k) = UInt64.multiplyAdding(u, m0, t1, carry: 0)
        (t2, k) = UInt64.multiplyAdding(u, m1, t2, carry: k)
        (t3, k) = UInt64.multiplyAdding(u, m2, t3, carry: k)
        (t4, k) = UInt64.multiplyAdding(u, m3, t4, carry: k)
        (t5, pending) = UInt64.addingWithCarry(t5, k, carry: pending)
        // Step 2: clears t2, carries into t6.
        u = t2 &* inverse
        (_, k) = UInt64.multiplyAdding(u, m0, t2, carry: 0)
        (t3, k) = UInt64.multiplyAdding(u, m1, t3, carry: k)
        (t4, k) = UInt64.multiplyAdding(u, m2, t4, carry: k)
        (t5, k) = UInt64.multiplyAdding(u, m3, t5, carry: k)
        (t6, pending) = UInt64.addingWithCarry(t6, k, carry: pending)
        // Step 3: clears t3, carries into t7.
        u = t3 &* inverse
        (_, k) = UInt64.multiplyAdding(u, m0, t3, carry: 0)
        (t4, k) = UInt64.multiplyAdding(u, m1, t4, carry: k)
        (t5, k) = UInt64.multiplyAdding(u, m2, t5, carry: k)
        (t6, k) = UInt64.multiplyAdding(u, m3, t6, carry: k)
        t7 = t7 &+ k &+ pending  // below 2p < 2²⁵⁵ in t4…t7: no carry out
        return FixedUInt.reducedOnceSpareBits(t4, t5, t6, t7, modulus: m)
    }
}
