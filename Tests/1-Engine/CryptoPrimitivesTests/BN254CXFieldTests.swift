// The BN254CX fields: constants against Milagro's (via the params file) and the reference
// integer, Fp against the reference integer with a logged seed, and the tower laws.

import CryptoPrimitives
import CryptoCore
import Testing
import TestSupport

@Suite struct BN254CXFieldTests {
    typealias R = BN254CXReference

    @Test func primesFollowFromUAndMatchMilagro() throws {
        let u = R.u, one = ReferenceInteger.one
        // u < 0: p = 36u⁴ − 36|u|³ + 24u² − 6|u| + 1 and r = 36u⁴ − 36|u|³ + 18u² − 6|u| + 1.
        let u2 = u * u, u3 = u2 * u, u4 = u3 * u
        #expect(R.p == ReferenceInteger(36) * u4 + ReferenceInteger(24) * u2 + one - ReferenceInteger(36) * u3 - ReferenceInteger(6) * u)
        #expect(R.r == ReferenceInteger(36) * u4 + ReferenceInteger(18) * u2 + one - ReferenceInteger(36) * u3 - ReferenceInteger(6) * u)
        // The Montgomery descriptors.
        let bigR = one << 256
        for (m, inverse, rOne, rSquared) in [(BN254CXFieldModulus.modulus, BN254CXFieldModulus.inverse, BN254CXFieldModulus.montgomeryOne, BN254CXFieldModulus.rSquared),
                                             (BN254CXOrderModulus.modulus, BN254CXOrderModulus.inverse, BN254CXOrderModulus.montgomeryOne, BN254CXOrderModulus.rSquared)] {
            #expect(rOne.reference == bigR % m.reference)
            #expect(rSquared.reference == bigR * bigR % m.reference)
            #expect((ReferenceInteger(inverse) * m.reference + one) % (one << 64) == .zero)
        }
        #expect(BN254CXFieldConstants.sqrtExponent.reference == (R.p + one).quotientAndRemainder(dividingBy: ReferenceInteger(4)).quotient)
        #expect(BN254CXFieldConstants.legendreExponent.reference == (R.p - one).quotientAndRemainder(dividingBy: ReferenceInteger(2)).quotient)
    }

