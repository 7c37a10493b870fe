// The Jacobian additions (P256JacobianAddition.swift) against the complete projective formulas,
// their exceptional cases, the scalar multiplications built on them on the scalars where an
// exceptional case would show, and the P-256 field sum and difference kernels
// (P256FieldAddition.swift) against the generic straight-line ones.

import CryptoPrimitives
import CryptoCore
import Testing
import TestSupport

@Suite struct P256JacobianTests {
    typealias Point = P256.ProjectivePoint
    typealias Jacobian = P256.JacobianPoint

    static let n = P256OrderModulus.modulus

    static func plus(_ a: FixedUInt<4>, _ b: UInt64) -> FixedUInt<4> { a.addingReportingCarry(FixedUInt(b)).sum }
    static func minus(_ a: FixedUInt<4>, _ b: UInt64) -> FixedUInt<4> { a.subtractingReportingBorrow(FixedUInt(b)).difference }

    /// A random point with Z ≠ 1 in both coordinate systems (a ladder output, doubled once in
    /// Jacobian coordinates so its Z is not the projective one's).
    static func randomPoint(_ random: inout TestRandom) -> (projective: Point, jacobian: Jacobian) {
        let p = P256PointTests.ladder(Point(P256.generator), P256PointTests.randomScalar(&random))
        let j = p.jacobian.doubled()
        return (Point(j), j)
    }

    @Test func incompleteAdditionsMatchTheCompleteOnes() {
        var random = TestRandom("P-256 Jacobian additions")
        for _ in 0..<12 {
            let (p, pj) = Self.randomPoint(&random)
            let (q, qj) = Self.randomPoint(&random)
            let qAffine = q.affine.point
            let expected = p + q
            let full = pj.incompleteAdding(qj)
            #expect(Point(full.sum).isEqual(to: expected).isTrueVartime)
            #expect(!full.hIsZero.isTrueVartime && !full.rIsZero.isTrueVartime)
            let mixed = pj.incompleteAdding(qAffine)
            #expect(Point(mixed.sum).isEqual(to: expected).isTrueVartime)
            #expect(Point(mixed.sum).affine.point.isOnCurve.isTrueVartime)
            // P + (−P): H = 0, r ≠ 0, and Z = 0, the identity.
            let inverse = pj.incompleteAdding(pj.negated)
            #expect(inverse.hIsZero.isTrueVartime && !inverse.rIsZero.isTrueVartime && inverse.sum.isIdentity.isTrueVartime)
            let pAffine = p.affine.point
            let mixedInverse = pj.incompleteAdding(pAffine.negated)
            #expect(mixedInverse.hIsZero.isTrueVartime && mixedInverse.sum.isIdentity.isTrueVartime)
            // P + P: H = 0 and r = 0, flagged (the incomplete result is not a point).
            let same = pj.incompleteAdding(pAffine)
            #expect(same.hIsZero.isTrueVartime && same.rIsZero.isTrueVartime)
            // The vartime additions take every case.
            #expect(Point(pj.addingVartime(pAffine)).isEqual(to: p.doubled()).isTrueVartime)
            #expect(Point(pj.addingVartime(pj)).isEqual(to: p.doubled()).isTrueVartime)
            #expect(pj.addingVartime(pAffine.negated).isIdentity.isTrueVartime)
            #expect(pj.addingVartime(pj.negated).isIdentity.isTrueVartime)
            #expect(Point(Jacobian.identity.addingVartime(qAffine)).isEqual(to: q).isTrueVartime)
            #expect(Point(Jacobian.identity.addingVartime(qj)).isEqual(to: q).isTrueVartime)
            #expect(Point(pj.addingVartime(Jacobian.identity)).isEqual(to: p).isTrueVartime)
            #expect(Point(pj.addingVartime(qAffine)).isEqual(to: expected).isTrueVartime)
            // The identity from P + (−P) stays the identity under doubling and is replaced cleanly.
            #expect(inverse.sum.doubled().isIdentity.isTrueVartime)
            #expect(Point(inverse.sum.addingVartime(qj)).isEqual(to: q).isTrueVartime)
            // x/Z² is the affine x.
            let (x, isIdentity) = pj.affineX
            #expect(!isIdentity.isTrueVartime && x.isEqual(to: p.affine.point.x).isTrueVartime)
            let (point, pointIsIdentity) = pj.affine
            #expect(!pointIsIdentity.isTrueVartime && point.x.isEqual(to: pAffine.x).isTrueVartime && point.y.isEqual(to: pAffine.y).isTrueVartime)
        }
        #expect(Jacobian.identity.affineX.isIdentity.isTrueVartime)
        #expect(Jacobian.identity.affine.isIdentity.isTrueVartime)
    }

