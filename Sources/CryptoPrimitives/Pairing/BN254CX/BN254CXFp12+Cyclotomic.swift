// Frobenius maps of Fp12, arithmetic in the cyclotomic subgroup, and the final exponentiation
// of the pairing (mpin.md §2.2, §2.4).

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

    /// The final exponentiation f^((p¹²−1)/r) (mpin.md §2.4): the easy part
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
