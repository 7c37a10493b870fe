// The optimal ate Miller loop (docs/protocols/mpin.md §2.4): lines through points of the D-type twist,
// evaluated at an affine G1 point, with the running point in homogeneous projective
// coordinates. The line coefficients depend on Q only, so they are computed once
// (`G2Prepared`) and replayed for any P, and several pairs share one loop, whose lines are
// multiplied together two at a time before they meet the accumulator.

import CryptoCore

extension BN254CX {
    /// One line ℓ = c0·yP + c1·w³ + c2·xP·w, i.e. the Fp12 value (c0·yP + c1·s) + (c2·xP)·t.
    package struct LineCoefficients: Sendable {
        package var c0: Fp2
        package var c1: Fp2
        package var c2: Fp2
    }

    /// The signed digits of |6u + 2| used by the loop, most significant first (after the
    /// implicit leading 1): dᵢ = bitᵢ(3n) − bitᵢ(n) for i = nbits(3n) − 2 … 1 (docs/protocols/mpin.md §2.4).
    package static let millerDigits: [Int8] = {
        let n: UInt128 = 6 * UInt128(absoluteU) - 2        // |6u + 2| for u < 0
        let n3 = 3 * n
        let bits = 128 - n3.leadingZeroBitCount
        return stride(from: bits - 2, through: 1, by: -1).map { i in
            Int8(truncatingIfNeeded: (n3 >> i) & 1) - Int8(truncatingIfNeeded: (n >> i) & 1)
        }
    }()

    /// The non-adjacent form of |u|, most significant digit first (digits in {−1, 0, 1}, no
    /// two adjacent nonzero), for ``Fp12/powerByU()``.
    package static let absoluteUNAF: [Int8] = {
        var n = absoluteU, digits: [Int8] = []
        while n != 0 {
            var digit: Int8 = 0
            if n & 1 == 1 {
                digit = n & 3 == 1 ? 1 : -1
                n = digit == 1 ? n - 1 : n + 1
            }
            digits.append(digit)
            n >>= 1
        }
        return digits.reversed()
    }()

