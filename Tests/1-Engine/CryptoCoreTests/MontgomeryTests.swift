// The Montgomery core against the reference integer, for compile-time and run-time moduli.

import CryptoCore
import Testing
import TestSupport

/// The P-256 field prime with constants written by hand; the test below recomputes them.
enum TestP256Prime: MontgomeryModulus {
    static var modulus: FixedUInt<4> { FixedUInt(limbs: [0xFFFF_FFFF_FFFF_FFFF, 0x0000_0000_FFFF_FFFF, 0, 0xFFFF_FFFF_0000_0001]) }
    static var inverse: UInt64 { 1 }
    static var montgomeryOne: FixedUInt<4> { FixedUInt(limbs: [1, 0xFFFF_FFFF_0000_0000, 0xFFFF_FFFF_FFFF_FFFF, 0x0000_0000_FFFF_FFFE]) }
    static var rSquared: FixedUInt<4> { FixedUInt(limbs: [3, 0xFFFF_FFFB_FFFF_FFFF, 0xFFFF_FFFF_FFFF_FFFE, 0x0000_0004_FFFF_FFFD]) }
}

@Suite struct MontgomeryTests {
    @Test func descriptorConstantsAreRecomputed() throws {
        let p = TestP256Prime.modulus.reference
        let r = ReferenceInteger.one << 256
        #expect(TestP256Prime.montgomeryOne.reference == r % p)
        #expect(TestP256Prime.rSquared.reference == r * r % p)
        let inverseCheck = ReferenceInteger(TestP256Prime.inverse) * p % (ReferenceInteger.one << 64)
        #expect(inverseCheck == (ReferenceInteger.one << 64) - .one)  // m · (−m⁻¹) ≡ −1
        let context = try #require(MontgomeryContext(modulus: TestP256Prime.modulus))
        #expect(context.inverse == TestP256Prime.inverse)
        #expect(context.rSquared.reference == TestP256Prime.rSquared.reference)
        #expect(context.montgomeryOne.reference == TestP256Prime.montgomeryOne.reference)
    }

    @Test func residueArithmeticMatchesReference() {
        typealias Residue = MontgomeryResidue<4, TestP256Prime>
        var random = TestRandom("Montgomery P-256 field")
        let p = TestP256Prime.modulus.reference
        for _ in 0..<150 {
            let a = FixedUInt<4>(ReferenceInteger(words: (0..<4).map { _ in random.next() }) % p)
            let b = FixedUInt<4>(ReferenceInteger(words: (0..<4).map { _ in random.next() }) % p)
            let x = Residue(reducing: a), y = Residue(reducing: b)
            #expect((x * y).canonical.reference == a.reference * b.reference % p)
            #expect((x + y).canonical.reference == (a.reference + b.reference) % p)
            #expect((x - y).canonical.reference == (a.reference + p - b.reference) % p)
            #expect((-x).canonical.reference == (p - a.reference) % p)
            #expect(x.squared().canonical.reference == a.reference * a.reference % p)
            let exponent = FixedUInt<2>.random(using: &random)
            let expected = a.reference.power(exponent.reference, modulo: p)
            #expect(x.power(exponent).canonical.reference == expected)
            #expect(x.powerVartime(exponent).canonical.reference == expected)
            if !a.reference.isZero {
                #expect((x * x.inverted()).canonical.reference == .one)
            }
            #expect(x.isEqual(to: Residue(reducing: a)).isTrueVartime)
        }
        #expect(Residue.zero.inverted().isZero.isTrueVartime)
        #expect(Residue.one.canonical.reference == .one)
    }

