// The linear layers of bitsliced AES and the conversion between byte order and bitsliced
// order, after BearSSL's aes_ct64 (64-bit lanes of four blocks each). All operations are
// fixed sequences of shifts, masks and XORs: constant time by construction.

import CryptoCore

extension AESBitslicedState {
    /// ShiftRows (FIPS 197 §5.1.2) on the bitsliced layout.
    @inline(__always)
    package mutating func shiftRows() {
        q0 = Self.shiftRows(q0); q1 = Self.shiftRows(q1); q2 = Self.shiftRows(q2); q3 = Self.shiftRows(q3)
        q4 = Self.shiftRows(q4); q5 = Self.shiftRows(q5); q6 = Self.shiftRows(q6); q7 = Self.shiftRows(q7)
    }

    /// InvShiftRows (FIPS 197 §5.3.1).
    @inline(__always)
    package mutating func inverseShiftRows() {
        q0 = Self.inverseShiftRows(q0); q1 = Self.inverseShiftRows(q1); q2 = Self.inverseShiftRows(q2); q3 = Self.inverseShiftRows(q3)
        q4 = Self.inverseShiftRows(q4); q5 = Self.inverseShiftRows(q5); q6 = Self.inverseShiftRows(q6); q7 = Self.inverseShiftRows(q7)
    }

    @inline(__always)
    private static func shiftRows(_ x: Word) -> Word {
        (x & Word(broadcasting: 0x0000_0000_0000_FFFF))
            | ((x & Word(broadcasting: 0x0000_0000_FFF0_0000)) &>> 4) | ((x & Word(broadcasting: 0x0000_0000_000F_0000)) &<< 12)
            | ((x & Word(broadcasting: 0x0000_FF00_0000_0000)) &>> 8) | ((x & Word(broadcasting: 0x0000_00FF_0000_0000)) &<< 8)
            | ((x & Word(broadcasting: 0xF000_0000_0000_0000)) &>> 12) | ((x & Word(broadcasting: 0x0FFF_0000_0000_0000)) &<< 4)
    }

    @inline(__always)
    private static func inverseShiftRows(_ x: Word) -> Word {
        (x & Word(broadcasting: 0x0000_0000_0000_FFFF))
            | ((x & Word(broadcasting: 0x0000_0000_0FFF_0000)) &<< 4) | ((x & Word(broadcasting: 0x0000_0000_F000_0000)) &>> 12)
            | ((x & Word(broadcasting: 0x0000_00FF_0000_0000)) &<< 8) | ((x & Word(broadcasting: 0x0000_FF00_0000_0000)) &>> 8)
            | ((x & Word(broadcasting: 0x000F_0000_0000_0000)) &<< 12) | ((x & Word(broadcasting: 0xFFF0_0000_0000_0000)) &>> 4)
    }

    /// Rotation by 16 bits moves each byte to the next row of its column; by 32, two rows
    /// (as lane shuffles for vectors, see `AESTwoLanes.rotatedRight16`).
    @inline(__always) private static func nextRow(_ x: Word) -> Word { x.rotatedRight16() }
    @inline(__always) private static func twoRows(_ x: Word) -> Word { x.rotatedRight32() }

    /// Multiplication by x (xtime) in GF(2⁸) on bitsliced bytes: a shift of the bit planes
    /// with the reduction polynomial x⁸ + x⁴ + x³ + x + 1 folded into planes 0, 1, 3 and 4.
    @inline(__always)
    private static func times2(_ s: Self) -> Self {
        Self(q0: s.q7, q1: s.q0 ^ s.q7, q2: s.q1, q3: s.q2 ^ s.q7,
             q4: s.q3 ^ s.q7, q5: s.q4, q6: s.q5, q7: s.q6)
    }

    @inline(__always)
    private static func map(_ s: Self, _ f: (Word) -> Word) -> Self {
        Self(q0: f(s.q0), q1: f(s.q1), q2: f(s.q2), q3: f(s.q3),
             q4: f(s.q4), q5: f(s.q5), q6: f(s.q6), q7: f(s.q7))
    }