    /// The lines of the Miller loop for one G2 point, in the order the loop uses them.
    package struct G2Prepared: Sendable {
        package private(set) var lines: [LineCoefficients]
        /// Whether Q is the point at infinity (the pairing is then 1).
        package let isInfinity: Bool
        /// Whether every line was divided by its c0 (``normalize()``): c0 = 1, and the loop
        /// evaluates a line as yP + c1·s + c2·xP·t, two Fp products fewer.
        package private(set) var isNormalized = false

        /// Overwrites the lines with zeros in a way the optimiser may not remove, for lines of a
        /// secret point (they reveal it). Wipes this copy's buffer (a shared one is copied first).
        package mutating func wipe() {
            lines.withUnsafeMutableBytes { SecretBytes.wipe($0) }
        }

        /// Divides every line by its c0 ∈ Fp2, with one inversion for all
        /// (``BN254CXCurveField/invertedTogether(_:)``), for lines kept and replayed many times
        /// (a verifier's fixed points). The Miller value changes by a factor in Fp2* ⊂ Fp6*,
        /// which the final exponentiation's p⁶ − 1 removes, so every pairing value is
        /// unchanged. No c0 is zero for a point of G2: c0 = 2Y·Z in a doubling step (T = kQ is
        /// neither infinity nor of order 2) and X − x·Z in an addition step (T is never ±the
        /// added point). Constant time in the lines; the copies of the c0s and their inverses
        /// are wiped.
        package mutating func normalize() {
            guard !isInfinity, !isNormalized else { return }
            var c0s = lines.map { $0.c0 }
            var c0Inverses = Fp2.invertedTogether(c0s)
            for i in lines.indices {
                lines[i] = LineCoefficients(c0: .one, c1: lines[i].c1 * c0Inverses[i], c2: lines[i].c2 * c0Inverses[i])
            }
            c0s.withUnsafeMutableBytes { SecretBytes.wipe($0) }
            c0Inverses.withUnsafeMutableBytes { SecretBytes.wipe($0) }
            isNormalized = true
        }

        /// Precomputes the lines for the affine point (x, y) of the twist. Constant time in the
        /// point (branches only on the public loop digits), so it may be secret (sQ).
        package init(x qx: Fp2, y qy: Fp2, isInfinity: Bool) {
            self.isInfinity = isInfinity
            guard !isInfinity else {  // the pairing is 1: the loop skips this pair
                lines = []
                return
            }
            var lines: [LineCoefficients] = []
            lines.reserveCapacity(2 * BN254CX.millerDigits.count + 2)
            var t = G2Projective(affineX: qx, y: qy)
            for digit in BN254CX.millerDigits {
                lines.append(Self.doublingStep(&t))
                if digit == 1 { lines.append(Self.additionStep(&t, qx, qy)) }
                if digit == -1 { lines.append(Self.additionStep(&t, qx, -qy)) }
            }
            // u < 0: the loop value is negative, so T = −T (the accumulator is conjugated in
            // the loop), then the two Frobenius corrections with π(Q) and −π²(Q).
            t = -t
            let q1x = qx.conjugate * BN254CX.frobeniusGamma2, q1y = qy.conjugate * BN254CX.frobeniusGamma3
            lines.append(Self.additionStep(&t, q1x, q1y))
            let q2x = qx * BN254CX.frobeniusDelta2, q2y = -(qy * BN254CX.frobeniusDelta3)
            lines.append(Self.additionStep(&t, q2x, q2y))
            self.lines = lines
        }

        /// T ← 2T and the tangent line at T (Costello, Lange and Naehrig, "Faster pairing
        /// computations on curves with high-degree twists", 2010; D-type form of Aranha et al.,
        /// 2011): ℓ = 2YZ·yP + (Y² − 3b′Z²)·w³ − 3X²·xP·w.
        @inline(__always)
        static func doublingStep(_ t: inout G2Projective) -> LineCoefficients {
            let a = (t.x * t.y).halved
            let b = t.y.squared(), c = t.z.squared()
            let e = c.timesCurveB3
            let f = e + e + e
            let g = (b + f).halved
            let h = (t.y + t.z).squared() - (b + c)
            let xSquared = t.x.squared(), eSquared = e.squared()
            let line = LineCoefficients(c0: h, c1: b - e, c2: -(xSquared + xSquared + xSquared))
            t = G2Projective(x: a * (b - f), y: g.squared() - (eSquared + eSquared + eSquared), z: b * h)
            return line
        }

        /// T ← T + (x, y) and the line through T and (x, y): with θ = Y − y·Z and λ = X − x·Z,
        /// ℓ = λ·yP + (θ·x − λ·y)·w³ − θ·xP·w.
        @inline(__always)
        static func additionStep(_ t: inout G2Projective, _ qx: Fp2, _ qy: Fp2) -> LineCoefficients {
            let theta = t.y - qy * t.z, lambda = t.x - qx * t.z
            let c = theta.squared(), d = lambda.squared()
            let e = lambda * d, f = t.z * c, g = t.x * d
            let h = e + f - g - g
            let line = LineCoefficients(c0: lambda, c1: theta * qx - lambda * qy, c2: -theta)
            t = G2Projective(x: lambda * h, y: theta * (g - h) - t.y * e, z: t.z * e)
            return line
        }
    }

