// A deterministic random source for tests and reproducible protocol transcripts.

/// A deterministic stream of bytes: the ChaCha20 keystream (RFC 8439 §2.3) under a 32-byte
/// seed, nonce zero, counter from zero.
///
/// Use it in tests and transcripts only: the same seed always yields the same bytes, so it
/// must never stand in for ``SystemRandomSource`` in production.
public struct SeededRandomSource: RandomSource, Sendable {
    private var key: InlineArray<8, UInt32>
    private var counter: UInt32 = 0
    private var block = InlineArray<64, UInt8>(repeating: 0)
    private var used = 64

    /// A source seeded with up to 32 bytes (shorter seeds are zero-padded, longer ones truncated).
    public init(seed: [UInt8]) {
        var key = InlineArray<8, UInt32>(repeating: 0)
        for (i, byte) in seed.prefix(32).enumerated() {
            key[i / 4] |= UInt32(byte) << UInt32(8 * (i % 4))
        }
        self.key = key
    }

    /// A source seeded with a 64-bit number (little-endian in the first eight seed bytes).
    public init(seed: UInt64) {
        self.init(seed: (0..<8).map { UInt8(truncatingIfNeeded: seed >> UInt64(8 * $0)) })
    }

    /// Fills `buffer` with the next keystream bytes.
    public mutating func fill(_ buffer: UnsafeMutableRawBufferPointer) throws(CryptoError) {
        for i in 0..<buffer.count {
            if used == 64 {
                refill()
            }
            buffer[i] = block[used]
            used += 1
        }
    }

    private mutating func refill() {
        // RFC 8439 §2.3: constants, key, counter, nonce (zero).
        var state = InlineArray<16, UInt32>(repeating: 0)
        state[0] = 0x6170_7865; state[1] = 0x3320_646e; state[2] = 0x7962_2d32; state[3] = 0x6b20_6574
        for i in 0..<8 { state[4 + i] = key[i] }
        state[12] = counter
        var working = state
        for _ in 0..<10 {
            Self.quarterRound(&working, 0, 4, 8, 12); Self.quarterRound(&working, 1, 5, 9, 13)
            Self.quarterRound(&working, 2, 6, 10, 14); Self.quarterRound(&working, 3, 7, 11, 15)
            Self.quarterRound(&working, 0, 5, 10, 15); Self.quarterRound(&working, 1, 6, 11, 12)
            Self.quarterRound(&working, 2, 7, 8, 13); Self.quarterRound(&working, 3, 4, 9, 14)
        }
        for i in 0..<16 {
            let word = working[i] &+ state[i]
            for j in 0..<4 { block[4 * i + j] = UInt8(truncatingIfNeeded: word >> UInt32(8 * j)) }
        }
        counter &+= 1
        used = 0
    }

    private static func quarterRound(_ s: inout InlineArray<16, UInt32>, _ a: Int, _ b: Int, _ c: Int, _ d: Int) {
        s[a] &+= s[b]; s[d] ^= s[a]; s[d] = s[d].rotatedLeft(16)
        s[c] &+= s[d]; s[b] ^= s[c]; s[b] = s[b].rotatedLeft(12)
        s[a] &+= s[b]; s[d] ^= s[a]; s[d] = s[d].rotatedLeft(8)
        s[c] &+= s[d]; s[b] ^= s[c]; s[b] = s[b].rotatedLeft(7)
    }
}
