// The ChaCha20 stream cipher with a 96-bit nonce and a 32-bit block counter (RFC 8439 §2.3,
// §2.4). Additions, XORs and rotations of 32-bit words only: constant time by construction.

import CryptoCore

/// ChaCha20's key, nonce and counter, and its keystream XORed over buffers in place.
package struct ChaCha20 {
    /// Key words 4…11 and nonce words 13…15 of the initial state (RFC 8439 §2.3).
    private var key: InlineArray<8, UInt32>
    private let nonce: (UInt32, UInt32, UInt32)

    /// A cipher for a 32-byte key and a 12-byte nonce (the caller has checked the lengths).
    package init(key: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer) {
        var words = InlineArray<8, UInt32>(repeating: 0)
        for i in 0..<8 { words[i] = UInt32(littleEndian: key.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)) }
        self.key = words
        self.nonce = (UInt32(littleEndian: nonce.loadUnaligned(as: UInt32.self)),
                      UInt32(littleEndian: nonce.loadUnaligned(fromByteOffset: 4, as: UInt32.self)),
                      UInt32(littleEndian: nonce.loadUnaligned(fromByteOffset: 8, as: UInt32.self)))
    }

    /// Zeroes the key words.
    mutating func wipe() {
        for i in 0..<8 { key[i] = 0 }
    }

    /// The 64-byte block for `counter` (RFC 8439 §2.3.2), written to the first 64 bytes of
    /// `output`.
    package func block(counter: UInt32, into output: UnsafeMutableRawBufferPointer) {
        // "expand 32-byte k" (§2.3).
        var x0: UInt32 = 0x6170_7865, x1: UInt32 = 0x3320_646E, x2: UInt32 = 0x7962_2D32, x3: UInt32 = 0x6B20_6574
        var x4 = key[0], x5 = key[1], x6 = key[2], x7 = key[3]
        var x8 = key[4], x9 = key[5], x10 = key[6], x11 = key[7]
        var x12 = counter, x13 = nonce.0, x14 = nonce.1, x15 = nonce.2
        for _ in 0..<10 {
            // §2.3: column rounds, then diagonal rounds.
            Self.quarterRound(&x0, &x4, &x8, &x12)
            Self.quarterRound(&x1, &x5, &x9, &x13)
            Self.quarterRound(&x2, &x6, &x10, &x14)
            Self.quarterRound(&x3, &x7, &x11, &x15)
            Self.quarterRound(&x0, &x5, &x10, &x15)
            Self.quarterRound(&x1, &x6, &x11, &x12)
            Self.quarterRound(&x2, &x7, &x8, &x13)
            Self.quarterRound(&x3, &x4, &x9, &x14)
        }
        // §2.3: add the initial state, serialise little-endian.
        let words: InlineArray<16, UInt32> = [
            x0 &+ 0x6170_7865, x1 &+ 0x3320_646E, x2 &+ 0x7962_2D32, x3 &+ 0x6B20_6574,
            x4 &+ key[0], x5 &+ key[1], x6 &+ key[2], x7 &+ key[3],
            x8 &+ key[4], x9 &+ key[5], x10 &+ key[6], x11 &+ key[7],
            x12 &+ counter, x13 &+ nonce.0, x14 &+ nonce.1, x15 &+ nonce.2,
        ]
        for i in 0..<16 { output.storeBytes(of: words[i].littleEndian, toByteOffset: 4 * i, as: UInt32.self) }
    }

    /// XORs the keystream from block `counter` on into `text` (RFC 8439 §2.4). The caller
    /// keeps the counter from wrapping (at most 2³² − counter blocks).
    func apply(to text: UnsafeMutableRawBufferPointer, counter: UInt32) {
        guard let base = text.baseAddress else { return }
        var counter = counter
        var position = 0
        var keystream = InlineArray<8, UInt64>(repeating: 0)
        withUnsafeMutableBytes(of: &keystream) { raw in
            guard let stream = raw.baseAddress else { return }
            while position < text.count {
                block(counter: counter, into: raw)
                counter &+= 1
                let count = min(64, text.count - position)  // public: a length
                if count == 64 {
                    for i in 0..<8 {
                        let word = base.loadUnaligned(fromByteOffset: position + 8 * i, as: UInt64.self) ^ stream.load(fromByteOffset: 8 * i, as: UInt64.self)
                        base.storeBytes(of: word, toByteOffset: position + 8 * i, as: UInt64.self)
                    }
                } else {
                    for i in 0..<count {
                        let byte = base.load(fromByteOffset: position + i, as: UInt8.self) ^ stream.load(fromByteOffset: i, as: UInt8.self)
                        base.storeBytes(of: byte, toByteOffset: position + i, as: UInt8.self)
                    }
                }
                position += count
            }
            SecretBytes.wipe(raw)
        }
    }

    /// The quarter round (RFC 8439 §2.1).
    @inline(__always)
    private static func quarterRound(_ a: inout UInt32, _ b: inout UInt32, _ c: inout UInt32, _ d: inout UInt32) {
        a &+= b; d ^= a; d = d.rotatedLeft(16)
        c &+= d; b ^= c; b = b.rotatedLeft(12)
        a &+= b; d ^= a; d = d.rotatedLeft(8)
        c &+= d; b ^= c; b = b.rotatedLeft(7)
    }
}
