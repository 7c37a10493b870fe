// GHASH (NIST SP 800-38D §6.4), the universal hash of GCM, in constant time without a
// carry-less multiply instruction: the "ctmul64" idea of BearSSL (Thomas Pornin), written
// afresh here.
//
// A 64×64 carry-less product is built from ordinary integer multiplications of operands with
// "holes": each operand is split into four masks of every fourth bit, so in each of the 16
// partial products the bits that meet at one position are at most 15 (below 64), whose sum
// fits between two positions of the same class and never carries into the next one. XOR of the
// four products whose classes add up to the same residue, masked to that class, is the
// carry-less product's low 64 bits. The high 64 bits come from the same routine on the
// bit-reversed operands: rev(x)·rev(y) is the reversal of x·y within 127 bits. One 128×128
// product is three such products (Karatsuba), each low and high: six calls. Every step is
// a multiplication, a mask or a shift of the data: no branch and no memory index depends on it.
//
// Bit order (SP 800-38D §6.3): the first bit of a block is the coefficient of x⁰. Reading a
// block as a big-endian 128-bit integer A, the coefficient of xⁱ is bit 127 − i, so the
// carry-less product of two such integers, shifted left once, holds the coefficient of xᵏ at
// bit 255 − k: the reduction modulo x¹²⁸ + x⁷ + x² + x + 1 folds the low 128 bits (the
// degrees 128…255) into the high ones with right shifts by 0, 1, 2 and 7.

import CryptoCore

/// The GHASH key H = E_K(0¹²⁸) with the values each block's product reuses, and the
/// block-by-block multiply-accumulate. H is key material: the words live in memory that
/// ``wipe()`` clears (its owner, ``AESGCMContext``, calls it when released).
package struct GHASHKey {
    /// H as big-endian words (`high` = bytes 0..<8), their XOR, and the three bit-reversed.
    private var high: UInt64, low: UInt64, middle: UInt64
    private var highReversed: UInt64, lowReversed: UInt64, middleReversed: UInt64

    /// The key H = E_K(0¹²⁸) as big-endian words (`high` = bytes 0..<8).
    package init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
        middle = high ^ low
        highReversed = high.bitReversed
        lowReversed = low.bitReversed
        middleReversed = middle.bitReversed
    }

    /// Zeroes every word (the owner's `deinit`).
    mutating func wipe() {
        high = 0; low = 0; middle = 0
        highReversed = 0; lowReversed = 0; middleReversed = 0
    }

    /// `(y ⊕ block) · H` in GF(2¹²⁸), `y` and the result as big-endian words (high, low).
    @inline(__always)
    package func multiplyAccumulate(_ y: inout (high: UInt64, low: UInt64), _ blockHigh: UInt64, _ blockLow: UInt64) {
        let a1 = y.high ^ blockHigh, a0 = y.low ^ blockLow
        let a2 = a1 ^ a0
        // Karatsuba: z0 = a0·h0, z1 = a1·h1, z2 = (a0 ⊕ a1)(h0 ⊕ h1) ⊕ z0 ⊕ z1, low and high halves.
        let z0 = Self.productLow(a0, low), z1 = Self.productLow(a1, high)
        var z2 = Self.productLow(a2, middle)
        let z0h = Self.productLow(a0.bitReversed, lowReversed).bitReversed >> 1
        let z1h = Self.productLow(a1.bitReversed, highReversed).bitReversed >> 1
        var z2h = Self.productLow(a2.bitReversed, middleReversed).bitReversed >> 1
        z2 ^= z0 ^ z1
        z2h ^= z0h ^ z1h
        // The 255-bit product as words v3 (most significant) … v0, shifted left once.
        var v0 = z0, v1 = z0h ^ z2, v2 = z1 ^ z2h, v3 = z1h
        v3 = (v3 << 1) | (v2 >> 63)
        v2 = (v2 << 1) | (v1 >> 63)
        v1 = (v1 << 1) | (v0 >> 63)
        v0 <<= 1
        // SP 800-38D §6.3: reduce by x¹²⁸ = x⁷ + x² + x + 1, the highest degrees (v0) first.
        v2 ^= v0 ^ (v0 >> 1) ^ (v0 >> 2) ^ (v0 >> 7)
        v1 ^= (v0 << 63) ^ (v0 << 62) ^ (v0 << 57)
        v3 ^= v1 ^ (v1 >> 1) ^ (v1 >> 2) ^ (v1 >> 7)
        v2 ^= (v1 << 63) ^ (v1 << 62) ^ (v1 << 57)
        y = (v3, v2)
    }

    /// The low 64 bits of the carry-less product `x · y`, from integer multiplications of
    /// operands with three-bit holes (the file comment says why no carry reaches a kept bit).
    @inline(__always)
    static func productLow(_ x: UInt64, _ y: UInt64) -> UInt64 {
        let m0: UInt64 = 0x1111_1111_1111_1111, m1 = m0 << 1, m2 = m0 << 2, m3 = m0 << 3
        let x0 = x & m0, x1 = x & m1, x2 = x & m2, x3 = x & m3
        let y0 = y & m0, y1 = y & m1, y2 = y & m2, y3 = y & m3
        let z0 = (x0 &* y0) ^ (x1 &* y3) ^ (x2 &* y2) ^ (x3 &* y1)
        let z1 = (x0 &* y1) ^ (x1 &* y0) ^ (x2 &* y3) ^ (x3 &* y2)
        let z2 = (x0 &* y2) ^ (x1 &* y1) ^ (x2 &* y0) ^ (x3 &* y3)
        let z3 = (x0 &* y3) ^ (x1 &* y2) ^ (x2 &* y1) ^ (x3 &* y0)
        return (z0 & m0) | (z1 & m1) | (z2 & m2) | (z3 & m3)
    }
}

