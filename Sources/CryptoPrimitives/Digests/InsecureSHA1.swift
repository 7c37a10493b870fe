// SHA-1 (FIPS 180-4 §6.1), for the legacy uses that remain safe: HMAC-SHA1, PBKDF2-HMAC-SHA1
// (PowerAuth's knowledge-key wrapping), OAEP and RSA signature verification with SHA-1.

import CryptoCore

/// Namespace for algorithms that must not be used to build anything new.
public enum Insecure {
    /// SHA-1. Collisions are practical: use it only inside HMAC, PBKDF2, OAEP/MGF1 or to verify
    /// legacy signatures, never as a collision-resistant hash.
    public struct SHA1: HashFunction {
        /// 64 bytes.
        public static var blockByteCount: Int { 64 }
        /// 20 bytes.
        public static var byteCount: Int { 20 }
        /// The digest type.
        public typealias Digest = HashDigest<SHA1>

        private var engine = MerkleDamgardHasher<SHA1Compression>()

        /// A fresh SHA-1 state.
        public init() {}

        /// Absorbs `bytes`.
        public mutating func update(bufferPointer bytes: UnsafeRawBufferPointer) { engine.update(bytes) }

        /// The digest of everything absorbed so far.
        public func finalize() -> Digest { Digest(storage: engine.finalize()) }
    }
}

struct SHA1Compression: MerkleDamgardCompression {
    static var initialState: InlineArray<5, UInt32> { [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0] }
    static var blockByteCount: Int { 64 }
    static var lengthFieldByteCount: Int { 8 }
    static var digestByteCount: Int { 20 }

    /// FIPS 180-4 §6.1.2.
    static func compress(_ state: inout InlineArray<5, UInt32>, blocks: UnsafeRawBufferPointer) {
        guard let base = blocks.baseAddress else { return }
        var h0 = state[0], h1 = state[1], h2 = state[2], h3 = state[3], h4 = state[4]
        for offset in stride(from: 0, to: blocks.count, by: 64) {
            var w = InlineArray<16, UInt32>(repeating: 0)
            for i in 0..<16 {
                w[unchecked: i] = UInt32(bigEndian: base.loadUnaligned(fromByteOffset: offset + 4 * i, as: UInt32.self))
            }
            var a = h0, b = h1, c = h2, d = h3, e = h4
            for t in 0..<80 {
                if t >= 16 {
                    let x = w[unchecked: (t - 3) & 15] ^ w[unchecked: (t - 8) & 15] ^ w[unchecked: (t - 14) & 15] ^ w[unchecked: t & 15]
                    w[unchecked: t & 15] = x.rotatedLeft(1)
                }
                let f: UInt32
                let k: UInt32
                switch t {
                case 0..<20: f = d ^ (b & (c ^ d)); k = 0x5A82_7999
                case 20..<40: f = b ^ c ^ d; k = 0x6ED9_EBA1
                case 40..<60: f = (b & c) | (d & (b | c)); k = 0x8F1B_BCDC
                default: f = b ^ c ^ d; k = 0xCA62_C1D6
                }
                let temp = a.rotatedLeft(5) &+ f &+ e &+ k &+ w[unchecked: t & 15]
                e = d; d = c; c = b.rotatedLeft(30); b = a; a = temp
            }
            h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d; h4 &+= e
        }
        state = [h0, h1, h2, h3, h4]
    }

    static func write(_ state: InlineArray<5, UInt32>, into digest: inout InlineArray<64, UInt8>) {
        for i in 0..<5 {
            for j in 0..<4 {
                digest[4 * i + j] = UInt8(truncatingIfNeeded: state[i] >> UInt32(24 - 8 * j))
            }
        }
    }
}
