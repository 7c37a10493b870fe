// Differential targets: arithmetic (see Differential.swift). The engine's fields, tower and
// curves, reached through the `_ArithmeticProbe` SPI of CryptoPrimitives, against
// attaswift/BigInt. Inputs are edge-biased: 0, 1, m − 1, m, m + 1, 2^k ± 1, all-ones limbs,
// then fuzzer bytes, then a generator seeded by the input once the bytes run out.
//   diff-field           P-256 p and n, BN254CX p and r, run-time moduli of 256…2048 bits
//   diff-bn254cx-tower   Fp2, Fp4, Fp12 (Differential+BN254CXTower.swift)
//   diff-bn254cx-curve   G1, G2, the pairing (Differential+BN254CXCurve.swift)

import BigInt
@_spi(Fuzzing) import CryptoPrimitives

extension FuzzTarget {
    /// The arithmetic differential targets.
    static let differentialArithmetic: [FuzzTarget] = [
        FuzzTarget("diff-field") { fieldDifferential($0) },
        FuzzTarget("diff-bn254cx-tower") { towerDifferential($0) },
        FuzzTarget("diff-bn254cx-curve") { curveDifferential($0) },
    ]
}

/// The fuzzer's bytes as a stream of choices and edge-biased integers.
struct ArithmeticInput {
    let bytes: [UInt8]
    var index = 0
    var state: UInt64

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325  // FNV-1a seeds the generator used past the end
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        state = hash
    }

    /// The next 64 bits of SplitMix64.
    mutating func generated() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The next input byte, or a generated one past the end.
    mutating func byte() -> UInt8 {
        guard index < bytes.count else { return UInt8(truncatingIfNeeded: generated()) }
        defer { index += 1 }
        return bytes[index]
    }

    /// A choice in 0..<count.
    mutating func choose(_ count: Int) -> Int { Int(byte()) % count }

    /// A uniform-looking value below 2^bits.
    mutating func random(bits: Int) -> BigUInt {
        var value = BigUInt(0)
        for _ in 0..<((bits + 7) / 8) { value = value << 8 | BigUInt(byte()) }
        return value & ((BigUInt(1) << bits) - 1)
    }

    /// A value below 2^bits, biased to the edges of arithmetic modulo `m`.
    mutating func edge(_ m: BigUInt, bits: Int) -> BigUInt {
        let top = (BigUInt(1) << bits) - 1
        let small = BigUInt(byte())
        let value: BigUInt
        switch choose(24) {
        case 0: value = 0
        case 1: value = 1
        case 2: value = m > 0 ? m - 1 : 0
        case 3: value = m
        case 4: value = m + 1
        case 5: value = (BigUInt(1) << (Int(byte()) % bits)) + 1
        case 6: value = (BigUInt(1) << (Int(byte()) % bits + 1)) - 1
        case 7: value = top
        case 8: value = m > small ? m - small : small
        case 9: value = small
        case 10: value = m >> 1
        case 11: value = (m >> 1) + 1
        case 12: value = m + small
        case 13: value = top - small
        case 14: value = 2 * m - 1
        case 15:  // all-ones and all-zeros limbs, mixed
            var limbs = BigUInt(0)
            for _ in 0..<((bits + 63) / 64) { limbs = limbs << 64 | (byte() & 1 == 1 ? BigUInt(UInt64.max) : BigUInt(0)) }
            value = limbs
        default: value = random(bits: bits)
        }
        return value & top
    }
}

/// `count` big-endian bytes of `value` (which must fit).
func bigEndian(_ value: BigUInt, count: Int) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: count)
    var v = value
    var i = count - 1
    while i >= 0 && !v.isZero {
        out[i] = UInt8(truncatingIfNeeded: v.words.first ?? 0)
        v >>= 8
        i -= 1
    }
    return out
}

/// The integer of big-endian bytes.
func integer(_ bytes: some Collection<UInt8>) -> BigUInt {
    bytes.reduce(BigUInt(0)) { $0 << 8 | BigUInt($1) }
}

/// x⁻¹ mod m, 0 for 0 and for values not invertible.
func inverseOrZero(_ x: BigUInt, _ m: BigUInt) -> BigUInt {
    (x % m).isZero ? 0 : ((x % m).inverse(m) ?? 0)
}

/// Stops with both results when they differ.
func expectEqual(_ engine: [UInt8]?, _ reference: [UInt8]?, _ what: @autoclosure () -> String, _ input: [UInt8]) {
    guard engine != reference else { return }
    func show(_ value: [UInt8]?) -> String { value.map { Hex.encode($0) } ?? "nil" }
    FuzzTarget.mismatch("\(what()): engine \(show(engine)) reference \(show(reference))", input)
}

// MARK: - diff-field

