// The SHA-2 compression function, shared by SHA-224, SHA-256, SHA-384 and SHA-512.

import CryptoCore

/// The SHA-2 compression function for 32-bit (SHA-224/256, FIPS 180-4 §6.2.2) and 64-bit
/// (SHA-384/512, §6.4.2) words. It is unrolled over 16 rounds so that the message schedule lives
/// in 16 local words and the eight working variables rotate roles instead of moving.
enum SHA2Rounds<Word: SHA2Word> {
    static func compress(_ state: inout InlineArray<8, Word>, blocks: UnsafeRawBufferPointer) {
        guard let base = blocks.baseAddress else { return }
        let blockSize = 16 * Word.byteCount
        Word.roundConstants.withUnsafeBufferPointer { k in
            var h0 = state[0], h1 = state[1], h2 = state[2], h3 = state[3]
            var h4 = state[4], h5 = state[5], h6 = state[6], h7 = state[7]
            for offset in stride(from: 0, to: blocks.count, by: blockSize) {
                var w0 = load(base, offset + 0 * Word.byteCount)
                var w1 = load(base, offset + 1 * Word.byteCount)
                var w2 = load(base, offset + 2 * Word.byteCount)
                var w3 = load(base, offset + 3 * Word.byteCount)
                var w4 = load(base, offset + 4 * Word.byteCount)
                var w5 = load(base, offset + 5 * Word.byteCount)
                var w6 = load(base, offset + 6 * Word.byteCount)
                var w7 = load(base, offset + 7 * Word.byteCount)
                var w8 = load(base, offset + 8 * Word.byteCount)
                var w9 = load(base, offset + 9 * Word.byteCount)
                var w10 = load(base, offset + 10 * Word.byteCount)
                var w11 = load(base, offset + 11 * Word.byteCount)
                var w12 = load(base, offset + 12 * Word.byteCount)
                var w13 = load(base, offset + 13 * Word.byteCount)
                var w14 = load(base, offset + 14 * Word.byteCount)
                var w15 = load(base, offset + 15 * Word.byteCount)
                var a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7
                var bc = b ^ c                      // b ⊕ c of the next round (see `round`)
                round(a, b, c, &d, e, f, g, &h, k[0] &+ w0, &bc)
                round(h, a, b, &c, d, e, f, &g, k[1] &+ w1, &bc)
                round(g, h, a, &b, c, d, e, &f, k[2] &+ w2, &bc)
                round(f, g, h, &a, b, c, d, &e, k[3] &+ w3, &bc)
                round(e, f, g, &h, a, b, c, &d, k[4] &+ w4, &bc)
                round(d, e, f, &g, h, a, b, &c, k[5] &+ w5, &bc)
                round(c, d, e, &f, g, h, a, &b, k[6] &+ w6, &bc)
                round(b, c, d, &e, f, g, h, &a, k[7] &+ w7, &bc)
                round(a, b, c, &d, e, f, g, &h, k[8] &+ w8, &bc)
                round(h, a, b, &c, d, e, f, &g, k[9] &+ w9, &bc)
                round(g, h, a, &b, c, d, e, &f, k[10] &+ w10, &bc)
                round(f, g, h, &a, b, c, d, &e, k[11] &+ w11, &bc)
                round(e, f, g, &h, a, b, c, &d, k[12] &+ w12, &bc)
                round(d, e, f, &g, h, a, b, &c, k[13] &+ w13, &bc)
                round(c, d, e, &f, g, h, a, &b, k[14] &+ w14, &bc)
                round(b, c, d, &e, f, g, h, &a, k[15] &+ w15, &bc)
                for t in stride(from: 16, to: Word.roundCount, by: 16) {
                    w0 = schedule(w0, w14, w9, w1)
                    round(a, b, c, &d, e, f, g, &h, k[t + 0] &+ w0, &bc)
                    w1 = schedule(w1, w15, w10, w2)
                    round(h, a, b, &c, d, e, f, &g, k[t + 1] &+ w1, &bc)
                    w2 = schedule(w2, w0, w11, w3)
                    round(g, h, a, &b, c, d, e, &f, k[t + 2] &+ w2, &bc)
                    w3 = schedule(w3, w1, w12, w4)
                    round(f, g, h, &a, b, c, d, &e, k[t + 3] &+ w3, &bc)
                    w4 = schedule(w4, w2, w13, w5)
                    round(e, f, g, &h, a, b, c, &d, k[t + 4] &+ w4, &bc)
                    w5 = schedule(w5, w3, w14, w6)
                    round(d, e, f, &g, h, a, b, &c, k[t + 5] &+ w5, &bc)
                    w6 = schedule(w6, w4, w15, w7)
                    round(c, d, e, &f, g, h, a, &b, k[t + 6] &+ w6, &bc)
                    w7 = schedule(w7, w5, w0, w8)
                    round(b, c, d, &e, f, g, h, &a, k[t + 7] &+ w7, &bc)
                    w8 = schedule(w8, w6, w1, w9)
                    round(a, b, c, &d, e, f, g, &h, k[t + 8] &+ w8, &bc)
                    w9 = schedule(w9, w7, w2, w10)
                    round(h, a, b, &c, d, e, f, &g, k[t + 9] &+ w9, &bc)
                    w10 = schedule(w10, w8, w3, w11)
                    round(g, h, a, &b, c, d, e, &f, k[t + 10] &+ w10, &bc)
                    w11 = schedule(w11, w9, w4, w12)
                    round(f, g, h, &a, b, c, d, &e, k[t + 11] &+ w11, &bc)
                    w12 = schedule(w12, w10, w5, w13)
                    round(e, f, g, &h, a, b, c, &d, k[t + 12] &+ w12, &bc)
                    w13 = schedule(w13, w11, w6, w14)
                    round(d, e, f, &g, h, a, b, &c, k[t + 13] &+ w13, &bc)
                    w14 = schedule(w14, w12, w7, w15)
                    round(c, d, e, &f, g, h, a, &b, k[t + 14] &+ w14, &bc)
                    w15 = schedule(w15, w13, w8, w0)
                    round(b, c, d, &e, f, g, h, &a, k[t + 15] &+ w15, &bc)
                }
                h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d; h4 &+= e; h5 &+= f; h6 &+= g; h7 &+= h
            }
            state = [h0, h1, h2, h3, h4, h5, h6, h7]
        }
    }

