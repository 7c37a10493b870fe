// P-256 points: group laws on edge cases, scalar multiplication against a plain ladder, the
// generated tables recomputed, and SEC 1 decoding of malformed points.

import CryptoPrimitives
import CryptoCore
import Testing
import TestSupport

@Suite struct P256PointTests {
    typealias Point = P256.ProjectivePoint

    static func randomScalar(_ random: inout TestRandom) -> FixedUInt<4> {
        FixedUInt(limbs: [random.next(), random.next(), random.next(), random.next() >> 1])
    }

    /// Plain double-and-add from the top bit, the slow reference for every ladder.
    static func ladder(_ point: Point, _ k: FixedUInt<4>) -> Point {
        var result = Point.identity
        for i in stride(from: 255, through: 0, by: -1) {
            result = result.doubled()
            if k.bit(i) == 1 { result = result + point }
        }
        return result
    }

    @Test func groupLawsIncludingEveryExceptionalCase() {
        var random = TestRandom("P-256 group laws")
        let g = Point(P256.generator)
        let o = Point.identity
        for _ in 0..<10 {
            let p = Self.ladder(g, Self.randomScalar(&random)), q = Self.ladder(g, Self.randomScalar(&random))
            let r = Self.ladder(g, Self.randomScalar(&random))
            #expect(((p + q) + r).isEqual(to: p + (q + r)).isTrueVartime)
            #expect((p + q).isEqual(to: q + p).isTrueVartime)
            #expect((p + p).isEqual(to: p.doubled()).isTrueVartime)
            #expect((p + p.negated).isIdentity.isTrueVartime)
            #expect((p + o).isEqual(to: p).isTrueVartime && (o + p).isEqual(to: p).isTrueVartime)
            let (affine, isIdentity) = q.affine
            #expect(!isIdentity.isTrueVartime && affine.isOnCurve.isTrueVartime)
            #expect(p.adding(affine).isEqual(to: p + q).isTrueVartime)
            #expect(p.adding(p.affine.point).isEqual(to: p.doubled()).isTrueVartime)
            #expect(p.negated.adding(p.affine.point).isIdentity.isTrueVartime)
            #expect(o.adding(affine).isEqual(to: q).isTrueVartime)
        }
        #expect((o + o).isIdentity.isTrueVartime && o.doubled().isIdentity.isTrueVartime)
        #expect(o.doubled(repeatedly: 5).isIdentity.isTrueVartime)
        #expect((o.doubled(repeatedly: 3) + g).isEqual(to: g).isTrueVartime)  // the identity comes back usable
        #expect(o.affine.isIdentity.isTrueVartime)
    }

    /// Runs of Jacobian doublings against the complete doubling, and the coordinate round trip
    /// on points whose Z is not 1 (the affine point of a ladder output, checked on the curve).
    @Test func jacobianDoublingRunsMatchTheCompleteDoubling() {
        var random = TestRandom("P-256 Jacobian doubling")
        let g = Point(P256.generator)
        for _ in 0..<10 {
            let p = Self.ladder(g, Self.randomScalar(&random))
            var expected = p
            for k in 1...6 {
                expected = expected.doubled()
                let run = p.doubled(repeatedly: k)
                #expect(run.isEqual(to: expected).isTrueVartime, "2^\(k)·P")
                #expect(run.affine.point.isOnCurve.isTrueVartime)
            }
            #expect(Point(p.jacobian).isEqual(to: p).isTrueVartime)
        }
    }

    @Test func theOrderAnnihilatesTheGenerator() {
        let g = Point(P256.generator)
        let n = P256OrderModulus.modulus
        let nMinusOne = n.subtractingReportingBorrow(FixedUInt(1)).difference
        #expect(P256.multiply(g, by: n).isIdentity.isTrueVartime)
        #expect(P256.multiplyGenerator(by: n).isIdentity.isTrueVartime)
        #expect(P256.multiply(g, by: nMinusOne).isEqual(to: g.negated).isTrueVartime)
        #expect(P256.multiplyGenerator(by: nMinusOne).isEqual(to: g.negated).isTrueVartime)
        #expect(P256.multiplyGenerator(by: .zero).isIdentity.isTrueVartime)
        #expect(P256.multiply(g, by: .zero).isIdentity.isTrueVartime)
        #expect(P256.multiply(.identity, by: nMinusOne).isIdentity.isTrueVartime)
    }

