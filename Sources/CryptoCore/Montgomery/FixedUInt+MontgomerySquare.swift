// Montgomery squaring for the RSA widths, by product scanning (Koç, Acar, Kaliski 1996, FIPS
// method, adapted to squaring): column k of a² + u·m is summed in registers, the products
// aᵢ·aⱼ with i < j once (then doubled) in one accumulator and the reduction products uⱼ·mₖ₋ⱼ
// in two others, so three carry chains run in parallel and nothing is stored until the column
// is done. About 1.5n² word products against 2n² for a general product; squarings are ~80%
// of a fixed-window exponentiation.
//
// One loop step takes index i and its mirror k − i together: aᵢ·aₖ₋ᵢ, uᵢ·mₖ₋ᵢ and uₖ₋ᵢ·mᵢ,
// each into its own accumulator. Every accumulator then takes one product per step, so the
// compiler keeps each as a plain add/adc/adc chain in registers (two products into one
// accumulator in one step, it regroups the carries through setb/movzx), and the step reads
// the four arrays through two index registers only: about 6.3 instructions per word product
// in ~200 bytes of loop, where one accumulator per column spent 12.8.

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
    /// (FixedUInt+MontgomerySquareUnrolled16.swift); every other width the loop of
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
    /// described at the top of this file, index and mirror per step; fully reduced. The loop
    /// is a few hundred bytes of code, which stays in the instruction cache whatever the caller
    /// (a 32-limb square written out in full is 67 KB). Constant time: every loop bound and
    /// memory index depends on the width and the column number only.
    @inlinable
    package static func montgomerySquareLoop(_ a: FixedUInt, modulus m: FixedUInt, inverse: UInt64) -> FixedUInt {
        let x = a.limbs, modulusLimbs = m.limbs
        var u = InlineArray<limbCount, UInt64>(repeating: 0)
        var result = FixedUInt.zero
        var column = ColumnAccumulator()
        for k in 0..<(2 &* limbCount) {
            // Column k pairs index i with its mirror k − i, for lower ≤ i < k − i: the cross
            // product aᵢ·aₖ₋ᵢ, and the reduction products uᵢ·mₖ₋ᵢ and uₖ₋ᵢ·mᵢ, which together
            // cover every uⱼ·mₖ₋ⱼ (lower ≤ j ≤ k, j < n) but the middle one. Below column n,
            // uₖ is still zero here (it is chosen at the end of this column), so its term is 0.
            let lower = Swift.max(0, k &- limbCount &+ 1)
            let half = (k &+ 1) >> 1
            var crossTerms = ColumnAccumulator()
            var reduction = ColumnAccumulator()
            var i = lower
            while i < half {
                crossTerms.add(x[unchecked: i], times: x[unchecked: k &- i])
                reduction.add(u[unchecked: i], times: modulusLimbs[unchecked: k &- i])
                column.add(u[unchecked: k &- i], times: modulusLimbs[unchecked: i])
                i &+= 1
            }
            column.add(reduction)
            column.addDoubled(crossTerms)
            if k & 1 == 0 {
                // The middle: aₖ/₂² and uₖ/₂·mₖ/₂.
                column.add(x[unchecked: k >> 1], times: x[unchecked: k >> 1])
                column.add(u[unchecked: k >> 1], times: modulusLimbs[unchecked: k >> 1])
            }
            if k < limbCount {
                // Choose uₖ so that the column's low word becomes zero.
                let uk = column.low &* inverse
                u[unchecked: k] = uk
                column.add(uk, times: modulusLimbs[unchecked: 0])
                _ = column.shiftOut()
            } else {
                result.limbs[unchecked: k &- limbCount] = column.shiftOut()
            }
        }
        return subtractingModulusIfNeeded(result, top: column.low, modulus: m)
    }
}
