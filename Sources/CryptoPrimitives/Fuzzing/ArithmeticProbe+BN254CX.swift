// The BN254CX part of the fuzzing probe (ArithmeticProbe.swift): the tower Fp2, Fp4, Fp12 and
// the curve groups, each entry one engine call between a decoder and an encoder.

import CryptoCore

extension _ArithmeticProbe {
    /// An operation of the BN254CX tower. Operands are concatenated 32-byte coefficients in the
    /// engine's layout (Fp2 c0 ‖ c1; Fp4 c0 ‖ c1; Fp12 a ‖ b ‖ c), each reduced mod p.
    public enum TowerOperation: Int, CaseIterable, Sendable {
        /// x·y in Fp2 (lazy reduction).
        case fp2Product
        /// x·y in Fp2 from three reduced Fp products.
        case fp2ProductByFpProducts
        /// x·y.c0, the product by an element of Fp.
        case fp2ScalarProduct
        /// x² in Fp2.
        case fp2Square
        /// x⁻¹ in Fp2 (0 for 0).
        case fp2Inverse
        /// The conjugate of x.
        case fp2Conjugate
        /// x·(1 + i).
        case fp2TimesXi
        /// x·i.
        case fp2TimesI
        /// x/2.
        case fp2Halved
        /// x^e with e the first coefficient of y (below 2²⁵⁶).
        case fp2Power
        /// A square root of x, nil when there is none.
        case fp2SquareRoot
        /// x·y in Fp4.
        case fp4Product
        /// x·y.c0, the product by an element of Fp2.
        case fp4ScalarProduct
        /// x² in Fp4.
        case fp4Square
        /// x⁻¹ in Fp4 (0 for 0).
        case fp4Inverse
        /// The conjugate of x over Fp2.
        case fp4Conjugate
        /// x·s.
        case fp4TimesS
        /// x·y in Fp12.
        case fp12Product
        /// x² in Fp12.
        case fp12Square
        /// x⁻¹ in Fp12 (0 for 0).
        case fp12Inverse
        /// The conjugate (p⁶-th power) of x.
        case fp12Conjugate
        /// x^p.
        case fp12Frobenius
        /// x^(p²).
        case fp12FrobeniusSquared
        /// x^(p³).
        case fp12FrobeniusCubed
        /// x times the line whose Fp2 coefficients l0, l1, l2 are the first six coefficients of y.
        case fp12TimesLine
        /// The easy part of the final exponentiation, f = x^((p⁶ − 1)(p² + 1)).
        case fp12EasyPart
        /// f² by the cyclotomic squaring, f the easy part of x.
        case fp12CyclotomicSquare
        /// f^u, f the easy part of x.
        case fp12PowerByU

        /// The number of Fp coefficients of each operand.
        public var degree: Int {
            switch self {
            case .fp2Product, .fp2ProductByFpProducts, .fp2ScalarProduct, .fp2Square, .fp2Inverse, .fp2Conjugate, .fp2TimesXi,
                 .fp2TimesI, .fp2Halved, .fp2Power, .fp2SquareRoot: 2
            case .fp4Product, .fp4ScalarProduct, .fp4Square, .fp4Inverse, .fp4Conjugate, .fp4TimesS: 4
            default: 12
            }
        }
    }

