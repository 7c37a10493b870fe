// The generated straight-line Montgomery kernels of RSA-2048's CRT halves (16 limbs, written by
// .ci/montgomery-kernels) against the generic loops they replace and against the reference
// integer, on random values and on the edges where carries run long; the product-scanning
// loops of the other widths, and the lockstep powers of the CRT halves, the same way.

import CryptoCore
import Testing
import TestSupport

@Suite struct MontgomeryUnrolledKernelTests {
    @Test func sixteenLimbKernelsMatchTheLoopsAndTheReference() {
        check(FixedUInt<16>.self)
    }

    /// From 8 limbs (16 excepted) the product is the product-scanning loop and the square its
    /// squaring loop (index and mirror per step, the middle term apart): checked against the
    /// CIOS loop and the reference integer at even and odd widths, RSA-2048's 32 among them.
    @Test func scanningLoopsMatchTheCIOSLoopAndTheReference() {
        check(FixedUInt<8>.self)
        check(FixedUInt<9>.self)
        check(FixedUInt<32>.self)
        check(FixedUInt<33>.self)
    }

    /// The lockstep powers of RSA's CRT halves against two single powers and the reference
    /// integer: at 16 limbs (RSA-2048's halves, on the written-out kernels) and at 9 (the loops).
    @Test func lockstepPowersMatchSinglePowersAndTheReference() {
        checkPowers(FixedUInt<16>.self)
        checkPowers(FixedUInt<9>.self)
    }

    private func checkPowers<let n: Int>(_: FixedUInt<n>.Type) {
        var random = TestRandom("MontgomeryPowers<\(n)>")
        for round in 0..<3 {
            var m1 = FixedUInt<n>.random(using: &random), m2 = FixedUInt<n>.random(using: &random)
            m1.limbs[0] |= 1
            m2.limbs[0] |= 1
            if round == 0 { for i in 0..<n { m2.limbs[i] = .max } }           // R − 1: every column carries
            // Not `try #require(…)`: it crashes the compiler in a function generic over a value.
            guard let first = MontgomeryContext(modulus: m1), let second = MontgomeryContext(modulus: m2) else {
                Issue.record("no Montgomery context for an odd modulus of width \(n)")
                return
            }
            let a = FixedUInt<n>(FixedUInt<n>.random(using: &random).reference % m1.reference)
            let b = FixedUInt<n>(m2.reference - .one)                           // the largest residue
            var e1 = FixedUInt<2>.random(using: &random)
            if round == 2 { e1 = FixedUInt<2>(limbs: [.max, .max]) }           // every 5-bit window 31
            let e2 = round == 1 ? FixedUInt<2>.zero : FixedUInt<2>.random(using: &random)
            let am = first.montgomeryForm(of: a), bm = second.montgomeryForm(of: b)
            let (x, y) = first.powers(am, e1, alongside: second, bm, e2)
            #expect(x.isEqual(to: first.power(am, e1)).isTrueVartime, "width \(n), round \(round)")
            #expect(y.isEqual(to: second.power(bm, e2)).isTrueVartime, "width \(n), round \(round)")
            #expect(first.canonical(of: x).reference == a.reference.power(e1.reference, modulo: m1.reference))
            #expect(second.canonical(of: y).reference == b.reference.power(e2.reference, modulo: m2.reference))
        }
    }

    /// `montgomeryProduct` and `montgomerySquare` dispatch to the kernels at this width; the
    /// `…Loop` functions are the generic code. Each result must be below m and satisfy
    /// result · R ≡ a · b (mod m).
    private func check<let n: Int>(_: FixedUInt<n>.Type) {
        var random = TestRandom("MontgomeryUnrolledKernels<\(n)>")
        let r = ReferenceInteger.one << (64 * n)
        for round in 0..<8 {
            var m = FixedUInt<n>.random(using: &random)
            switch round {
            case 0: for i in 0..<n { m.limbs[i] = .max }                   // R − 1: every column carries
            case 1: m.limbs[n - 1] = .max; m.limbs[0] = 1                  // top limb all ones
            case 2: m.limbs[n - 1] >>= 40                                  // a short modulus
            case 3: m = FixedUInt<n>.zero; m.limbs[n - 1] = 1 << 63; m.limbs[0] = 1  // 2^(64n−1) + 1
            default: m.limbs[n - 1] |= 1 << 63                             // a full-width modulus
            }
            m.limbs[0] |= 1
            let inverse = FixedUInt<n>.montgomeryInverse(of: m)
            let mRef = m.reference
            let largest = FixedUInt<n>(mRef - .one)
            var belowR = FixedUInt<n>.zero                                     // R − 1, allowed as b
            for i in 0..<n { belowR.limbs[i] = .max }
            for sample in 0..<6 {
                let a: FixedUInt<n>, b: FixedUInt<n>
                switch sample {
                case 0: (a, b) = (largest, largest)
                case 1: (a, b) = (largest, belowR)
                case 2: (a, b) = (.zero, largest)
                case 3: (a, b) = (FixedUInt(1), FixedUInt(1))
                default:
                    a = FixedUInt<n>(edgyValue(&random, FixedUInt<n>.self).reference % mRef)
                    b = FixedUInt<n>(edgyValue(&random, FixedUInt<n>.self).reference % mRef)
                }
                let product = FixedUInt.montgomeryProduct(a, b, modulus: m, inverse: inverse)
                let loopProduct = FixedUInt.montgomeryProductLoop(a, b, modulus: m, inverse: inverse)
                #expect(product.isEqual(to: loopProduct).isTrueVartime, "product, width \(n), round \(round), sample \(sample)")
                #expect(product.reference < mRef)
                #expect(product.reference * r % mRef == a.reference * b.reference % mRef)

                let square = FixedUInt.montgomerySquare(a, modulus: m, inverse: inverse)
                let loopSquare = FixedUInt.montgomerySquareLoop(a, modulus: m, inverse: inverse)
                #expect(square.isEqual(to: loopSquare).isTrueVartime, "square, width \(n), round \(round), sample \(sample)")
                #expect(square.reference < mRef)
                #expect(square.reference * r % mRef == a.reference * a.reference % mRef)
            }
        }
    }
}
