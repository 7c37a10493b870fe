// BN254CX groups: laws, encodings (Milagro's generator bytes), strict decoding including the
// G2 subgroup check, the GLV and Galbraith–Scott splits, and every multiplication method
// against the plain double-and-add.

import CryptoPrimitives
import CryptoCore
import Testing
import TestSupport

@Suite struct BN254CXGroupTests {
    typealias R = BN254CXReference

    static func scalar(_ random: inout TestRandom) -> BN254CX.Scalar {
        BN254CX.Scalar(reducing: random.bytes(32))
    }

    @Test func generatorsAndEncodingsMatchMilagro() throws {
        let g1 = BN254CX.G1.generator, g2 = BN254CX.G2.generator
        #expect(TestHex.string(g1.uncompressedRepresentation) == "04" + TestHex.string((R.p - .one).bigEndian(count: 32)) + String(repeating: "0", count: 63) + "1")
        #expect(try BN254CX.G1(encoded: g1.compressedRepresentation) == g1)
        #expect(try BN254CX.G2(encoded: g2.rawRepresentation) == g2)
        // Both groups have order r.
        #expect(g1.point.multipliedVartime(by: BN254CX.r).isInfinity.isTrueVartime)
        #expect(g2.point.multipliedVartime(by: BN254CX.r).isInfinity.isTrueVartime)
    }

    @Test func groupLawsHold() {
        var random = TestRandom("BN254CX group laws")
        let a = Self.scalar(&random), b = Self.scalar(&random)
        let p = BN254CX.G1.generator.multiplied(by: a), q = BN254CX.G1.generator.multiplied(by: b)
        #expect(p + q == q + p && (p + q) - q == p && (p - p).isInfinity)
        #expect(p + p == p.multiplied(by: BN254CX.Scalar(2)) && p + .infinity == p)
        #expect(BN254CX.G1.generator.multiplied(by: a + b) == p + q)
        let s = BN254CX.G2.generator.multiplied(by: a), t = BN254CX.G2.generator.multiplied(by: b)
        #expect(s + t == t + s && (s - s).isInfinity && BN254CX.G2.generator.multiplied(by: a * b) == s.multiplied(by: b))
        // The complete formulas on the doubling case and with infinity.
        #expect((p.point + p.point).isEqual(to: p.point.doubled()).isTrueVartime)
        #expect((BN254CX.G1Projective.infinity + p.point).isEqual(to: p.point).isTrueVartime)
    }

    @Test func everyMultiplicationAgrees() {
        var random = TestRandom("BN254CX multiplication")
        let p = BN254CX.G1.generator.multiplied(by: Self.scalar(&random))
        let q = BN254CX.G2.generator.multiplied(by: Self.scalar(&random))
        for trial in 0..<8 {
            let k = trial == 0 ? BN254CX.Scalar(0) : trial == 1 ? -BN254CX.Scalar(1) : Self.scalar(&random)
            let plainG1 = p.point.multipliedVartime(by: k.integer), plainG2 = q.point.multipliedVartime(by: k.integer)
            #expect(p.multiplied(by: k).point.isEqual(to: plainG1).isTrueVartime)
            #expect(p.multipliedVartime(by: k).point.isEqual(to: plainG1).isTrueVartime)
            #expect(p.point.multipliedConstantTime(by: k.integer).isEqual(to: plainG1).isTrueVartime)
            #expect(q.multiplied(by: k).point.isEqual(to: plainG2).isTrueVartime)
            #expect(q.multipliedVartime(by: k).point.isEqual(to: plainG2).isTrueVartime)
        }
        let pin = UInt32(987_654)
        #expect(p.multiplied(bySmall: pin, bitCount: 20) == p.multipliedVartime(by: BN254CX.Scalar(UInt64(pin))))
        // Exactly bitCount bits are read (Milagro ECP_pinmul), whatever bitCount mod 4 is; every
        // signed digit carries on all-ones inputs.
        for (k, bits) in [(UInt32(0xFFFFF), 20), (UInt32(0xFFFF_FFFF), 32), (UInt32(0x3_C0DE), 14), (UInt32(0x8888), 16), (UInt32(5), 0)] {
            let expected = bits == 0 ? 0 : UInt64(k) & ((1 << UInt64(bits)) - 1)
            #expect(p.multiplied(bySmall: k, bitCount: bits) == p.multipliedVartime(by: BN254CX.Scalar(expected)), "\(k) over \(bits) bits")
        }
    }