/// One operation on one of the engine's compile-time moduli or on a run-time modulus.
func fieldDifferential(_ data: [UInt8]) {
    var input = ArithmeticInput(data)
    let which = input.choose(5)
    if which == 4 {
        runtimeFieldDifferential(&input, data)
        return
    }
    let modulus = _ArithmeticProbe.Modulus.allCases[which]
    let m = integer(_ArithmeticProbe.modulus(modulus))
    let operations = _ArithmeticProbe.FieldOperation.allCases
    let operation = operations[input.choose(operations.count)]
    let a = input.edge(m, bits: 256), b = input.edge(m, bits: 256)
    let engine = _ArithmeticProbe.evaluate(operation, modulus, bigEndian(a, count: 32), bigEndian(b, count: 32))
    let what = "diff-field \(modulus) \(operation) a=\(String(a, radix: 16)) b=\(String(b, radix: 16))"
    let r = BigUInt(1) << 256
    func out(_ value: BigUInt) -> [UInt8] { bigEndian(value, count: 32) }
    let x = a % m, y = b % m
    let isField = modulus == .p256Field || modulus == .bn254Field
    let reference: [UInt8]?
    switch operation {
    case .product, .genericProduct, .straightLineProduct: reference = out(x * y % m)
    case .spareBitsProduct: reference = m < BigUInt(1) << 254 ? out(x * y % m) : nil
    case .square, .genericSquare: reference = out(x * x % m)
    case .sum: reference = out((x + y) % m)
    case .difference: reference = out((x + m - y) % m)
    case .negation: reference = out((m - x) % m)
    case .inverse, .inverseDivsteps, .inverseFermat, .inverseVartime: reference = out(inverseOrZero(x, m))
    case .power, .powerVartime: reference = out(x.power(b, modulus: m))
    case .intoMontgomery: reference = out(x * r % m)
    case .outOfMontgomery: reference = a < m ? out(a * inverseOrZero(r, m) % m) : nil
    case .fromCanonical: reference = a < m ? out(a) : nil
    case .reduceWide: reference = out((a * r + b) % m)
    case .reduceWideKernel: reference = isField && a < m ? out((a * r + b) % m * inverseOrZero(r, m) % m) : nil
    case .halved: reference = modulus == .bn254Field ? out(x * inverseOrZero(2, m) % m) : nil
    case .squareRoot:
        guard isField else {
            expectEqual(engine, nil, what, data)
            return
        }
        let isSquare = x.isZero || x.power((m - 1) / 2, modulus: m) == 1
        guard let engine, isSquare else {
            expectEqual(engine, isSquare ? [] : nil, what + " (is a square: \(isSquare))", data)
            return
        }
        let root = integer(engine)
        if !(root < m && root * root % m == x) { FuzzTarget.mismatch(what + ": \(String(root, radix: 16)) is no root", data) }
        return
    }
    expectEqual(engine, reference, what, data)
}

/// One operation modulo a fuzzer-chosen modulus of 4, 8, 16 or 32 limbs (MontgomeryContext).
func runtimeFieldDifferential(_ input: inout ArithmeticInput, _ data: [UInt8]) {
    let limbs = _ArithmeticProbe.runtimeLimbCounts[input.choose(_ArithmeticProbe.runtimeLimbCounts.count)]
    let bits = 64 * limbs
    let top = (BigUInt(1) << bits) - 1
    var m: BigUInt
    switch input.choose(12) {
    case 0: m = top                                         // all ones
    case 1: m = (BigUInt(1) << (bits - 1)) + 1
    case 2: m = top - 2 * BigUInt(input.byte())             // 2^bits − small, odd
    case 3: m = BigUInt(input.byte())                       // tiny, even or odd, 0 and 1 included
    case 4: m = input.random(bits: 64)
    case 5: m = input.random(bits: 1 + input.choose(bits))  // any length, any parity
    default: m = input.random(bits: bits) | 1 | BigUInt(1) << (bits - 1)  // RSA-like
    }
    let accepted = _ArithmeticProbe.acceptsModulus(bigEndian(m, count: 8 * limbs), limbCount: limbs)
    let shouldAccept = m > 1 && m.words.first.map { $0 & 1 == 1 } == true
    if accepted != shouldAccept {
        FuzzTarget.mismatch("diff-field run-time modulus \(String(m, radix: 16)) accepted: \(String(describing: accepted))", data)
    }
    guard shouldAccept else { return }
    let operations = _ArithmeticProbe.RuntimeOperation.allCases
    let operation = operations[input.choose(operations.count)]
    let a = input.edge(m, bits: bits)
    let isPower = operation == .power || operation == .powerVartime
    let b = isPower ? input.edge(m & ((BigUInt(1) << 256) - 1), bits: 256) : input.edge(m, bits: bits)
    let engine = _ArithmeticProbe.evaluate(operation, modulus: bigEndian(m, count: 8 * limbs), limbCount: limbs,
                                           bigEndian(a, count: 8 * limbs), bigEndian(b, count: isPower ? 32 : 8 * limbs))
    let r = BigUInt(1) << bits
    func out(_ value: BigUInt) -> [UInt8] { bigEndian(value, count: 8 * limbs) }
    let x = a % m, y = b % m
    let reference: [UInt8]?
    switch operation {
    case .product: reference = out(x * y % m)
    case .square: reference = out(x * x % m)
    case .sum: reference = out((x + y) % m)
    case .difference: reference = out((x + m - y) % m)
    case .negation: reference = out((m - x) % m)
    case .power, .powerVartime: reference = out(x.power(b, modulus: m))
    case .inverseVartime: reference = out(inverseOrZero(x, m))
    case .intoMontgomery: reference = out(x * r % m)
    case .outOfMontgomery: reference = a < m ? out(a * inverseOrZero(r, m) % m) : nil
    case .reduceWide: reference = out((a * r + b) % m)
    }
    expectEqual(engine, reference,
                "diff-field run-time \(limbs) limbs \(operation) m=\(String(m, radix: 16)) a=\(String(a, radix: 16)) b=\(String(b, radix: 16))",
                data)
}
