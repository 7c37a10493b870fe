// The full 512-bit product of two 256-bit integers, for reductions that are not interleaved
// with the product: P-256's specialised Montgomery reduction and BN254CX's lazy Fp2 product.
// Schoolbook by rows: the sixteen word products are independent of any
// reduction, so they overlap; straight-line carry arithmetic, constant time.

/// A 512-bit integer as eight words, least significant first.
@frozen
@usableFromInline
package struct WideUInt512: Sendable {
    /// The words, least significant first.
    @usableFromInline
    package var w0, w1, w2, w3, w4, w5, w6, w7: UInt64

    /// The integer of eight words, least significant first.
    @inlinable @inline(__always)
    package init(_ w0: UInt64, _ w1: UInt64, _ w2: UInt64, _ w3: UInt64, _ w4: UInt64, _ w5: UInt64, _ w6: UInt64, _ w7: UInt64) {
        (self.w0, self.w1, self.w2, self.w3, self.w4, self.w5, self.w6, self.w7) = (w0, w1, w2, w3, w4, w5, w6, w7)
    }
}

extension FixedUInt where limbCount == 4 {
    /// `a · b` as 512 bits.
    @inlinable @inline(__always)
    package static func wideProduct(_ a: FixedUInt<4>, _ b: FixedUInt<4>) -> WideUInt512 {
        let a0 = a.limbs[unchecked: 0], a1 = a.limbs[unchecked: 1], a2 = a.limbs[unchecked: 2], a3 = a.limbs[unchecked: 3]
        var w0: UInt64, w1: UInt64, w2: UInt64, w3: UInt64, w4: UInt64, w5: UInt64, w6: UInt64, w7: UInt64
        var carry: UInt64
        var bi = b.limbs[unchecked: 0]
        (w0, carry) = UInt64.multiplyAdding(a0, bi, 0, carry: 0)
        (w1, carry) = UInt64.multiplyAdding(a1, bi, 0, carry: carry)
        (w2, carry) = UInt64.multiplyAdding(a2, bi, 0, carry: carry)
        (w3, w4) = UInt64.multiplyAdding(a3, bi, 0, carry: carry)
        bi = b.limbs[unchecked: 1]
        (w1, carry) = UInt64.multiplyAdding(a0, bi, w1, carry: 0)
        (w2, carry) = UInt64.multiplyAdding(a1, bi, w2, carry: carry)
        (w3, carry) = UInt64.multiplyAdding(a2, bi, w3, carry: carry)
        (w4, w5) = UInt64.multiplyAdding(a3, bi, w4, carry: carry)
        bi = b.limbs[unchecked: 2]
        (w2, carry) = UInt64.multiplyAdding(a0, bi, w2, carry: 0)
        (w3, carry) = UInt64.multiplyAdding(a1, bi, w3, carry: carry)
        (w4, carry) = UInt64.multiplyAdding(a2, bi, w4, carry: carry)
        (w5, w6) = UInt64.multiplyAdding(a3, bi, w5, carry: carry)
        bi = b.limbs[unchecked: 3]
        (w3, carry) = UInt64.multiplyAdding(a0, bi, w3, carry: 0)
        (w4, carry) = UInt64.multiplyAdding(a1, bi, w4, carry: carry)
        (w5, carry) = UInt64.multiplyAdding(a2, bi, w5, carry: carry)
        (w6, w7) = UInt64.multiplyAdding(a3, bi, w6, carry: carry)
        return WideUInt512(w0, w1, w2, w3, w4, w5, w6, w7)
    }

    /// `a − b` modulo 2⁵¹², and 1 when it borrowed (a < b), else 0.
    @inlinable @inline(__always)
    package static func wideDifference(_ a: WideUInt512, _ b: WideUInt512) -> (value: WideUInt512, borrow: UInt64) {
        var r = a, borrow: UInt64
        (r.w0, borrow) = UInt64.subtractingWithBorrow(a.w0, b.w0, borrow: 0)
        (r.w1, borrow) = UInt64.subtractingWithBorrow(a.w1, b.w1, borrow: borrow)
        (r.w2, borrow) = UInt64.subtractingWithBorrow(a.w2, b.w2, borrow: borrow)
        (r.w3, borrow) = UInt64.subtractingWithBorrow(a.w3, b.w3, borrow: borrow)
        (r.w4, borrow) = UInt64.subtractingWithBorrow(a.w4, b.w4, borrow: borrow)
        (r.w5, borrow) = UInt64.subtractingWithBorrow(a.w5, b.w5, borrow: borrow)
        (r.w6, borrow) = UInt64.subtractingWithBorrow(a.w6, b.w6, borrow: borrow)
        (r.w7, borrow) = UInt64.subtractingWithBorrow(a.w7, b.w7, borrow: borrow)
        return (r, borrow)
    }
}
