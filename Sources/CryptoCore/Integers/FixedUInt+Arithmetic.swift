// Addition, subtraction, multiplication and shifts on `FixedUInt`, in constant time.

extension FixedUInt {
    // These two return through `withExtendedLifetime`: Swift 6.3.1 in release builds loses the
    // limb writes of an `@inline(__always)` function that mutates a local `InlineArray` and
    // returns it in a tuple when the call sits in an array literal
    // (`[a.addingReportingCarry(b).sum]` yielded `a`); FixedUIntTests.arrayLiteralsKeepTheResult
    // guards it.

    /// `self + other` modulo 2^bitWidth, with the carry out (0 or 1).
    @inlinable @inline(__always)
    package func addingReportingCarry(_ other: FixedUInt, carry: UInt64 = 0) -> (sum: FixedUInt, carry: UInt64) {
        var result = self
        var carry = carry
        for i in 0..<limbCount {
            (result.limbs[unchecked: i], carry) = UInt64.addingWithCarry(limbs[unchecked: i], other.limbs[unchecked: i], carry: carry)
        }
        return withExtendedLifetime(result) { (result, carry) }
    }

    /// `self − other − borrow` modulo 2^bitWidth for a `borrow` of 0 or 1, with the borrow out
    /// (0 or 1).
    @inlinable @inline(__always)
    package func subtractingReportingBorrow(_ other: FixedUInt, borrow: UInt64 = 0) -> (difference: FixedUInt, borrow: UInt64) {
        var result = self
        var borrow = borrow
        for i in 0..<limbCount {
            (result.limbs[unchecked: i], borrow) = UInt64.subtractingWithBorrowChained(limbs[unchecked: i], other.limbs[unchecked: i], borrow: borrow)
        }
        return withExtendedLifetime(result) { (result, borrow) }
    }

    /// The full `2 · bitWidth`-bit product as (high, low) halves (schoolbook).
    @inlinable
    package func multipliedFullWidth(by other: FixedUInt) -> (high: FixedUInt, low: FixedUInt) {
        var low = FixedUInt.zero
        var high = FixedUInt.zero
        for i in 0..<limbCount {
            var carry: UInt64 = 0
            let a = limbs[unchecked: i]
            for j in 0..<limbCount {
                let k = i + j
                if k < limbCount {
                    (low.limbs[unchecked: k], carry) = UInt64.multiplyAdding(a, other.limbs[unchecked: j], low.limbs[unchecked: k], carry: carry)
                } else {
                    (high.limbs[unchecked: k - limbCount], carry) = UInt64.multiplyAdding(a, other.limbs[unchecked: j], high.limbs[unchecked: k - limbCount], carry: carry)
                }
            }
            high.limbs[unchecked: i] = carry
        }
        return withExtendedLifetime((high, low)) { (high, low) }  // see addingReportingCarry
    }

    /// `self · small + addend` as the low word-width result and the carry-out word.
    @inlinable
    package func multipliedAdding(_ small: UInt64, _ addend: UInt64 = 0) -> (product: FixedUInt, carry: UInt64) {
        var result = self
        var carry = addend
        for i in 0..<limbCount {
            (result.limbs[unchecked: i], carry) = UInt64.multiplyAdding(limbs[unchecked: i], small, 0, carry: carry)
        }
        return withExtendedLifetime(result) { (result, carry) }  // see addingReportingCarry
    }

    /// Shifts left by a public amount, dropping bits that leave the width.
    @inlinable
    package func shiftedLeft(by amount: Int) -> FixedUInt {
        precondition(amount >= 0, "internal error: negative shift")
        var result = FixedUInt.zero
        let limbShift = amount >> 6
        let bitShift = UInt64(amount & 63)
        guard limbShift < limbCount else { return result }
        for i in stride(from: limbCount - 1, through: limbShift, by: -1) {
            var value = limbs[i - limbShift] << bitShift
            if bitShift != 0 && i - limbShift - 1 >= 0 {
                value |= limbs[i - limbShift - 1] >> (64 - bitShift)
            }
            result.limbs[i] = value
        }
        return result
    }

    /// Shifts right by a public amount.
    @inlinable
    package func shiftedRight(by amount: Int) -> FixedUInt {
        precondition(amount >= 0, "internal error: negative shift")
        var result = FixedUInt.zero
        let limbShift = amount >> 6
        let bitShift = UInt64(amount & 63)
        guard limbShift < limbCount else { return result }
        for i in 0..<(limbCount - limbShift) {
            var value = limbs[i + limbShift] >> bitShift
            if bitShift != 0 && i + limbShift + 1 < limbCount {
                value |= limbs[i + limbShift + 1] << (64 - bitShift)
            }
            result.limbs[i] = value
        }
        return result
    }

    /// Shifts right by one bit, shifting `topBit` (0 or 1) in at the top.
    @inlinable @inline(__always)
    package func shiftedRightOne(insertingTopBit topBit: UInt64 = 0) -> FixedUInt {
        var result = self
        for i in 0..<(limbCount - 1) {
            result.limbs[unchecked: i] = (limbs[unchecked: i] >> 1) | (limbs[unchecked: i + 1] << 63)
        }
        result.limbs[unchecked: limbCount - 1] = (limbs[unchecked: limbCount - 1] >> 1) | (topBit << 63)
        return result
    }
}
