// diff-bn254cx-tower: the engine's Fp2, Fp4 and Fp12 against a tower written here on BigInt
// from the same definition (docs/protocols/mpin.md §2.2): Fp2 = Fp[i]/(i² + 1), ξ = 1 + i, Fp4 = Fp2[s]/(s² − ξ),
// Fp12 = Fp4[t]/(t³ − s). The reference holds Fp4 and Fp12 flat, as polynomials over Fp2 in s
// (s² = ξ) and in w = t (w⁶ = ξ), and computes Frobenius maps and inverses from first
// principles (conjugation times ξ^(k(p−1)/6), norms), not from the engine's formulas.

import BigInt
@_spi(Fuzzing) import CryptoPrimitives

/// BN254CX's p.
let referenceP = integer(_ArithmeticProbe.modulus(.bn254Field))

/// An element c0 + c1·i of Fp2 on BigInt.
struct ReferenceFp2: Equatable, Sendable {
    var c0: BigUInt
    var c1: BigUInt

    init(_ c0: BigUInt, _ c1: BigUInt) {
        self.c0 = c0 % referenceP
        self.c1 = c1 % referenceP
    }

    static let zero = ReferenceFp2(0, 0)
    static let one = ReferenceFp2(1, 0)
    static let xi = ReferenceFp2(1, 1)

    var isZero: Bool { c0.isZero && c1.isZero }
    init(reduced c0: BigUInt, _ c1: BigUInt) {
        self.c0 = c0
        self.c1 = c1
    }

    // Sums and differences by one conditional correction (a division costs more than the sum).
    static func + (a: Self, b: Self) -> Self { Self(reduced: addModP(a.c0, b.c0), addModP(a.c1, b.c1)) }
    static func - (a: Self, b: Self) -> Self { Self(reduced: subtractModP(a.c0, b.c0), subtractModP(a.c1, b.c1)) }
    static func addModP(_ a: BigUInt, _ b: BigUInt) -> BigUInt {
        let sum = a + b
        return sum >= referenceP ? sum - referenceP : sum
    }
    static func subtractModP(_ a: BigUInt, _ b: BigUInt) -> BigUInt { a >= b ? a - b : a + referenceP - b }
    static prefix func - (a: Self) -> Self { zero - a }
    static func * (a: Self, b: Self) -> Self {
        Self(a.c0 * b.c0 + (referenceP - a.c1) * b.c1, a.c0 * b.c1 + a.c1 * b.c0)
    }
    var conjugate: Self { Self(c0, referenceP - c1) }
    /// The inverse (0 for 0): conj / (c0² + c1²).
    var inverse: Self {
        let n = inverseOrZero(c0 * c0 + c1 * c1, referenceP)
        return Self(c0 * n, (referenceP - c1) * n)
    }
    func power(_ e: BigUInt) -> Self {
        var result = Self.one
        for i in stride(from: e.bitWidth - 1, through: 0, by: -1) {
            result = result * result
            if e[bitAt: i] { result = result * self }
        }
        return result
    }
    /// 32-byte coefficients c0 ‖ c1.
    var bytes: [UInt8] { bigEndian(c0, count: 32) + bigEndian(c1, count: 32) }
    /// Whether a ∈ Fp is a square (0 counts).
    static func isSquareInFp(_ a: BigUInt) -> Bool { a.isZero || a.power((referenceP - 1) / 2, modulus: referenceP) == 1 }
}

/// A polynomial over Fp2 modulo (X^count − ξ): Fp4 with count 2 (X = s), Fp12 with 6 (X = w).
struct ReferenceExtension: Equatable, Sendable {
    var c: [ReferenceFp2]

    static func one(_ count: Int) -> Self { Self(c: [.one] + Array(repeating: .zero, count: count - 1)) }
    var isZero: Bool { c.allSatisfy(\.isZero) }

    static func * (a: Self, b: Self) -> Self {
        let n = a.c.count
        var out = Array(repeating: ReferenceFp2.zero, count: n)
        for i in 0..<n where !a.c[i].isZero {
            for j in 0..<n {
                let term = a.c[i] * b.c[j]
                if i + j < n { out[i + j] = out[i + j] + term } else { out[i + j - n] = out[i + j - n] + term * .xi }
            }
        }
        return Self(c: out)
    }

