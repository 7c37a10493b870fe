// P-384: the constants recomputed from their definitions, the group law against affine
// arithmetic on the reference integer, constant-time and verification scalar multiplications
// against each other, and encodings. The Wycheproof, ACVP and recorded files run in RunnerTests.

import CryptoPrimitives
import CryptoCore
import Testing
import TestSupport

@Suite struct P384Tests {
    static let p = ReferenceInteger(hex: "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff")
    static let n = ReferenceInteger(hex: "ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973")
    static let r = ReferenceInteger.one << 384

    static func reference(_ value: FixedUInt<6>) -> ReferenceInteger { ReferenceInteger(words: (0..<6).map { value.limbs[$0] }) }

    static func fixed(_ value: ReferenceInteger) -> FixedUInt<6> {
        let words = value.words(count: 6)
        return FixedUInt(limbs: [words[0], words[1], words[2], words[3], words[4], words[5]])
    }

    @Test func constantsAreRecomputedFromTheirDefinitions() throws {
        for (modulus, one, rSquared, inverse, reference) in [
            (P384FieldModulus.modulus, P384FieldModulus.montgomeryOne, P384FieldModulus.rSquared, P384FieldModulus.inverse, Self.p),
            (P384OrderModulus.modulus, P384OrderModulus.montgomeryOne, P384OrderModulus.rSquared, P384OrderModulus.inverse, Self.n),
        ] {
            #expect(Self.reference(modulus) == reference)
            #expect(Self.reference(one) == Self.r % reference)
            #expect(Self.reference(rSquared) == Self.r * Self.r % reference)
            // −m⁻¹ mod 2⁶⁴: m · inverse ≡ −1.
            #expect(modulus.limbs[0] &* inverse == UInt64.max)
        }
        // SEC 2 v2 §2.5.1.
        #expect(TestHex.string(P384.curveB.canonicalBytes48)
                == "b3312fa7e23ee7e4988e056be3f82d19181d9c6efe8141120314088f5013875ac656398d8a2ed19d2a85c8edd3ec2aef")
        #expect(TestHex.string(P384.generator.x.canonicalBytes48)
                == "aa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a385502f25dbf55296c3a545e3872760ab7")
        #expect(TestHex.string(P384.generator.y.canonicalBytes48)
                == "3617de4a96262c6f5d9e98bf9292dc29f8f41dbd289a147ce9da3113b5f0b8c00a60b1ce1d7e819d7a431d7c90ea0e5f")
        #expect(P384.generator.isOnCurve.isTrueVartime)
        #expect(Self.reference(P384.squareRootExponent) == (Self.p + .one).quotientAndRemainder(dividingBy: ReferenceInteger(4)).quotient)
    }

    /// k·G by the windowed ladder equals u₁·G + 0·Q by the verification path, and n·G is the
    /// identity; 2G and 3G match affine doubling and addition on the reference integer.
    @Test func scalarMultiplicationsAgree() {
        var random = TestRandom("p384-scalar")
        let g = P384.generator
        for round in 0..<4 {
            let k = round == 0 ? FixedUInt<6>(1) : Self.fixed(ReferenceInteger(bigEndian: random.bytes(48)) % Self.n)
            let constantTime = P384.multiply(g, by: k).affine.point
            let other = P384.doubleScalarMultiplyVartime(generatorScalar: k, point: g, scalar: .zero).affine.point
            #expect(constantTime.x.isEqual(to: other.x).isTrueVartime && constantTime.y.isEqual(to: other.y).isTrueVartime)
        }
        #expect(P384.multiply(g, by: P384OrderModulus.modulus).isIdentity.isTrueVartime)
        // Affine reference: λ = 3x²−3 / 2y for doubling.
        let x = Self.reference(g.x.canonical), y = Self.reference(g.y.canonical)
        let inverse2y = (y + y).power(Self.p - ReferenceInteger(2), modulo: Self.p)
        let lambda = (ReferenceInteger(3) * x * x + Self.p * ReferenceInteger(3) - ReferenceInteger(3)) % Self.p * inverse2y % Self.p
        let x2 = (lambda * lambda + Self.p * ReferenceInteger(2) - x - x) % Self.p
        let twoG = P384.multiply(g, by: FixedUInt(2)).affine.point
        #expect(Self.reference(twoG.x.canonical) == x2)
        let sum = (P384.ProjectivePoint(g) + P384.ProjectivePoint(g)).affine.point
        #expect(sum.x.isEqual(to: twoG.x).isTrueVartime)
    }

    @Test func encodingsRoundTripAndRefuse() throws {
        let key = try P384.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](repeating: 0, count: 47) + [3])
        let publicKey = key.publicKey
        #expect(try P384.KeyAgreement.PublicKey(compressedRepresentation: publicKey.compressedRepresentation) == publicKey)
        #expect(try P384.KeyAgreement.PublicKey(x963Representation: publicKey.x963Representation) == publicKey)
        var offCurve = publicKey.x963Representation
        offCurve[96] ^= 1
        #expect(throws: CryptoError.invalidKey) { try P384.KeyAgreement.PublicKey(x963Representation: offCurve) }
        #expect(throws: CryptoError.invalidEncoding) { try P384.KeyAgreement.PublicKey(x963Representation: [0]) }
        #expect(throws: CryptoError.invalidKey) { try P384.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](repeating: 0, count: 48)) }
        #expect(throws: CryptoError.invalidKey) { try P384.KeyAgreement.PrivateKey(rawRepresentation: Self.n.bigEndian(count: 48)) }
    }
}