    /// Message schedule, in place over a 16-word window (FIPS 180-4 §6.2.2 step 1).
    @inline(__always)
    private static func load(_ base: UnsafeRawPointer, _ offset: Int) -> Word {
        Word(bigEndian: base.loadUnaligned(fromByteOffset: offset, as: Word.self))
    }

    /// One message-schedule word: `W[t] = σ1(W[t−2]) + W[t−7] + σ0(W[t−15]) + W[t−16]`.
    @inline(__always)
    private static func schedule(_ w16: Word, _ w2: Word, _ w7: Word, _ w15: Word) -> Word {
        w16 &+ Word.smallSigma0(w15) &+ w7 &+ Word.smallSigma1(w2)
    }

    /// One round (FIPS 180-4 §6.2.2 and §6.4.2, step 3) with its roles rotated by the caller. Maj(a, b, c)
    /// is computed as b ⊕ ((a ⊕ b) ∧ (b ⊕ c)); the next round's b ⊕ c is this round's a ⊕ b
    /// (its b and c are this a and b), so `bc` carries it over and each round forms one ⊕, not
    /// two.
    @inline(__always)
    private static func round(
        _ a: Word, _ b: Word, _ c: Word, _ d: inout Word,
        _ e: Word, _ f: Word, _ g: Word, _ h: inout Word, _ kw: Word, _ bc: inout Word
    ) {
        let t1 = h &+ Word.bigSigma1(e) &+ (g ^ (e & (f ^ g))) &+ kw
        let ab = a ^ b
        let majority = b ^ (ab & bc)
        bc = ab
        d &+= t1
        h = t1 &+ Word.bigSigma0(a) &+ majority
    }

    /// Writes the first `wordCount` state words big-endian.
    static func write(_ state: InlineArray<8, Word>, wordCount: Int, into digest: inout InlineArray<64, UInt8>) {
        for i in 0..<wordCount {
            for j in 0..<Word.byteCount {
                digest[Word.byteCount * i + j] = UInt8(truncatingIfNeeded: state[i] >> (8 * (Word.byteCount - 1 - j)))
            }
        }
    }
}

/// A SHA-2 word size with its rotation amounts (FIPS 180-4 §4.1.2, §4.1.3).
protocol SHA2Word: FixedWidthInteger, UnsignedInteger, Sendable {
    static var byteCount: Int { get }
    static var roundCount: Int { get }
    static var roundConstants: [Self] { get }
    static func bigSigma0(_ x: Self) -> Self
    static func bigSigma1(_ x: Self) -> Self
    static func smallSigma0(_ x: Self) -> Self
    static func smallSigma1(_ x: Self) -> Self
}

extension UInt32: SHA2Word {
    static var byteCount: Int { 4 }
    static var roundCount: Int { 64 }
    static var roundConstants: [UInt32] { sha256RoundConstants }
    // The functions of §4.1.2 nested: ROTR² ⊕ ROTR¹³ ⊕ ROTR²² = ROTR²(ROTR¹¹(ROTR⁹x ⊕ x) ⊕ x),
    // and so on, one copy of x where three separate rotations need two (x86-64 rotates in place).
    @inline(__always) static func bigSigma0(_ x: UInt32) -> UInt32 { ((x.rotatedRight(9) ^ x).rotatedRight(11) ^ x).rotatedRight(2) }
    @inline(__always) static func bigSigma1(_ x: UInt32) -> UInt32 { ((x.rotatedRight(14) ^ x).rotatedRight(5) ^ x).rotatedRight(6) }
    @inline(__always) static func smallSigma0(_ x: UInt32) -> UInt32 { (x.rotatedRight(11) ^ x).rotatedRight(7) ^ (x >> 3) }
    @inline(__always) static func smallSigma1(_ x: UInt32) -> UInt32 { (x.rotatedRight(2) ^ x).rotatedRight(17) ^ (x >> 10) }
}

extension UInt64: SHA2Word {
    static var byteCount: Int { 8 }
    static var roundCount: Int { 80 }
    static var roundConstants: [UInt64] { sha512RoundConstants }
    // §4.1.3, nested in the same way.
    @inline(__always) static func bigSigma0(_ x: UInt64) -> UInt64 { ((x.rotatedRight(5) ^ x).rotatedRight(6) ^ x).rotatedRight(28) }
    @inline(__always) static func bigSigma1(_ x: UInt64) -> UInt64 { ((x.rotatedRight(23) ^ x).rotatedRight(4) ^ x).rotatedRight(14) }
    @inline(__always) static func smallSigma0(_ x: UInt64) -> UInt64 { (x.rotatedRight(7) ^ x).rotatedRight(1) ^ (x >> 7) }
    @inline(__always) static func smallSigma1(_ x: UInt64) -> UInt64 { (x.rotatedRight(42) ^ x).rotatedRight(19) ^ (x >> 6) }
}