    /// The coefficient-wise image, Xᵏ ↦ γₖ·Xᵏ after conjugating each coefficient: the p-th power.
    func frobenius(_ gammas: [ReferenceFp2]) -> Self { Self(c: c.indices.map { c[$0].conjugate * gammas[$0] }) }

    func power(_ e: BigUInt) -> Self {
        var result = Self.one(c.count)
        for i in stride(from: e.bitWidth - 1, through: 0, by: -1) {
            result = result * result
            if e[bitAt: i] { result = result * self }
        }
        return result
    }
}

/// γₖ = ξ^(k(p−1)/count), the p-th-power coefficients of Xᵏ for X^count = ξ.
func referenceGammas(_ count: Int) -> [ReferenceFp2] {
    (0..<count).map { ReferenceFp2.xi.power(BigUInt($0) * (referenceP - 1) / BigUInt(count)) }
}
let referenceGammas12 = referenceGammas(6)
/// The p²-th power of s in Fp4: s^(p²) = ξ^((p²−1)/2)·s.
let referenceFp4Kappa = ReferenceFp2.xi.power((referenceP * referenceP - 1) / 2)

/// The engine's Fp12 layout (a.c0, a.c1, b.c0, b.c1, c.c0, c.c1, each Fp2) in powers of w.
let fp12Exponents = [0, 3, 1, 4, 2, 5]

extension ReferenceExtension {
    /// Fp2 coefficients of the engine's bytes (32 bytes each, reduced mod p).
    static func decode(_ bytes: [UInt8]) -> Self {
        let n = bytes.count / 64
        let slots = (0..<n).map { ReferenceFp2(integer(bytes[(64 * $0)..<(64 * $0 + 32)]), integer(bytes[(64 * $0 + 32)..<(64 * $0 + 64)])) }
        guard n == 6 else { return Self(c: slots) }
        var c = Array(repeating: ReferenceFp2.zero, count: 6)
        for (slot, exponent) in fp12Exponents.enumerated() { c[exponent] = slots[slot] }
        return Self(c: c)
    }

    /// The engine's byte layout.
    var bytes: [UInt8] {
        guard c.count == 6 else { return c.flatMap(\.bytes) }
        return fp12Exponents.flatMap { c[$0].bytes }
    }

    /// x^(p^k) in Fp12.
    func frobenius12(_ k: Int) -> Self {
        var result = self
        for _ in 0..<k { result = result.frobenius(referenceGammas12) }
        return result
    }

    /// x⁻¹ in Fp12 (0 for 0) through the norm: x⁻¹ = Π_{k=1…11} x^(p^k) / Π_{k=0…11} x^(p^k).
    var inverse12: Self {
        var conjugates = Self.one(6), power = self
        for _ in 1...11 {
            power = power.frobenius(referenceGammas12)
            conjugates = conjugates * power
        }
        let norm = (self * conjugates).c[0]  // in Fp: c[0].c1 and every other coefficient are zero
        return Self(c: conjugates.c.map { $0 * ReferenceFp2(inverseOrZero(norm.c0, referenceP), 0) })
    }

    /// x⁻¹ in Fp4 (0 for 0): x^(p²) / (x·x^(p²)).
    var inverse4: Self {
        let conjugate = Self(c: [c[0], c[1] * referenceFp4Kappa])
        let norm = (self * conjugate).c[0]
        return Self(c: conjugate.c.map { $0 * norm.inverse })
    }

    /// x^((p⁶ − 1)(p² + 1)) in Fp12.
    var easyPart: Self {
        let f = frobenius12(6) * inverse12
        return f.frobenius12(2) * f
    }
}

