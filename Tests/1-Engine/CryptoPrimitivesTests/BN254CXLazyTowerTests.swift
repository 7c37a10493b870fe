// The lazy-reduction Fp4 kernels (BN254CXFp4Product.swift) against the reference integer
// (schoolbook Fp4 formula, every coordinate reduced modulo p) and against the Fp2-level
// formulas they replace, on Montgomery forms at the edges of the 512-bit bounds (0, 1, p − 1,
// p − 2 in every coordinate, where a real part is most negative or an imaginary part largest)
// and on random values.

import CryptoPrimitives
import CryptoCore
import Testing
import TestSupport

@Suite struct BN254CXLazyTowerTests {
    typealias R = BN254CXReference
    typealias Fp = BN254CX.Fp
    typealias Fp2 = BN254CX.Fp2
    typealias Fp4 = BN254CX.Fp4
    typealias Pair = (ReferenceInteger, ReferenceInteger)

    /// (x0 + x1·i)(y0 + y1·i) modulo p, schoolbook on the reference integer.
    static func fp2Product(_ x: Pair, _ y: Pair) -> Pair {
        let p = R.p
        return ((x.0 * y.0 + p * p - x.1 * y.1) % p, (x.0 * y.1 + x.1 * y.0) % p)
    }

    /// (a0 + a1·s)(b0 + b1·s) with s² = ξ = 1 + i, schoolbook: (a0b0 + ξ·a1b1, a0b1 + a1b0).
    static func fp4Product(_ a: Fp4, _ b: Fp4) -> [ReferenceInteger] {
        let p = R.p
        func pair(_ x: Fp2) -> Pair { (x.c0.reference, x.c1.reference) }
        let v0 = fp2Product(pair(a.c0), pair(b.c0)), v1 = fp2Product(pair(a.c1), pair(b.c1))
        let m0 = fp2Product(pair(a.c0), pair(b.c1)), m1 = fp2Product(pair(a.c1), pair(b.c0))
        return [(v0.0 + v1.0 + p - v1.1) % p, (v0.1 + v1.0 + v1.1) % p, (m0.0 + m1.0) % p, (m0.1 + m1.1) % p]
    }

    static func coordinates(_ x: Fp4) -> [ReferenceInteger] {
        [x.c0.c0.reference, x.c0.c1.reference, x.c1.c0.reference, x.c1.c1.reference]
    }

    /// Fp4 values whose Montgomery forms are edge words in every coordinate, then random ones.
    static func values(_ random: inout TestRandom) -> [Fp4] {
        let p = BN254CX.p.reference
        let edges = [ReferenceInteger.zero, .one, p - .one, p - ReferenceInteger(2)].map { Fp(montgomeryForm: FixedUInt($0)) }
        var values: [Fp4] = []
        for a in edges { for b in edges {
            values.append(Fp4(Fp2(a, b), Fp2(b, a)))
            values.append(Fp4(Fp2(a, a), Fp2(b, b)))
            values.append(Fp4(Fp2(a, .zero), Fp2(b, b)))
            values.append(Fp4(Fp2(b, b), Fp2(a, .zero)))
        } }
        for _ in 0..<24 { values.append(.random(&random)) }
        return values
    }

    @Test func lazyFp4ProductMatchesTheReference() {
        var random = TestRandom("BN254CX lazy Fp4 product")
        let values = Self.values(&random)
        for (index, a) in values.enumerated() {
            // Every value against a spread of the others (all pairs would be 7 000 products).
            for b in values.enumerated().filter({ ($0.offset + index) % 5 == 0 }).map(\.element) {
                let product = a * b
                #expect(Self.coordinates(product) == Self.fp4Product(a, b))
                #expect(product.isEqual(to: a.productByFp2Products(b)).isTrueVartime)
            }
        }
    }

    @Test func lazyFp4SquareMatchesTheReference() {
        var random = TestRandom("BN254CX lazy Fp4 square")
        for a in Self.values(&random) {
            let square = a.squared()
            #expect(Self.coordinates(square) == Self.fp4Product(a, a))
            #expect(square.isEqual(to: a.squaredByFp2Squares()).isTrueVartime)
        }
    }

    /// The signed reduction over its whole range (−7p², 7p²): ±k·p² (and a little more) for k
    /// up to 6, ±(7p² − 1) and random magnitudes, each against t·2⁻²⁵⁶ mod p on the reference
    /// integer.
    @Test func signedReductionCoversItsRange() {
        let p = R.p, twoTo512 = ReferenceInteger.one << 512
        let rInverse = (ReferenceInteger.one << 256).power(p - ReferenceInteger(2), modulo: p)
        var random = TestRandom("BN254CX signed reduction")
        var magnitudes: [ReferenceInteger] = [.zero, .one, p - .one]
        for k in UInt64(1)...6 { magnitudes.append(ReferenceInteger(k) * p * p); magnitudes.append(ReferenceInteger(k) * p * p + (ReferenceInteger.one << 200)) }
        magnitudes.append(ReferenceInteger(7) * p * p - .one)
        for _ in 0..<20 { magnitudes.append(ReferenceInteger(words: (0..<8).map { _ in random.next() }) % (ReferenceInteger(7) * p * p)) }
        for magnitude in magnitudes {
            for negative in [false, true] where !(negative && magnitude == .zero) {
                let encoded = negative ? twoTo512 - magnitude : magnitude
                let w = encoded.words(count: 8)
                let t = WideUInt512(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7])
                let expected = negative ? (p - magnitude * rInverse % p) % p : magnitude * rInverse % p
                #expect(BN254CXFp4Kernel.reduceSigned(t).reference == expected, "\(negative ? "−" : "")\(magnitude)")
            }
        }
    }

    /// The unsigned reduction with deferred step carries over its whole range [0, p·2²⁵⁶):
    /// the top value p·2²⁵⁶ − 1, values whose every word is all ones below it (each step's
    /// carry and the final chain at their largest), powers of two and random values, each
    /// against t·2⁻²⁵⁶ mod p on the reference integer.
    @Test func deferredCarryReductionCoversItsRange() {
        let p = R.p, bound = R.p << 256
        let rInverse = (ReferenceInteger.one << 256).power(p - ReferenceInteger(2), modulo: p)
        var random = TestRandom("BN254CX deferred-carry reduction")
        var values: [ReferenceInteger] = [.zero, .one, p - .one, p, p * p, bound - .one, bound - p, bound - (ReferenceInteger.one << 256)]
        for bits in [64, 128, 192, 256, 320, 384, 448, 500, 508] { values.append((ReferenceInteger.one << bits) - .one) }
        for bits in [255, 256, 300, 400, 509] { values.append(ReferenceInteger.one << bits) }
        for _ in 0..<40 { values.append(ReferenceInteger(words: (0..<8).map { _ in random.next() }) % bound) }
        for value in values where value < bound {
            let w = value.words(count: 8)
            let t = WideUInt512(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7])
            #expect(BN254CXFp2Kernel.reduce(t).reference == value * rInverse % p, "\(value)")
        }
    }
}