    @Test func canonicalDecodingRejectsValuesFromTheModulusUp() {
        typealias Residue = MontgomeryResidue<4, TestP256Prime>
        let p = TestP256Prime.modulus
        #expect(!Residue.fromCanonical(p).isCanonical.isTrueVartime)
        #expect(Residue.fromCanonical(p).residue.isZero.isTrueVartime)
        let belowP = p.subtractingReportingBorrow(FixedUInt(1)).difference
        #expect(Residue.fromCanonical(belowP).isCanonical.isTrueVartime)
        var allOnes = FixedUInt<4>.zero
        for i in 0..<4 { allOnes.limbs[i] = .max }
        #expect(!Residue.fromCanonical(allOnes).isCanonical.isTrueVartime)
        // Any value below R is reduced.
        #expect(Residue(reducing: allOnes).canonical.reference == allOnes.reference % p.reference)
    }

    @Test(.enabled(if: TestBuild.isOptimized, "heavy unoptimised; swift test -c release runs it"))
    func runtimeContextsMatchReferenceForRandomOddModuli() throws {
        try check(FixedUInt<1>.self)
        try check(FixedUInt<2>.self)
        try check(FixedUInt<5>.self)
        try check(FixedUInt<8>.self)    // the smallest width with the product-scanning square
        try check(FixedUInt<16>.self)
        try check(FixedUInt<32>.self)

        func check<let n: Int>(_: FixedUInt<n>.Type) throws {
            var random = TestRandom("MontgomeryContext<\(n)>")
            for round in 0..<12 {
                var m = FixedUInt<n>.random(using: &random)
                m.limbs[0] |= 1
                if round == 0 { for i in 0..<n { m.limbs[i] = .max } }          // 2^k − 1
                if round == 1 { m.limbs[n - 1] >>= 40 }                         // a short modulus
                // Not `try #require(…)`: inside a function generic over a value parameter that
                // macro crashes Swift 6.3.1 at -Onone (docs/engine-choices.md has the 8-line reproducer).
                guard let context = MontgomeryContext(modulus: m) else {
                    Issue.record("no Montgomery context for an odd modulus of width \(n)")
                    return
                }
                let mRef = m.reference
                for sample in 0..<8 {
                    let a = sample == 0 ? FixedUInt<n>(mRef - .one)                   // the largest residue
                        : FixedUInt<n>(ReferenceInteger(words: (0..<n).map { _ in random.next() }) % mRef)
                    let b = FixedUInt<n>(ReferenceInteger(words: (0..<n).map { _ in random.next() }) % mRef)
                    let am = context.montgomeryForm(of: a), bm = context.montgomeryForm(of: b)
                    #expect(context.canonical(of: context.product(am, bm)).reference == a.reference * b.reference % mRef)
                    #expect(FixedUInt.modularSum(a, b, modulus: m).reference == (a.reference + b.reference) % mRef)
                    #expect(FixedUInt.modularDifference(a, b, modulus: m).reference == (a.reference + mRef - b.reference) % mRef)
                    let exponent = FixedUInt<1>.random(using: &random)
                    let expected = a.reference.power(exponent.reference, modulo: mRef)
                    #expect(context.canonical(of: context.power(am, exponent)).reference == expected)
                    #expect(context.canonical(of: context.powerVartime(am, exponent)).reference == expected)
                    #expect(context.canonical(of: context.squared(am)).reference == a.reference * a.reference % mRef)
                    let longExponent = FixedUInt<3>.random(using: &random)            // the width-5 window
                    let longExpected = a.reference.power(longExponent.reference, modulo: mRef)
                    #expect(context.canonical(of: context.power(am, longExponent)).reference == longExpected)
                    #expect(context.canonical(of: context.powerVartime(am, longExponent)).reference == longExpected)
                }
            }
            #expect(MontgomeryContext(modulus: FixedUInt<n>(4)) == nil)  // even
            #expect(MontgomeryContext(modulus: FixedUInt<n>(1)) == nil)  // too small
        }
    }

    @Test func montgomeryInverseIsTheNegatedInverse() {
        var random = TestRandom("montgomeryInverse")
        for _ in 0..<100 {
            var m = FixedUInt<1>.random(using: &random)
            m.limbs[0] |= 1
            #expect(m.limbs[0] &* FixedUInt<1>.montgomeryInverse(of: m) == UInt64.max)
        }
    }
}
