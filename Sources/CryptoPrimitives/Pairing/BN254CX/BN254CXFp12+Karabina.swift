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

import CryptoCore

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
