// Constant-time comparisons, selection and table lookup on machine words and byte buffers.
// No branch and no memory index depends on the secret operands.

extension UInt64 {
    /// Whether `self == other`, without branching.
    @inlinable @inline(__always)
    package func isEqual(to other: UInt64) -> Choice {
        let x = self ^ other
        // (x | -x) has its top bit set exactly when x != 0.
        return Choice(bit: ((x | (0 &- x)) >> 63) ^ 1)
    }

    /// Whether `self == 0`, without branching.
    @inlinable @inline(__always)
    package var isZero: Choice { isEqual(to: 0) }

    /// Whether `self < other` (unsigned), without branching.
    @inlinable @inline(__always)
    package func isLess(than other: UInt64) -> Choice {
        let difference = UInt128(self) &- UInt128(other)
        return Choice(bit: UInt64(truncatingIfNeeded: difference &>> 64) & 1)
    }

    /// `a` if `choice` is true, else `b`, without branching.
    @inlinable @inline(__always)
    package static func select(_ a: UInt64, _ b: UInt64, if choice: Choice) -> UInt64 {
        b ^ ((a ^ b) & choice.mask)
    }

    /// Swaps `a` and `b` when `choice` is true, without branching.
    @inlinable @inline(__always)
    package static func conditionalSwap(_ a: inout UInt64, _ b: inout UInt64, if choice: Choice) {
        let t = (a ^ b) & choice.mask
        a ^= t
        b ^= t
    }
}

extension UInt8 {
    /// `a` if `choice` is true, else `b`, without branching.
    @inlinable @inline(__always)
    package static func select(_ a: UInt8, _ b: UInt8, if choice: Choice) -> UInt8 {
        b ^ ((a ^ b) & UInt8(truncatingIfNeeded: choice.mask))
    }
}

/// Constant-time helpers over byte buffers and tables.
@usableFromInline
package enum ConstantTime {
    /// Whether two buffers hold the same bytes. The time depends only on the lengths,
    /// which are public; a length mismatch returns false without reading the contents.
    @inlinable
    package static func isEqual(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Choice {
        guard a.count == b.count else { return .false }
        var difference: UInt8 = 0
        for i in 0..<a.count {
            difference |= a[i] ^ b[i]
        }
        return UInt64(difference).isZero
    }

    /// Whether two byte sequences are equal, in time that depends only on their lengths.
    @inlinable
    package static func isEqual(_ a: some Sequence<UInt8>, _ b: some Sequence<UInt8>) -> Choice {
        let left = Array(a)
        let right = Array(b)
        return left.withUnsafeBytes { l in right.withUnsafeBytes { r in isEqual(l, r) } }
    }

    /// Copies `source` into `destination` when `choice` is true; reads and writes every byte
    /// either way. The buffers must have equal lengths.
    @inlinable
    package static func conditionalCopy(
        _ source: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer, if choice: Choice
    ) {
        precondition(source.count == destination.count, "internal error: conditionalCopy lengths")
        for i in 0..<source.count {
            destination[i] = UInt8.select(source[i], destination[i], if: choice)
        }
    }
}
