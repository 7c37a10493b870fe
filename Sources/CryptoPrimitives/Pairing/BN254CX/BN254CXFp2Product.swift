// The Fp2 product with lazy reduction (Aranha, Karabina, Longa, Gebotys and
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

/// The word-level kernels of the lazy Fp2 product.
@usableFromInline
package enum BN254CXFp2Kernel {
    /// (a0 + a1·i)(b0 + b1·i) for Montgomery forms below p, returning Montgomery forms below p.
    @inline(never)
    static func product(_ a0: FixedUInt<4>, _ a1: FixedUInt<4>, _ b0: FixedUInt<4>, _ b1: FixedUInt<4>) -> (FixedUInt<4>, FixedUInt<4>) {
        let v0 = FixedUInt.wideProduct(a0, b0)
        let v1 = FixedUInt.wideProduct(a1, b1)
        let v2 = FixedUInt.wideProduct(.sumBelowTwiceModulus(a0, a1), .sumBelowTwiceModulus(b0, b1))
        let imaginary = BN254CXFp4Kernel.wideDifference(BN254CXFp4Kernel.wideDifference(v2, v0), v1)
        var (real, negative) = BN254CXFp4Kernel.wideDifferenceWithBorrow(v0, v1)
        // c0 < 0: add p·2²⁵⁶ (the top four words), the carry out cancelling the wrap.
        let m = BN254CXFieldModulus.modulus, mask = 0 &- negative
        var carry: UInt64
        (real.w4, carry) = UInt64.addingWithCarry(real.w4, m.limbs[unchecked: 0] & mask, carry: 0)
        (real.w5, carry) = UInt64.addingWithCarry(real.w5, m.limbs[unchecked: 1] & mask, carry: carry)
        (real.w6, carry) = UInt64.addingWithCarry(real.w6, m.limbs[unchecked: 2] & mask, carry: carry)
        real.w7 = real.w7 &+ (m.limbs[unchecked: 3] & mask) &+ carry
        return (reduce(real), reduce(imaginary))
    }

    /// `t · 2⁻²⁵⁶ mod p` for `t < p·2²⁵⁶`: four Montgomery steps, each clearing one low word
    /// with u = tᵢ·(−p⁻¹) and adding u·p's words into the next three and the fourth; the
    /// carry out of each step's fourth word (kᵢ, for word i + 4) is held back and the four are
    /// added to the top half in one final `adc` chain, so no carry is materialised between
    /// steps (the reduction half of SOS, Koç, Acar and Kaliski, "Analyzing and comparing
    /// Montgomery multiplication algorithms", 1996, with its carries deferred). The sum is exact: each step's
    /// product-and-add fits 128 bits whatever the word holds, and addition commutes.
    /// (t + U·p)/2²⁵⁶ < 2p < 2²⁵⁵ fits four words (the final chain carries nothing out of the
    /// top), and one conditional subtraction finishes.
    @inlinable @inline(__always)
    package static func reduce(_ t: WideUInt512) -> FixedUInt<4> {
        let m = BN254CXFieldModulus.modulus, inverse = BN254CXFieldModulus.inverse
        let m0 = m.limbs[unchecked: 0], m1 = m.limbs[unchecked: 1], m2 = m.limbs[unchecked: 2], m3 = m.limbs[unchecked: 3]
        var t1 = t.w1, t2 = t.w2, t3 = t.w3, t4 = t.w4, t5 = t.w5, t6 = t.w6
        /// One step: u = low·(−p⁻¹) clears `low`; u·p's words go into a, b, c and the carry
        /// out of c is returned for the word after c.
        @inline(__always)
        func step(_ low: UInt64, _ a: inout UInt64, _ b: inout UInt64, _ c: inout UInt64) -> UInt64 {
            let u = low &* inverse
            var k: UInt64
            (_, k) = UInt64.multiplyAdding(u, m0, low, carry: 0)
            (a, k) = UInt64.multiplyAdding(u, m1, a, carry: k)
            (b, k) = UInt64.multiplyAdding(u, m2, b, carry: k)
            (c, k) = UInt64.multiplyAdding(u, m3, c, carry: k)
            return k
        }
        let k0 = step(t.w0, &t1, &t2, &t3)  // for word 4
        let k1 = step(t1, &t2, &t3, &t4)    // for word 5
        let k2 = step(t2, &t3, &t4, &t5)    // for word 6
        let k3 = step(t3, &t4, &t5, &t6)    // for word 7
        var carry: UInt64
        let s0, s1, s2: UInt64
        (s0, carry) = UInt64.addingWithCarry(t4, k0, carry: 0)
        (s1, carry) = UInt64.addingWithCarry(t5, k1, carry: carry)
        (s2, carry) = UInt64.addingWithCarry(t6, k2, carry: carry)
        return FixedUInt.reducedOnceSpareBits(s0, s1, s2, t.w7 &+ k3 &+ carry, modulus: m)
    }
}
