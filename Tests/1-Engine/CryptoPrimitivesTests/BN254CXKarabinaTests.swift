// Karabina's compressed cyclotomic squarings against the Granger–Scott squaring and the plain
// power, and his decompression identities (both branches, and the identity element).

import CryptoPrimitives
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
}
