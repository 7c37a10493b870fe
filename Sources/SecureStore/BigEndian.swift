// The store's integers on disk (record headers, the generations file) and in a token's epoch
// object are big-endian: one writer and one reader for all of them.

/// Big-endian integers as bytes, and back.
package enum BigEndian {
    /// The low `count` bytes of `value`, most significant first.
    package static func bytes(_ value: UInt64, count: Int = 8) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * (count - 1 - $0))) }
    }

    /// The integer `bytes` spell, most significant first (at most 8 bytes are meaningful).
    package static func value(_ bytes: some Collection<UInt8>) -> UInt64 {
        bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }
}
