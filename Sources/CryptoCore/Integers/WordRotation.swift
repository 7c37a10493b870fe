// Word rotations for the digest and cipher round functions (branch-free).

extension UInt32 {
    /// Rotates left by `amount` (0 < amount < 32).
    @inlinable @inline(__always)
    package func rotatedLeft(_ amount: UInt32) -> UInt32 { (self << amount) | (self >> (32 - amount)) }

    /// Rotates right by `amount` (0 < amount < 32).
    @inlinable @inline(__always)
    package func rotatedRight(_ amount: UInt32) -> UInt32 { (self >> amount) | (self << (32 - amount)) }
}

extension UInt64 {
    /// Rotates right by `amount` (0 < amount < 64).
    @inlinable @inline(__always)
    package func rotatedRight(_ amount: UInt64) -> UInt64 { (self >> amount) | (self << (64 - amount)) }

    /// Rotates left by `amount` (0 < amount < 64).
    @inlinable @inline(__always)
    package func rotatedLeft(_ amount: UInt64) -> UInt64 { (self << amount) | (self >> (64 - amount)) }
}
