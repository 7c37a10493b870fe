// The spare-bits Montgomery kernels behind BN254CX's Fp and Fr operators
// (FixedUInt+MontgomerySpareBits.swift) against the reference integer: a·b·2⁻²⁵⁶, a ± b and
// −a modulo p and r on edge values (words all ones or all zeros, m − 1, values whose sum sits
// just below or at m, where a lost carry or a wrong final subtraction shows) and on random
// values; and the operators the tower uses are the kernels, not the generic core.

import CryptoPrimitives
import CryptoCore
import Testing
import TestSupport

@Suite struct BN254CXSpareBitsKernelTests {
    typealias R = BN254CXReference

    static func edgeValues(_ m: ReferenceInteger, _ random: inout TestRandom) -> [ReferenceInteger] {
        let one = ReferenceInteger.one
        var values: [ReferenceInteger] = [.zero, one, ReferenceInteger(2), m - one, m - ReferenceInteger(2),
                                          (m - one).quotientAndRemainder(dividingBy: ReferenceInteger(2)).quotient,
                                          (m + one).quotientAndRemainder(dividingBy: ReferenceInteger(2)).quotient,
                                          (one << 64) - one, (one << 128) - one, (one << 192) - one, (one << 253),
                                          (one << 256) % m, m - (one << 64), m - (one << 192)]
        for _ in 0..<50 { values.append(ReferenceInteger(words: (0..<4).map { _ in random.next() }) % m) }
        return values
    }

    @Test(arguments: [("p", BN254CXFieldModulus.modulus, BN254CXFieldModulus.inverse),
                      ("r", BN254CXOrderModulus.modulus, BN254CXOrderModulus.inverse)])
    func kernelsMatchTheReferenceInteger(name: String, modulus: FixedUInt<4>, inverse: UInt64) {
        #expect(FixedUInt<4>.hasSpareTopBits(modulus))
        let m = modulus.reference
        let rInverse = (ReferenceInteger.one << 256).power(m - ReferenceInteger(2), modulo: m)
        var random = TestRandom("BN254CX spare-bits kernels \(name)")
        let values = Self.edgeValues(m, &random)
        for a in values {
            let x = FixedUInt<4>(a)
            #expect(FixedUInt.modularDifference(.zero, x, modulus: modulus).reference == (m - a) % m, "−\(a) mod \(name)")
            for b in values.prefix(30) {
                let y = FixedUInt<4>(b)
                #expect(FixedUInt.montgomeryProductSpareBits(x, y, modulus: modulus, inverse: inverse).reference == a * b * rInverse % m,
                        "\(a) · \(b) mod \(name)")
                #expect(FixedUInt.modularSumSpareBits(x, y, modulus: modulus).reference == (a + b) % m, "\(a) + \(b) mod \(name)")
                #expect(FixedUInt.modularDifference(x, y, modulus: modulus).reference == (a + m - b) % m, "\(a) − \(b) mod \(name)")
            }
        }
        for a in values {
            for b in values.suffix(30) {
                let difference = FixedUInt.modularDifference(FixedUInt<4>(a), FixedUInt<4>(b), modulus: modulus)
                #expect(difference.reference == (a + m - b) % m, "\(a) − \(b) mod \(name)")
            }
        }
        // The generic CIOS core gives the same Montgomery products (it is what the rest of the
        // engine, RSA among it, still uses).
        for (a, b) in zip(values, values.reversed()) {
            let generic = FixedUInt.montgomeryProduct(FixedUInt<4>(a), FixedUInt<4>(b), modulus: modulus, inverse: inverse)
            #expect(FixedUInt.montgomeryProductSpareBits(FixedUInt<4>(a), FixedUInt<4>(b), modulus: modulus, inverse: inverse).reference == generic.reference)
        }
    }

    @Test func towerOperatorsUseTheKernels() {
        var random = TestRandom("BN254CX Fp operators")
        for _ in 0..<40 {
            let x = BN254CX.Fp.random(&random), y = BN254CX.Fp.random(&random)
            let (a, b) = (x.canonical.reference, y.canonical.reference)
            #expect((x * y).canonical.reference == a * b % R.p)
            #expect(x.squared().canonical.reference == a * a % R.p)
            #expect((x + y).canonical.reference == (a + b) % R.p)
            #expect((x - y).canonical.reference == (a + R.p - b) % R.p)
            #expect((-x).canonical.reference == (R.p - a) % R.p)
        }
        // P-256's p has no spare top bits; the kernels must not be used for it.
        #expect(!FixedUInt<4>.hasSpareTopBits(P256FieldModulus.modulus))
    }
}