    /// The canonical bytes of `operation` on `x` and `y` (each `degree` 32-byte coefficients);
    /// nil when an operand has the wrong length or the operation says so.
    public static func tower(_ operation: TowerOperation, _ x: [UInt8], _ y: [UInt8]) -> [UInt8]? {
        typealias Fp = BN254CX.Fp
        typealias Fp2 = BN254CX.Fp2
        typealias Fp4 = BN254CX.Fp4
        typealias Fp12 = BN254CX.Fp12
        let degree = operation.degree
        guard x.count == 32 * degree, y.count == 32 * degree else { return nil }
        func fp(_ bytes: [UInt8], _ i: Int) -> Fp { Fp(reducing: FixedUInt<4>(bigEndian: bytes[(32 * i)..<(32 * i + 32)]) ?? .zero) }
        func fp2(_ bytes: [UInt8], _ i: Int) -> Fp2 { Fp2(fp(bytes, 2 * i), fp(bytes, 2 * i + 1)) }
        func fp4(_ bytes: [UInt8], _ i: Int) -> Fp4 { Fp4(fp2(bytes, 2 * i), fp2(bytes, 2 * i + 1)) }
        func fp12(_ bytes: [UInt8]) -> Fp12 { Fp12(fp4(bytes, 0), fp4(bytes, 1), fp4(bytes, 2)) }
        func easyPart(_ f: Fp12) -> Fp12 {
            let g = f.conjugate * f.inverted()
            return g.frobeniusSquared() * g
        }
        switch operation {
        case .fp2Product: return (fp2(x, 0) * fp2(y, 0)).canonicalBytes
        case .fp2ProductByFpProducts: return fp2(x, 0).productByFpProducts(fp2(y, 0)).canonicalBytes
        case .fp2ScalarProduct: return (fp2(x, 0) * fp(y, 0)).canonicalBytes
        case .fp2Square: return fp2(x, 0).squared().canonicalBytes
        case .fp2Inverse: return fp2(x, 0).inverted().canonicalBytes
        case .fp2Conjugate: return fp2(x, 0).conjugate.canonicalBytes
        case .fp2TimesXi: return fp2(x, 0).timesXi.canonicalBytes
        case .fp2TimesI: return fp2(x, 0).timesI.canonicalBytes
        case .fp2Halved: return fp2(x, 0).halved.canonicalBytes
        case .fp2Power: return fp2(x, 0).power(FixedUInt<4>(bigEndian: y[0..<32]) ?? .zero).canonicalBytes
        case .fp2SquareRoot: return fp2(x, 0).squareRootVartime()?.canonicalBytes
        case .fp4Product: return (fp4(x, 0) * fp4(y, 0)).canonicalBytes
        case .fp4ScalarProduct: return (fp4(x, 0) * fp2(y, 0)).canonicalBytes
        case .fp4Square: return fp4(x, 0).squared().canonicalBytes
        case .fp4Inverse: return fp4(x, 0).inverted().canonicalBytes
        case .fp4Conjugate: return fp4(x, 0).conjugate.canonicalBytes
        case .fp4TimesS: return fp4(x, 0).timesS.canonicalBytes
        case .fp12Product: return (fp12(x) * fp12(y)).canonicalBytes
        case .fp12Square: return fp12(x).squared().canonicalBytes
        case .fp12Inverse: return fp12(x).inverted().canonicalBytes
        case .fp12Conjugate: return fp12(x).conjugate.canonicalBytes
        case .fp12Frobenius: return fp12(x).frobenius().canonicalBytes
        case .fp12FrobeniusSquared: return fp12(x).frobeniusSquared().canonicalBytes
        case .fp12FrobeniusCubed: return fp12(x).frobeniusCubed().canonicalBytes
        case .fp12TimesLine: return fp12(x).timesLine(fp2(y, 0), fp2(y, 1), fp2(y, 2)).canonicalBytes
        case .fp12EasyPart: return easyPart(fp12(x)).canonicalBytes
        case .fp12CyclotomicSquare: return easyPart(fp12(x)).cyclotomicSquared().canonicalBytes
        case .fp12PowerByU: return easyPart(fp12(x)).powerByU().canonicalBytes
        }
    }
}

extension _ArithmeticProbe {
    /// An operation on points of G1 (E over Fp) or of the twist E′ over Fp2. A point is given
    /// in projective coordinates X ‖ Y ‖ Z (32-byte coefficients, each reduced mod p), the
    /// affine point (X/Z, Y/Z), or infinity when Z = 0. A point result is the affine x ‖ y,
    /// empty for infinity; a predicate is [1] or [0].
    public enum CurveOperation: Int, CaseIterable, Sendable {
        /// P + Q (complete formula).
        case sum
        /// P − Q.
        case difference
        /// 2P.
        case doubling
        /// −P.
        case negation
        /// k·P with the fixed-window constant-time ladder (any k below 2²⁵⁶).
        case multipleConstantTime
        /// k·P by double-and-add (any k below 2²⁵⁶).
        case multipleVartime
        /// k·P by GLV on G1 or Galbraith–Scott on G2, for k below r (nil otherwise).
        case multipleEndomorphism
        /// Whether P satisfies the curve equation Y²Z = X³ + bZ³.
        case isOnCurve
        /// G2 only: whether ψ(Q) = [6u²]Q (nil on G1).
        case isInSubgroup
        /// φ(P) = (βx, y) on G1, ψ(Q) on the twist.
        case endomorphism
        /// P itself (the affine conversion alone).
        case affine
    }

