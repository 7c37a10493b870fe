// Carry-propagating word primitives. They are written with `UInt128` so that LLVM emits
// `add`/`adc`/`sbb`/`mul` without turning carries into branches (a `Bool` carry such as
// `overflow ? 1 : 0` was measured to compile to conditional jumps).

extension UInt64 {
    /// `a + b + carry` as (sum, carry out); `carry` must be 0 or 1.
    @inlinable @inline(__always)
    package static func addingWithCarry(_ a: UInt64, _ b: UInt64, carry: UInt64) -> (sum: UInt64, carry: UInt64) {
        let s = UInt128(a) &+ UInt128(b) &+ UInt128(carry)
        return (UInt64(truncatingIfNeeded: s), UInt64(truncatingIfNeeded: s &>> 64))
    }

    /// `a − b − borrow` as (difference, borrow out); `borrow` must be 0 or 1.
    @inlinable @inline(__always)
    package static func subtractingWithBorrow(_ a: UInt64, _ b: UInt64, borrow: UInt64) -> (difference: UInt64, borrow: UInt64) {
        let d = UInt128(a) &- UInt128(b) &- UInt128(borrow)
        return (UInt64(truncatingIfNeeded: d), UInt64(truncatingIfNeeded: d &>> 127))
    }

    /// `a · b + c + carry` as (low, high); never overflows 128 bits.
    @inlinable @inline(__always)
    package static func multiplyAdding(_ a: UInt64, _ b: UInt64, _ c: UInt64, carry: UInt64) -> (low: UInt64, high: UInt64) {
        let p = UInt128(a) &* UInt128(b) &+ UInt128(c) &+ UInt128(carry)
        return (UInt64(truncatingIfNeeded: p), UInt64(truncatingIfNeeded: p &>> 64))
    }
}
