// Division of a secret integer by a small public number, without the `div` instruction (whose
// latency depends on its operands on x86): Barrett reduction on 32-bit chunks, and Hensel's
// exact division. RSA key generation uses both on secret primes.

extension FixedUInt {
    /// `self mod divisor` for a public divisor in 2..<2³², in constant time in `self`.
    @inlinable
    package func remainder(dividingBy divisor: UInt32) -> UInt32 {
        let d = UInt64(divisor)
        let reciprocal = UInt64.max / d  // public: floor((2⁶⁴ − 1)/d)
        var r: UInt64 = 0
        var i = limbCount - 1
        while i >= 0 {
            r = Self.barrettStep((r << 32) | (limbs[i] >> 32), d, reciprocal)
            r = Self.barrettStep((r << 32) | (limbs[i] & 0xFFFF_FFFF), d, reciprocal)
            i -= 1
        }
        return UInt32(truncatingIfNeeded: r)
    }

    /// `x mod d` for x < d·2³² with the precomputed reciprocal; two masked corrections.
    @inlinable @inline(__always)
    package static func barrettStep(_ x: UInt64, _ d: UInt64, _ reciprocal: UInt64) -> UInt64 {
        let quotient = x.multipliedFullWidth(by: reciprocal).high  // ≤ floor(x/d), off by at most 2
        var r = x &- quotient &* d
        r = UInt64.select(r &- d, r, if: !r.isLess(than: d))
        r = UInt64.select(r &- d, r, if: !r.isLess(than: d))
        return r
    }

    /// `Y / divisor` for an odd public divisor that divides Y exactly, where `self` holds the low
    /// `bitWidth` bits of Y and the quotient fits the width (Jebelean's exact division: the
    /// quotient is Y·divisor⁻¹ mod 2^bitWidth, formed limb by limb). Constant time in Y.
    @inlinable
    package func exactlyDivided(by divisor: UInt64) -> FixedUInt {
        var inverse: UInt64 = 1  // divisor⁻¹ mod 2⁶⁴ by Newton iteration
        for _ in 0..<6 { inverse = inverse &* (2 &- divisor &* inverse) }
        var quotient = FixedUInt.zero
        var carry: UInt64 = 0
        for i in 0..<limbCount {
            let (t, borrow) = UInt64.subtractingWithBorrow(limbs[i], carry, borrow: 0)
            let q = t &* inverse  // q·divisor ≡ t (mod 2⁶⁴): the low word cancels
            quotient.limbs[i] = q
            carry = q.multipliedFullWidth(by: divisor).high &+ borrow
        }
        return quotient
    }
}
