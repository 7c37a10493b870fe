// A byte-level door into the arithmetic core for the differential fuzz targets of the nested
// Fuzz/ package (docs/fuzzing.md), which compare it with arbitrary-precision integers. It is
// SPI (`@_spi(Fuzzing)`), not API: no user imports it, and CryptoCore stays `package`. Every
// entry point decodes bytes, makes one engine call and encodes the result, so what the fuzzer
// checks is the engine's arithmetic, not code of this file.

import CryptoCore

/// Byte-level access to the field, tower and curve arithmetic for the differential fuzz
/// targets. Not API: reached only through `@_spi(Fuzzing) import CryptoPrimitives`.
///
/// Integers are big-endian; a 256-bit value is 32 bytes (shorter input is zero-extended).
/// Residues enter by reduction of any value below 2²⁵⁶ and leave canonical.
@_spi(Fuzzing)
public enum _ArithmeticProbe {
    /// A modulus whose arithmetic is fixed at compile time.
    public enum Modulus: Int, CaseIterable, Sendable {
        /// The P-256 field prime p.
        case p256Field
        /// The P-256 group order n.
        case p256Order
        /// The BN254CX field prime p.
        case bn254Field
        /// The BN254CX group order r.
        case bn254Order
    }

    /// An operation on residues of a compile-time modulus; `a` and `b` are the operands.
    public enum FieldOperation: Int, CaseIterable, Sendable {
        /// a·b with the type's own product.
        case product
        /// a² with the type's own squaring.
        case square
        /// a + b.
        case sum
        /// a − b.
        case difference
        /// −a.
        case negation
        /// a⁻¹ with the type's own `inverted()`; 0 for 0.
        case inverse
        /// a⁻¹ by divsteps on this modulus; 0 for 0.
        case inverseDivsteps
        /// a⁻¹ by Fermat (addition chain, public-exponent windows, or the generic ladder); 0 for 0.
        case inverseFermat
        /// a⁻¹ by the binary extended Euclid of public values; 0 for 0.
        case inverseVartime
        /// a^b (b below 2²⁵⁶) with the type's constant-time power.
        case power
        /// a^b with the variable-time sliding window.
        case powerVartime
        /// a·b with the generic CIOS Montgomery product.
        case genericProduct
        /// a² with the generic product-scanning Montgomery square.
        case genericSquare
        /// a·b with the straight-line 4-limb kernel.
        case straightLineProduct
        /// a·b with the spare-bits kernel; nil when the modulus has no two spare bits.
        case spareBitsProduct
        /// The Montgomery form a·R mod m of a (any a below 2²⁵⁶).
        case intoMontgomery
        /// a·R⁻¹ mod m for a Montgomery form a < m; nil when a ≥ m.
        case outOfMontgomery
        /// a when a < m, nil otherwise (the canonical decoder).
        case fromCanonical
        /// (a·2²⁵⁶ + b) mod m by R³ and R² products (the RSA split), a 512-bit reduction.
        case reduceWide
        /// (a·2²⁵⁶ + b)·2⁻²⁵⁶ mod m by the type's 512-bit Montgomery reduction kernel (P-256's
        /// and BN254CX's p only); nil for other moduli or when a ≥ m.
        case reduceWideKernel
        /// a/2 (BN254CX p only, nil otherwise).
        case halved
        /// A square root of a, or nil when a is not a square (the two field primes only).
        case squareRoot
    }

    /// The modulus as 32 big-endian bytes.
    public static func modulus(_ modulus: Modulus) -> [UInt8] {
        switch modulus {
        case .p256Field: P256FieldModulus.modulus.bigEndianBytes()
        case .p256Order: P256OrderModulus.modulus.bigEndianBytes()
        case .bn254Field: BN254CXFieldModulus.modulus.bigEndianBytes()
        case .bn254Order: BN254CXOrderModulus.modulus.bigEndianBytes()
        }
    }

