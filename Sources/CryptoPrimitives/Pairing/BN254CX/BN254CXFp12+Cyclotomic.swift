// Frobenius maps of Fp12, arithmetic in the cyclotomic subgroup (Granger–Scott squarings and
// Karabina's compressed ones), and the final exponentiation of the pairing (docs/protocols/mpin.md §2.2, §2.4).

import CryptoCore

extension BN254CX.Fp12 {
    /// The p-th power: each Fp2 coefficient of wᵏ is conjugated and multiplied by γₖ
    /// (w^(p) = γ1·w). Coefficients of wᵏ: k = 0, 3 in `a`, 1, 4 in `b`, 2, 5 in `c`.
    package func frobenius() -> BN254CX.Fp12 {
        BN254CX.Fp12(BN254CX.Fp4(a.c0.conjugate, a.c1.conjugate * BN254CX.frobeniusGamma3),
                     BN254CX.Fp4(b.c0.conjugate * BN254CX.frobeniusGamma1, b.c1.conjugate * BN254CX.frobeniusGamma4),
                     BN254CX.Fp4(c.c0.conjugate * BN254CX.frobeniusGamma2, c.c1.conjugate * BN254CX.frobeniusGamma5))
    }

    /// The p²-th power: coefficients are multiplied by δₖ ∈ Fp.
    package func frobeniusSquared() -> BN254CX.Fp12 {
        BN254CX.Fp12(BN254CX.Fp4(a.c0, a.c1 * BN254CX.frobeniusDelta3),
                     BN254CX.Fp4(b.c0 * BN254CX.frobeniusDelta1, b.c1 * BN254CX.frobeniusDelta4),
                     BN254CX.Fp4(c.c0 * BN254CX.frobeniusDelta2, c.c1 * BN254CX.frobeniusDelta5))
    }

    /// The p³-th power.
    package func frobeniusCubed() -> BN254CX.Fp12 { frobeniusSquared().frobenius() }

    /// The square of an element of the cyclotomic subgroup, f^(p⁴ − p² + 1) = 1 (Granger and
    /// Scott, "Faster squaring in the cyclotomic subgroup of sixth degree extensions", 2010):
    /// with x̄ the conjugate over Fp2, f² = (3a² − 2ā) + (3s·c² + 2b̄)·t + (3b² − 2c̄)·t².
    /// Wrong for other elements (even unitary ones), so used only after the easy part of the
    /// final exponentiation and on GT.
    /// Each Fp2 coefficient 3X ∓ 2x is formed as 2(X ∓ x) + X: three sums, not five.
    package func cyclotomicSquared() -> BN254CX.Fp12 {
        typealias Fp2 = BN254CX.Fp2
        typealias Fp4 = BN254CX.Fp4
        @inline(__always) func threeMinusTwo(_ big: Fp2, _ x: Fp2) -> Fp2 { (big - x).doubled + big }
        @inline(__always) func threePlusTwo(_ big: Fp2, _ x: Fp2) -> Fp2 { (big + x).doubled + big }
        let a2 = a.squared()
        // x̄ = x0 − x1·s, so 3X − 2x̄ = (3X0 − 2x0, 3X1 + 2x1); b and c as Karabina's squaring.
        let (newB, newC) = Self.karabinaSquared(b, c)
        return BN254CX.Fp12(Fp4(threeMinusTwo(a2.c0, a.c0), threePlusTwo(a2.c1, a.c1)), newB, newC)
    }

