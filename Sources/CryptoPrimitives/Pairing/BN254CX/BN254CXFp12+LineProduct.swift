// Two line values multiplied together before they meet the Miller accumulator (Aranha,
// Karabina, Longa, Gebotys and López, "Faster explicit formulas for computing pairings over
// ordinary curves", EUROCRYPT 2011, §4: lines of a multi-pairing step, or the doubling and
// addition lines of one step, are combined first). A D-type line is A + B·t with
// A = l0 + l1·s ∈ Fp4 and B = l2 ∈ Fp2, so the product of two is X + Y·t + Z·t² with Z in Fp2:
// two Fp4 products and one Fp2 product, then five Fp4 and two Fp2 products into f, where two
// separate line products (`timesLine`) take six Fp4 and eight Fp2 products.

import CryptoCore

extension BN254CX {
    /// A line evaluated at a G1 point: (l0 + l1·s) + l2·t, the arguments of ``Fp12/timesLine(_:_:_:)``.
    package struct EvaluatedLine: Sendable {
        package var l0: Fp2
        package var l1: Fp2
        package var l2: Fp2

        @inline(__always)
        package init(_ l0: Fp2, _ l1: Fp2, _ l2: Fp2) {
            self.l0 = l0
            self.l1 = l1
            self.l2 = l2
        }
    }
}

extension BN254CX.Fp12 {
    /// The product of two line values, (AA′, AB′ + A′B, BB′) with the middle by Karatsuba,
    /// (A + B)(A′ + B′) − AA′ − BB′ (B and B′ sit in the c0 slot of an Fp4).
    @inline(__always)
    package static func lineProduct(_ l: BN254CX.EvaluatedLine, _ m: BN254CX.EvaluatedLine)
        -> (x: BN254CX.Fp4, y: BN254CX.Fp4, z: BN254CX.Fp2)
    {
        typealias Fp4 = BN254CX.Fp4
        let x = Fp4(l.l0, l.l1) * Fp4(m.l0, m.l1), z = l.l2 * m.l2
        let sum = Fp4(l.l0 + l.l2, l.l1) * Fp4(m.l0 + m.l2, m.l1)
        return (x, Fp4(sum.c0 - x.c0 - z, sum.c1 - x.c1), z)
    }

    /// self·(x + y·t + z·t²) for z ∈ Fp2, the shape of a product of two lines: cubic
    /// Karatsuba as in `*`, the products by z as Fp4 × Fp2.
    package func timesLineProduct(_ x: BN254CX.Fp4, _ y: BN254CX.Fp4, _ z: BN254CX.Fp2) -> BN254CX.Fp12 {
        typealias Fp4 = BN254CX.Fp4
        let v0 = a * x, v1 = b * y, v2 = c * z
        let a = v0 + ((b + c) * Fp4(y.c0 + z, y.c1) - v1 - v2).timesS
        let b = (self.a + b) * (x + y) - v0 - v1 + v2.timesS
        let c = (self.a + c) * Fp4(x.c0 + z, x.c1) - v0 - v2 + v1
        return BN254CX.Fp12(a, b, c)
    }

    /// self·ℓ·m for two line values.
    @inline(__always)
    package func timesLines(_ l: BN254CX.EvaluatedLine, _ m: BN254CX.EvaluatedLine) -> BN254CX.Fp12 {
        let (x, y, z) = Self.lineProduct(l, m)
        return timesLineProduct(x, y, z)
    }
}
