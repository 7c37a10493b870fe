// The optimal ate pairing: Milagro's e(G2, G1), bilinearity, non-degeneracy, order r, the
// shared Miller loop, and the verifier identity M-Pin relies on.

import CryptoPrimitives
import CryptoCore
import Testing
import TestSupport

@Suite struct BN254CXPairingTests {
    @Test func generatorPairingIsMilagros() throws {
        let e = BN254CX.pairing(.generator, .generator)
        #expect(!e.isOne)
        // e^r = 1: the exponent r taken as an integer, not reduced.
        #expect(BN254CX.GT(e.value).power(by: BN254CX.r).isOne)
    }

    @Test func pairingIsBilinear() {
        var random = TestRandom("BN254CX bilinearity")
        let a = BN254CXGroupTests.scalar(&random), b = BN254CXGroupTests.scalar(&random)
        let p = BN254CX.G1.generator, q = BN254CX.G2.generator
        let e = BN254CX.pairing(q, p)
        #expect(BN254CX.pairing(q.multiplied(by: b), p.multiplied(by: a)) == e.power(a * b))
        #expect(BN254CX.pairing(q, p.multiplied(by: a)) == BN254CX.pairing(q.multiplied(by: a), p))
        let p2 = p.multiplied(by: b)
        #expect(BN254CX.pairing(q, p + p2) == BN254CX.pairing(q, p) * BN254CX.pairing(q, p2))
        #expect(BN254CX.pairing(q, -p) == e.inverse)
    }

    @Test func sharedMillerLoopAndInfinity() {
        var random = TestRandom("BN254CX multi-pairing")
        let s = BN254CXGroupTests.scalar(&random), x = BN254CXGroupTests.scalar(&random)
        let a = BN254CX.G1.generator.multiplied(by: x)
        let q = BN254CX.G2.generator, sQ = q.multiplied(by: s)
        // e(Q, −s·A)·e(s·Q, A) = 1, the M-Pin verifier's product.
        #expect(BN254CX.multiPairing([(q, -a.multiplied(by: s)), (sQ, a)]).isOne)
        #expect(BN254CX.multiPairing([(q, a), (sQ, a)]) == BN254CX.pairing(q, a) * BN254CX.pairing(sQ, a))
        #expect(BN254CX.pairing(.infinity, a).isOne && BN254CX.pairing(q, .infinity).isOne)
        #expect(BN254CX.multiPairing([]).isOne)
        // Three pairs: the loop multiplies lines two at a time, so one waits across pairs.
        let b = BN254CX.G1.generator.multiplied(by: s)
        #expect(BN254CX.multiPairing([(q, a), (sQ, a), (q, b)]) == BN254CX.pairing(q, a) * BN254CX.pairing(sQ, a) * BN254CX.pairing(q, b))
    }

    /// Two lines multiplied together first, then into f, against two separate line products
    /// and against the general product by both sparse values.
    @Test func lineProductMatchesTwoLineProducts() {
        var random = TestRandom("BN254CX line product")
        for _ in 0..<4 {
            let f = BN254CX.Fp12.random(&random)
            let l = BN254CX.EvaluatedLine(.random(&random), .random(&random), .random(&random))
            let m = BN254CX.EvaluatedLine(.random(&random), .random(&random), .random(&random))
            let expected = f.timesLine(l.l0, l.l1, l.l2).timesLine(m.l0, m.l1, m.l2)
            #expect(f.timesLines(l, m).isEqual(to: expected).isTrueVartime)
            let lineL = BN254CX.Fp12(BN254CX.Fp4(l.l0, l.l1), BN254CX.Fp4(l.l2, .zero), .zero)
            let lineM = BN254CX.Fp12(BN254CX.Fp4(m.l0, m.l1), BN254CX.Fp4(m.l2, .zero), .zero)
            #expect(f.timesLines(l, m).isEqual(to: f * lineL * lineM).isTrueVartime)
            // Normalized lines: l0 in Fp takes the shorter product when both are.
            let n = BN254CX.EvaluatedLine(BN254CX.Fp2(.random(&random), .zero), .random(&random), .random(&random), l0IsInFp: true)
            let o = BN254CX.EvaluatedLine(BN254CX.Fp2(.random(&random), .zero), .random(&random), .random(&random), l0IsInFp: true)
            let twoLines = f.timesLine(n.l0, n.l1, n.l2).timesLine(o.l0, o.l1, o.l2)
            #expect(f.timesLines(n, o).isEqual(to: twoLines).isTrueVartime)
            #expect(f.timesLines(n, l).isEqual(to: f.timesLine(n.l0, n.l1, n.l2).timesLine(l.l0, l.l1, l.l2)).isTrueVartime)
        }
    }