    /// f^u for u = −|u| of BN254CX, for f in the cyclotomic subgroup: square-and-multiply over
    /// the non-adjacent form of |u| (public), a digit −1 multiplying by the conjugate, which is
    /// the inverse there; then the conjugate. The NAF has 9 nonzero digits where the binary
    /// form has 11 (2²⁶ − 2²² for bits 22–25, 2⁸ − 2⁶ − 2⁴ for 0xB0): two Fp12 products fewer
    /// per call, six per final exponentiation. A run of at least ``karabinaMinimumRun``
    /// squarings (the 36 between digits 62 and 26) is done compressed (Karabina), the others
    /// by Granger–Scott.
    package func powerByU() -> BN254CX.Fp12 {
        let inverse = conjugate
        let digits = BN254CX.absoluteUNAF
        var result = self                                  // the leading digit, 1
        var next = 1
        while next < digits.count {
            var end = next                                 // the next nonzero digit, or the last
            while end < digits.count - 1 && digits[end] == 0 { end += 1 }
            let squarings = end - next + 1
            if squarings >= Self.karabinaMinimumRun {
                result = result.karabinaSquared(repeatedly: squarings)
            } else {
                for _ in 0..<squarings { result = result.cyclotomicSquared() }
            }
            if digits[end] == 1 { result = result * self }
            if digits[end] == -1 { result = result * inverse }
            next = end + 1
        }
        return result.conjugate
    }

    /// The final exponentiation f^((p¹²−1)/r) (docs/protocols/mpin.md §2.4): the easy part
    /// f^((p⁶−1)(p²+1)), then the hard part (p⁴ − p² + 1)/r as
    /// λ₀ + λ₁p + λ₂p² + λ₃p³ with λ₃ = 1, λ₂ = 6u² + 1, λ₁ = −36u³ − 18u² − 12u + 1,
    /// λ₀ = −36u³ − 30u² − 18u − 2, by the addition chain of Scott, Benger, Charlemagne,
    /// Dominguez Perez and Kachisa ("On the final exponentiation for calculating pairings on
    /// ordinary elliptic curves", 2009, §5). Constant time.
    package func finalExponentiation() -> BN254CX.Fp12 {
        var f = conjugate * inverted()          // f^(p⁶ − 1)
        f = f.frobeniusSquared() * f            // f^((p⁶ − 1)(p² + 1))
        let fx = f.powerByU(), fx2 = fx.powerByU(), fx3 = fx2.powerByU()
        let fp2 = f.frobeniusSquared()
        let y0 = f.frobenius() * fp2 * fp2.frobenius()     // f^p · f^(p²) · f^(p³)
        let y1 = f.conjugate
        let y2 = fx2.frobeniusSquared()
        let y3 = fx.frobenius().conjugate
        let y4 = (fx * fx2.frobenius()).conjugate
        let y5 = fx2.conjugate
        let y6 = (fx3 * fx3.frobenius()).conjugate
        var t0 = y6.cyclotomicSquared() * y4 * y5
        var t1 = y3 * y5 * t0
        t0 = t0 * y2
        t1 = (t1.cyclotomicSquared() * t0).cyclotomicSquared()
        t0 = t1 * y1
        t1 = t1 * y0
        t0 = t0.cyclotomicSquared()
        return t1 * t0
    }
}

// Karabina's compressed squarings in the cyclotomic subgroup ("Squaring in cyclotomic
// subgroups", Math. Comp. 2013; Aranha, Karabina, Longa, Gebotys and López, "Faster explicit
// formulas for computing pairings over ordinary curves", EUROCRYPT 2011, §5.2), for the long
// squaring run of the exponentiation by u in the hard part of the final exponentiation.
//
// In Fp12 = Fp4[t]/(t³ − s), with w = t and w³ = s, the coefficients of w¹, w⁴, w², w⁵ are
// b.c0, b.c1, c.c0, c.c1. Karabina's compressed form keeps those four; his squaring of them is
// exactly the b and c part of the Granger–Scott square, so a compressed square is two Fp4
// squarings where the full one takes three. The dropped a = a0 + a1·s comes back from
//   4b0·a1 = ξ·c1² + 3c0² − 2b1,        (a1·b1 = 2c0·c1 when b0 = 0)
//   a0 = ξ·(2a1² + b0·c1 − 3b1·c0) + 1,
// identities of the cyclotomic subgroup (a test checks them on random elements), at the cost
// of one Fp2 inversion, so only a run of at least `karabinaMinimumRun` squarings is compressed.
extension BN254CX.Fp12 {
    /// The shortest squaring run worth compressing: one decompression (an Fp2 inversion and
    /// about seven Fp2 products) costs about what ten saved Fp4 squarings do.
    package static let karabinaMinimumRun = 16