/// A running GHASH over whole blocks, with zero padding of a final partial block
/// (SP 800-38D §7.1 step 5: A ‖ 0ᵛ ‖ C ‖ 0ᵘ ‖ [len(A)]₆₄ ‖ [len(C)]₆₄).
struct GHASHAccumulator {
    private(set) var state: (high: UInt64, low: UInt64) = (0, 0)

    /// Absorbs `bytes`, the last partial block padded with zeros.
    @inline(__always)
    mutating func absorbPadded(_ bytes: UnsafeRawBufferPointer, key: GHASHKey) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while bytes.count - offset >= 16 {
            key.multiplyAccumulate(&state, UInt64(bigEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)),
                                   UInt64(bigEndian: base.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)))
            offset += 16
        }
        let rest = bytes.count - offset  // public: a length
        if rest > 0 {
            var block = (UInt64(0), UInt64(0))
            withUnsafeMutableBytes(of: &block) { $0.baseAddress?.copyMemory(from: base + offset, byteCount: rest) }
            key.multiplyAccumulate(&state, UInt64(bigEndian: block.0), UInt64(bigEndian: block.1))
        }
    }

    /// Absorbs the length block [len(A)]₆₄ ‖ [len(C)]₆₄, lengths in bits.
    mutating func absorbLengths(_ aadByteCount: Int, _ textByteCount: Int, key: GHASHKey) {
        key.multiplyAccumulate(&state, UInt64(aadByteCount) &* 8, UInt64(textByteCount) &* 8)
    }

    /// Zeroes the running value.
    mutating func wipe() { state = (0, 0) }
}

extension UInt64 {
    /// The 64 bits in reverse order (bit 0 becomes bit 63); branch-free swaps.
    @inline(__always)
    var bitReversed: UInt64 {
        var x = self
        x = ((x & 0x5555_5555_5555_5555) << 1) | ((x >> 1) & 0x5555_5555_5555_5555)
        x = ((x & 0x3333_3333_3333_3333) << 2) | ((x >> 2) & 0x3333_3333_3333_3333)
        x = ((x & 0x0F0F_0F0F_0F0F_0F0F) << 4) | ((x >> 4) & 0x0F0F_0F0F_0F0F_0F0F)
        return x.byteSwapped
    }
}