    /// The signed 4-bit recoding of the constant-time paths: digits in [−8, 8) that sum back to
    /// k, on runs of 8s and 15s (every window carries) and at the bounds the pieces respect.
    @Test func signedDigitsRecombine() {
        var random = TestRandom("BN254CX signed digits")
        let one = ReferenceInteger.one
        var values: [(ReferenceInteger, Int)] = [(.zero, 33), ((one << 129) - one, 33), ((one << 66) - one, 17),
                                                 (ReferenceInteger(words: [0x8888_8888_8888_8888, 0x8888_8888_8888_8888, 1, 0]), 33),
                                                 (ReferenceInteger(words: [0xFFFF_FFFF_FFFF_FFF8, 0xF8F8_F8F8_F8F8_F8F8, 1, 0]), 33),
                                                 (ReferenceInteger(words: [0x7777_7777_7777_7778, 3, 0, 0]), 17)]
        for _ in 0..<30 { values.append((ReferenceInteger(words: [random.next(), random.next(), random.next() & 1, 0]), 33)) }
        for (k, windows) in values {
            let digits = BN254CX.G1Projective.signedDigits(FixedUInt<4>(k), windows: windows)
            var positive = ReferenceInteger.zero, negative = ReferenceInteger.zero
            for window in 0..<windows {
                let digit = Int64(bitPattern: digits[window])
                #expect(digit >= -8 && digit < 8, "digit \(window) of \(k)")
                let term = ReferenceInteger(UInt64(digit.magnitude)) << (4 * window)
                if digit < 0 { negative = negative + term } else { positive = positive + term }
            }
            #expect(positive == k + negative, "\(k) recombines")
        }
    }

    /// powerByU walks the NAF of |u|: it must sum back to |u| (a wrong digit would still give a
    /// power, just the wrong one) and be non-adjacent.
    @Test func nafOfUIsCorrect() {
        let digits = BN254CX.absoluteUNAF
        var positive = ReferenceInteger.zero, negative = ReferenceInteger.zero
        for (i, digit) in digits.reversed().enumerated() {
            if digit == 1 { positive = positive + (ReferenceInteger.one << i) }
            if digit == -1 { negative = negative + (ReferenceInteger.one << i) }
        }
        #expect(positive == R.u + negative)
        #expect(digits.first == 1 && digits.count == 63)
        #expect(zip(digits, digits.dropFirst()).allSatisfy { $0 == 0 || $1 == 0 })
        #expect(digits.filter { $0 != 0 }.count == 9)
    }

    @Test func splitsRecombineAndAreShort() {
        var random = TestRandom("BN254CX splits")
        let glvLambda = ReferenceInteger(36) * R.u * R.u * R.u + ReferenceInteger(6) * R.u - ReferenceInteger(18) * R.u * R.u - ReferenceInteger(2)
        let gsLambda = R.sixUSquared
        func signed(_ piece: BN254CX.SignedPiece) -> ReferenceInteger {
            piece.isNegative.isTrueVartime ? (R.r - piece.magnitude.reference % R.r) % R.r : piece.magnitude.reference
        }
        for _ in 0..<20 {
            let k = Self.scalar(&random).integer
            let (k1, k2) = BN254CX.glvDecomposition(k)
            #expect(k1.magnitude.reference < .one << 129 && k2.magnitude.reference < .one << 129)
            #expect((signed(k1) + signed(k2) * glvLambda) % R.r == k.reference)
            let pieces = BN254CX.gsDecomposition(k)
            var sum = ReferenceInteger.zero, power = ReferenceInteger.one
            for i in 0..<4 {
                #expect(pieces[i].magnitude.reference < .one << 66)
                sum = sum + signed(pieces[i]) * power
                power = power * gsLambda % R.r
            }
            #expect(sum % R.r == k.reference)
        }
    }

