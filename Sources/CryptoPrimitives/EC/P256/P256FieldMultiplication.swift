// Multiplication and squaring in GF(p) for p = 2²⁵⁶ − 2²²⁴ + 2¹⁹² + 2⁹⁶ − 1, with the
// Montgomery reduction specialised to the shape of p (the technique of
// Gueron and Krasnov, "Fast prime field elliptic-curve cryptography with 256-bit primes", 2014).
//
// Since −p⁻¹ ≡ 1 (mod 2⁶⁴), the reduction word of a step is the accumulator's low word u, and
// u·p = −u + u·2⁹⁶ + u·2¹⁹²·(2⁶⁴ − 2³² + 1): adding it clears the low word exactly, puts
// u << 32 and u >> 32 into the next two words and one 64×64 product u·0xFFFFFFFF00000001 into
// the two after. A reduction step is one multiplication instead of the generic CIOS's four.
// Every step is straight-line carry arithmetic: constant time, as the generic core.
//
// These overloads are chosen over the generic `MontgomeryResidue` operators wherever the type
// is `P256.FieldElement` (the constrained extension is the more specific). A test checks them
// against the generic CIOS product on random and edge inputs.

import CryptoCore

extension MontgomeryResidue where Modulus == P256FieldModulus {
    /// `a · b` in Montgomery form (a · b · 2⁻²⁵⁶ mod p).
    @inline(never)
    package static func * (a: Self, b: Self) -> Self {
        Self(montgomeryForm: P256FieldArithmetic.product(a.montgomeryForm, b.montgomeryForm))
    }

    /// `self²`, with the cross products computed once.
    @inline(never)
    package func squared() -> Self {
        Self(montgomeryForm: P256FieldArithmetic.square(montgomeryForm))
    }
}