    /// The canonical result of `operation` on `a` and `b` (each at most 32 significant bytes)
    /// modulo `modulus`; nil where the operation says so or when an operand does not fit.
    public static func evaluate(_ operation: FieldOperation, _ modulus: Modulus, _ a: [UInt8], _ b: [UInt8]) -> [UInt8]? {
        guard let x = FixedUInt<4>(bigEndian: a), let y = FixedUInt<4>(bigEndian: b) else { return nil }
        switch modulus {
        case .p256Field:
            let kernels = Kernels<P256FieldModulus>(
                product: { $0 * $1 }, square: { $0.squared() }, sum: { $0 + $1 }, difference: { $0 - $1 }, negation: { -$0 },
                inverse: { $0.inverted() }, fermat: { $0.invertedByAdditionChain() }, power: { $0.power($1) },
                reduceWide: { hi, lo in Self.p256Reduce(hi, lo) }, halved: nil, squareRoot: { $0.squareRoot() })
            return kernels.evaluate(operation, x, y)
        case .p256Order:
            let kernels = Kernels<P256OrderModulus>(
                product: { $0 * $1 }, square: { $0.squared() }, sum: { $0 + $1 }, difference: { $0 - $1 }, negation: { -$0 },
                inverse: { $0.inverted() }, fermat: { $0.invertedByFermat() }, power: { $0.power($1) },
                reduceWide: nil, halved: nil, squareRoot: nil)
            return kernels.evaluate(operation, x, y)
        case .bn254Field:
            let kernels = Kernels<BN254CXFieldModulus>(
                product: { $0 * $1 }, square: { $0.squared() }, sum: { $0 + $1 }, difference: { $0 - $1 }, negation: { -$0 },
                inverse: { $0.inverted() }, fermat: { $0.invertedByFermat() }, power: { $0.power($1) },
                reduceWide: { hi, lo in Self.bn254Reduce(hi, lo) }, halved: { $0.halved }, squareRoot: { $0.squareRoot() })
            return kernels.evaluate(operation, x, y)
        case .bn254Order:
            let kernels = Kernels<BN254CXOrderModulus>(
                product: { $0 * $1 }, square: { $0.squared() }, sum: { $0 + $1 }, difference: { $0 - $1 }, negation: { -$0 },
                inverse: { $0.inverted() }, fermat: { $0.powerVartime(BN254CX.r.subtractingReportingBorrow(FixedUInt(2)).difference) },
                power: { $0.power($1) }, reduceWide: nil, halved: nil, squareRoot: nil)
            return kernels.evaluate(operation, x, y)
        }
    }

    /// P-256's specialised reduction of the 512-bit hi·2²⁵⁶ + lo (hi < p).
    static func p256Reduce(_ hi: FixedUInt<4>, _ lo: FixedUInt<4>) -> FixedUInt<4> {
        P256FieldArithmetic.reduce(lo.limbs[0], lo.limbs[1], lo.limbs[2], lo.limbs[3], hi.limbs[0], hi.limbs[1], hi.limbs[2], hi.limbs[3])
    }

    /// BN254CX's lazy Fp2 reduction of the 512-bit hi·2²⁵⁶ + lo (hi < p).
    static func bn254Reduce(_ hi: FixedUInt<4>, _ lo: FixedUInt<4>) -> FixedUInt<4> {
        BN254CXFp2Kernel.reduce(WideUInt512(lo.limbs[0], lo.limbs[1], lo.limbs[2], lo.limbs[3], hi.limbs[0], hi.limbs[1], hi.limbs[2], hi.limbs[3]))
    }
}

/// The operators of one residue type, captured where its specialised overloads are visible (a
/// generic function would pick the generic ones).
struct Kernels<M: MontgomeryModulus> where M.Integer == FixedUInt<4> {
    typealias R = MontgomeryResidue<4, M>
    let product: (R, R) -> R
    let square: (R) -> R
    let sum: (R, R) -> R
    let difference: (R, R) -> R
    let negation: (R) -> R
    let inverse: (R) -> R
    let fermat: (R) -> R
    let power: (R, FixedUInt<4>) -> R
    let reduceWide: ((FixedUInt<4>, FixedUInt<4>) -> FixedUInt<4>)?
    let halved: ((R) -> R)?
    let squareRoot: ((R) -> (root: R, isSquare: Choice))?

