// Fixed-width unsigned integers on stack-allocated 64-bit limbs (docs/design.md §2, habit 6).

/// An unsigned integer of exactly `64 · limbCount` bits, stored little-endian in an
/// `InlineArray` of saturated 64-bit limbs (no heap).
///
/// Arithmetic, comparison and selection run in time that depends only on `limbCount`;
/// shift amounts and bit indices are treated as public. There is deliberately no `==`
/// returning `Bool`: use `isEqual(to:)`, which returns a ``Choice``.
@frozen
@usableFromInline
package struct FixedUInt<let limbCount: Int>: Sendable {
    /// The limbs, least significant first.
    @usableFromInline
    package var limbs: InlineArray<limbCount, UInt64>

    /// An integer from its limbs, least significant first.
    @inlinable @inline(__always)
    package init(limbs: InlineArray<limbCount, UInt64>) {
        self.limbs = limbs
    }

    /// Zero.
    @inlinable @inline(__always)
    package static var zero: FixedUInt { FixedUInt(limbs: InlineArray(repeating: 0)) }

    /// A small value.
    @inlinable
    package init(_ value: UInt64) {
        var limbs = InlineArray<limbCount, UInt64>(repeating: 0)
        limbs[0] = value
        self.limbs = limbs
    }

    /// The width in bits.
    @inlinable package static var bitWidth: Int { 64 * limbCount }

    /// The width in bytes.
    @inlinable package static var byteWidth: Int { 8 * limbCount }

    /// Limb `i` (least significant first); `i` is public.
    @inlinable @inline(__always)
    package subscript(limb i: Int) -> UInt64 {
        get { limbs[i] }
        set { limbs[i] = newValue }
    }

    /// Bit `i` as 0 or 1; the index is public, the bit may be secret.
    @inlinable @inline(__always)
    package func bit(_ i: Int) -> UInt64 {
        (limbs[i >> 6] >> UInt64(i & 63)) & 1
    }

    /// The number of significant bits. Leaks: the position of the top set bit (public values only).
    @inlinable
    package var bitLengthVartime: Int {
        var i = limbCount - 1
        while i >= 0 {
            if limbs[i] != 0 { return 64 * i + (64 - limbs[i].leadingZeroBitCount) }
            i -= 1
        }
        return 0
    }

    /// Zero-extends or truncates to another width.
    @inlinable
    package func resized<let other: Int>(to _: FixedUInt<other>.Type = FixedUInt<other>.self) -> FixedUInt<other> {
        var result = FixedUInt<other>.zero
        for i in 0..<min(limbCount, other) {
            result.limbs[i] = limbs[i]
        }
        return result
    }
}

// MARK: - Byte encodings

extension FixedUInt {
    /// Decodes big-endian bytes. Shorter input is zero-extended; input longer than the width
    /// is accepted only when its extra leading bytes are zero. Returns nil otherwise.
    @inlinable
    package init?(bigEndian bytes: some Collection<UInt8>) {
        let array = Array(bytes)
        let excess = array.count - Self.byteWidth
        if excess > 0 {
            var nonzero: UInt8 = 0
            for i in 0..<excess { nonzero |= array[i] }
            guard nonzero == 0 else { return nil }
        }
        // From the last byte back, one limb per eight bytes (a word load where all eight are
        // there); at most `byteWidth` bytes remain after the zero prefix, so at most `limbCount`
        // limbs. Only the lengths, which are public, steer the loops.
        var limbs = InlineArray<limbCount, UInt64>(repeating: 0)
        let first = Swift.max(0, excess)
        array.withUnsafeBytes { raw in
            var end = raw.count, limb = 0
            while end > first {
                let start = Swift.max(first, end &- 8)
                var word: UInt64 = 0
                if end &- start == 8 {
                    word = UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: start, as: UInt64.self))
                } else {
                    for i in start..<end { word = word << 8 | UInt64(raw[i]) }
                }
                limbs[limb] = word
                limb &+= 1
                end = start
            }
        }
        self.limbs = limbs
    }

    /// The value as exactly `count` big-endian bytes (`count` ≤ `byteWidth` must hold the value;
    /// higher bytes are dropped). Defaults to the full width.
    @inlinable
    package func bigEndianBytes(count: Int? = nil) -> [UInt8] {
        let count = count ?? Self.byteWidth
        var out = [UInt8](repeating: 0, count: count)
        let significant = Swift.min(count, Self.byteWidth)
        // From the last byte back, one limb per eight bytes (a word store where all eight fit).
        out.withUnsafeMutableBytes { raw in
            var written = 0, limb = 0
            while written < significant {
                let word = limbs[limb]
                if significant &- written >= 8 {
                    raw.storeBytes(of: word.bigEndian, toByteOffset: count &- written &- 8, as: UInt64.self)
                    written &+= 8
                } else {
                    for j in 0..<(significant &- written) {
                        raw[count &- 1 &- written &- j] = UInt8(truncatingIfNeeded: word >> UInt64(8 &* j))
                    }
                    written = significant
                }
                limb &+= 1
            }
        }
        return out
    }

    /// Decodes little-endian bytes (at most `byteWidth`). Returns nil when too long.
    @inlinable
    package init?(littleEndian bytes: some Collection<UInt8>) {
        guard bytes.count <= Self.byteWidth else { return nil }
        self.init(bigEndian: bytes.reversed())
    }
}

// MARK: - Comparison and selection

extension FixedUInt {
    /// Whether the two values are equal.
    @inlinable
    package func isEqual(to other: FixedUInt) -> Choice {
        var difference: UInt64 = 0
        for i in 0..<limbCount {
            difference |= limbs[i] ^ other.limbs[i]
        }
        return difference.isZero
    }

    /// Whether the value is zero.
    @inlinable
    package var isZero: Choice {
        var accumulated: UInt64 = 0
        for i in 0..<limbCount {
            accumulated |= limbs[i]
        }
        return accumulated.isZero
    }

    /// Whether `self < other`.
    @inlinable
    package func isLess(than other: FixedUInt) -> Choice {
        Choice(bit: subtractingReportingBorrow(other).borrow)
    }

    /// Whether the value is odd.
    @inlinable
    package var isOdd: Choice { Choice(bit: limbs[0] & 1) }

    /// `a` if `choice` is true, else `b`.
    @inlinable @inline(__always)
    package static func select(_ a: FixedUInt, _ b: FixedUInt, if choice: Choice) -> FixedUInt {
        var result = b
        for i in 0..<limbCount {
            result.limbs[unchecked: i] = UInt64.select(a.limbs[unchecked: i], b.limbs[unchecked: i], if: choice)
        }
        return result
    }

    /// Replaces `self` with `other` when `choice` is true.
    @inlinable @inline(__always)
    package mutating func conditionalAssign(_ other: FixedUInt, if choice: Choice) {
        self = Self.select(other, self, if: choice)
    }

    /// Swaps `a` and `b` when `choice` is true.
    @inlinable
    package static func conditionalSwap(_ a: inout FixedUInt, _ b: inout FixedUInt, if choice: Choice) {
        for i in 0..<limbCount {
            UInt64.conditionalSwap(&a.limbs[i], &b.limbs[i], if: choice)
        }
    }

    /// Compares public values. Leaks: the result and the position of the first differing limb.
    @inlinable
    package func compareVartime(_ other: FixedUInt) -> Int {
        var i = limbCount - 1
        while i >= 0 {
            if limbs[i] != other.limbs[i] { return limbs[i] < other.limbs[i] ? -1 : 1 }
            i -= 1
        }
        return 0
    }
}
