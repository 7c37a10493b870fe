// GF(2²⁵⁵ − 19) for X25519 (RFC 7748 §4.1, §5): five unsaturated 51-bit limbs with 128-bit
// products, the radix of Bernstein's and of curve25519-donna-64 (written afresh here). A limb
// may grow past 51 bits between reductions; the bounds each operation accepts and returns are
// in its doc. Multiplications, additions, shifts and masks only; the final reduction selects
// with a mask. Nothing branches on, or indexes by, an element.

import CryptoCore

/// An element of GF(p), p = 2²⁵⁵ − 19, as Σ limbᵢ·2⁵¹ⁱ (not necessarily below p).
package struct Curve25519FieldElement {
    private static let mask51: UInt64 = (1 << 51) - 1

    var l0: UInt64, l1: UInt64, l2: UInt64, l3: UInt64, l4: UInt64

    package init(_ l0: UInt64, _ l1: UInt64, _ l2: UInt64, _ l3: UInt64, _ l4: UInt64) {
        self.l0 = l0; self.l1 = l1; self.l2 = l2; self.l3 = l3; self.l4 = l4
    }

    static var zero: Self { Self(0, 0, 0, 0, 0) }
    static var one: Self { Self(1, 0, 0, 0, 0) }

    /// The little-endian 32 bytes at `bytes`, bit 255 ignored (RFC 7748 §5: "implementations
    /// MUST mask the most significant bit in the final byte"). Values ≥ p are taken mod p.
    package init(littleEndianBytes bytes: UnsafeRawBufferPointer) {
        let w0 = UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self))
        let w1 = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        let w2 = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
        let w3 = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
        self.init(w0 & Self.mask51, ((w0 >> 51) | (w1 << 13)) & Self.mask51, ((w1 >> 38) | (w2 << 26)) & Self.mask51,
                  ((w2 >> 25) | (w3 << 39)) & Self.mask51, (w3 >> 12) & Self.mask51)
    }

    /// The canonical value (below p) as 32 little-endian bytes, written to `output`.
    package func write(littleEndianTo output: UnsafeMutableRawBufferPointer) {
        // One carry pass leaves h < 2p with limbs below 2⁵¹ + 2¹⁸; q = ⌊(h + 19) / 2²⁵⁵⌋ is 1
        // exactly when h ≥ p, and h − q·p = h + 19q − q·2²⁵⁵ (ref10's fe_tobytes, in radix 2⁵¹).
        var t = carried()
        var q = (t.l0 &+ 19) >> 51
        q = (t.l1 &+ q) >> 51
        q = (t.l2 &+ q) >> 51
        q = (t.l3 &+ q) >> 51
        q = (t.l4 &+ q) >> 51
        t.l0 &+= 19 &* q
        t.l1 &+= t.l0 >> 51; t.l0 &= Self.mask51
        t.l2 &+= t.l1 >> 51; t.l1 &= Self.mask51
        t.l3 &+= t.l2 >> 51; t.l2 &= Self.mask51
        t.l4 &+= t.l3 >> 51; t.l3 &= Self.mask51
        t.l4 &= Self.mask51  // drops q·2²⁵⁵
        output.storeBytes(of: (t.l0 | (t.l1 << 51)).littleEndian, toByteOffset: 0, as: UInt64.self)
        output.storeBytes(of: ((t.l1 >> 13) | (t.l2 << 38)).littleEndian, toByteOffset: 8, as: UInt64.self)
        output.storeBytes(of: ((t.l2 >> 26) | (t.l3 << 25)).littleEndian, toByteOffset: 16, as: UInt64.self)
        output.storeBytes(of: ((t.l3 >> 39) | (t.l4 << 12)).littleEndian, toByteOffset: 24, as: UInt64.self)
    }

    /// One carry pass: limbs below 2⁵¹ + 2¹⁸ (the top carry comes back times 19).
    func carried() -> Self {
        var r = self
        r.l1 &+= r.l0 >> 51; r.l0 &= Self.mask51
        r.l2 &+= r.l1 >> 51; r.l1 &= Self.mask51
        r.l3 &+= r.l2 >> 51; r.l2 &= Self.mask51
        r.l4 &+= r.l3 >> 51; r.l3 &= Self.mask51
        r.l0 &+= (r.l4 >> 51) &* 19; r.l4 &= Self.mask51
        return r
    }

    /// a + b, limb by limb: for inputs below 2⁵², below 2⁵³.
    @inline(__always)
    package static func + (a: Self, b: Self) -> Self {
        Self(a.l0 &+ b.l0, a.l1 &+ b.l1, a.l2 &+ b.l2, a.l3 &+ b.l3, a.l4 &+ b.l4)
    }

    /// a − b as a + 4p − b: for a below 2⁵³ and b below 2⁵³ − 76, no limb underflows, and the
    /// result is below 2⁵⁴.
    @inline(__always)
    package static func - (a: Self, b: Self) -> Self {
        // 4p = (2⁵³ − 76) + (2⁵³ − 4)·2⁵¹ + … + (2⁵³ − 4)·2²⁰⁴.
        Self((a.l0 &+ 0x1F_FFFF_FFFF_FFB4) &- b.l0, (a.l1 &+ 0x1F_FFFF_FFFF_FFFC) &- b.l1, (a.l2 &+ 0x1F_FFFF_FFFF_FFFC) &- b.l2,
             (a.l3 &+ 0x1F_FFFF_FFFF_FFFC) &- b.l3, (a.l4 &+ 0x1F_FFFF_FFFF_FFFC) &- b.l4)
    }

    /// a · b mod p, for limbs below 2⁵⁴; the result's limbs are below 2⁵¹ + 2¹⁸ (limb 1; the
    /// others below 2⁵¹).
    @inline(__always)
    package static func * (a: Self, b: Self) -> Self {
        // 2²⁵⁵ ≡ 19: a product of limbs i + j ≥ 5 wraps to limb i + j − 5 times 19.
        let b1 = b.l1 &* 19, b2 = b.l2 &* 19, b3 = b.l3 &* 19, b4 = b.l4 &* 19
        let t0 = wide(a.l0, b.l0) &+ wide(a.l1, b4) &+ wide(a.l2, b3) &+ wide(a.l3, b2) &+ wide(a.l4, b1)
        let t1 = wide(a.l0, b.l1) &+ wide(a.l1, b.l0) &+ wide(a.l2, b4) &+ wide(a.l3, b3) &+ wide(a.l4, b2)
        let t2 = wide(a.l0, b.l2) &+ wide(a.l1, b.l1) &+ wide(a.l2, b.l0) &+ wide(a.l3, b4) &+ wide(a.l4, b3)
        let t3 = wide(a.l0, b.l3) &+ wide(a.l1, b.l2) &+ wide(a.l2, b.l1) &+ wide(a.l3, b.l0) &+ wide(a.l4, b4)
        let t4 = wide(a.l0, b.l4) &+ wide(a.l1, b.l3) &+ wide(a.l2, b.l2) &+ wide(a.l3, b.l1) &+ wide(a.l4, b.l0)
        return reduce(t0, t1, t2, t3, t4)
    }

    /// self² mod p, for limbs below 2⁵⁴; the result's limbs are below 2⁵¹ + 2¹⁸.
    @inline(__always)
    package func squared() -> Self {
        let d0 = l0 &* 2, d1 = l1 &* 2
        let l3x19 = l3 &* 19, l4x19 = l4 &* 19
        let t0 = wide(l0, l0) &+ wide(d1, l4x19) &+ wide(l2 &* 2, l3x19)
        let t1 = wide(d0, l1) &+ wide(l2 &* 2, l4x19) &+ wide(l3, l3x19)
        let t2 = wide(d0, l2) &+ wide(l1, l1) &+ wide(l3 &* 2, l4x19)
        let t3 = wide(d0, l3) &+ wide(d1, l2) &+ wide(l4, l4x19)
        let t4 = wide(d0, l4) &+ wide(d1, l3) &+ wide(l2, l2)
        return Self.reduce(t0, t1, t2, t3, t4)
    }

    /// self squared `count` times.
    package func squared(repeatedly count: Int) -> Self {
        var r = self
        for _ in 0..<count { r = r.squared() }
        return r
    }

    /// self · a24 with a24 = 121665 (RFC 7748 §5), for limbs below 2⁵⁴; reduced.
    @inline(__always)
    package func timesA24() -> Self {
        Self.reduce(wide(l0, 121_665), wide(l1, 121_665), wide(l2, 121_665), wide(l3, 121_665), wide(l4, 121_665))
    }

    /// self^(p − 2), the inverse (zero for zero), by the addition chain of curve25519-donna:
    /// 254 squarings and 11 multiplications; constant time.
    package func inverted() -> Self {
        let z2 = squared()
        let z9 = z2.squared(repeatedly: 2) * self
        let z11 = z9 * z2
        let z2_5_0 = z11.squared() * z9                       // 2⁵ − 1
        let z2_10_0 = z2_5_0.squared(repeatedly: 5) * z2_5_0
        let z2_20_0 = z2_10_0.squared(repeatedly: 10) * z2_10_0
        let z2_40_0 = z2_20_0.squared(repeatedly: 20) * z2_20_0
        let z2_50_0 = z2_40_0.squared(repeatedly: 10) * z2_10_0
        let z2_100_0 = z2_50_0.squared(repeatedly: 50) * z2_50_0
        let z2_200_0 = z2_100_0.squared(repeatedly: 100) * z2_100_0
        let z2_250_0 = z2_200_0.squared(repeatedly: 50) * z2_50_0
        return z2_250_0.squared(repeatedly: 5) * z11        // 2²⁵⁵ − 32 + 11 = p − 2
    }

    /// Swaps `a` and `b` when `choice` is true, by masks.
    @inline(__always)
    static func conditionalSwap(_ a: inout Self, _ b: inout Self, if choice: Choice) {
        let m = choice.mask
        var t = (a.l0 ^ b.l0) & m; a.l0 ^= t; b.l0 ^= t
        t = (a.l1 ^ b.l1) & m; a.l1 ^= t; b.l1 ^= t
        t = (a.l2 ^ b.l2) & m; a.l2 ^= t; b.l2 ^= t
        t = (a.l3 ^ b.l3) & m; a.l3 ^= t; b.l3 ^= t
        t = (a.l4 ^ b.l4) & m; a.l4 ^= t; b.l4 ^= t
    }

    /// Carries five 128-bit column sums into limbs below 2⁵¹ + 2¹⁸.
    @inline(__always)
    private static func reduce(_ t0: UInt128, _ t1: UInt128, _ t2: UInt128, _ t3: UInt128, _ t4: UInt128) -> Self {
        var c1 = t1, c2 = t2, c3 = t3, c4 = t4
        let r0 = UInt64(truncatingIfNeeded: t0) & mask51; c1 &+= t0 >> 51
        let r1 = UInt64(truncatingIfNeeded: c1) & mask51; c2 &+= c1 >> 51
        let r2 = UInt64(truncatingIfNeeded: c2) & mask51; c3 &+= c2 >> 51
        let r3 = UInt64(truncatingIfNeeded: c3) & mask51; c4 &+= c3 >> 51
        let r4 = UInt64(truncatingIfNeeded: c4) & mask51
        // The top carry can pass 2⁶⁴ / 19 for inputs near 2⁵⁴: multiplied in 128 bits.
        let s0 = UInt128(r0) &+ (c4 >> 51) &* 19
        return Self(UInt64(truncatingIfNeeded: s0) & mask51, r1 &+ UInt64(truncatingIfNeeded: s0 >> 51), r2, r3, r4)
    }
}

/// The 128-bit product of two words.
@inline(__always)
private func wide(_ a: UInt64, _ b: UInt64) -> UInt128 { UInt128(a) &* UInt128(b) }