/// One tower operation on fuzzer-chosen elements.
func towerDifferential(_ data: [UInt8]) {
    typealias Fp2 = ReferenceFp2
    typealias Ext = ReferenceExtension
    var input = ArithmeticInput(data)
    let operations = _ArithmeticProbe.TowerOperation.allCases
    let operation = operations[input.choose(operations.count)]
    let degree = operation.degree
    // A coefficient pattern for the whole element (all zero, one, sparse, …), then values.
    func element() -> [UInt8] {
        let shape = input.choose(8)
        return (0..<degree).flatMap { i -> [UInt8] in
            let value: BigUInt
            switch shape {
            case 0: value = i == 0 ? input.edge(referenceP, bits: 256) : 0          // in Fp
            case 1: value = i < 2 ? input.edge(referenceP, bits: 256) : 0           // in Fp2
            case 2: value = input.choose(3) == 0 ? input.edge(referenceP, bits: 256) : 0  // sparse
            default: value = input.edge(referenceP, bits: 256)
            }
            return bigEndian(value, count: 32)
        }
    }
    let xBytes = element(), yBytes = element()
    let engine = _ArithmeticProbe.tower(operation, xBytes, yBytes)
    let what = "diff-bn254cx-tower \(operation) x=\(Hex.encode(xBytes)) y=\(Hex.encode(yBytes))"
    let x = Ext.decode(xBytes), y = Ext.decode(yBytes)
    let reference: [UInt8]?
    switch operation {
    case .fp2Product, .fp2ProductByFpProducts: reference = (x.c[0] * y.c[0]).bytes
    case .fp2ScalarProduct: reference = (x.c[0] * Fp2(y.c[0].c0, 0)).bytes
    case .fp2Square: reference = (x.c[0] * x.c[0]).bytes
    case .fp2Inverse: reference = x.c[0].inverse.bytes
    case .fp2Conjugate: reference = x.c[0].conjugate.bytes
    case .fp2TimesXi: reference = (x.c[0] * .xi).bytes
    case .fp2TimesI: reference = (x.c[0] * Fp2(0, 1)).bytes
    case .fp2Halved: reference = (x.c[0] * Fp2(inverseOrZero(2, referenceP), 0)).bytes
    case .fp2Power: reference = x.c[0].power(integer(yBytes[0..<32])).bytes
    case .fp2SquareRoot:
        let a = x.c[0]
        let isSquare = Fp2.isSquareInFp((a.c0 * a.c0 + a.c1 * a.c1) % referenceP)
        guard let engine, isSquare else {
            expectEqual(engine, isSquare ? [] : nil, what + " (is a square: \(isSquare))", data)
            return
        }
        let root = Ext.decode(engine).c[0]
        if root * root != a || root.bytes != engine { FuzzTarget.mismatch(what + ": \(Hex.encode(engine)) is no root", data) }
        return
    case .fp4Product: reference = (x * y).bytes
    case .fp4ScalarProduct: reference = (x * Ext(c: [y.c[0], .zero])).bytes
    case .fp4Square: reference = (x * x).bytes
    case .fp4Inverse: reference = x.inverse4.bytes
    case .fp4Conjugate: reference = Ext(c: [x.c[0], x.c[1] * referenceFp4Kappa]).bytes
    case .fp4TimesS: reference = (x * Ext(c: [.zero, .one])).bytes
    case .fp12Product: reference = (x * y).bytes
    case .fp12Square: reference = (x * x).bytes
    case .fp12Inverse: reference = x.inverse12.bytes
    case .fp12Conjugate: reference = x.frobenius12(6).bytes
    case .fp12Frobenius: reference = x.frobenius12(1).bytes
    case .fp12FrobeniusSquared: reference = x.frobenius12(2).bytes
    case .fp12FrobeniusCubed: reference = x.frobenius12(3).bytes
    case .fp12TimesLine:
        // The line's slots a = (l0, l1), b = (l2, 0): l0 + l2·w + l1·w³, with l0, l1, l2 the
        // first three Fp2 values of y in byte order.
        let l = (0..<3).map { Fp2(integer(yBytes[(64 * $0)..<(64 * $0 + 32)]), integer(yBytes[(64 * $0 + 32)..<(64 * $0 + 64)])) }
        reference = (x * Ext(c: [l[0], l[2], .zero, l[1], .zero, .zero])).bytes
    case .fp12EasyPart: reference = x.easyPart.bytes
    case .fp12CyclotomicSquare:
        let f = x.easyPart
        reference = (f * f).bytes
    case .fp12PowerByU:
        // u = −0x4000000003C012B1: f^u = (f^|u|)^(p⁶), the inverse on the cyclotomic subgroup.
        reference = x.easyPart.power(BigUInt(0x4000_0000_03C0_12B1)).frobenius12(6).bytes
    }
    expectEqual(engine, reference, what, data)
}