    @Test func everyLadderAgreesWithDoubleAndAdd() {
        var random = TestRandom("P-256 ladders")
        let g = Point(P256.generator)
        for round in 0..<12 {
            var k = Self.randomScalar(&random)
            if round == 0 { k = FixedUInt(limbs: [.max, .max, .max, .max]) }  // above n, still below 2²⁵⁶
            if round == 1 { k = FixedUInt(31) }
            let expected = Self.ladder(g, k)
            #expect(P256.multiplyGenerator(by: k).isEqual(to: expected).isTrueVartime)
            #expect(P256.multiply(g, by: k).isEqual(to: expected).isTrueVartime)
            let q = Self.ladder(g, Self.randomScalar(&random))
            let u = Self.randomScalar(&random)
            let combined = P256.doubleScalarMultiplyVartime(generatorScalar: k, point: q, scalar: u)
            #expect(combined.isEqual(to: expected + Self.ladder(q, u)).isTrueVartime)
        }
    }

    @Test func generatedTablesAreWhatTheGeneratorComputes() {
        #expect(P256.generatorWindowTableLimbs == P256.computeGeneratorWindowTable())
        #expect(P256.generatorOddMultipleLimbs == P256.computeGeneratorOddMultiples())
        #expect(P256.generatorWindowTableLimbs.count == 52 * 16 * 8)
        #expect(P256.generatorTablesSource().contains("do not edit"))
    }

    @Test func sec1EncodingsRoundTripAndMalformedPointsAreRejected() throws {
        var random = TestRandom("SEC 1")
        for _ in 0..<20 {
            let point = Self.ladder(Point(P256.generator), Self.randomScalar(&random)).affine.point
            let uncompressed = point.uncompressedRepresentation, compressed = point.compressedRepresentation
            #expect(try P256.AffinePoint(sec1: uncompressed).rawRepresentation == point.rawRepresentation)
            #expect(try P256.AffinePoint(sec1: compressed).rawRepresentation == point.rawRepresentation)
            #expect(try P256.AffinePoint(raw: point.rawRepresentation).uncompressedRepresentation == uncompressed)
            var offCurve = uncompressed
            offCurve[64] ^= 1
            #expect(throws: CryptoError.invalidKey) { try P256.AffinePoint(sec1: offCurve) }
        }
        let g = P256.generator.uncompressedRepresentation
        #expect(throws: CryptoError.invalidEncoding) { try P256.AffinePoint(sec1: [0x00]) }           // infinity
        #expect(throws: CryptoError.invalidEncoding) { try P256.AffinePoint(sec1: [0x05] + g.dropFirst()) }
        #expect(throws: CryptoError.invalidEncoding) { try P256.AffinePoint(sec1: Array(g.dropLast())) }
        #expect(throws: CryptoError.invalidEncoding) { try P256.AffinePoint(sec1: [0x02] + g[1...32] + [0]) }
        let pBytes = TestHex.bytes("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff")
        #expect(throws: CryptoError.invalidKey) { try P256.AffinePoint(sec1: [0x04] + pBytes + Array(g[33...])) }  // x = p
        #expect(throws: CryptoError.invalidKey) { try P256.AffinePoint(sec1: [0x02] + pBytes) }
        // x = 1 gives x³ − 3x + b = b − 2, a non-residue (checked with Python): no point.
        #expect(throws: CryptoError.invalidKey) { try P256.AffinePoint(sec1: [0x03] + [UInt8](repeating: 0, count: 31) + [1]) }
    }
}

// Projective-coordinate views of the Jacobian scalar multiplications, so these tests compare
// their results with the projective reference ladder.

extension P256 {
    /// k·P through the constant-time variable-base multiplication, in projective coordinates.
    static func multiply(_ point: ProjectivePoint, by k: FixedUInt<4>) -> ProjectivePoint {
        ProjectivePoint(multiplyJacobian(point.jacobian, by: k))
    }

    /// k·G through the constant-time fixed-base multiplication, in projective coordinates.
    static func multiplyGenerator(by k: FixedUInt<4>) -> ProjectivePoint {
        ProjectivePoint(multiplyGeneratorJacobian(by: k))
    }
}

extension P256.ProjectivePoint {
    /// 2ᵏ·P by k Jacobian doublings between two coordinate conversions.
    func doubled(repeatedly count: Int) -> Self {
        var point = jacobian
        for _ in 0..<count { point = point.doubled() }
        return Self(point)
    }
}