    @inline(__always)
    static func ^ (a: Self, b: Self) -> Self {
        Self(q0: a.q0 ^ b.q0, q1: a.q1 ^ b.q1, q2: a.q2 ^ b.q2, q3: a.q3 ^ b.q3,
             q4: a.q4 ^ b.q4, q5: a.q5 ^ b.q5, q6: a.q6 ^ b.q6, q7: a.q7 ^ b.q7)
    }

    /// MixColumns (FIPS 197 §5.1.3): out = 2·a₀ ⊕ 3·a₁ ⊕ a₂ ⊕ a₃ = 2·(a₀ ⊕ a₁) ⊕ a₁ ⊕ rot²(a₀ ⊕ a₁),
    /// where aᵢ is the byte i rows further down the column.
    @inline(__always)
    package mutating func mixColumns() {
        mixColumns(nextRow: Self.nextRow, twoRows: Self.twoRows)
    }

    /// MixColumns with the byte one row further down the column (and two rows) given as
    /// permutations of the planes: fixslicing passes conjugated ones (the fixslicing section of `AESBitslicedRounds`).
    @inline(__always)
    package mutating func mixColumns(nextRow: (Word) -> Word, twoRows: (Word) -> Word) {
        let a1 = Self.map(self, nextRow)
        let sum = self ^ a1
        self = Self.times2(sum) ^ a1 ^ Self.map(sum, twoRows)
    }

    /// InvMixColumns (FIPS 197 §5.3.3) as MixColumns after a product by 04·x² + 05: the
    /// inverse column polynomial 0B·x³ + 0D·x² + 09·x + 0E equals c(x)·(04·x² + 05) mod x⁴ + 1
    /// (Daemen and Rijmen, "The Design of Rijndael", §4.1.3), and that product is
    /// aᵢ ⊕ 4·(aᵢ ⊕ aᵢ₊₂) — one two-row rotation, two xtimes and two XORs before the
    /// forward MixColumns, about half the work of the direct 14·a₀ ⊕ 11·a₁ ⊕ 13·a₂ ⊕ 9·a₃.
    @inline(__always)
    package mutating func inverseMixColumns() {
        inverseMixColumns(nextRow: Self.nextRow, twoRows: Self.twoRows)
    }

    /// InvMixColumns with the row permutations given, as ``mixColumns(nextRow:twoRows:)``.
    ///
    /// With N the next-row permutation, e = a ⊕ N²a and a′ = a ⊕ 4·e (the product above),
    /// N²e = e gives N²a′ = a′ ⊕ e and N³a′ = Na′ ⊕ Ne, so MC(a′) = 2a′ ⊕ 3Na′ ⊕ N²a′ ⊕ N³a′
    /// = a′ ⊕ u ⊕ N(u) with u = 2·a′ ⊕ e: one two-row and one one-row permutation of the
    /// planes in place of two two-row ones and a one-row one.
    @inline(__always)
    package mutating func inverseMixColumns(nextRow: (Word) -> Word, twoRows: (Word) -> Word) {
        let e = self ^ Self.map(self, twoRows)
        let product = self ^ Self.times2(Self.times2(e))
        let u = Self.times2(product) ^ e
        self = product ^ u ^ Self.map(u, nextRow)
    }

    /// AddRoundKey (FIPS 197 §5.1.4) with an expanded bitsliced round key: 16 words, 16-byte
    /// aligned, each plane twice (so two lanes take it with one aligned load, no broadcast).
    @inline(__always)
    mutating func addRoundKey(_ key: UnsafePointer<UInt64>) {
        q0 = q0 ^ Word(roundKeyPlane: key); q1 = q1 ^ Word(roundKeyPlane: key + 2)
        q2 = q2 ^ Word(roundKeyPlane: key + 4); q3 = q3 ^ Word(roundKeyPlane: key + 6)
        q4 = q4 ^ Word(roundKeyPlane: key + 8); q5 = q5 ^ Word(roundKeyPlane: key + 10)
        q6 = q6 ^ Word(roundKeyPlane: key + 12); q7 = q7 ^ Word(roundKeyPlane: key + 14)
    }

