// The Poly1305 one-time authenticator (RFC 8439 §2.5) on three limbs of 44, 44 and 42 bits
// with 128-bit products (the "donna-64" arrangement of Andrew Moon's public-domain
// poly1305-donna, written afresh here). Multiplications, additions, shifts and masks only; the
// final reduction selects with a mask, so nothing branches on the key or the accumulator.

import CryptoCore

/// A Poly1305 computation under one 32-byte one-time key (r ‖ s).
package struct Poly1305 {
    private static let mask44: UInt64 = (1 << 44) - 1
    private static let mask42: UInt64 = (1 << 42) - 1

    /// r, clamped (§2.5.1), in limbs, and 20·r₁, 20·r₂ for the wrapped products.
    private var r0: UInt64, r1: UInt64, r2: UInt64, s1: UInt64, s2: UInt64
    /// s, the final addend, as two little-endian words.
    private var pad0: UInt64, pad1: UInt64
    /// The accumulator h.
    private var h0: UInt64 = 0, h1: UInt64 = 0, h2: UInt64 = 0
    /// A partial block not yet absorbed.
    private var buffer = InlineArray<16, UInt8>(repeating: 0)
    private var buffered = 0

    /// A fresh computation under `key` (32 bytes; the caller has checked the length).
    package init(key: UnsafeRawBufferPointer) {
        let t0 = UInt64(littleEndian: key.loadUnaligned(as: UInt64.self))
        let t1 = UInt64(littleEndian: key.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        // r &= 0x0ffffffc0ffffffc0ffffffc0fffffff (§2.5.1), split at bits 44 and 88.
        r0 = t0 & 0xFFC_0FFF_FFFF
        r1 = ((t0 >> 44) | (t1 << 20)) & 0xFFF_FFC0_FFFF
        r2 = (t1 >> 24) & 0x00F_FFFF_FC0F
        s1 = r1 &* 20  // 2¹³⁰ ≡ 5 and the limbs sit at 2⁴⁴, 2⁸⁸: a wrapped product gains 4·5
        s2 = r2 &* 20
        pad0 = UInt64(littleEndian: key.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
        pad1 = UInt64(littleEndian: key.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
    }

    /// Absorbs `bytes`.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        if buffered > 0 {
            while buffered < 16 && offset < bytes.count {
                buffer[buffered] = base.load(fromByteOffset: offset, as: UInt8.self)
                buffered += 1
                offset += 1
            }
            guard buffered == 16 else { return }
            let (t0, t1) = withUnsafeBytes(of: buffer) { raw in
                (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            }
            absorb(UInt64(littleEndian: t0), UInt64(littleEndian: t1), highBit: 1 << 40)
            buffered = 0
        }
        while bytes.count - offset >= 16 {
            absorb(UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)),
                   UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)), highBit: 1 << 40)
            offset += 16
        }
        while offset < bytes.count {
            buffer[buffered] = base.load(fromByteOffset: offset, as: UInt8.self)
            buffered += 1
            offset += 1
        }
    }

    /// Absorbs `count` zero bytes (the AEAD's padding to a block boundary, §2.8).
    mutating func updateWithZeros(count: Int) {
        let zeros = InlineArray<16, UInt8>(repeating: 0)
        withUnsafeBytes(of: zeros) { update(UnsafeRawBufferPointer(rebasing: $0[0..<min(count, 16)])) }
    }

    /// The 16-byte tag, written to `tag`; the state is wiped.
    package mutating func finalize(into tag: UnsafeMutableRawPointer) {
        if buffered > 0 {
            // §2.5.1: the last partial block with a 1 byte after it, no 2¹²⁸ bit.
            buffer[buffered] = 1
            for i in (buffered + 1)..<16 { buffer[i] = 0 }
            let (t0, t1) = withUnsafeBytes(of: buffer) { raw in
                (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            }
            absorb(UInt64(littleEndian: t0), UInt64(littleEndian: t1), highBit: 0)
        }
        // Carry fully, then h − p if that does not borrow (selected by a mask).
        var c = h1 >> 44; h1 &= Self.mask44
        h2 &+= c; c = h2 >> 42; h2 &= Self.mask42
        h0 &+= c &* 5; c = h0 >> 44; h0 &= Self.mask44
        h1 &+= c; c = h1 >> 44; h1 &= Self.mask44
        h2 &+= c; c = h2 >> 42; h2 &= Self.mask42
        h0 &+= c &* 5; c = h0 >> 44; h0 &= Self.mask44
        h1 &+= c
        var g0 = h0 &+ 5; c = g0 >> 44; g0 &= Self.mask44
        var g1 = h1 &+ c; c = g1 >> 44; g1 &= Self.mask44
        var g2 = h2 &+ c &- (1 << 42)
        let keepG = (g2 >> 63) &- 1  // all ones when h − p did not borrow
        g0 &= keepG; g1 &= keepG; g2 &= keepG
        h0 = (h0 & ~keepG) | g0
        h1 = (h1 & ~keepG) | g1
        h2 = (h2 & ~keepG) | g2
        // + s mod 2¹²⁸.
        h0 &+= pad0 & Self.mask44; c = h0 >> 44; h0 &= Self.mask44
        h1 &+= (((pad0 >> 44) | (pad1 << 20)) & Self.mask44) &+ c; c = h1 >> 44; h1 &= Self.mask44
        h2 &+= ((pad1 >> 24) & Self.mask42) &+ c; h2 &= Self.mask42
        tag.storeBytes(of: (h0 | (h1 << 44)).littleEndian, as: UInt64.self)
        tag.storeBytes(of: ((h1 >> 20) | (h2 << 24)).littleEndian, toByteOffset: 8, as: UInt64.self)
        wipe()
    }

    /// Zeroes the key, the accumulator and the buffer.
    mutating func wipe() {
        r0 = 0; r1 = 0; r2 = 0; s1 = 0; s2 = 0; pad0 = 0; pad1 = 0
        h0 = 0; h1 = 0; h2 = 0
        for i in 0..<16 { buffer[i] = 0 }
        buffered = 0
    }

    /// h = (h + block) · r mod 2¹³⁰ − 5, partly reduced; `highBit` is 2¹²⁸'s bit in limb 2.
    @inline(__always)
    private mutating func absorb(_ t0: UInt64, _ t1: UInt64, highBit: UInt64) {
        h0 &+= t0 & Self.mask44
        h1 &+= ((t0 >> 44) | (t1 << 20)) & Self.mask44
        h2 &+= ((t1 >> 24) & Self.mask42) | highBit
        let d0 = UInt128(h0) &* UInt128(r0) &+ UInt128(h1) &* UInt128(s2) &+ UInt128(h2) &* UInt128(s1)
        var d1 = UInt128(h0) &* UInt128(r1) &+ UInt128(h1) &* UInt128(r0) &+ UInt128(h2) &* UInt128(s2)
        var d2 = UInt128(h0) &* UInt128(r2) &+ UInt128(h1) &* UInt128(r1) &+ UInt128(h2) &* UInt128(r0)
        var c = UInt64(truncatingIfNeeded: d0 >> 44); h0 = UInt64(truncatingIfNeeded: d0) & Self.mask44
        d1 &+= UInt128(c); c = UInt64(truncatingIfNeeded: d1 >> 44); h1 = UInt64(truncatingIfNeeded: d1) & Self.mask44
        d2 &+= UInt128(c); c = UInt64(truncatingIfNeeded: d2 >> 42); h2 = UInt64(truncatingIfNeeded: d2) & Self.mask42
        h0 &+= c &* 5; c = h0 >> 44; h0 &= Self.mask44
        h1 &+= c
    }
}