extension BN254CXSpareBitsKernelTests {
    /// Halving 1 by the shift gives the inverse of two, (p + 1)/2.
    @Test func halfIsTheInverseOfTwo() {
        let half = BN254CX.Fp.one.halved
        #expect((half + half).isEqual(to: .one).isTrueVartime)
        #expect(half.canonical.reference == (R.p + .one).quotientAndRemainder(dividingBy: ReferenceInteger(2)).quotient)
    }
}

extension BN254CXSpareBitsKernelTests {
    /// The Montgomery literals of the curve constants are the small integers they stand for.
    @Test func curveConstantLiteralsAreTheirIntegers() {
        #expect(BN254CX.Fp.curveB3.isEqual(to: BN254CX.Fp(small: 6)).isTrueVartime)
        #expect(BN254CX.Fp2.curveB3.isEqual(to: BN254CX.Fp2(BN254CX.Fp(small: 3), -BN254CX.Fp(small: 3))).isTrueVartime)
    }

    /// The curve formulas multiply by 3b with sums and halve with a shift: both against the
    /// reference integer (and 3b·x against the product by the literal), on edge and random values.
    @Test func sumsForCurveConstantsAndShiftHalving() {
        var random = TestRandom("BN254CX 3b and halving")
        let inverseOfTwo = ReferenceInteger(2).power(R.p - ReferenceInteger(2), modulo: R.p)
        for a in Self.edgeValues(R.p, &random) {
            let x = BN254CX.Fp(reducing: FixedUInt<4>(a))
            #expect(x.halved.canonical.reference == a * inverseOfTwo % R.p, "\(a)/2")
            #expect(x.timesCurveB3.canonical.reference == a * ReferenceInteger(6) % R.p, "6·\(a)")
            let y = BN254CX.Fp2(x, BN254CX.Fp.random(&random))
            #expect(y.timesCurveB3.isEqual(to: BN254CX.Fp2.curveB3 * y).isTrueVartime)
            #expect((y.halved + y.halved).isEqual(to: y).isTrueVartime)
        }
    }

    /// The windowed power and the Fermat inverse on the fast product against the reference
    /// integer (and the generic core's sliding-window power).
    @Test func powerAndInverseMatchTheReferenceInteger() {
        var random = TestRandom("BN254CX Fp power")
        for round in 0..<20 {
            let x = round == 0 ? BN254CX.Fp.zero : BN254CX.Fp.random(&random)
            let e = FixedUInt<4>(limbs: [random.next(), random.next(), random.next(), random.next()])
            let a = x.canonical.reference
            #expect(x.power(e).canonical.reference == a.power(e.reference, modulo: R.p))
            #expect(x.inverted().canonical.reference == a.power(R.p - ReferenceInteger(2), modulo: R.p))
            #expect(x.inverted().isEqual(to: x.powerVartime(BN254CX.p.subtractingReportingBorrow(FixedUInt(2)).difference)).isTrueVartime)
        }
    }
}

