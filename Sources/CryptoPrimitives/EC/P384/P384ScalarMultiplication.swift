// Scalar multiplication on P-384: k·P in constant time for key agreement (fixed 4-bit windows
// over a 16-entry table read by a full scan), and u₁·G + u₂·Q for signature verification,
// where every input is public (interleaved width-5 NAF). Both on the complete formulas of
// P384Point.swift, so no input needs a special case.

import CryptoCore

extension P384 {
    /// k·P. Constant time in k and P: 96 windows of four doublings and one addition of a table
    /// entry chosen by masks over all 16 (the window's bits steer no branch and no address).
    package static func multiply(_ point: AffinePoint, by k: FixedUInt<6>) -> ProjectivePoint {
        var table = InlineArray<16, ProjectivePoint>(repeating: .identity)  // table[i] = i·P
        table[1] = ProjectivePoint(point)
        for i in 2..<16 {
            table[i] = i % 2 == 0 ? table[i / 2].doubled() : table[i - 1] + table[1]
        }
        var result = ProjectivePoint.identity
        for window in stride(from: 95, through: 0, by: -1) {
            result = result.doubled().doubled().doubled().doubled()
            let limb = k.limbs[unchecked: window / 16]  // public: the window number
            let digit = (limb >> UInt64(4 * (window % 16))) & 15
            var entry = ProjectivePoint.identity
            for i in 0..<16 {
                entry = .select(table[i], entry, if: UInt64(i).isEqual(to: digit))
            }
            result = result + entry
        }
        return result
    }

    /// u₁·G + u₂·Q by interleaved width-5 NAF. Leaks: u₁, u₂ and Q, through the sequence of
    /// additions (all public in ECDSA verification).
    package static func doubleScalarMultiplyVartime(generatorScalar u1: FixedUInt<6>, point q: AffinePoint,
                                                    scalar u2: FixedUInt<6>) -> ProjectivePoint {
        let gDigits = nonAdjacentFormVartime(u1), qDigits = nonAdjacentFormVartime(u2)
        let gTable = oddMultiples(ProjectivePoint(generator)), qTable = oddMultiples(ProjectivePoint(q))
        var accumulator = ProjectivePoint.identity
        for i in stride(from: gDigits.count - 1, through: 0, by: -1) {
            accumulator = accumulator.doubled()
            for (digit, table) in [(gDigits[i], gTable), (qDigits[i], qTable)] where digit != 0 {
                let multiple = table[(abs(digit) - 1) / 2]
                accumulator = accumulator + (digit > 0 ? multiple : multiple.negated)
            }
        }
        return accumulator
    }

    /// P, 3P, 5P, …, 15P.
    private static func oddMultiples(_ p: ProjectivePoint) -> [ProjectivePoint] {
        var multiples = [p]
        let twice = p.doubled()
        for _ in 1..<8 { multiples.append(multiples[multiples.count - 1] + twice) }
        return multiples
    }

    /// The width-5 non-adjacent form of a public scalar, least significant digit first: odd
    /// digits in (−16, 16) with at least four zeros between them. Leaks: the scalar.
    static func nonAdjacentFormVartime(_ k: FixedUInt<6>) -> [Int] {
        var digits = [Int](repeating: 0, count: 385)
        var value = k.resized(to: FixedUInt<7>.self)
        var i = 0
        while !value.isZero.isTrueVartime {
            if value.limbs[0] & 1 == 1 {
                var digit = Int(value.limbs[0] & 31)
                if digit >= 16 { digit -= 32 }
                digits[i] = digit
                value = digit > 0 ? value.subtractingReportingBorrow(FixedUInt(UInt64(digit))).difference
                                  : value.addingReportingCarry(FixedUInt(UInt64(-digit))).sum
            }
            value = value.shiftedRightOne()
            i += 1
        }
        return digits
    }

    /// Whether (r, s) is a valid signature of `digest` under Q (SEC 1 v2 §4.1.4). Every input
    /// is public; the arithmetic is variable time.
    package static func isValidSignature(r: FixedUInt<6>, s: FixedUInt<6>, digest: some Collection<UInt8>, publicKey q: AffinePoint) -> Bool {
        let n = P384OrderModulus.modulus
        // Step 1: r and s in [1, n − 1].
        guard !r.isZero.isTrueVartime, !s.isZero.isTrueVartime, r.isLess(than: n).isTrueVartime, s.isLess(than: n).isTrueVartime else {
            return false
        }
        let z = Scalar(digest: digest)
        let w = Scalar(reducing: FixedUInt.modularInverseVartime(s, modulus: n))
        let rScalar = Scalar(reducing: r)
        let point = doubleScalarMultiplyVartime(generatorScalar: (z * w).canonical, point: q, scalar: (rScalar * w).canonical)
        guard !point.isIdentity.isTrueVartime else { return false }
        // x(R) ≡ r (mod n), projectively: X = r·Z, or X = (r + n)·Z when r + n < p.
        if point.x.isEqual(to: FieldElement(reducing: r) * point.z).isTrueVartime { return true }
        let (rPlusN, carry) = r.addingReportingCarry(n)
        guard carry == 0, rPlusN.isLess(than: P384FieldModulus.modulus).isTrueVartime else { return false }
        return point.x.isEqual(to: FieldElement(reducing: rPlusN) * point.z).isTrueVartime
    }
}
