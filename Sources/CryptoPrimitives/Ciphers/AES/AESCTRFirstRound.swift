// CTR's first round, cached (issue #18 item 4): the counter-mode caching of Bernstein and
// Schwabe ("New AES software speed records", INDOCRYPT 2008, §3.4), which Käsper and Schwabe
// carried over to bitsliced AES (CHES 2009).
//
// Eight consecutive counter blocks whose counters share their upper 120 bits differ only in
// byte 15, the counter's last byte c. In the first round that byte meets SubBytes alone;
// ShiftRows moves it to row 3 of column 0 and MixColumns spreads it over that column. So the
// first-round output of block c is base ⊕ Δ(c), where base is the first round of the block with
// c = 0 and Δ(c) is zero except bytes 0…3 = (d, d, 3·d, 2·d) with d = S(c ⊕ k₁₅) ⊕ S(k₁₅)
// (FIPS 197 §5.1). Δ depends on the key alone: a table of 256 words, built per call from 32
// bitsliced first-round runs (no S-box table anywhere). Eight blocks then start from eight
// reads of that table at the counter's last byte, which is public (the counter block is sent
// with the ciphertext), so no address depends on a secret, and rounds 2…10 run bitsliced as
// before: one round in ten saved. base is recomputed when the upper 120 bits change.
//
// The table and base are key material (the table gives S(c ⊕ k₁₅) for every c): they live in
// memory that is wiped when the object goes away, at the end of the call that made it.

import CryptoCore

/// The first rounds of counter blocks, from a per-key table and a per-counter base.
final class AESCTRFirstRound {
    /// Calls with fewer bytes than this use the plain path: building the table costs about as
    /// much as encrypting 1 KiB.
    static let minimumByteCount = 4096

    private let cipher: AESBitslicedConstantTime
    /// Words 0…255: Δ(c) (bytes 0…3); words 256…259: base, the first round of the block with
    /// the current upper counter bits and c = 0.
    private let storage: UnsafeMutablePointer<UInt32>
    /// The upper 120 bits (last byte zero) that base belongs to; public.
    private var baseCounter: UInt128?

    /// Builds Δ for the cipher's key: block c (zero but for byte 15 = c) through the first
    /// round, less the first round of the zero block.
    init(cipher: AESBitslicedConstantTime) {
        self.cipher = cipher
        storage = .allocate(capacity: 260)
        var blocks = InlineArray<16, UInt64>(repeating: 0)
        withUnsafeMutableBytes(of: &blocks) { raw in
            guard let base = raw.baseAddress else { return }
            var zeroRound: UInt32 = 0
            for chunk in 0..<32 {
                raw.initializeMemory(as: UInt8.self, repeating: 0)
                for k in 0..<8 { base.storeBytes(of: UInt8(8 * chunk + k), toByteOffset: 16 * k + 15, as: UInt8.self) }
                cipher.firstRound(base, base, lanes: AESTwoLanes.self)
                if chunk == 0 { zeroRound = base.load(as: UInt32.self) }  // c = 0 is block 0 of chunk 0
                for k in 0..<8 { storage[8 * chunk + k] = base.load(fromByteOffset: 16 * k, as: UInt32.self) ^ zeroRound }
            }
            SecretBytes.wipe(raw)
        }
    }

    deinit {
        SecretBytes.wipe(UnsafeMutableRawBufferPointer(start: storage, count: 260 * MemoryLayout<UInt32>.size))
        storage.deallocate()
    }

    /// Whether the eight blocks from `counter` share their upper 120 bits (no carry out of the
    /// last byte, and so no wrap of the whole counter). Public.
    static func covers(_ counter: UInt128) -> Bool { counter & 0xFF <= 248 }

    /// Writes the first-round outputs of the counter blocks counter, …, counter + 7 into the
    /// 128 bytes at `blocks`, for a counter that ``covers(_:)`` holds for.
    func writeFirstRounds(counter: UInt128, into blocks: UnsafeMutableRawPointer) {
        let upper = counter & ~UInt128(0xFF)
        if upper != baseCounter {  // public: the counter
            baseCounter = upper
            blocks.storeBytes(of: UInt64(truncatingIfNeeded: upper >> 64).bigEndian, as: UInt64.self)
            blocks.storeBytes(of: UInt64(truncatingIfNeeded: upper).bigEndian, toByteOffset: 8, as: UInt64.self)
            cipher.firstRound(blocks, blocks, lanes: AESTwoLanes.self)  // block 0 is the one wanted
            for i in 0..<4 { storage[256 + i] = blocks.load(fromByteOffset: 4 * i, as: UInt32.self) }
        }
        let w0 = storage[256], w1 = storage[257], w2 = storage[258], w3 = storage[259]
        let last = Int(truncatingIfNeeded: counter & 0xFF)  // public: indexes the table
        for k in 0..<8 {
            blocks.storeBytes(of: w0 ^ storage[last + k], toByteOffset: 16 * k, as: UInt32.self)
            blocks.storeBytes(of: w1, toByteOffset: 16 * k + 4, as: UInt32.self)
            blocks.storeBytes(of: w2, toByteOffset: 16 * k + 8, as: UInt32.self)
            blocks.storeBytes(of: w3, toByteOffset: 16 * k + 12, as: UInt32.self)
        }
    }
}