    /// Lines divided by their c0 give the same pairing values, alone or with other lines in one
    /// loop; their c0 is then 1.
    @Test func normalizedLinesGiveTheSameValues() {
        var random = TestRandom("BN254CX normalized lines")
        let a = BN254CX.G1.generator.multiplied(by: BN254CXGroupTests.scalar(&random))
        let b = BN254CX.G1.generator.multiplied(by: BN254CXGroupTests.scalar(&random))
        let sQ = BN254CX.G2.generator.multiplied(by: BN254CXGroupTests.scalar(&random))
        let normalized = BN254CX.G2Prepared(normalizing: sQ)
        #expect(normalized.isNormalized && normalized.lines.allSatisfy { $0.c0.isEqual(to: .one).isTrueVartime })
        #expect(BN254CX.multiPairing(prepared: [(normalized, a)]) == BN254CX.pairing(sQ, a))
        #expect(BN254CX.multiPairing(prepared: [(normalized, a), (BN254CX.G2Prepared(.generator), b)])
            == BN254CX.pairing(sQ, a) * BN254CX.pairing(.generator, b))
        #expect(BN254CX.multiPairing(prepared: [(BN254CX.generatorLines, b), (normalized, a)])
            == BN254CX.pairing(.generator, b) * BN254CX.pairing(sQ, a))
        #expect(BN254CX.G2Prepared(normalizing: .infinity).isInfinity)
    }

    /// The simultaneous inversion of the pairing's affine conversion against one inversion
    /// per point, G1 and G2 points mixed, and with no points at all.
    @Test func affineBatchMatchesOneInversionPerPoint() {
        var random = TestRandom("BN254CX affine batch")
        let g1 = (0..<3).map { _ in BN254CX.G1.generator.multiplied(by: BN254CXGroupTests.scalar(&random)).point }
        let g2 = (0..<2).map { _ in BN254CX.G2.generator.multiplied(by: BN254CXGroupTests.scalar(&random)).point }
        let (a2, a1) = BN254CX.affineBatch(g2: g2, g1: g1)
        for (i, p) in g1.enumerated() {
            let (x, y) = p.affine()
            #expect(a1[i].x.isEqual(to: x).isTrueVartime && a1[i].y.isEqual(to: y).isTrueVartime)
        }
        for (i, q) in g2.enumerated() {
            let (x, y) = q.affine()
            #expect(a2[i].x.isEqual(to: x).isTrueVartime && a2[i].y.isEqual(to: y).isTrueVartime)
        }
        let (b2, b1) = BN254CX.affineBatch(g2: [], g1: [g1[0]])
        #expect(b2.isEmpty && b1.count == 1 && b1[0].x.isEqual(to: a1[0].x).isTrueVartime)
        let (e2, e1) = BN254CX.affineBatch(g2: [], g1: [])
        #expect(e2.isEmpty && e1.isEmpty)
    }

    /// The shared simultaneous inversion against one inversion per value, for nonzero Fp2
    /// values (what the lines' c0s are) and Fp values (what the Zs are), one value and none.
    @Test func invertedTogetherMatchesOneInversionPerValue() {
        var random = TestRandom("BN254CX inverted together")
        let points = (0..<4).map { _ in BN254CX.G2.generator.multiplied(by: BN254CXGroupTests.scalar(&random)).point }
        let values = points.map(\.x) + points.map(\.y)
        let inverses = BN254CX.Fp2.invertedTogether(values)
        #expect(inverses.count == values.count)
        for (value, inverse) in zip(values, inverses) {
            #expect(inverse.isEqual(to: value.inverted()).isTrueVartime && (inverse * value).isEqual(to: .one).isTrueVartime)
        }
        let z = points[0].x.c0
        #expect(BN254CX.Fp.invertedTogether([z]).count == 1 && BN254CX.Fp.invertedTogether([z])[0].isEqual(to: z.inverted()).isTrueVartime)
        #expect(BN254CX.Fp.invertedTogether([]).isEmpty)
    }
}