    @Test func generatedConstantsAreRecomputedAndMatchMilagro() throws {
        let derived = BN254CX.deriveConstants()
        let generated = [BN254CX.frobeniusGamma1, BN254CX.frobeniusGamma2, BN254CX.frobeniusGamma3, BN254CX.frobeniusGamma4, BN254CX.frobeniusGamma5]
        for (a, b) in zip(derived.gamma, generated) { #expect(a.isEqual(to: b).isTrueVartime) }
        let deltas = [BN254CX.frobeniusDelta1, BN254CX.frobeniusDelta2, BN254CX.frobeniusDelta3, BN254CX.frobeniusDelta4, BN254CX.frobeniusDelta5]
        for (a, b) in zip(derived.delta, deltas) { #expect(a.isEqual(to: b).isTrueVartime) }
        #expect(derived.beta.isEqual(to: BN254CX.glvBeta).isTrueVartime)
        #expect(derived.glvRound.map(\.reference) == [BN254CX.glvRound1, BN254CX.glvRound2].map(\.reference))
        #expect(derived.gsRound.map(\.reference) == [BN254CX.gsRound0, BN254CX.gsRound1, BN254CX.gsRound2, BN254CX.gsRound3].map(\.reference))
        #expect(BN254CX.constantsSource().contains("package static var frobeniusGamma1: Fp2"))
        // β³ = 1 ≠ β.
        #expect((BN254CX.glvBeta.squared() * BN254CX.glvBeta).isEqual(to: .one).isTrueVartime && !BN254CX.glvBeta.isEqual(to: .one).isTrueVartime)
    }

    @Test func subgroupTestsAreSound() {
        // ψ(Q) = [6u²]Q accepts a point of the cofactor part only if a prime ℓ | 2p − r divides
        // λ² − tλ + p for λ = 6u²; fᵖ = f^(6u²) only if ℓ | Φ₁₂(p)/r divides p − 6u².
        let one = ReferenceInteger.one, lambda = R.sixUSquared
        let t = lambda + one                                  // trace 6u² + 1
        let cofactor = ReferenceInteger(2) * R.p - R.r
        #expect(ReferenceInteger.gcd(lambda * lambda + R.p - t * lambda, cofactor) == one)
        let p2 = R.p * R.p
        let phi12 = p2 * p2 + one - p2
        let (gtCofactor, remainder) = phi12.quotientAndRemainder(dividingBy: R.r)
        #expect(remainder.isZero)
        #expect(ReferenceInteger.gcd(R.p - lambda, gtCofactor) == one)
    }

    @Test func fpMatchesTheReferenceInteger() {
        var random = TestRandom("BN254CX Fp")
        for _ in 0..<60 {
            let a = BN254CX.Fp.random(&random), b = BN254CX.Fp.random(&random)
            #expect((a * b).reference == a.reference * b.reference % R.p)
            #expect((a + b).reference == (a.reference + b.reference) % R.p)
            #expect((a - b).reference == (a.reference + R.p - b.reference) % R.p)
            #expect((a * a.inverted()).isEqual(to: .one).isTrueVartime)
            #expect(a.inverted().isEqual(to: a.invertedByFermat()).isTrueVartime)  // divsteps vs Fermat
            let (root, isSquare) = a.squared().squareRoot()
            #expect(isSquare.isTrueVartime && root.squared().isEqual(to: a.squared()).isTrueVartime)
            #expect(a.squared().isSquare.isTrueVartime)
            #expect(BN254CX.Fp(canonicalBytes: a.canonicalBytes)?.isEqual(to: a).isTrueVartime == true)
        }
        #expect(BN254CX.Fp(canonicalBytes: BN254CX.p.bigEndianBytes()) == nil)     // p itself is not canonical
        #expect(!BN254CX.Fp(small: 3).isSquare.isTrueVartime || BN254CX.Fp(small: 3).squareRoot().isSquare.isTrueVartime)
    }

    /// The lazy-reduction Fp2 product against the reference integer and the three-product
    /// form, including Montgomery forms 0, 1, p − 1 and p − 2 (where the 512-bit bounds of the
    /// kernel are tightest: a negative real part, an imaginary part near (2p)²).
    @Test func lazyFp2ProductMatchesTheReference() {
        var random = TestRandom("BN254CX lazy Fp2")
        let p = BN254CX.p.reference
        let edges = [ReferenceInteger.zero, .one, p - .one, p - ReferenceInteger(2)].map { BN254CX.Fp(montgomeryForm: FixedUInt($0)) }
        var values = edges
        for _ in 0..<12 { values.append(.random(&random)) }
        var pairs: [(BN254CX.Fp2, BN254CX.Fp2)] = []
        for x in edges { for y in edges { pairs.append((BN254CX.Fp2(x, y), BN254CX.Fp2(y, x))); pairs.append((BN254CX.Fp2(x, x), BN254CX.Fp2(y, y))) } }
        for _ in 0..<100 { pairs.append((BN254CX.Fp2(values.randomElement(using: &random)!, values.randomElement(using: &random)!), .random(&random))) }
        for (a, b) in pairs {
            let product = a * b
            let (a0, a1, b0, b1) = (a.c0.reference, a.c1.reference, b.c0.reference, b.c1.reference)
            #expect(product.c0.reference == (a0 * b0 + p * p - a1 * b1) % p)
            #expect(product.c1.reference == (a0 * b1 + a1 * b0) % p)
            #expect(product.isEqual(to: a.productByFpProducts(b)).isTrueVartime)
        }
    }

    @Test func towerLawsHold() {
        var random = TestRandom("BN254CX tower")
        for _ in 0..<6 {
            let a = BN254CX.Fp12.random(&random), b = BN254CX.Fp12.random(&random), c = BN254CX.Fp12.random(&random)
            #expect(((a * b) * c).isEqual(to: a * (b * c)).isTrueVartime)
            #expect((a * (b + c)).isEqual(to: a * b + a * c).isTrueVartime)
            #expect(a.squared().isEqual(to: a * a).isTrueVartime)
            #expect((a * a.inverted()).isOne.isTrueVartime)
            let x = BN254CX.Fp2.random(&random), y = BN254CX.Fp4.random(&random)
            #expect((x * x.inverted()).isEqual(to: .one).isTrueVartime && (y * y.inverted()).isEqual(to: .one).isTrueVartime)
            #expect(x.squared().isEqual(to: x * x).isTrueVartime && y.squared().isEqual(to: y * y).isTrueVartime)
            #expect(x.squared().squareRootVartime().map { $0.squared().isEqual(to: x.squared()).isTrueVartime } == true)
        }
    }

    @Test func frobeniusAndCyclotomicMapsAreThePowersTheyClaim() {
        var random = TestRandom("BN254CX Frobenius")
        let f = BN254CX.Fp12.random(&random)
        #expect(f.frobenius().isEqual(to: f.plainPower(R.p)).isTrueVartime)
        #expect(f.frobeniusSquared().isEqual(to: f.frobenius().frobenius()).isTrueVartime)
        #expect(f.conjugate.isEqual(to: f.frobeniusCubed().frobeniusCubed()).isTrueVartime)   // p⁶
        let unitary = f.conjugate * f.inverted()                        // f^(p⁶ − 1)
        let cyclotomic = unitary.frobeniusSquared() * unitary            // ·(p² + 1)
        #expect(cyclotomic.cyclotomicSquared().isEqual(to: cyclotomic.squared()).isTrueVartime)
        #expect(!unitary.cyclotomicSquared().isEqual(to: unitary.squared()).isTrueVartime)  // not for unitary alone
        // The line product is the general product by a D-type sparse element.
        let l0 = BN254CX.Fp2.random(&random), l1 = BN254CX.Fp2.random(&random), l2 = BN254CX.Fp2.random(&random)
        let line = BN254CX.Fp12(BN254CX.Fp4(l0, l1), BN254CX.Fp4(l2, .zero), .zero)
        #expect(f.timesLine(l0, l1, l2).isEqual(to: f * line).isTrueVartime)
        // The final exponentiation is the plain power (p¹² − 1)/r.
        let p2 = R.p * R.p, p4 = p2 * p2
        let exponent = (p4 * p4 * p4 - .one).quotientAndRemainder(dividingBy: R.r).quotient
        #expect(f.finalExponentiation().isEqual(to: f.plainPower(exponent)).isTrueVartime)
    }

    @Test func encodingsAreStrict() {
        var random = TestRandom("BN254CX encodings")
        let f = BN254CX.Fp12.random(&random)
        #expect(BN254CX.Fp12(canonicalBytes: f.canonicalBytes)?.isEqual(to: f).isTrueVartime == true)
        #expect(BN254CX.Fp12(canonicalBytes: f.canonicalBytes.dropLast()) == nil)
        var big = f.canonicalBytes
        big.replaceSubrange(0..<32, with: BN254CX.p.bigEndianBytes())
        #expect(BN254CX.Fp12(canonicalBytes: big) == nil)
    }
}
