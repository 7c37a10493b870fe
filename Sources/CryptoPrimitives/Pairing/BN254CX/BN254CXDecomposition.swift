// Splitting a scalar for the endomorphisms of BN254CX: GLV on G1 (φ(x, y) = (βx, y) acts as
// λ = 36U³ − 18U² + 6U − 2, U = |u|) and Galbraith–Scott on G2 and GT (ψ and the p-power
// Frobenius act as p ≡ 6U² mod r). Babai rounding with the lattice bases below and the
// generated constants ⌊2²⁵⁶·m/r⌉; every step is fixed-width arithmetic mod 2²⁵⁶ on two's
// complement values, so the split is constant time in the scalar.

import CryptoCore

extension BN254CX {
    /// A signed scalar piece: magnitude and whether it is negative.
    package struct SignedPiece: Sendable {
        package var magnitude: FixedUInt<4>
        package var isNegative: Choice
    }

    /// ⌊(k·g + 2²⁵⁵)/2²⁵⁶⌋, the rounded quotient k·g/2²⁵⁶.
    @inline(__always)
    static func roundedHigh(_ k: FixedUInt<4>, _ g: FixedUInt<4>) -> FixedUInt<4> {
        let (high, low) = k.multipliedFullWidth(by: g)
        return high.addingReportingCarry(.zero, carry: low.bit(255)).sum
    }

    /// x·y mod 2²⁵⁶.
    @inline(__always)
    package static func wrappingProduct(_ x: FixedUInt<4>, _ y: FixedUInt<4>) -> FixedUInt<4> {
        x.multipliedFullWidth(by: y).low
    }

    /// −x mod 2²⁵⁶.
    @inline(__always)
    static func wrappingNegation(_ x: FixedUInt<4>) -> FixedUInt<4> {
        FixedUInt<4>.zero.subtractingReportingBorrow(x).difference
    }

    /// A two's-complement value as magnitude and sign. Constant time.
    @inline(__always)
    static func signedPiece(_ x: FixedUInt<4>) -> SignedPiece {
        let isNegative = Choice(bit: x.bit(255))
        return SignedPiece(magnitude: FixedUInt.select(wrappingNegation(x), x, if: isNegative), isNegative: isNegative)
    }

    /// U, U², U³ as 256-bit integers (U = |u|).
    package static var uPowers: (FixedUInt<4>, FixedUInt<4>, FixedUInt<4>) {
        let u = FixedUInt<4>(absoluteU)
        let u2 = wrappingProduct(u, u)
        return (u, u2, wrappingProduct(u2, u))
    }

    /// k ≡ k1 + k2·λ (mod r) with |k1|, |k2| < 2¹²⁹, from the basis
    /// v1 = (6U² − 2U, 2U − 1), v2 = (2U − 1, −(6U² − 4U + 1)) of {(a, b) : a + bλ ≡ 0}.
    package static func glvDecomposition(_ k: FixedUInt<4>) -> (SignedPiece, SignedPiece) {
        let (u, u2, _) = uPowers
        let six = FixedUInt<4>(6), four = FixedUInt<4>(4)
        let twoUMinusOne = u.shiftedLeft(by: 1).subtractingReportingBorrow(FixedUInt(1)).difference
        let a1 = wrappingProduct(six, u2).subtractingReportingBorrow(u.shiftedLeft(by: 1)).difference           // 6U² − 2U
        let b2Magnitude = wrappingProduct(six, u2).subtractingReportingBorrow(wrappingProduct(four, u)).difference
            .addingReportingCarry(FixedUInt(1)).sum                                                              // 6U² − 4U + 1
        let c1 = roundedHigh(k, glvRound1), c2 = roundedHigh(k, glvRound2)
        let k1 = k.subtractingReportingBorrow(wrappingProduct(c1, a1)).difference
            .subtractingReportingBorrow(wrappingProduct(c2, twoUMinusOne)).difference
        let k2 = wrappingProduct(c2, b2Magnitude).subtractingReportingBorrow(wrappingProduct(c1, twoUMinusOne)).difference
        return (signedPiece(k1), signedPiece(k2))
    }

    /// k ≡ k0 + k1·λ + k2·λ² + k3·λ³ (mod r), λ = 6U² (p mod r), pieces below 2⁶⁶, from the
    /// LLL-reduced basis (rows, u = −U)
    /// (2u+1, 0, 2u, 1), (−2u−1, u, u+1, u), (u, −u, u, 2u+1), (−2u, −u−1, u, −u),
    /// of determinant −r; the Babai coefficients are −⌊k·m₀/r⌉, ⌊k·m₁/r⌉, ⌊k·m₂/r⌉, ⌊k·m₃/r⌉.
    package static func gsDecomposition(_ k: FixedUInt<4>) -> InlineArray<4, SignedPiece> {
        let (u, _, _) = uPowers
        let one = FixedUInt<4>(1)
        let twoU = u.shiftedLeft(by: 1)
        let minus = { (x: FixedUInt<4>) in wrappingNegation(x) }
        // Rows of the basis as two's-complement integers.
        let rows: [[FixedUInt<4>]] = [
            [minus(twoU).addingReportingCarry(one).sum, .zero, minus(twoU), one],
            [twoU.subtractingReportingBorrow(one).difference, minus(u), minus(u).addingReportingCarry(one).sum, minus(u)],
            [minus(u), u, minus(u), minus(twoU).addingReportingCarry(one).sum],
            [twoU, u.subtractingReportingBorrow(one).difference, minus(u), u],
        ]
        let c = [minus(roundedHigh(k, gsRound0)), roundedHigh(k, gsRound1), roundedHigh(k, gsRound2), roundedHigh(k, gsRound3)]
        var pieces = [k, FixedUInt<4>.zero, .zero, .zero]
        for j in 0..<4 {
            for i in 0..<4 {
                pieces[i] = pieces[i].subtractingReportingBorrow(wrappingProduct(c[j], rows[j][i])).difference
            }
        }
        return InlineArray<4, SignedPiece> { signedPiece(pieces[$0]) }
    }
}