    /// The 8×8 bit-matrix transposition between byte order and bitsliced order (an involution).
    @inline(__always)
    mutating func orthogonalize() {
        Self.swap(&q0, &q1, Word(broadcasting: 0x5555_5555_5555_5555), 1); Self.swap(&q2, &q3, Word(broadcasting: 0x5555_5555_5555_5555), 1)
        Self.swap(&q4, &q5, Word(broadcasting: 0x5555_5555_5555_5555), 1); Self.swap(&q6, &q7, Word(broadcasting: 0x5555_5555_5555_5555), 1)
        Self.swap(&q0, &q2, Word(broadcasting: 0x3333_3333_3333_3333), 2); Self.swap(&q1, &q3, Word(broadcasting: 0x3333_3333_3333_3333), 2)
        Self.swap(&q4, &q6, Word(broadcasting: 0x3333_3333_3333_3333), 2); Self.swap(&q5, &q7, Word(broadcasting: 0x3333_3333_3333_3333), 2)
        Self.swap(&q0, &q4, Word(broadcasting: 0x0F0F_0F0F_0F0F_0F0F), 4); Self.swap(&q1, &q5, Word(broadcasting: 0x0F0F_0F0F_0F0F_0F0F), 4)
        Self.swap(&q2, &q6, Word(broadcasting: 0x0F0F_0F0F_0F0F_0F0F), 4); Self.swap(&q3, &q7, Word(broadcasting: 0x0F0F_0F0F_0F0F_0F0F), 4)
    }

    @inline(__always)
    private static func swap(_ x: inout Word, _ y: inout Word, _ low: Word, _ shift: UInt64) {
        let a = x, b = y
        x = (a & low) | ((b & low) &<< shift)
        y = ((a & ~low) &>> shift) | (b & ~low)
    }
}

/// Conversion between four little-endian block words and the two 64-bit words of one block
/// lane, before and after `orthogonalize` (BearSSL's interleave_in/interleave_out).
enum AESInterleave {
    /// Spreads one 16-byte block (four little-endian words) over two words, leaving room for
    /// the other three blocks' bytes.
    @inline(__always)
    static func spread(_ w0: UInt32, _ w1: UInt32, _ w2: UInt32, _ w3: UInt32) -> (UInt64, UInt64) {
        var x0 = UInt64(w0), x1 = UInt64(w1), x2 = UInt64(w2), x3 = UInt64(w3)
        x0 |= x0 << 16; x1 |= x1 << 16; x2 |= x2 << 16; x3 |= x3 << 16
        x0 &= 0x0000_FFFF_0000_FFFF; x1 &= 0x0000_FFFF_0000_FFFF; x2 &= 0x0000_FFFF_0000_FFFF; x3 &= 0x0000_FFFF_0000_FFFF
        x0 |= x0 << 8; x1 |= x1 << 8; x2 |= x2 << 8; x3 |= x3 << 8
        x0 &= 0x00FF_00FF_00FF_00FF; x1 &= 0x00FF_00FF_00FF_00FF; x2 &= 0x00FF_00FF_00FF_00FF; x3 &= 0x00FF_00FF_00FF_00FF
        return (x0 | (x2 << 8), x1 | (x3 << 8))
    }

    /// The inverse of ``spread(_:_:_:_:)``.
    @inline(__always)
    static func gather(_ a: UInt64, _ b: UInt64) -> (UInt32, UInt32, UInt32, UInt32) {
        var x0 = a & 0x00FF_00FF_00FF_00FF, x1 = b & 0x00FF_00FF_00FF_00FF
        var x2 = (a >> 8) & 0x00FF_00FF_00FF_00FF, x3 = (b >> 8) & 0x00FF_00FF_00FF_00FF
        x0 |= x0 >> 8; x1 |= x1 >> 8; x2 |= x2 >> 8; x3 |= x3 >> 8
        x0 &= 0x0000_FFFF_0000_FFFF; x1 &= 0x0000_FFFF_0000_FFFF; x2 &= 0x0000_FFFF_0000_FFFF; x3 &= 0x0000_FFFF_0000_FFFF
        return (UInt32(truncatingIfNeeded: x0 | (x0 >> 16)), UInt32(truncatingIfNeeded: x1 | (x1 >> 16)),
                UInt32(truncatingIfNeeded: x2 | (x2 >> 16)), UInt32(truncatingIfNeeded: x3 | (x3 >> 16)))
    }
}

