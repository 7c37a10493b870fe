// Karabina's compressed cyclotomic squarings against the Granger–Scott squaring and the plain
// power, his decompression identities (both branches, and the identity element), and the
// width-5 NAF of the variable-time G1 multiplication.

@testable import CryptoPrimitives
import CryptoCore
import Testing
import TestSupport

@Suite struct BN254CXKarabinaTests {
    typealias Fp2 = BN254CX.Fp2
    typealias Fp4 = BN254CX.Fp4
    typealias Fp12 = BN254CX.Fp12

    /// A random element of the cyclotomic subgroup, f^((p⁶ − 1)(p² + 1)).
    static func cyclotomic(_ random: inout TestRandom) -> Fp12 {
        let f = Fp12.random(&random)
        let unitary = f.conjugate * f.inverted()
        return unitary.frobeniusSquared() * unitary
    }

    @Test func compressedSquaringsMatchGrangerScott() {
        var random = TestRandom("BN254CX Karabina squarings")
        for count in [1, 2, 16, 36] {
            let g = Self.cyclotomic(&random)
            var expected = g
            for _ in 0..<count { expected = expected.cyclotomicSquared() }
            #expect(g.karabinaSquared(repeatedly: count).isEqual(to: expected).isTrueVartime, "\(count) squarings")
        }
        // Against the general square, not only against Granger–Scott.
        let g = Self.cyclotomic(&random)
        #expect(g.karabinaSquared(repeatedly: 2).isEqual(to: g.squared().squared()).isTrueVartime)
        // powerByU with its compressed run against the plain power by |u|, conjugated (u < 0).
        #expect(g.powerByU().isEqual(to: g.plainPower(BN254CXReference.u).conjugate).isTrueVartime)
    }

    @Test func decompressionRecoversTheElement() {
        var random = TestRandom("BN254CX Karabina decompression")
        for _ in 0..<6 {
            let g = Self.cyclotomic(&random)
            #expect(Fp12.karabinaDecompressed(g.b, g.c).isEqual(to: g).isTrueVartime)
            // The identity the b0 = 0 branch stands on: a1·b1 − 2c0·c1 = b0·(1 − a0)/ξ.
            let lhs = g.a.c1 * g.b.c1 - (g.c.c0 * g.c.c1).doubled
            #expect((lhs * Fp2.one.timesXi).isEqual(to: g.b.c0 * (Fp2.one - g.a.c0)).isTrueVartime)
        }
        // The identity element (b = c = 0): zero over zero gives a1 = 0, a0 = 1.
        #expect(Fp12.karabinaDecompressed(.zero, .zero).isOne.isTrueVartime)
        #expect(Fp12.one.karabinaSquared(repeatedly: 20).isOne.isTrueVartime)
        // b0 = 0 takes a1 = 2c0·c1/b1 (on arbitrary coordinates: the branch's formula).
        let b1 = Fp2.random(&random), c = Fp4.random(&random)
        let forced = Fp12.karabinaDecompressed(Fp4(.zero, b1), c)
        #expect(forced.a.c1.isEqual(to: (c.c0 * c.c1).doubled * b1.inverted()).isTrueVartime)
    }

    @Test func widthFiveNAFRecombines() {
        var random = TestRandom("BN254CX wNAF")
        let one = ReferenceInteger.one
        var values: [ReferenceInteger] = [.zero, one, (one << 129) - one, (one << 256) - one, (one << 255),
                                          ReferenceInteger(words: [0x8888_8888_8888_8888, 0x8888_8888_8888_8888, 1, 0]),
                                          ReferenceInteger(words: [0xFFFF_FFFF_FFFF_FFF0, 0xF0F0_F0F0_F0F0_F0F0, ~0, ~0])]
        for _ in 0..<30 { values.append(ReferenceInteger(words: [random.next(), random.next(), random.next(), random.next()])) }
        for k in values {
            let digits = BN254CX.G1Projective.wNAFVartime(FixedUInt<4>(k), width: 5)
            var positive = ReferenceInteger.zero, negative = ReferenceInteger.zero
            for (i, digit) in digits.enumerated() {
                #expect(digit == 0 || (digit & 1 != 0 && digit > -16 && digit < 16), "digit \(i) of \(k)")
                let term = ReferenceInteger(UInt64(digit.magnitude)) << i
                if digit < 0 { negative = negative + term } else { positive = positive + term }
            }
            #expect(positive == k + negative, "\(k) recombines")
            #expect(digits.last.map { $0 != 0 } ?? true)
            for i in digits.indices where digits[i] != 0 {
                #expect(digits[(i + 1)..<min(i + 5, digits.count)].allSatisfy { $0 == 0 }, "non-adjacent at \(i)")
            }
        }
        // The GLV multiplication against double-and-add, including 0, 1 and −1.
        let p = BN254CX.G1.generator.multiplied(by: BN254CX.Scalar(reducing: random.bytes(32)))
        for k in [BN254CX.Scalar(0), BN254CX.Scalar(1), -BN254CX.Scalar(1), BN254CX.Scalar(reducing: random.bytes(32))] {
            #expect(p.point.multipliedGLVVartime(by: k.integer).isEqual(to: p.point.multipliedVartime(by: k.integer)).isTrueVartime)
        }
    }
}
