// Constant-time AES: a bitsliced implementation after BearSSL's aes_ct64 that encrypts or
// decrypts four or eight blocks at once with no table lookup and no branch on key or data.

import CryptoCore

/// An expanded AES key and the four-block bitsliced engine (FIPS 197).
///
/// The round keys are stored in bitsliced form, already replicated over the four lanes, in
/// memory that is wiped when the last reference goes away.
final class AESBitslicedConstantTime: @unchecked Sendable {
    /// 10, 12 or 14.
    let rounds: Int
    /// The encryption round keys, fixsliced (the fixslicing section of `AESBitslicedRounds`): round key R ≥ 1 with
    /// ShiftRows⁻¹ applied (R − 1) mod 4 times; round key 0 as it is.
    private let roundKeys: UnsafeMutablePointer<UInt64>
    /// The decryption round keys in the order used, fixsliced: entry t is round key Nr − t
    /// with ShiftRows applied t mod 4 times.
    private let decryptionKeys: UnsafeMutablePointer<UInt64>
    /// 16 words a round key: each of the eight planes twice (`addRoundKey`).
    private var roundKeyWordCount: Int { 16 * (rounds + 1) }

    /// Expands a 16-, 24- or 32-byte key (FIPS 197 §5.2); other lengths throw
    /// `CryptoError.incorrectLength`.
    package init(key: UnsafeRawBufferPointer) throws(CryptoError) {
        guard [16, 24, 32].contains(key.count) else { throw .incorrectLength }
        let nk = key.count / 4
        rounds = nk + 6
        let wordCount = 4 * (rounds + 1)
        var schedule = [UInt32](repeating: 0, count: wordCount)
        for i in 0..<nk {
            schedule[i] = UInt32(littleEndian: key.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self))
        }
        let roundConstants: [UInt32] = [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1B, 0x36]
        for i in nk..<wordCount {
            var temp = schedule[i - 1]
            if i % nk == 0 {
                // RotWord then SubWord then Rcon, on little-endian words.
                temp = Self.substituteWord((temp << 24) | (temp >> 8)) ^ roundConstants[i / nk - 1]
            } else if nk > 6 && i % nk == 4 {
                temp = Self.substituteWord(temp)
            }
            schedule[i] = schedule[i - nk] ^ temp
        }
        let byteCount = 128 * (rounds + 1)
        roundKeys = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 16).bindMemory(to: UInt64.self, capacity: byteCount / 8)
        decryptionKeys = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 16).bindMemory(to: UInt64.self, capacity: byteCount / 8)
        for round in 0...rounds {
            let j = 4 * round
            var state = Self.load(schedule[j], schedule[j + 1], schedule[j + 2], schedule[j + 3])
            state.orthogonalize()
            // Decryption applies the key at step t = Nr − round, t mod 4 ShiftRows behind; every
            // key but round 0's carries the 0x63 of the InvSubBytes after it
            // (`inverseSubstituteBytesLessConstant`).
            var decryption = state
            decryption.shiftRows(times: rounds - round)
            Self.store(decryption, to: decryptionKeys + 16 * (rounds - round), addingSboxConstant: round != 0)
            // Encryption runs (round − 1) mod 4 ShiftRows ahead from round 2 on; every key but
            // round 0's carries the 0x63 of the SubBytes before it (`substituteBytes(addingConstant:)`).
            if round >= 2 { state.shiftRows(times: 1 - round) }
            Self.store(state, to: roundKeys + 16 * round, addingSboxConstant: round != 0)
        }
        schedule.withUnsafeMutableBytes { SecretBytes.wipe($0) }
    }

    deinit {
        SecretBytes.wipe(UnsafeMutableRawBufferPointer(start: roundKeys, count: 8 * roundKeyWordCount))
        SecretBytes.wipe(UnsafeMutableRawBufferPointer(start: decryptionKeys, count: 8 * roundKeyWordCount))
        UnsafeMutableRawPointer(roundKeys).deallocate()
        UnsafeMutableRawPointer(decryptionKeys).deallocate()
    }

    /// Writes one bitsliced round key's eight planes, each twice, XORed with the S-box
    /// constant 0x63 in every byte (planes 0, 1, 5 and 6 all ones) if `addingSboxConstant`.
    private static func store(_ state: AESBitslicedState<UInt64>, to base: UnsafeMutablePointer<UInt64>, addingSboxConstant: Bool) {
        let constant: UInt64 = addingSboxConstant ? ~0 : 0  // public: the round number
        // Written straight into the wiped key buffer: an array literal here would be a heap
        // copy of the round key that nothing wipes.
        put(state.q0 ^ constant, plane: 0, base)
        put(state.q1 ^ constant, plane: 1, base)
        put(state.q2, plane: 2, base)
        put(state.q3, plane: 3, base)
        put(state.q4, plane: 4, base)
        put(state.q5 ^ constant, plane: 5, base)
        put(state.q6 ^ constant, plane: 6, base)
        put(state.q7, plane: 7, base)
    }

    /// Stores `value` as plane `plane` of the round key at `base`, twice (both lanes).
    @inline(__always)
    private static func put(_ value: UInt64, plane: Int, _ base: UnsafeMutablePointer<UInt64>) {
        base[2 * plane] = value
        base[2 * plane + 1] = value
    }

    /// One round key's four words, placed in all four block positions of a lane.
    private static func load(_ w0: UInt32, _ w1: UInt32, _ w2: UInt32, _ w3: UInt32) -> AESBitslicedState<UInt64> {
        let (a, b) = AESInterleave.spread(w0, w1, w2, w3)
        return AESBitslicedState(q0: a, q1: a, q2: a, q3: a, q4: b, q5: b, q6: b, q7: b)
    }

    /// SubWord (FIPS 197 §5.2) through the bitsliced S-box.
    private static func substituteWord(_ word: UInt32) -> UInt32 {
        var state = AESBitslicedState<UInt64>()
        state.q0 = UInt64(word)
        state.orthogonalize()
        state.substituteBytes()
        state.orthogonalize()
        return UInt32(truncatingIfNeeded: state.q0)
    }

    /// Encrypts `4 · Word.laneCount` 16-byte blocks at `input` into `output` (which may alias
    /// it): four blocks with `UInt64` lanes, eight with `SIMD2<UInt64>`.
    @inline(__always)
    func encrypt<Word: AESBitslicedWord>(_ input: UnsafeRawPointer, _ output: UnsafeMutableRawPointer, lanes _: Word.Type) {
        var state = AESBitslicedState<Word>.bitsliced(from: input)
        state.addRoundKey(roundKeys)
        finishEncryption(&state, from: 1)
        state.store(to: output)
    }

    /// The first round alone (AddRoundKey 0, SubBytes, ShiftRows, MixColumns, AddRoundKey 1)
    /// of `4 · Word.laneCount` blocks, in byte order in and out: CTR's first-round cache
    /// (`AESCTRFirstRound`) is made of it.
    @inline(__always)
    func firstRound<Word: AESBitslicedWord>(_ input: UnsafeRawPointer, _ output: UnsafeMutableRawPointer, lanes _: Word.Type) {
        var state = AESBitslicedState<Word>.bitsliced(from: input)
        state.addRoundKey(roundKeys)
        state.substituteBytes(addingConstant: false)  // round key 1 carries the constant
        state.shiftRows()
        state.mixColumns()
        state.addRoundKey(roundKeys + 16)
        state.store(to: output)
    }

    /// Rounds 2…Nr of blocks whose first round ``firstRound(_:_:lanes:)`` has done, given in
    /// bitsliced form (together they are ``encrypt(_:_:lanes:)``), XORed into the
    /// `64 · Word.laneCount` bytes at `output` (CTR: the keystream never reaches memory).
    @inline(__always)
    func encryptAfterFirstRound<Word: AESBitslicedWord>(_ state: AESBitslicedState<Word>, xoringInto output: UnsafeMutableRawPointer) {
        var state = state
        finishEncryption(&state, from: 2)
        state.store(to: output, xoring: true)
    }

    /// Encrypts `4 · Word.laneCount` blocks at `input` and XORs them into the bytes at `output`.
    @inline(__always)
    func encrypt<Word: AESBitslicedWord>(_ input: UnsafeRawPointer, xoringInto output: UnsafeMutableRawPointer, lanes _: Word.Type) {
        var state = AESBitslicedState<Word>.bitsliced(from: input)
        state.addRoundKey(roundKeys)
        finishEncryption(&state, from: 1)
        state.store(to: output, xoring: true)
    }

    /// Rounds `first`…Nr − 1 and the final round (no MixColumns), FIPS 197 §5.1; `first` is
    /// 1 or 2 (a constant at every call site). Round 1 keeps its ShiftRows; from round 2 on the
    /// rounds are fixsliced (the fixslicing section of `AESBitslicedRounds`): no ShiftRows, MixColumns conjugated by the
    /// ShiftRows left out so far, and one correction after the last round key.
    @inline(__always)
    private func finishEncryption<Word: AESBitslicedWord>(_ state: inout AESBitslicedState<Word>, from first: Int) {
        if first == 1 {
            state.substituteBytes(addingConstant: false)
            state.shiftRows()
            state.mixColumns()
            state.addRoundKey(roundKeys + 16)
        }
        for round in 2..<rounds {
            state.substituteBytes(addingConstant: false)
            state.mixColumns(fixslicedBy: round - 1)  // public: the round number
            state.addRoundKey(roundKeys + 16 * round)
        }
        state.substituteBytes(addingConstant: false)
        state.addRoundKey(roundKeys + 16 * rounds)
        state.shiftRows(times: rounds - 1)
    }

    /// Decrypts `4 · Word.laneCount` blocks (FIPS 197 §5.3, the inverse cipher).
    @inline(__always)
    func decrypt<Word: AESBitslicedWord>(_ input: UnsafeRawPointer, _ output: UnsafeMutableRawPointer, lanes _: Word.Type) {
        // Fixsliced (the fixslicing section of `AESBitslicedRounds`): after step t the state is t InvShiftRows behind, which
        // the keys and the conjugated InvMixColumns account for, and one correction at the end.
        var state = AESBitslicedState<Word>.bitsliced(from: input)
        state.addRoundKey(decryptionKeys)
        for step in 1..<rounds {
            state.inverseSubstituteBytesLessConstant()
            state.addRoundKey(decryptionKeys + 16 * step)
            state.inverseMixColumns(fixslicedBy: -step)  // public: the round number
        }
        state.inverseSubstituteBytesLessConstant()
        state.addRoundKey(decryptionKeys + 16 * rounds)
        state.shiftRows(times: -rounds)
        state.store(to: output)
    }
}

