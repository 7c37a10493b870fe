// CTR's first round, cached: the counter-mode caching of Bernstein and
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
    /// Δ(c), bytes 0…3, for c = 0…255.
    private let table: UnsafeMutablePointer<UInt32>
    /// The bitsliced planes of eight copies of base, the first round of the block with the
    /// current upper counter bits and c = 0 (plane i in words 2i, 2i + 1).
    private let basePlanes: UnsafeMutablePointer<UInt64>
    /// The upper 120 bits (last byte zero) that base belongs to; public.
    private var baseCounter: UInt128?

    /// Builds Δ for the cipher's key: block c (zero but for byte 15 = c) through the first
    /// round, less the first round of the zero block.
    init(cipher: AESBitslicedConstantTime) {
        self.cipher = cipher
        table = .allocate(capacity: 256)
        basePlanes = .allocate(capacity: 16)
        var blocks = InlineArray<16, UInt64>(repeating: 0)
        withUnsafeMutableBytes(of: &blocks) { raw in
            guard let base = raw.baseAddress else { return }
            var zeroRound: UInt32 = 0
            for chunk in 0..<32 {
                raw.initializeMemory(as: UInt8.self, repeating: 0)
                for k in 0..<8 { base.storeBytes(of: UInt8(8 * chunk + k), toByteOffset: 16 * k + 15, as: UInt8.self) }
                cipher.firstRound(base, base, lanes: AESTwoLanes.self)
                if chunk == 0 { zeroRound = base.load(as: UInt32.self) }  // c = 0 is block 0 of chunk 0
                for k in 0..<8 { table[8 * chunk + k] = base.load(fromByteOffset: 16 * k, as: UInt32.self) ^ zeroRound }
            }
            SecretBytes.wipe(raw)
        }
    }

    deinit {
        SecretBytes.wipe(UnsafeMutableRawBufferPointer(start: table, count: 256 * MemoryLayout<UInt32>.size))
        SecretBytes.wipe(UnsafeMutableRawBufferPointer(start: basePlanes, count: 16 * MemoryLayout<UInt64>.size))
        table.deallocate()
        basePlanes.deallocate()
    }

    /// Whether the eight blocks from `counter` share their upper 120 bits (no carry out of the
    /// last byte, and so no wrap of the whole counter). Public.
    static func covers(_ counter: UInt128) -> Bool { counter & 0xFF <= 248 }

    /// The first-round outputs of the counter blocks counter, …, counter + 7, in bitsliced
    /// form, for a counter that ``covers(_:)`` holds for. Transposition is linear, so this is
    /// the cached bitsliced base (eight copies) ⊕ the bitsliced differences, which are zero
    /// beyond each block's first word. `scratch` (128 bytes) is used when base changes.
    func firstRounds(counter: UInt128, scratch blocks: UnsafeMutableRawPointer) -> AESBitslicedState<AESTwoLanes> {
        let upper = counter & ~UInt128(0xFF)
        if upper != baseCounter {  // public: the counter
            baseCounter = upper
            for k in 0..<8 {
                blocks.storeBytes(of: UInt64(truncatingIfNeeded: upper >> 64).bigEndian, toByteOffset: 16 * k, as: UInt64.self)
                blocks.storeBytes(of: UInt64(truncatingIfNeeded: upper).bigEndian, toByteOffset: 16 * k + 8, as: UInt64.self)
            }
            cipher.firstRound(blocks, blocks, lanes: AESTwoLanes.self)  // eight copies of base
            let state = AESBitslicedState<AESTwoLanes>.bitsliced(from: blocks)
            let planes: InlineArray<8, AESTwoLanes> = [state.q0, state.q1, state.q2, state.q3, state.q4, state.q5, state.q6, state.q7]
            for i in 0..<8 {
                basePlanes[2 * i] = planes[i].lane(0)
                basePlanes[2 * i + 1] = planes[i].lane(1)
            }
            SecretBytes.wipe(UnsafeMutableRawBufferPointer(start: blocks, count: 128))
        }
        let last = Int(truncatingIfNeeded: counter & 0xFF)  // public: indexes the table
        let table = table, p = basePlanes
        let differences = AESBitslicedState<AESTwoLanes>.bitsliced(firstWords: { table[last + $0] })
        let base = AESBitslicedState<AESTwoLanes>(
            q0: AESTwoLanes(lanes: { p[$0] }), q1: AESTwoLanes(lanes: { p[2 + $0] }),
            q2: AESTwoLanes(lanes: { p[4 + $0] }), q3: AESTwoLanes(lanes: { p[6 + $0] }),
            q4: AESTwoLanes(lanes: { p[8 + $0] }), q5: AESTwoLanes(lanes: { p[10 + $0] }),
            q6: AESTwoLanes(lanes: { p[12 + $0] }), q7: AESTwoLanes(lanes: { p[14 + $0] }))
        return differences ^ base
    }
}
