// Bridges between the engine's integers and the reference integer.

import CryptoCore
import TestSupport

extension FixedUInt {
    /// The value as a reference integer.
    var reference: ReferenceInteger {
        ReferenceInteger(words: (0..<limbCount).map { limbs[$0] })
    }

    /// A value from a reference integer that fits.
    init(_ reference: ReferenceInteger) {
        var limbs = InlineArray<limbCount, UInt64>(repeating: 0)
        for (i, word) in reference.words(count: limbCount).enumerated() { limbs[i] = word }
        self.init(limbs: limbs)
    }

    /// A uniformly random value.
    static func random(using generator: inout TestRandom) -> FixedUInt {
        var limbs = InlineArray<limbCount, UInt64>(repeating: 0)
        for i in 0..<limbCount { limbs[i] = generator.next() }
        return FixedUInt(limbs: limbs)
    }
}

/// Random values with a bias towards edge patterns (all ones, zero, single bits), which is
/// where carry bugs hide.
func edgyValue<let n: Int>(_ generator: inout TestRandom, _: FixedUInt<n>.Type = FixedUInt<n>.self) -> FixedUInt<n> {
    switch generator.next() % 6 {
    case 0: return .zero
    case 1:
        var value = FixedUInt<n>.zero
        for i in 0..<n { value.limbs[i] = .max }
        return value
    case 2:
        var value = FixedUInt<n>.zero
        let bit = Int(generator.next() % UInt64(64 * n))
        value.limbs[bit / 64] = 1 << UInt64(bit % 64)
        return value
    case 3:
        var value = FixedUInt<n>.random(using: &generator)
        value.limbs[Int(generator.next() % UInt64(n))] = .max
        return value
    default:
        return .random(using: &generator)
    }
}