extension AESBitslicedState {
    /// Loads `4 · Word.laneCount` blocks and converts them to bitsliced order.
    @inline(__always)
    static func bitsliced(from input: UnsafeRawPointer) -> Self {
        func word(_ i: Int) -> UInt32 { UInt32(littleEndian: input.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)) }
        var planes = InlineArray<16, UInt64>(repeating: 0)
        for lane in 0..<Word.laneCount {
            for block in 0..<4 {
                let w = 16 * lane + 4 * block
                let (a, b) = AESInterleave.spread(word(w), word(w + 1), word(w + 2), word(w + 3))
                planes[8 * lane + block] = a
                planes[8 * lane + block + 4] = b
            }
        }
        var state = Self(
            q0: Word(lanes: { planes[8 * $0] }), q1: Word(lanes: { planes[8 * $0 + 1] }),
            q2: Word(lanes: { planes[8 * $0 + 2] }), q3: Word(lanes: { planes[8 * $0 + 3] }),
            q4: Word(lanes: { planes[8 * $0 + 4] }), q5: Word(lanes: { planes[8 * $0 + 5] }),
            q6: Word(lanes: { planes[8 * $0 + 6] }), q7: Word(lanes: { planes[8 * $0 + 7] }))
        state.orthogonalize()
        return state
    }

    /// The bitsliced form of `4 · Word.laneCount` blocks that are zero except their first
    /// four bytes, `firstWords(i)` for block i (read as a little-endian word): only a quarter
    /// of the spreading, and the four planes the zero words fill stay constant zero for the
    /// transposition (CTR's first-round differences, `AESCTRFirstRound`).
    @inline(__always)
    static func bitsliced(firstWords: (Int) -> UInt32) -> Self {
        var planes = InlineArray<8, UInt64>(repeating: 0)
        for lane in 0..<Word.laneCount {
            for block in 0..<4 {
                planes[4 * lane + block] = AESInterleave.spread(firstWords(4 * lane + block), 0, 0, 0).0
            }
        }
        let none = Word(broadcasting: 0)
        var state = Self(
            q0: Word(lanes: { planes[4 * $0] }), q1: Word(lanes: { planes[4 * $0 + 1] }),
            q2: Word(lanes: { planes[4 * $0 + 2] }), q3: Word(lanes: { planes[4 * $0 + 3] }),
            q4: none, q5: none, q6: none, q7: none)
        state.orthogonalize()
        return state
    }

    /// Converts back to byte order and stores `4 · Word.laneCount` blocks, or XORs them into
    /// the bytes already there (`xoring`, a constant at every call site; unaligned is fine).
    @inline(__always)
    func store(to output: UnsafeMutableRawPointer, xoring: Bool = false) {
        var state = self
        state.orthogonalize()
        let planes: InlineArray<8, Word> = [state.q0, state.q1, state.q2, state.q3, state.q4, state.q5, state.q6, state.q7]
        for lane in 0..<Word.laneCount {
            for block in 0..<4 {
                let words = AESInterleave.gather(planes[block].lane(lane), planes[block + 4].lane(lane))
                let offset = 64 * lane + 16 * block
                // Two 8-byte stores (the same bytes as four little-endian words): the modes read
                // the output back in 8-byte words, and a load that spans two smaller stores
                // cannot be forwarded from the store buffer (a stall of ~10 cycles each).
                var low = (UInt64(words.0) | UInt64(words.1) << 32).littleEndian
                var high = (UInt64(words.2) | UInt64(words.3) << 32).littleEndian
                if xoring {
                    low ^= output.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    high ^= output.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)
                }
                output.storeBytes(of: low, toByteOffset: offset, as: UInt64.self)
                output.storeBytes(of: high, toByteOffset: offset + 8, as: UInt64.self)
            }
        }
    }
}