    /// The compressed square (b, c) ↦ (b′, c′) of an element whose w¹, w⁴, w², w⁵ coefficients
    /// are b and c: b′ = 3s·c² + 2b̄ and c′ = 3b² − 2c̄ (the Granger–Scott b and c, Karabina's
    /// h3, h2, h4, h5), two Fp4 squarings. Each coefficient 3X ∓ 2x is formed as 2(X ∓ x) + X.
    @inline(__always)
    package static func karabinaSquared(_ b: BN254CX.Fp4, _ c: BN254CX.Fp4) -> (b: BN254CX.Fp4, c: BN254CX.Fp4) {
        typealias Fp2 = BN254CX.Fp2
        @inline(__always) func threeMinusTwo(_ big: Fp2, _ x: Fp2) -> Fp2 { (big - x).doubled + big }
        @inline(__always) func threePlusTwo(_ big: Fp2, _ x: Fp2) -> Fp2 { (big + x).doubled + big }
        let b2 = b.squared(), c2 = c.squared().timesS
        // x̄ = x0 − x1·s, so 3X + 2x̄ = (3X0 + 2x0, 3X1 − 2x1) and 3X − 2x̄ the other way round.
        return (BN254CX.Fp4(threePlusTwo(c2.c0, b.c0), threeMinusTwo(c2.c1, b.c1)),
                BN254CX.Fp4(threeMinusTwo(b2.c0, c.c0), threePlusTwo(b2.c1, c.c1)))
    }

    /// The element of the cyclotomic subgroup whose w¹, w⁴, w², w⁵ coefficients are b and c
    /// (Karabina's decompression, the identities in the header). b0 = 0 switches, under a
    /// mask, to a1 = 2c0·c1/b1; when b0 = b1 = 0 the inversion of zero gives zero, so a1 = 0,
    /// a0 = 1 (then c = 0 too: the element is 1, the only one of the subgroup with
    /// b = 0). Constant time.
    package static func karabinaDecompressed(_ b: BN254CX.Fp4, _ c: BN254CX.Fp4) -> BN254CX.Fp12 {
        typealias Fp2 = BN254CX.Fp2
        let (b0, b1, c0, c1) = (b.c0, b.c1, c.c0, c.c1)
        let c0Squared = c0.squared()
        let b0IsZero = b0.isZero
        // ξ·c1² + 3c0² − 2b1 over 4b0, or 2c0·c1 over b1 when b0 = 0.
        let numerator = Fp2.select((c0 * c1).doubled, c1.squared().timesXi + (c0Squared - b1).doubled + c0Squared, if: b0IsZero)
        let denominator = Fp2.select(b1, b0.doubled.doubled, if: b0IsZero)
        let a1 = numerator * denominator.inverted()
        let b1c0 = b1 * c0
        // 2a1² + b0·c1 − 3b1·c0 = 2(a1² − b1·c0) − b1·c0 + b0·c1.
        let a0 = ((a1.squared() - b1c0).doubled - b1c0 + b0 * c1).timesXi + .one
        return BN254CX.Fp12(BN254CX.Fp4(a0, a1), b, c)
    }

    /// self^(2^count) for self in the cyclotomic subgroup: `count` compressed squarings and one
    /// decompression. Constant time (count is public).
    package func karabinaSquared(repeatedly count: Int) -> BN254CX.Fp12 {
        var (b, c) = (self.b, self.c)
        for _ in 0..<count { (b, c) = Self.karabinaSquared(b, c) }
        return Self.karabinaDecompressed(b, c)
    }
}