/// The word-level kernels behind the P-256 field operators.
@usableFromInline
package enum P256FieldArithmetic {
    /// 2⁶⁴ − 2³² + 1, the top two words of p read as one multiplier (u·2¹⁹²·this).
    @inlinable static var topMultiplier: UInt64 { 0xFFFF_FFFF_0000_0001 }

    /// `a · b · 2⁻²⁵⁶ mod p` for `a, b < p`: operand scanning with the reduction interleaved
    /// (each row a·bᵢ is added to the running value, then one specialised reduction step
    /// divides by 2⁶⁴), the CIOS order of Koç, Acar and Kaliski, "Analyzing and comparing
    /// Montgomery multiplication algorithms" (IEEE Micro 1996). The running value stays below
    /// 2p (five words), so one masked subtraction finishes. Fewer values are live at once than
    /// with the full 512-bit product first: about 10 % fewer instructions on x86-64.
    @inlinable @inline(__always)
    package static func product(_ a: FixedUInt<4>, _ b: FixedUInt<4>) -> FixedUInt<4> {
        let a0 = a.limbs[unchecked: 0], a1 = a.limbs[unchecked: 1], a2 = a.limbs[unchecked: 2], a3 = a.limbs[unchecked: 3]
        var t = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        t = productRow(t, a0, a1, a2, a3, b.limbs[unchecked: 0])
        t = productRow(t, a0, a1, a2, a3, b.limbs[unchecked: 1])
        t = productRow(t, a0, a1, a2, a3, b.limbs[unchecked: 2])
        t = productRow(t, a0, a1, a2, a3, b.limbs[unchecked: 3])
        return subtractingModulusOnce(t.0, t.1, t.2, t.3, t.4)
    }

    /// (t + a·bᵢ + u·p) / 2⁶⁴ for t < 2p: the row in six words (the sixth at most 1), then
    /// ``reductionStep(_:_:_:_:_:_:)``; below 2p again.
    @inlinable @inline(__always)
    static func productRow(_ t: (UInt64, UInt64, UInt64, UInt64, UInt64),
                           _ a0: UInt64, _ a1: UInt64, _ a2: UInt64, _ a3: UInt64, _ bi: UInt64)
        -> (UInt64, UInt64, UInt64, UInt64, UInt64) {
        var c: UInt64
        let x0, x1, x2, x3, x4, x5: UInt64
        (x0, c) = UInt64.multiplyAdding(a0, bi, t.0, carry: 0)
        (x1, c) = UInt64.multiplyAdding(a1, bi, t.1, carry: c)
        (x2, c) = UInt64.multiplyAdding(a2, bi, t.2, carry: c)
        (x3, c) = UInt64.multiplyAdding(a3, bi, t.3, carry: c)
        (x4, x5) = UInt64.addingWithCarry(t.4, c, carry: 0)
        return reductionStep(x0, x1, x2, x3, x4, x5)
    }

    /// `w · 2⁻²⁵⁶ mod p` for a 512-bit w < p·2²⁵⁶: four specialised steps on the low half give
    /// R = (low + U·p) / 2²⁵⁶ ≤ p (each step's fifth word is zero: the high word of
    /// u·(2⁶⁴ − 2³² + 1) plus a carry fits one word); R plus the high half (< p) is below 2p,
    /// so one conditional subtraction finishes.
    @inlinable @inline(__always)
    package static func reduce(_ w0: UInt64, _ w1: UInt64, _ w2: UInt64, _ w3: UInt64,
                       _ w4: UInt64, _ w5: UInt64, _ w6: UInt64, _ w7: UInt64) -> FixedUInt<4> {
        var t0 = w0, t1 = w1, t2 = w2, t3 = w3
        for _ in 0..<4 {
            (t0, t1, t2, t3, _) = reductionStep(t0, t1, t2, t3, 0, 0)
        }
        var carry: UInt64
        let top: UInt64
        (t0, carry) = UInt64.addingWithCarry(t0, w4, carry: 0)
        (t1, carry) = UInt64.addingWithCarry(t1, w5, carry: carry)
        (t2, carry) = UInt64.addingWithCarry(t2, w6, carry: carry)
        (t3, top) = UInt64.addingWithCarry(t3, w7, carry: carry)
        return subtractingModulusOnce(t0, t1, t2, t3, top)
    }

    /// `a² · 2⁻²⁵⁶ mod p` for `a < p`: the 512-bit square (six cross products, doubled, and
    /// four squares), then ``reduce(_:_:_:_:_:_:_:_:)``.
    @inlinable @inline(__always)
    package static func square(_ a: FixedUInt<4>) -> FixedUInt<4> {
        let a0 = a.limbs[unchecked: 0], a1 = a.limbs[unchecked: 1], a2 = a.limbs[unchecked: 2], a3 = a.limbs[unchecked: 3]
        // Cross products aᵢ·aⱼ, i < j, into words 1…6.
        var carry: UInt64
        var w1: UInt64, w2: UInt64, w3: UInt64, w4: UInt64, w5: UInt64, w6: UInt64, w7: UInt64
        (w1, carry) = UInt64.multiplyAdding(a0, a1, 0, carry: 0)
        (w2, carry) = UInt64.multiplyAdding(a0, a2, 0, carry: carry)
        (w3, w4) = UInt64.multiplyAdding(a0, a3, 0, carry: carry)
        (w3, carry) = UInt64.multiplyAdding(a1, a2, w3, carry: 0)
        (w4, w5) = UInt64.multiplyAdding(a1, a3, w4, carry: carry)
        (w5, w6) = UInt64.multiplyAdding(a2, a3, w5, carry: 0)
        // Doubled: shift words 1…6 left by one bit into 1…7.
        w7 = w6 &>> 63
        w6 = (w6 &<< 1) | (w5 &>> 63)
        w5 = (w5 &<< 1) | (w4 &>> 63)
        w4 = (w4 &<< 1) | (w3 &>> 63)
        w3 = (w3 &<< 1) | (w2 &>> 63)
        w2 = (w2 &<< 1) | (w1 &>> 63)
        w1 = w1 &<< 1
        // Plus the squares aᵢ² at words 2i, 2i+1.
        let (s0, h0) = UInt64.multiplyAdding(a0, a0, 0, carry: 0)
        let (l1, h1) = UInt64.multiplyAdding(a1, a1, 0, carry: 0)
        let (l2, h2) = UInt64.multiplyAdding(a2, a2, 0, carry: 0)
        let (l3, h3) = UInt64.multiplyAdding(a3, a3, 0, carry: 0)
        (w1, carry) = UInt64.addingWithCarry(w1, h0, carry: 0)
        (w2, carry) = UInt64.addingWithCarry(w2, l1, carry: carry)
        (w3, carry) = UInt64.addingWithCarry(w3, h1, carry: carry)
        (w4, carry) = UInt64.addingWithCarry(w4, l2, carry: carry)
        (w5, carry) = UInt64.addingWithCarry(w5, h2, carry: carry)
        (w6, carry) = UInt64.addingWithCarry(w6, l3, carry: carry)
        (w7, _) = UInt64.addingWithCarry(w7, h3, carry: carry)
        return reduce(s0, w1, w2, w3, w4, w5, w6, w7)
    }

    /// One reduction step on a 6-word value t (t₅ ≤ 1): (t + u·p) / 2⁶⁴ with u = t₀, as five
    /// words. The low word cancels exactly (t₀ − u = 0, no borrow).
    @inlinable @inline(__always)
    static func reductionStep(_ t0: UInt64, _ t1: UInt64, _ t2: UInt64, _ t3: UInt64, _ t4: UInt64, _ t5: UInt64)
        -> (UInt64, UInt64, UInt64, UInt64, UInt64) {
        let u = t0
        let (low, high) = UInt64.multiplyAdding(u, topMultiplier, 0, carry: 0)
        var carry: UInt64
        let n0, n1, n2, n3: UInt64
        (n0, carry) = UInt64.addingWithCarry(t1, u &<< 32, carry: 0)
        (n1, carry) = UInt64.addingWithCarry(t2, u &>> 32, carry: carry)
        (n2, carry) = UInt64.addingWithCarry(t3, low, carry: carry)
        (n3, carry) = UInt64.addingWithCarry(t4, high, carry: carry)
        return (n0, n1, n2, n3, t5 &+ carry)
    }
}