    /// The Miller loop value Π fᵢ for pairs (Qᵢ, Pᵢ), before the final exponentiation; pairs
    /// with a point at infinity contribute 1. The G1 points are affine (x, y) and may be
    /// secret: the loop only multiplies by them. The lines of one step (one or two per pair)
    /// are multiplied into f two at a time (``Fp12/timesLines(_:_:)``), an odd one alone;
    /// while f is still 1 (the first step) it is set to the lines instead.
    package static func millerLoop(_ pairs: [(q: G2Prepared, px: Fp, py: Fp)]) -> Fp12 {
        let active = pairs.filter { !$0.q.isInfinity }
        var f = Fp12.one
        var fIsOne = true                  // public: whether any line has been multiplied in
        var index = 0
        var pending: EvaluatedLine?
        func multiplyLines(_ f: inout Fp12) {
            for pair in active {
                let line = pair.q.lines[index]
                let evaluated = pair.q.isNormalized
                    ? EvaluatedLine(Fp2(pair.py, .zero), line.c1, line.c2 * pair.px, l0IsInFp: true)
                    : EvaluatedLine(line.c0 * pair.py, line.c1, line.c2 * pair.px)
                guard let first = pending else {
                    pending = evaluated
                    continue
                }
                if fIsOne {
                    let (x, y, z) = Fp12.lineProduct(first, evaluated)
                    f = Fp12(x, y, Fp4(z, .zero))
                } else {
                    f = f.timesLines(first, evaluated)
                }
                fIsOne = false
                pending = nil
            }
            index += 1
        }
        func flush(_ f: inout Fp12) {
            guard let line = pending else { return }
            f = fIsOne ? Fp12(Fp4(line.l0, line.l1), Fp4(line.l2, .zero), .zero) : f.timesLine(line.l0, line.l1, line.l2)
            fIsOne = false
            pending = nil
        }
        for digit in millerDigits {
            if !fIsOne { f = f.squared() }
            multiplyLines(&f)
            if digit != 0 { multiplyLines(&f) }
            flush(&f)
        }
        f = f.conjugate
        multiplyLines(&f)
        multiplyLines(&f)
        flush(&f)
        return f
    }
}

// Two line values multiplied together before they meet the Miller accumulator (Aranha,
// Karabina, Longa, Gebotys and López, "Faster explicit formulas for computing pairings over
// ordinary curves", EUROCRYPT 2011, §4: lines of a multi-pairing step, or the doubling and
// addition lines of one step, are combined first). A D-type line is A + B·t with
// A = l0 + l1·s ∈ Fp4 and B = l2 ∈ Fp2, so the product of two is X + Y·t + Z·t² with Z in Fp2:
// two Fp4 products and one Fp2 product, then five Fp4 and two Fp2 products into f, where two
// separate line products (`timesLine`) take six Fp4 and eight Fp2 products.
extension BN254CX {
    /// A line evaluated at a G1 point: (l0 + l1·s) + l2·t, the arguments of ``Fp12/timesLine(_:_:_:)``.
    package struct EvaluatedLine: Sendable {
        package var l0: Fp2
        package var l1: Fp2
        package var l2: Fp2
        /// Whether l0 lies in Fp (a normalized line: l0 = yP), which a product of two such
        /// lines uses (public).
        package var l0IsInFp: Bool

        @inline(__always)
        package init(_ l0: Fp2, _ l1: Fp2, _ l2: Fp2, l0IsInFp: Bool = false) {
            self.l0 = l0
            self.l1 = l1
            self.l2 = l2
            self.l0IsInFp = l0IsInFp
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
        let x: Fp4
        if l.l0IsInFp && m.l0IsInFp {
            // (y + c·s)(y′ + d·s) = y·y′ + ξ·c·d + (y·d + y′·c)·s with y, y′ in Fp: one Fp2
            // product and five Fp products, where the Fp4 product takes three Fp2 products.
            let y = l.l0.c0, yPrime = m.l0.c0
            x = Fp4(BN254CX.Fp2(y * yPrime, .zero) + (l.l1 * m.l1).timesXi, m.l1 * y + l.l1 * yPrime)
        } else {
            x = Fp4(l.l0, l.l1) * Fp4(m.l0, m.l1)
        }
        let z = l.l2 * m.l2
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