    /// `operation` on G1 points `p` and `q` (96 bytes each) with scalar `k` (32 bytes).
    public static func g1(_ operation: CurveOperation, _ p: [UInt8], _ q: [UInt8], scalar k: [UInt8]) -> [UInt8]? {
        guard p.count == 96, q.count == 96, let scalar = FixedUInt<4>(bigEndian: k) else { return nil }
        func point(_ bytes: [UInt8]) -> BN254CX.G1Projective { BN254CX.G1Projective(x: fp(bytes, 0), y: fp(bytes, 1), z: fp(bytes, 2)) }
        return apply(operation, point(p), point(q), scalar: scalar, bytes: { $0.canonicalBytes }, endomorphism: { $0.phi() },
                     endomorphismMultiple: { $0.multipliedGLV(by: $1) }, isInSubgroup: { _ in nil })
    }

    /// `operation` on twist points `p` and `q` (192 bytes each: X, Y, Z as c0 ‖ c1) with
    /// scalar `k` (32 bytes).
    public static func g2(_ operation: CurveOperation, _ p: [UInt8], _ q: [UInt8], scalar k: [UInt8]) -> [UInt8]? {
        guard p.count == 192, q.count == 192, let scalar = FixedUInt<4>(bigEndian: k) else { return nil }
        func fp2(_ bytes: [UInt8], _ i: Int) -> BN254CX.Fp2 { BN254CX.Fp2(fp(bytes, 2 * i), fp(bytes, 2 * i + 1)) }
        func point(_ bytes: [UInt8]) -> BN254CX.G2Projective { BN254CX.G2Projective(x: fp2(bytes, 0), y: fp2(bytes, 1), z: fp2(bytes, 2)) }
        return apply(operation, point(p), point(q), scalar: scalar, bytes: { $0.canonicalBytes }, endomorphism: { $0.psi() },
                     endomorphismMultiple: { $0.multipliedGS(by: $1) }, isInSubgroup: { $0.isInG2Vartime })
    }

    /// The `i`-th 32-byte field element of `bytes`, reduced.
    private static func fp(_ bytes: [UInt8], _ i: Int) -> BN254CX.Fp {
        BN254CX.Fp(reducing: FixedUInt<4>(bigEndian: bytes[(32 * i)..<(32 * i + 32)]) ?? .zero)
    }

    /// `operation` on `a` and `b` of one group: the shared operations, and the group's own
    /// endomorphism, its multiplication through it and its subgroup check (nil: none).
    private static func apply<Field: BN254CXCurveField>(
        _ operation: CurveOperation, _ a: BN254CX.CurvePoint<Field>, _ b: BN254CX.CurvePoint<Field>, scalar: FixedUInt<4>,
        bytes: (Field) -> [UInt8], endomorphism: (BN254CX.CurvePoint<Field>) -> BN254CX.CurvePoint<Field>,
        endomorphismMultiple: (BN254CX.CurvePoint<Field>, FixedUInt<4>) -> BN254CX.CurvePoint<Field>,
        isInSubgroup: (BN254CX.CurvePoint<Field>) -> Bool?
    ) -> [UInt8]? {
        func encode(_ r: BN254CX.CurvePoint<Field>) -> [UInt8] {
            guard !r.isInfinity.isTrueVartime else { return [] }
            let (x, y) = r.affine()
            return bytes(x) + bytes(y)
        }
        switch operation {
        case .sum: return encode(a + b)
        case .difference: return encode(a - b)
        case .doubling: return encode(a.doubled())
        case .negation: return encode(-a)
        case .multipleConstantTime: return encode(a.multipliedConstantTime(by: scalar))
        case .multipleVartime: return encode(a.multipliedVartime(by: scalar))
        case .multipleEndomorphism:
            guard scalar.isLess(than: BN254CX.r).isTrueVartime else { return nil }
            return encode(endomorphismMultiple(a, scalar))
        case .isOnCurve: return [a.isOnCurve.isTrueVartime ? 1 : 0]
        case .isInSubgroup: return isInSubgroup(a).map { [$0 ? 1 : 0] }
        case .endomorphism: return encode(endomorphism(a))
        case .affine: return encode(a)
        }
    }
}