// Fixslicing: AES rounds without ShiftRows. Adomnicai and Peyrin, "Fixslicing AES-like
// ciphers" (TCHES 2021, no. 1), §2: ShiftRows moves bytes without changing them and commutes
// with SubBytes, so it can be left out of the rounds if MixColumns and the round keys are
// conjugated by the ShiftRows owed so far, and the debt is paid once at the end.
//
// With P = ShiftRows and the state z kept P^j behind the standard state x (x = P^j·z), a round
// x ↦ MC(P(SB(x))) ⊕ k becomes z ↦ MC_j+1(SB(z)) ⊕ P^−(j+1)·k where MC_i = P^−i ∘ MC ∘ P^i, and
// P⁴ = 1 so i runs mod 4. MC_i reads the byte d rows further down at column c + d·i
// (P(z)[r][c] = z[r][c + r], FIPS 197 §5.1.2), so its "next row" is the usual row rotation and
// a rotation of every row by i columns: on the bitsliced layout (bit 16·row + 4·column + block)
// a 16-bit rotation of each lane and a rotation of each 16-bit piece by 4·i bits. The
// ShiftRows of a round costs 19 operations a plane; the column rotations cost 3 (none for
// i = 0, and the two-row one none for i = 2). The round keys are conjugated once per key
// (`AESBitslicedConstantTime`). The same holds for the inverse cipher with P⁻¹.
//
// Everything here is a fixed sequence of shifts, masks and shuffles chosen by the round
// number, which is public: constant time.

extension AESBitslicedState {
    /// `MC_i` = ShiftRows^−i ∘ MixColumns ∘ ShiftRows^i for i = `offset` mod 4 (any integer).
    @inline(__always)
    package mutating func mixColumns(fixslicedBy offset: Int) {
        switch offset & 3 {  // public: the round number
        case 0: mixColumns()
        case 1: mixColumns(nextRow: { $0.rotatedRight16().rotatedColumns1() }, twoRows: { $0.rotatedRight32().rotatedColumns2() })
        case 2: mixColumns(nextRow: { $0.rotatedRight16().rotatedColumns2() }, twoRows: { $0.rotatedRight32() })
        default: mixColumns(nextRow: { $0.rotatedRight16().rotatedColumns3() }, twoRows: { $0.rotatedRight32().rotatedColumns2() })
        }
    }

    /// ShiftRows^−i ∘ InvMixColumns ∘ ShiftRows^i for i = `offset` mod 4 (any integer).
    @inline(__always)
    package mutating func inverseMixColumns(fixslicedBy offset: Int) {
        switch offset & 3 {  // public: the round number
        case 0: inverseMixColumns()
        case 1: inverseMixColumns(nextRow: { $0.rotatedRight16().rotatedColumns1() }, twoRows: { $0.rotatedRight32().rotatedColumns2() })
        case 2: inverseMixColumns(nextRow: { $0.rotatedRight16().rotatedColumns2() }, twoRows: { $0.rotatedRight32() })
        default: inverseMixColumns(nextRow: { $0.rotatedRight16().rotatedColumns3() }, twoRows: { $0.rotatedRight32().rotatedColumns2() })
        }
    }

    /// ShiftRows applied `count` mod 4 times (any integer; −1 is InvShiftRows): the correction
    /// at the end of a fixsliced run, and the conjugation of round keys.
    @inline(__always)
    package mutating func shiftRows(times count: Int) {
        switch count & 3 {  // public: the round count
        case 0: break
        case 1: shiftRows()
        case 2: shiftRowsTwice()
        default: inverseShiftRows()
        }
    }

    /// ShiftRows² (its own inverse): rows 1 and 3 rotate by two columns, rows 0 and 2 stay.
    @inline(__always)
    private mutating func shiftRowsTwice() {
        let keep = Word(broadcasting: 0x0000_FFFF_0000_FFFF), move = Word(broadcasting: 0xFFFF_0000_FFFF_0000)
        func twice(_ x: Word) -> Word { (x & keep) | (x.rotatedColumns2() & move) }
        q0 = twice(q0); q1 = twice(q1); q2 = twice(q2); q3 = twice(q3)
        q4 = twice(q4); q5 = twice(q5); q6 = twice(q6); q7 = twice(q7)
    }
}