    /// Scalars at the edges of the windowed recodings, where an incomplete addition would meet
    /// P = ±Q if the arguments in P256ScalarMultiplication.swift were wrong: small digits, the
    /// top window's digit 2, values at and above n (reduced first for a variable base), and
    /// 2²⁵⁶ − n, whose low windows sum to the top window's point modulo n.
    @Test func scalarMultiplicationsOnEdgeScalars() {
        let g = Point(P256.generator)
        let twoTo256MinusN = FixedUInt<4>.zero.subtractingReportingBorrow(Self.n).difference
        let allOnes = FixedUInt<4>(limbs: [.max, .max, .max, .max])
        var scalars: [FixedUInt<4>] = [.zero, FixedUInt(1), FixedUInt(2), FixedUInt(15), FixedUInt(16), FixedUInt(17),
                                       FixedUInt(31), FixedUInt(32), FixedUInt(33), FixedUInt(48),
                                       Self.minus(Self.n, 1), Self.minus(Self.n, 2), Self.minus(Self.n, 16), Self.minus(Self.n, 32),
                                       Self.n, Self.plus(Self.n, 1), Self.plus(Self.n, 2), Self.plus(Self.n, 16),
                                       twoTo256MinusN, Self.plus(twoTo256MinusN, 1), Self.minus(twoTo256MinusN, 1),
                                       allOnes, Self.minus(allOnes, 16),
                                       FixedUInt(limbs: [0, 0, 0, 1 << 63]), FixedUInt(limbs: [0, 0, 0, 3 << 62]),
                                       FixedUInt(limbs: [.max, .max, .max, .max >> 1])]
        for shift in [5, 10, 64, 128, 250, 255] {
            scalars.append(FixedUInt<4>(1).shiftedLeft(by: shift))
        }
        var random = TestRandom("P-256 edge scalars")
        let (q, qj) = Self.randomPoint(&random)
        let qAffine = q.affine.point
        for k in scalars {
            let expected = P256PointTests.ladder(g, k)
            #expect(P256.multiplyGenerator(by: k).isEqual(to: expected).isTrueVartime, "k·G, k = \(k)")
            #expect(P256.multiply(g, by: k).isEqual(to: expected).isTrueVartime, "k·P, k = \(k)")
            let expectedQ = P256PointTests.ladder(q, k)
            #expect(Point(P256.multiplyJacobian(qj, by: k)).isEqual(to: expectedQ).isTrueVartime)
            #expect(Point(P256.multiplyJacobian(qAffine, by: k)).isEqual(to: expectedQ).isTrueVartime, "affine table")
            #expect(Point(P256.multiplyJacobian(P256.generator, by: k)).isEqual(to: expected).isTrueVartime)
            #expect(P256.multiply(.identity, by: k).isIdentity.isTrueVartime)
            // u₁·G + u₂·G with u₂ = k: the interleaved sum meets P = Q and P = −Q for some k.
            for u1 in [k, Self.n.subtractingReportingBorrow(k).difference, FixedUInt(1)] {
                let combined = P256.doubleScalarMultiplyVartime(generatorScalar: u1, point: g, scalar: k)
                #expect(combined.isEqual(to: P256PointTests.ladder(g, u1) + expected).isTrueVartime)
            }
        }
        // The affine x of a Jacobian result is the projective result's.
        let k = FixedUInt<4>(limbs: [0x1234_5678, 0x9ABC_DEF0, 0x0FED_CBA9, 0x8765_4321])
        let (x, _) = P256.multiplyGeneratorJacobian(by: k).affineX
        #expect(x.isEqual(to: P256.multiplyGenerator(by: k).affine.point.x).isTrueVartime)
    }

    /// The P-256 sum, difference and negation kernels against the reference integer on edge
    /// words and random values below p.
    @Test func fieldAdditionKernelsMatchTheReferenceInteger() {
        let p = P256FieldModulus.modulus
        let pMinus: (UInt64) -> FixedUInt<4> = { p.subtractingReportingBorrow(FixedUInt($0)).difference }
        var values: [FixedUInt<4>] = [.zero, FixedUInt(1), FixedUInt(2), pMinus(1), pMinus(2),
                                      FixedUInt(limbs: [.max, 0, 0, 0]), FixedUInt(limbs: [.max, .max, 0, 0]),
                                      FixedUInt(limbs: [0, 0xFFFF_FFFF, 0, 0]), FixedUInt(limbs: [0, 0, 0, 1 << 63]),
                                      FixedUInt(limbs: [.max, .max, .max, 0xFFFF_FFFF_0000_0000]),
                                      FixedUInt(limbs: [0, 0, .max, 0xFFFF_FFFF_0000_0000])]
        var random = TestRandom("P-256 field addition kernels")
        for _ in 0..<40 {
            let value = FixedUInt<4>(limbs: [random.next(), random.next(), random.next(), random.next()])
            values.append(value.isLess(than: p).isTrueVartime ? value : value.subtractingReportingBorrow(p).difference)
        }
        for a in values {
            for b in values {
                #expect(P256FieldArithmetic.sum(a, b).reference == (a.reference + b.reference) % p.reference, "\(a) + \(b)")
                #expect(P256FieldArithmetic.difference(a, b).reference == (a.reference + p.reference - b.reference) % p.reference, "\(a) − \(b)")
            }
            let x = P256.FieldElement(montgomeryForm: a)
            #expect((-x).montgomeryForm.reference == (p.reference - a.reference) % p.reference, "−\(a)")
            #expect((x + (-x)).isZero.isTrueVartime)
        }
    }
}