extension BN254CXSpareBitsKernelTests {
    /// Lazy reduction: the unreduced sum is exact, and the product takes operands anywhere
    /// below 2m (the edge 2m − 1 included) and still returns a·b·2⁻²⁵⁶ fully reduced.
    @Test(arguments: [("p", BN254CXFieldModulus.modulus, BN254CXFieldModulus.inverse),
                      ("r", BN254CXOrderModulus.modulus, BN254CXOrderModulus.inverse)])
    func productTakesOperandsBelowTwiceTheModulus(name: String, modulus: FixedUInt<4>, inverse: UInt64) {
        let m = modulus.reference
        let rInverse = (ReferenceInteger.one << 256).power(m - ReferenceInteger(2), modulo: m)
        var random = TestRandom("BN254CX lazy sums \(name)")
        let values = Self.edgeValues(m, &random)
        for a in values.prefix(40) {
            for b in values.prefix(40) {
                let sum = FixedUInt.sumBelowTwiceModulus(FixedUInt<4>(a), FixedUInt<4>(b))
                #expect(sum.reference == a + b, "\(a) + \(b) unreduced")
                // Operands a + b and (m − 1) + a, both below 2m.
                let other = FixedUInt.sumBelowTwiceModulus(FixedUInt<4>(m - .one), FixedUInt<4>(a))
                let product = FixedUInt.montgomeryProductSpareBits(sum, other, modulus: modulus, inverse: inverse)
                #expect(product.reference == (a + b) * (m - .one + a) * rInverse % m, "(\(a) + \(b)) · (m − 1 + \(a)) mod \(name)")
            }
        }
        // Fp2 uses it in its Karatsuba product and squaring: check both against Fp arithmetic
        // done the schoolbook way with reduced sums only.
        var fieldRandom = TestRandom("BN254CX Fp2 lazy")
        for _ in 0..<40 {
            let x = BN254CX.Fp2.random(&fieldRandom), y = BN254CX.Fp2.random(&fieldRandom)
            let product = x * y, square = x.squared()
            #expect(product.c0.isEqual(to: x.c0 * y.c0 - x.c1 * y.c1).isTrueVartime)
            #expect(product.c1.isEqual(to: x.c0 * y.c1 + x.c1 * y.c0).isTrueVartime)
            #expect(square.c0.isEqual(to: x.c0 * x.c0 - x.c1 * x.c1).isTrueVartime)
            #expect(square.c1.isEqual(to: x.c0 * x.c1 + x.c0 * x.c1).isTrueVartime)
        }
    }

    /// Lines of a secret point are wiped on request (MPin's server secret keeps them).
    @Test func preparedLinesAreWiped() {
        var prepared = BN254CX.G2Prepared(BN254CX.G2.generator)
        #expect(!prepared.lines.isEmpty && !prepared.lines[0].c0.isZero.isTrueVartime)
        let shared = prepared
        prepared.wipe()
        #expect(prepared.lines.allSatisfy { $0.c0.isZero.isTrueVartime && $0.c1.isZero.isTrueVartime && $0.c2.isZero.isTrueVartime })
        #expect(!shared.lines[0].c0.isZero.isTrueVartime)  // a copy keeps its own buffer
    }
}

extension BN254CXSpareBitsKernelTests {
    /// The borrow written as a carry of a + ¬b + (1 − borrow) is the borrow of a − b − borrow,
    /// for words at the edges (0, 1, 2⁶³, all ones) and random words, with either borrow in.
    @Test func chainedBorrowMatchesTheSubtraction() {
        var random = TestRandom("BN254CX chained borrow")
        var words: [UInt64] = [0, 1, 2, 1 << 63, (1 << 63) - 1, .max - 1, .max]
        for _ in 0..<20 { words.append(random.next()) }
        for a in words {
            for b in words {
                for borrow: UInt64 in [0, 1] {
                    let chained = UInt64.subtractingWithBorrowChained(a, b, borrow: borrow)
                    let plain = UInt64.subtractingWithBorrow(a, b, borrow: borrow)
                    #expect(chained.difference == plain.difference && chained.borrow == plain.borrow, "\(a) − \(b) − \(borrow)")
                }
            }
        }
    }
}
