// Montgomery squaring for the RSA widths, by product scanning (Koç, Acar, Kaliski 1996, FIPS
// method, adapted to squaring): column k of a² + u·m is summed in registers, the products
// aᵢ·aⱼ with i < j once (then doubled) in one accumulator and the reduction products uⱼ·mₖ₋ⱼ
// in another, so the two carry chains run in parallel and nothing is stored until the column
// is done. About 1.5n² word products against 2n² for a general product; squarings are ~80%
// of a fixed-window exponentiation.

/// A three-word accumulator (up to 192 bits) for product scanning.
@usableFromInline
struct ColumnAccumulator {
    @usableFromInline var low: UInt64 = 0
    @usableFromInline var middle: UInt64 = 0
    @usableFromInline var high: UInt64 = 0

    @inlinable @inline(__always)
    init() {}

    /// Adds x·y.
    @inlinable @inline(__always)
    mutating func add(_ x: UInt64, times y: UInt64) {
        let product = UInt128(x) &* UInt128(y)
        add(low: UInt64(truncatingIfNeeded: product), high: UInt64(truncatingIfNeeded: product &>> 64))
    }

    /// Adds a 128-bit value given as two words.
    @inlinable @inline(__always)
    mutating func add(low addendLow: UInt64, high addendHigh: UInt64) {
        let lowSum = UInt128(low) &+ UInt128(addendLow)
        low = UInt64(truncatingIfNeeded: lowSum)
        let middleSum = UInt128(middle) &+ UInt128(addendHigh) &+ (lowSum &>> 64)
        middle = UInt64(truncatingIfNeeded: middleSum)
        high &+= UInt64(truncatingIfNeeded: middleSum &>> 64)
    }

    /// Adds `other`.
    @inlinable @inline(__always)
    mutating func add(_ other: ColumnAccumulator) {
        add(low: other.low, high: other.middle)
        high &+= other.high
    }

    /// Adds twice `other`.
    @inlinable @inline(__always)
    mutating func addDoubled(_ other: ColumnAccumulator) {
        add(low: other.low &<< 1, high: (other.middle &<< 1) | (other.low &>> 63))
        high &+= (other.high &<< 1) | (other.middle &>> 63)
    }

    /// Returns the low word and shifts the accumulator down by one word.
    @inlinable @inline(__always)
    mutating func shiftOut() -> UInt64 {
        let word = low
        low = middle
        middle = high
        high = 0
        return word
    }
}

extension FixedUInt {
    /// `a² · R⁻¹ mod m` for `a < m`, `m` odd; the result is fully reduced. Widths below 8 limbs
    /// use the general product, which is faster there; 16 limbs the generated straight-line kernel
    /// (FixedUInt+MontgomeryUnrolled16.swift); every other width the loop of
    /// ``montgomerySquareLoop(_:modulus:inverse:)``.
    @inlinable
    package static func montgomerySquare(_ a: FixedUInt, modulus m: FixedUInt, inverse: UInt64) -> FixedUInt {
        if limbCount < 8 { return montgomeryProduct(a, a, modulus: m, inverse: inverse) }
        if limbCount == 16 {
            return unsafeBitCast(FixedUInt<16>.montgomerySquareUnrolled16(
                unsafeBitCast(a, to: FixedUInt<16>.self), modulus: unsafeBitCast(m, to: FixedUInt<16>.self),
                inverse: inverse), to: FixedUInt.self)
        }
        return montgomerySquareLoop(a, modulus: m, inverse: inverse)
    }

    /// `a² · R⁻¹ mod m` for `a < m`, `m` odd, at any width, by the product scanning
    /// described at the top of this file; fully reduced. Constant time: every loop bound and
    /// memory index depends on the width only.
    @inlinable
    package static func montgomerySquareLoop(_ a: FixedUInt, modulus m: FixedUInt, inverse: UInt64) -> FixedUInt {
        var u = FixedUInt.zero
        var result = FixedUInt.zero
        var column = ColumnAccumulator()
        for k in 0..<(2 * limbCount) {
            let first = Swift.max(0, k &- limbCount &+ 1)
            // Σ aᵢ·aₖ₋ᵢ over i < k − i, doubled, plus aₖ/₂² when k is even.
            var crossTerms = ColumnAccumulator()
            var i = first
            while i &<< 1 < k {
                crossTerms.add(a.limbs[unchecked: i], times: a.limbs[unchecked: k &- i])
                i &+= 1
            }
            // Σ uⱼ·mₖ₋ⱼ over the uⱼ already known (j < k, j < n), in two interleaved sums so
            // that their carry chains overlap.
            var j = first
            let end = Swift.min(k, limbCount)
            var otherHalf = ColumnAccumulator()
            while j &+ 1 < end {
                column.add(u.limbs[unchecked: j], times: m.limbs[unchecked: k &- j])
                otherHalf.add(u.limbs[unchecked: j &+ 1], times: m.limbs[unchecked: k &- j &- 1])
                j &+= 2
            }
            if j < end {
                column.add(u.limbs[unchecked: j], times: m.limbs[unchecked: k &- j])
            }
            column.add(otherHalf)
            column.addDoubled(crossTerms)
            if k & 1 == 0 {
                column.add(a.limbs[unchecked: k >> 1], times: a.limbs[unchecked: k >> 1])
            }
            if k < limbCount {
                // Choose uₖ so that the column's low word becomes zero.
                let uk = column.low &* inverse
                u.limbs[unchecked: k] = uk
                column.add(uk, times: m.limbs[unchecked: 0])
                _ = column.shiftOut()
            } else {
                result.limbs[unchecked: k &- limbCount] = column.shiftOut()
            }
        }
        return subtractingModulusIfNeeded(result, top: column.low, modulus: m)
    }
}
