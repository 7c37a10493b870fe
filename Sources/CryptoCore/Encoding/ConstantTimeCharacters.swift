// Branch-free character classification for the text decoders. Hex and Base64 carry private
// keys (PEM bodies), so a decoder must not index a table or branch on a secret character.

/// Character arithmetic without tables or branches.
@usableFromInline
package enum ConstantTimeCharacter {
    /// A mask of all ones when `low ≤ c ≤ high`, else zero.
    @inlinable @inline(__always)
    package static func inRange(_ c: Int32, _ low: Int32, _ high: Int32) -> Int32 {
        // Both differences are negative exactly inside the range; the arithmetic shift
        // spreads the sign bit over the word.
        ((low &- 1 &- c) & (c &- high &- 1)) >> 31
    }

    /// A mask of all ones when `c == value`, else zero.
    @inlinable @inline(__always)
    package static func equals(_ c: Int32, _ value: Int32) -> Int32 {
        inRange(c, value, value)
    }

    /// The value of a hex digit (either case), or −1.
    @inlinable @inline(__always)
    package static func hexValue(_ c: UInt8) -> Int32 {
        let c = Int32(c)
        let digit = inRange(c, 0x30, 0x39)
        let upper = inRange(c, 0x41, 0x46)
        let lower = inRange(c, 0x61, 0x66)
        let valid = digit | upper | lower
        let value = (digit & (c &- 0x30)) | (upper & (c &- 0x37)) | (lower & (c &- 0x57))
        return value | ~valid
    }

    /// The hex digit (lower case) for `value` in 0...15.
    @inlinable @inline(__always)
    package static func hexDigit(_ value: UInt8) -> UInt8 {
        let v = Int32(value)
        // 0–9 → '0'+v; 10–15 → 'a'+v−10 = '0'+v+39.
        return UInt8(truncatingIfNeeded: 0x30 &+ v &+ (inRange(v, 10, 15) & 39))
    }
}
