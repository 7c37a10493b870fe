// P-256 field and scalar arithmetic against the reference integer, the constants recomputed,
// and the scalar recodings reassembled.

import CryptoPrimitives
import CryptoCore
import Testing
import TestSupport

@Suite struct P256ArithmeticTests {
    static let p = ReferenceInteger(hex: "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff")
    static let n = ReferenceInteger(hex: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
    static let r = ReferenceInteger.one << 256

    static func reference(_ value: FixedUInt<4>) -> ReferenceInteger {
        ReferenceInteger(words: (0..<4).map { value.limbs[$0] })
    }

    static func fixed(_ value: ReferenceInteger) -> FixedUInt<4> {
        let words = value.words(count: 4)
        return FixedUInt(limbs: [words[0], words[1], words[2], words[3]])
    }

    @Test func constantsAreRecomputedFromTheirDefinitions() throws {
        for (modulus, one, rSquared, inverse, reference) in [
            (P256FieldModulus.modulus, P256FieldModulus.montgomeryOne, P256FieldModulus.rSquared, P256FieldModulus.inverse, Self.p),
            (P256OrderModulus.modulus, P256OrderModulus.montgomeryOne, P256OrderModulus.rSquared, P256OrderModulus.inverse, Self.n),
        ] {
            #expect(Self.reference(modulus) == reference)
            #expect(Self.reference(one) == Self.r % reference)
            #expect(Self.reference(rSquared) == Self.r * Self.r % reference)
            let context = try #require(MontgomeryContext(modulus: modulus))
            #expect(context.inverse == inverse)
        }
        // b and G in Montgomery form (SEC 2 v2 §2.4.2).
        let b = ReferenceInteger(hex: "5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b")
        #expect(Self.reference(P256.curveB.canonical) == b)
        let g = P256.generator
        #expect(TestHex.string(g.x.canonicalBytes) == "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296")
        #expect(TestHex.string(g.y.canonicalBytes) == "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5")
        #expect(g.isOnCurve.isTrueVartime)
    }

    /// The kernels with the reduction specialised to p's shape (P256FieldMultiplication.swift)
    /// against the reference integer: a·b·2⁻²⁵⁶ and a²·2⁻²⁵⁶ mod p on edge values whose words
    /// are all ones or all zeros (where a lost carry shows) and on random values.
    @Test func specialisedMontgomeryKernelsMatchReference() {
        let rInverse = Self.r.power(Self.p - ReferenceInteger(2), modulo: Self.p)
        var values: [ReferenceInteger] = [.zero, .one, ReferenceInteger(2), Self.p - .one, Self.p - ReferenceInteger(2),
                                          Self.p - (.one << 96), (.one << 255), (.one << 224) - .one, (.one << 192),
                                          (.one << 96) - .one, Self.r % Self.p, Self.p - (.one << 192), (.one << 64) - .one]
        var random = TestRandom("P-256 specialised kernels")
        for _ in 0..<60 { values.append(ReferenceInteger(words: (0..<4).map { _ in random.next() }) % Self.p) }
        for a in values {
            // The straight-line sum and difference (a carry out of a + b happens for p − 1 + p − 1).
            for b in values.prefix(20) {
                let x = P256.FieldElement(montgomeryForm: Self.fixed(a)), y = P256.FieldElement(montgomeryForm: Self.fixed(b))
                #expect(Self.reference((x + y).montgomeryForm) == (a + b) % Self.p, "\(a) + \(b)")
                #expect(Self.reference((x - y).montgomeryForm) == (a + Self.p - b) % Self.p, "\(a) − \(b)")
            }
            let square = P256FieldArithmetic.square(Self.fixed(a))
            #expect(Self.reference(square) == a * a * rInverse % Self.p, "square of \(a)")
            for b in values.prefix(20) {
                let product = P256FieldArithmetic.product(Self.fixed(a), Self.fixed(b))
                #expect(Self.reference(product) == a * b * rInverse % Self.p, "\(a) · \(b)")
            }
        }
    }

    @Test func fieldOperationsMatchReference() throws {
        var random = TestRandom("P-256 field")
        for round in 0..<100 {
            var a = ReferenceInteger(words: (0..<4).map { _ in random.next() }) % Self.p
            let b = ReferenceInteger(words: (0..<4).map { _ in random.next() }) % Self.p
            if round == 0 { a = Self.p - .one }
            let x = P256.FieldElement(reducing: Self.fixed(a)), y = P256.FieldElement(reducing: Self.fixed(b))
            #expect(Self.reference((x * y).canonical) == a * b % Self.p)
            #expect(Self.reference((x - y).canonical) == (a + Self.p - b) % Self.p)
            #expect(Self.reference((x + y).canonical) == (a + b) % Self.p)
            #expect(Self.reference((-x).canonical) == (Self.p - a) % Self.p)
            let inverse = x.invertedByAdditionChain()
            #expect(Self.reference(inverse.canonical) == a.power(Self.p - ReferenceInteger(2), modulo: Self.p))
            #expect(inverse.isEqual(to: x.inverted()).isTrueVartime)
            #expect(inverse.isEqual(to: x.invertedVartime()).isTrueVartime)
            let (root, isSquare) = (x * x).squareRoot()
            #expect(isSquare.isTrueVartime)
            #expect((root * root).isEqual(to: x * x).isTrueVartime)
            #expect(x.isOdd.isTrueVartime == a.bit(0))
            #expect(try #require(P256.FieldElement(canonicalBytes: a.bigEndian(count: 32))).isEqual(to: x).isTrueVartime)
        }
        // −1 is not a square modulo p (p ≡ 3 mod 4).
        #expect(!(-P256.FieldElement.one).squareRoot().isSquare.isTrueVartime)
        #expect(P256.FieldElement.zero.invertedByAdditionChain().isZero.isTrueVartime)
        #expect(P256.FieldElement(canonicalBytes: Self.p.bigEndian(count: 32)) == nil)
        #expect(P256.FieldElement(canonicalBytes: [UInt8](repeating: 0xFF, count: 32)) == nil)
        #expect(P256.FieldElement(canonicalBytes: [UInt8](repeating: 0, count: 31)) == nil)
    }

    @Test func scalarOperationsMatchReference() {
        var random = TestRandom("P-256 scalar")
        for _ in 0..<100 {
            let a = ReferenceInteger(words: (0..<4).map { _ in random.next() }) % Self.n
            let x = P256.Scalar(reducing: Self.fixed(a))
            if !a.isZero {
                #expect(Self.reference(x.inverted().canonical) == a.power(Self.n - ReferenceInteger(2), modulo: Self.n))
                #expect(x.inverted().isEqual(to: x.invertedVartime()).isTrueVartime)
                #expect(x.inverted().isEqual(to: x.invertedByFermat()).isTrueVartime)  // divsteps vs Fermat
            }
            // A digest longer than 32 bytes contributes its leftmost 256 bits (bits2int).
            let digest = random.bytes(64)
            #expect(Self.reference(P256.Scalar(digest: digest).canonical) == ReferenceInteger(bigEndian: Array(digest.prefix(32))) % Self.n)
        }
        #expect(P256.Scalar(canonicalBytes: Self.n.bigEndian(count: 32)) == nil)
        #expect(P256.Scalar(canonicalBytes: (Self.n - .one).bigEndian(count: 32)) != nil)
    }

    @Test func signedWindowsReassembleTheScalar() {
        var random = TestRandom("booth recoding")
        var scalars = [FixedUInt<4>.zero, Self.fixed(Self.n - .one), FixedUInt(limbs: [.max, .max, .max, .max]), FixedUInt(1)]
        for _ in 0..<100 { scalars.append(FixedUInt(limbs: [random.next(), random.next(), random.next(), random.next()])) }
        for k in scalars {
            var positive = ReferenceInteger.zero, negativePart = ReferenceInteger.zero
            for i in 0..<52 {
                let (magnitude, negative) = P256.signedWindow(k, i)
                #expect(magnitude <= 16 && negative <= 1)
                let term = ReferenceInteger(magnitude) * (.one << (5 * i))
                if negative == 1 { negativePart = negativePart + term } else { positive = positive + term }
            }
            #expect(positive - negativePart == Self.reference(k))
            let naf = P256.nonAdjacentFormVartime(k, width: 5)
            var nafPositive = ReferenceInteger.zero, nafNegative = ReferenceInteger.zero
            for (i, digit) in naf.enumerated() where digit != 0 {
                #expect(digit % 2 != 0 && abs(digit) < 16)
                let term = ReferenceInteger(UInt64(abs(digit))) * (.one << i)
                if digit > 0 { nafPositive = nafPositive + term } else { nafNegative = nafNegative + term }
            }
            #expect(nafPositive - nafNegative == Self.reference(k))
        }
    }
}

extension P256ArithmeticTests {
    /// The straight-line Montgomery product behind P-256 scalars (and usable for any odd
    /// 4-limb modulus) against the reference integer and the generic core, on values where the
    /// fifth accumulator word or the final subtraction matters: m − 1, words all ones, 2²⁵⁵.
    @Test(arguments: [("n", P256OrderModulus.modulus, P256OrderModulus.inverse),
                      ("p", P256FieldModulus.modulus, P256FieldModulus.inverse)])
    func straightLineProductMatchesReference(name: String, modulus: FixedUInt<4>, inverse: UInt64) {
        let m = Self.reference(modulus)
        let rInverse = Self.r.power(m - ReferenceInteger(2), modulo: m)
        var random = TestRandom("P-256 straight-line product \(name)")
        let one = ReferenceInteger.one
        var values: [ReferenceInteger] = [.zero, one, m - one, m - ReferenceInteger(2), (one << 255) % m, (one << 192) - one,
                                          (one << 64) - one, m - (one << 64), Self.r % m]
        for _ in 0..<40 { values.append(ReferenceInteger(words: (0..<4).map { _ in random.next() }) % m) }
        for a in values {
            for b in values {
                let product = FixedUInt.montgomeryProductStraightLine(Self.fixed(a), Self.fixed(b), modulus: modulus, inverse: inverse)
                #expect(Self.reference(product) == a * b * rInverse % m, "\(a) · \(b) mod \(name)")
                let generic = FixedUInt.montgomeryProduct(Self.fixed(a), Self.fixed(b), modulus: modulus, inverse: inverse)
                #expect(product.isEqual(to: generic).isTrueVartime)
            }
        }
        // The scalar operators use it, and the inverse of zero is zero.
        #expect(P256.Scalar.zero.inverted().isZero.isTrueVartime)
        let x = P256.Scalar(reducing: Self.fixed(values[20])), y = P256.Scalar(reducing: Self.fixed(values[21]))
        #expect(Self.reference((x * y).canonical) == values[20] * values[21] % Self.n)
    }
}