    func evaluate(_ operation: _ArithmeticProbe.FieldOperation, _ x: FixedUInt<4>, _ y: FixedUInt<4>) -> [UInt8]? {
        let m = M.modulus, inverse = M.inverse
        let a = R(reducing: x), b = R(reducing: y)
        func out(_ r: R) -> [UInt8] { r.canonical.bigEndianBytes() }
        func form(_ f: FixedUInt<4>) -> [UInt8] { R(montgomeryForm: f).canonical.bigEndianBytes() }
        switch operation {
        case .product: return out(product(a, b))
        case .square: return out(square(a))
        case .sum: return out(sum(a, b))
        case .difference: return out(difference(a, b))
        case .negation: return out(negation(a))
        case .inverse: return out(self.inverse(a))
        case .inverseDivsteps: return out(a.invertedByDivsteps(DivstepModulus(m)))
        case .inverseFermat: return out(fermat(a))
        case .inverseVartime: return FixedUInt.modularInverseVartime(a.canonical, modulus: m).bigEndianBytes()
        case .power: return out(power(a, y))
        case .powerVartime: return out(a.powerVartime(y))
        case .genericProduct:
            return form(.montgomeryProduct(a.montgomeryForm, b.montgomeryForm, modulus: m, inverse: inverse))
        case .genericSquare: return form(.montgomerySquare(a.montgomeryForm, modulus: m, inverse: inverse))
        case .straightLineProduct:
            return form(.montgomeryProductStraightLine(a.montgomeryForm, b.montgomeryForm, modulus: m, inverse: inverse))
        case .spareBitsProduct:
            guard FixedUInt<4>.hasSpareTopBits(m) else { return nil }
            return form(.montgomeryProductSpareBits(a.montgomeryForm, b.montgomeryForm, modulus: m, inverse: inverse))
        case .intoMontgomery: return a.montgomeryForm.bigEndianBytes()
        case .outOfMontgomery:
            guard x.isLess(than: m).isTrueVartime else { return nil }
            return R(montgomeryForm: x).canonical.bigEndianBytes()
        case .fromCanonical:
            let (residue, isCanonical) = R.fromCanonical(x)
            return isCanonical.isTrueVartime ? out(residue) : nil
        case .reduceWide:
            let rCubed = FixedUInt<4>.montgomeryProduct(M.rSquared, M.rSquared, modulus: m, inverse: inverse)
            let high = FixedUInt<4>.montgomeryProduct(x, rCubed, modulus: m, inverse: inverse)
            let low = FixedUInt<4>.montgomeryProduct(y, M.rSquared, modulus: m, inverse: inverse)
            return form(.modularSum(high, low, modulus: m))
        case .reduceWideKernel:
            guard let reduceWide, x.isLess(than: m).isTrueVartime else { return nil }
            return reduceWide(x, y).bigEndianBytes()
        case .halved:
            guard let halved else { return nil }
            return out(halved(a))
        case .squareRoot:
            guard let squareRoot else { return nil }
            let (root, isSquare) = squareRoot(a)
            return isSquare.isTrueVartime ? out(root) : nil
        }
    }
}

extension _ArithmeticProbe {
    /// An operation modulo a modulus chosen at run time (`MontgomeryContext`, the RSA path).
    public enum RuntimeOperation: Int, CaseIterable, Sendable {
        /// a·b.
        case product
        /// a².
        case square
        /// a + b.
        case sum
        /// a − b.
        case difference
        /// −a.
        case negation
        /// a^b, constant time, b below 2²⁵⁶.
        case power
        /// a^b, variable time, b below 2²⁵⁶.
        case powerVartime
        /// a⁻¹ by the binary extended Euclid (0 when a is 0 or not invertible).
        case inverseVartime
        /// The Montgomery form a·R mod m.
        case intoMontgomery
        /// a·R⁻¹ mod m for a < m; nil when a ≥ m.
        case outOfMontgomery
        /// (a·R + b) mod m by R³ and R² products, as the RSA private operation reduces c mod p.
        case reduceWide
    }

