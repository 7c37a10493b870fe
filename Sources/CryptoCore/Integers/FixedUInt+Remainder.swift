// The remainder of a secret value by a secret modulus of any parity, in constant time: the
// consistency checks of RSA private keys reduce d modulo p − 1 and q − 1 (even moduli, where
// Montgomery arithmetic does not apply) and qInv·q modulo p.

extension FixedUInt {
    /// `x mod m` for any `m ≥ 1`, by bit-serial long division: one shift and one conditional
    /// subtraction per bit of `x`, whatever the values. Constant time in `x` and `m` (the loop
    /// length depends only on the widths). For `m = 0` the result is meaningless; callers pass
    /// a modulus they have checked to be non-zero.
    @inlinable
    package static func remainderConstantTime<let width: Int>(_ x: FixedUInt<width>, modulo m: FixedUInt) -> FixedUInt {
        var r = FixedUInt.zero
        for i in stride(from: 64 * width - 1, through: 0, by: -1) {
            // r < m before the shift, so 2r + bit < 2m: one subtraction brings it below m.
            let overflow = r.limbs[limbCount - 1] >> 63
            var shifted = r.shiftedLeft(by: 1)
            shifted.limbs[0] |= x.bit(i)
            let (difference, borrow) = shifted.subtractingReportingBorrow(m)
            // Subtract when the shift overflowed the width (2r ≥ 2^64n > m) or when r ≥ m.
            let subtract = Choice(bit: overflow) | !Choice(bit: borrow)
            r = FixedUInt.select(difference, shifted, if: subtract)
        }
        return r
    }
}