    @Test func decodingIsStrict() throws {
        let g1 = BN254CX.G1.generator.uncompressedRepresentation
        #expect(throws: CryptoError.invalidEncoding) { try BN254CX.G1(encoded: g1.dropLast()) }
        #expect(throws: CryptoError.invalidEncoding) { try BN254CX.G1(encoded: [0x05] + g1.dropFirst()) }
        #expect(throws: CryptoError.invalidEncoding) { try BN254CX.G1(encoded: [UInt8]()) }
        var offCurve = g1
        offCurve[64] ^= 1
        #expect(throws: CryptoError.invalidKey) { try BN254CX.G1(encoded: offCurve) }
        #expect(throws: CryptoError.invalidEncoding) { try BN254CX.G1(encoded: [0x04] + BN254CX.p.bigEndianBytes() + g1[33...]) }
        // x = 1: 1 + 2 = 3 is not a square mod p, so no point has it.
        #expect(throws: CryptoError.invalidKey) { try BN254CX.G1(encoded: [0x02] + BN254CX.Fp.one.canonicalBytes) }
        // A point of the twist outside G2: decodes on the curve, refused by the subgroup test.
        var x = BN254CX.Fp2(.one, .zero)
        var outside: BN254CX.G2Projective?
        while outside == nil {
            if let y = (x.squared() * x + BN254CX.Fp2.curveB).squareRootVartime() { outside = BN254CX.G2Projective(affineX: x, y: y) }
            x = x + .one
        }
        let point = try #require(outside)
        #expect(point.isOnCurve.isTrueVartime && !point.isInG2Vartime)
        #expect(!point.multipliedVartime(by: BN254CX.r).isInfinity.isTrueVartime)
        let (px, py) = point.affine()
        #expect(throws: CryptoError.invalidKey) { try BN254CX.G2(encoded: px.canonicalBytes + py.canonicalBytes) }
        #expect(throws: CryptoError.invalidEncoding) { try BN254CX.G2(encoded: BN254CX.G2.generator.rawRepresentation.dropLast()) }
    }

    @Test func gtExponentiationsAgreeAndDecodingChecksMembership() throws {
        var random = TestRandom("BN254CX GT")
        let g = BN254CX.pairing(.generator, .generator)
        for _ in 0..<4 {
            let k = Self.scalar(&random)
            #expect(g.power(k) == g.power(by: k.integer))
            #expect(g.power(k).value.isEqual(to: g.value.plainPower(k.integer.reference)).isTrueVartime)
        }
        #expect(try BN254CX.GT(rawRepresentation: g.rawRepresentation) == g)
        #expect(throws: CryptoError.invalidKey) { try BN254CX.GT(rawRepresentation: BN254CX.Fp12.random(&random).canonicalBytes) }
        // The unitary part of a random element is in the cyclotomic subgroup but not in GT.
        let f = BN254CX.Fp12.random(&random)
        var unitary = f.conjugate * f.inverted()
        unitary = unitary.frobeniusSquared() * unitary
        #expect(!unitary.isInGTVartime && unitary.finalExponentiation().isInGTVartime)
        #expect(throws: CryptoError.invalidEncoding) { try BN254CX.GT(rawRepresentation: g.rawRepresentation.dropLast()) }
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
        // The GLV multiplication against double-and-add, including 0, 1, −1, small values
        // (the first additions meet infinity and equal points) and the point at infinity.
        let p = BN254CX.G1.generator.multiplied(by: Self.scalar(&random))
        var scalars = [BN254CX.Scalar(0), BN254CX.Scalar(1), BN254CX.Scalar(2), BN254CX.Scalar(17), -BN254CX.Scalar(1)]
        for _ in 0..<6 { scalars.append(Self.scalar(&random)) }
        for k in scalars {
            #expect(p.point.multipliedGLVVartime(by: k.integer).isEqual(to: p.point.multipliedVartime(by: k.integer)).isTrueVartime)
        }
        #expect(BN254CX.G1Projective.infinity.multipliedGLVVartime(by: Self.scalar(&random).integer).isInfinity.isTrueVartime)
    }
}