    /// The widths, in 64-bit limbs, a run-time modulus may have here.
    public static let runtimeLimbCounts = [4, 8, 16, 32]

    /// Whether the engine accepts `modulus` (at most `8·limbCount` bytes) for Montgomery
    /// arithmetic; nil for an unsupported width or a modulus that does not fit.
    public static func acceptsModulus(_ modulus: [UInt8], limbCount: Int) -> Bool? {
        switch limbCount {
        case 4: accepts(modulus, FixedUInt<4>.self)
        case 8: accepts(modulus, FixedUInt<8>.self)
        case 16: accepts(modulus, FixedUInt<16>.self)
        case 32: accepts(modulus, FixedUInt<32>.self)
        default: nil
        }
    }

    /// The canonical result of `operation` modulo a run-time `modulus` of `limbCount` limbs,
    /// with operands below R = 2^(64·limbCount) (the exponent of the powers below 2²⁵⁶); nil
    /// when the modulus is refused, an operand does not fit, or the operation says so.
    public static func evaluate(_ operation: RuntimeOperation, modulus: [UInt8], limbCount: Int, _ a: [UInt8], _ b: [UInt8]) -> [UInt8]? {
        switch limbCount {
        case 4: evaluate(operation, modulus, a, b, FixedUInt<4>.self)
        case 8: evaluate(operation, modulus, a, b, FixedUInt<8>.self)
        case 16: evaluate(operation, modulus, a, b, FixedUInt<16>.self)
        case 32: evaluate(operation, modulus, a, b, FixedUInt<32>.self)
        default: nil
        }
    }

    static func accepts<let n: Int>(_ modulus: [UInt8], _: FixedUInt<n>.Type) -> Bool? {
        guard let m = FixedUInt<n>(bigEndian: modulus) else { return nil }
        return MontgomeryContext(modulus: m) != nil
    }

    static func evaluate<let n: Int>(_ operation: RuntimeOperation, _ modulus: [UInt8], _ a: [UInt8], _ b: [UInt8],
                                     _: FixedUInt<n>.Type) -> [UInt8]? {
        guard let m = FixedUInt<n>(bigEndian: modulus), let context = MontgomeryContext(modulus: m),
              let x = FixedUInt<n>(bigEndian: a) else { return nil }
        let xm = context.montgomeryForm(of: x)
        func out(_ value: FixedUInt<n>) -> [UInt8] { context.canonical(of: value).bigEndianBytes() }
        switch operation {
        case .power, .powerVartime:
            guard let e = FixedUInt<4>(bigEndian: b) else { return nil }
            return out(operation == .power ? context.power(xm, e) : context.powerVartime(xm, e))
        case .inverseVartime:
            return FixedUInt.modularInverseVartime(context.canonical(of: xm), modulus: m).bigEndianBytes()
        case .intoMontgomery: return xm.bigEndianBytes()
        case .outOfMontgomery:
            guard x.isLess(than: m).isTrueVartime else { return nil }
            return context.canonical(of: x).bigEndianBytes()
        case .negation: return out(.modularNegation(xm, modulus: m))
        case .square: return out(context.squared(xm))
        case .product, .sum, .difference, .reduceWide:
            guard let y = FixedUInt<n>(bigEndian: b) else { return nil }
            let ym = context.montgomeryForm(of: y)
            switch operation {
            case .product: return out(context.product(xm, ym))
            case .sum: return out(.modularSum(xm, ym, modulus: m))
            case .difference: return out(.modularDifference(xm, ym, modulus: m))
            default:
                let rCubed = context.product(context.rSquared, context.rSquared)
                return out(.modularSum(context.product(x, rCubed), context.product(y, context.rSquared), modulus: m))
            }
        }
    }
}
