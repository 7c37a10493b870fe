// The AES S-box as a Boolean circuit over bitsliced words: no table, no secret index.
// Circuit: Boyar and Peralta, "A depth-16 circuit for the AES S-box" (2011), 113 gates,
// as BearSSL's aes_ct64 uses it. The tests compare it with the S-box computed from its
// definition (inversion in GF(2⁸) followed by the affine map) on all 256 inputs.

import CryptoCore

/// A lane word of the bitsliced engine: `UInt64` (four blocks per call) or `SIMD2<UInt64>`
/// (eight blocks per call, two independent 64-bit lanes in one SSE register).
package protocol AESBitslicedWord: Sendable {
    /// How many 64-bit lanes (of four blocks each) the word holds.
    static var laneCount: Int { get }
    init(broadcasting value: UInt64)
    /// A round-key plane stored twice at `pointer` (16 bytes, 16-byte aligned): one word for
    /// `UInt64`, one aligned vector load (foldable into `pxor`) for two lanes.
    init(roundKeyPlane pointer: UnsafePointer<UInt64>)
    init(lanes: (Int) -> UInt64)
    func lane(_ index: Int) -> UInt64
    static func & (a: Self, b: Self) -> Self
    static func | (a: Self, b: Self) -> Self
    static func ^ (a: Self, b: Self) -> Self
    static prefix func ~ (a: Self) -> Self
    static func &<< (a: Self, b: UInt64) -> Self
    static func &>> (a: Self, b: UInt64) -> Self
    /// Each 64-bit lane rotated right by 16 bits (MixColumns' next row).
    func rotatedRight16() -> Self
    /// Each 64-bit lane rotated right by 32 bits (two rows on).
    func rotatedRight32() -> Self
    /// Each 16-bit piece (one row of the four columns) rotated right by 4 bits: every byte
    /// takes the place of the byte one column on (fixslicing's MixColumns, the fixslicing section of `AESBitslicedRounds`).
    func rotatedColumns1() -> Self
    /// Each 16-bit piece rotated by 8 bits (two columns on).
    func rotatedColumns2() -> Self
    /// Each 16-bit piece rotated right by 12 bits (three columns on).
    func rotatedColumns3() -> Self
}

extension UInt64: AESBitslicedWord {
    package static var laneCount: Int { 1 }
    @inline(__always) package init(broadcasting value: UInt64) { self = value }
    @inline(__always) package init(roundKeyPlane pointer: UnsafePointer<UInt64>) { self = pointer[0] }
    @inline(__always) package init(lanes: (Int) -> UInt64) { self = lanes(0) }
    @inline(__always) package func lane(_ index: Int) -> UInt64 { self }
    @inline(__always) package func rotatedRight16() -> UInt64 { (self &>> 16) | (self &<< 48) }
    @inline(__always) package func rotatedRight32() -> UInt64 { (self &>> 32) | (self &<< 32) }
    @inline(__always) package func rotatedColumns1() -> UInt64 { ((self &>> 4) & 0x0FFF_0FFF_0FFF_0FFF) | ((self &<< 12) & 0xF000_F000_F000_F000) }
    @inline(__always) package func rotatedColumns2() -> UInt64 { ((self &>> 8) & 0x00FF_00FF_00FF_00FF) | ((self &<< 8) & 0xFF00_FF00_FF00_FF00) }
    @inline(__always) package func rotatedColumns3() -> UInt64 { ((self &>> 12) & 0x000F_000F_000F_000F) | ((self &<< 4) & 0xFFF0_FFF0_FFF0_FFF0) }
}

/// Two 64-bit lanes in one SSE register (eight blocks per call).
///
/// The standard library implements `&`, `|`, `^` and shifts of `SIMD2<UInt64>` element by
/// element (only `&+`, `&-`, `&*` are vector builtins), and LLVM's SLP vectoriser re-vectorises
/// a dependency tree only up to depth 12: the 16-gate-deep S-box came out as scalar code. The
/// bitwise operations of `SIMDMask<SIMD2<Int64>>` (`.&`, `.|`, `.^`) are vector builtins on the
/// same 128 bits, whatever they hold: the gates go through them (``Mask``), one `pand`/`pxor`
/// each, with no barrier instruction between the stages.
package struct AESTwoLanes: AESBitslicedWord {
    var vector: SIMD2<UInt64>

    /// The same 128 bits seen as a mask, whose bitwise operators are vector builtins.
    typealias Mask = SIMDMask<SIMD2<Int64>>
    @inline(__always) private var mask: Mask { unsafeBitCast(vector, to: Mask.self) }
    @inline(__always) private init(mask: Mask) { vector = unsafeBitCast(mask, to: SIMD2<UInt64>.self) }

    @inline(__always) package init(vector: SIMD2<UInt64>) { self.vector = vector }
    package static var laneCount: Int { 2 }
    @inline(__always) package init(broadcasting value: UInt64) { vector = SIMD2(repeating: value) }
    @inline(__always) package init(roundKeyPlane pointer: UnsafePointer<UInt64>) {
        vector = UnsafeRawPointer(pointer).load(as: SIMD2<UInt64>.self)
    }
    @inline(__always) package init(lanes: (Int) -> UInt64) { vector = SIMD2(lanes(0), lanes(1)) }
    @inline(__always) package func lane(_ index: Int) -> UInt64 { vector[index] }
    @inline(__always) package static func & (a: Self, b: Self) -> Self { Self(mask: a.mask .& b.mask) }
    @inline(__always) package static func | (a: Self, b: Self) -> Self { Self(mask: a.mask .| b.mask) }
    @inline(__always) package static func ^ (a: Self, b: Self) -> Self { Self(mask: a.mask .^ b.mask) }
    @inline(__always) package static prefix func ~ (a: Self) -> Self { Self(mask: .!a.mask) }
    @inline(__always) package static func &<< (a: Self, b: UInt64) -> Self { Self(vector: a.vector &<< SIMD2(repeating: b)) }
    @inline(__always) package static func &>> (a: Self, b: UInt64) -> Self { Self(vector: a.vector &>> SIMD2(repeating: b)) }

    /// The rotations as shuffles of 16-bit pieces within each lane: written
    /// as shifts, LLVM recognises a funnel shift, which SSE2 lacks, and moved every rotation
    /// through general registers (measured: 32 `shld` and 80 `movq` per round); a fixed
    /// shuffle becomes `pshuflw`/`pshufhw` (`pshufd` for 32) on x86-64. The pattern is fixed:
    /// nothing depends on the data.
    @inline(__always) package func rotatedRight16() -> Self {
        let pieces = unsafeBitCast(vector, to: SIMD8<UInt16>.self)
        let rotated = SIMD8(pieces[1], pieces[2], pieces[3], pieces[0], pieces[5], pieces[6], pieces[7], pieces[4])
        return Self(vector: unsafeBitCast(rotated, to: SIMD2<UInt64>.self))
    }

    @inline(__always) package func rotatedRight32() -> Self {
        let pieces = unsafeBitCast(vector, to: SIMD4<UInt32>.self)
        return Self(vector: unsafeBitCast(SIMD4(pieces[1], pieces[0], pieces[3], pieces[2]), to: SIMD2<UInt64>.self))
    }

    /// Column rotations as shifts of 16-bit pieces (`psrlw`/`psllw` on x86-64, SSE2), joined
    /// by the builtin OR. The shift counts are constants.
    @inline(__always) private func rotatedPieces(right count: UInt16) -> Self {
        let pieces = unsafeBitCast(vector, to: SIMD8<UInt16>.self)
        let right = Self(vector: unsafeBitCast(pieces &>> SIMD8(repeating: count), to: SIMD2<UInt64>.self))
        let left = Self(vector: unsafeBitCast(pieces &<< SIMD8(repeating: 16 - count), to: SIMD2<UInt64>.self))
        return right | left
    }

    @inline(__always) package func rotatedColumns1() -> Self { rotatedPieces(right: 4) }
    @inline(__always) package func rotatedColumns2() -> Self { rotatedPieces(right: 8) }
    @inline(__always) package func rotatedColumns3() -> Self { rotatedPieces(right: 12) }
}

/// Eight words holding bytes in bitsliced form: word i holds bit i of every byte
/// (64 bytes per 64-bit lane).
package struct AESBitslicedState<Word: AESBitslicedWord> {
    package var q0: Word, q1: Word, q2: Word, q3: Word, q4: Word, q5: Word, q6: Word, q7: Word

    @inline(__always)
    package init(q0: Word, q1: Word, q2: Word, q3: Word, q4: Word, q5: Word, q6: Word, q7: Word) {
        self.q0 = q0; self.q1 = q1; self.q2 = q2; self.q3 = q3
        self.q4 = q4; self.q5 = q5; self.q6 = q6; self.q7 = q7
    }

    /// All planes zero.
    @inline(__always)
    package init() {
        let plane = Word(broadcasting: 0)
        self.init(q0: plane, q1: plane, q2: plane, q3: plane, q4: plane, q5: plane, q6: plane, q7: plane)
    }
}

extension AESBitslicedState {
    /// SubBytes on every byte at once (FIPS 197 §5.1.1).
    @inline(__always)
    package mutating func substituteBytes() {
        substituteBytes(addingConstant: true)
    }

    /// SubBytes less its constant 0x63 when `addingConstant` is false (a constant at every
    /// call site): the rounds leave it to the round keys, which carry it (0x63 in every byte
    /// passes ShiftRows and MixColumns unchanged, 2 ⊕ 3 ⊕ 1 ⊕ 1 = 1), saving the four NOTs.
    @inline(__always)
    package mutating func substituteBytes(addingConstant: Bool) {
        let x0 = q7, x1 = q6, x2 = q5, x3 = q4, x4 = q3, x5 = q2, x6 = q1, x7 = q0

        // Top linear transformation.
        let a14 = x3 ^ x5, a13 = x0 ^ x6, a9 = x0 ^ x3, a8 = x0 ^ x5
        let t0 = x1 ^ x2, a1 = t0 ^ x7, a4 = a1 ^ x3, a12 = a13 ^ a14
        let a2 = a1 ^ x0, a5 = a1 ^ x6, a3 = a5 ^ a8, t1 = x4 ^ a12
        let a15 = t1 ^ x5, a20 = t1 ^ x1, a6 = a15 ^ x7, a10 = a15 ^ t0
        let a11 = a20 ^ a9, a7 = x7 ^ a11, a17 = a10 ^ a11, a19 = a10 ^ a8
        let a16 = t0 ^ a11, a21 = a13 ^ a16, a18 = x0 ^ a16
        let m = Self.sboxMiddle(AESSboxSignals(
            y1: a1, y2: a2, y3: a3, y4: a4, y5: a5, y6: a6, y7: a7, y8: a8, y9: a9, y10: a10, y11: a11,
            y12: a12, y13: a13, y14: a14, y15: a15, y16: a16, y17: a17, y18: a18, y19: a19, y20: a20, y21: a21, x7: x7))
        let z0 = m.z0, z1 = m.z1, z2 = m.z2, z3 = m.z3, z4 = m.z4, z5 = m.z5, z6 = m.z6, z7 = m.z7, z8 = m.z8
        let z9 = m.z9, z10 = m.z10, z11 = m.z11, z12 = m.z12, z13 = m.z13, z14 = m.z14, z15 = m.z15, z16 = m.z16, z17 = m.z17

        // Bottom linear transformation.
        let t46 = z15 ^ z16, t47 = z10 ^ z11, t48 = z5 ^ z13, t49 = z9 ^ z10
        let t50 = z2 ^ z12, t51 = z2 ^ z5, t52 = z7 ^ z8, t53 = z0 ^ z3
        let t54 = z6 ^ z7, t55 = z16 ^ z17, t56 = z12 ^ t48, t57 = t50 ^ t53
        let t58 = z4 ^ t46, t59 = z3 ^ t54, t60 = t46 ^ t57, t61 = z14 ^ t57
        let t62 = t52 ^ t58, t63 = t49 ^ t58, t64 = z4 ^ t59, t65 = t61 ^ t62
        let t66 = z1 ^ t63
        let s0 = t59 ^ t63, s6 = t56 ^ t62, s7 = t48 ^ t60, t67 = t64 ^ t65
        let s3 = t53 ^ t66, s4 = t51 ^ t66, s5 = t47 ^ t65, s1 = t64 ^ s3
        let s2 = t55 ^ t67
        guard addingConstant else {
            q7 = s0; q6 = s1; q5 = s2; q4 = s3; q3 = s4; q2 = s5; q1 = s6; q0 = s7
            return
        }
        q7 = s0; q6 = ~s1; q5 = ~s2; q4 = s3; q3 = s4; q2 = s5; q1 = ~s6; q0 = ~s7
    }

    /// The non-linear middle of the circuit: the inversion in GF(2⁸), from the top layer's 22
    /// signals to the 18 products the bottom layer combines (32 ANDs).
    @inline(__always)
    private static func sboxMiddle(_ s: AESSboxSignals<Word>) -> AESSboxProducts<Word> {
        let y1 = s.y1, y2 = s.y2, y3 = s.y3, y4 = s.y4, y5 = s.y5, y6 = s.y6, y7 = s.y7, y8 = s.y8, y9 = s.y9
        let y10 = s.y10, y11 = s.y11, y12 = s.y12, y13 = s.y13, y14 = s.y14, y15 = s.y15, y16 = s.y16
        let y17 = s.y17, y18 = s.y18, y19 = s.y19, y20 = s.y20, y21 = s.y21, x7 = s.x7
        let t2 = y12 & y15, t3 = y3 & y6, t4 = t3 ^ t2, t5 = y4 & x7
        let t6 = t5 ^ t2, t7 = y13 & y16, t8 = y5 & y1, t9 = t8 ^ t7
        let t10 = y2 & y7, t11 = t10 ^ t7, t12 = y9 & y11, t13 = y14 & y17
        let t14 = t13 ^ t12, t15 = y8 & y10, t16 = t15 ^ t12, t17 = t4 ^ t14
        let t18 = t6 ^ t16, t19 = t9 ^ t14, t20 = t11 ^ t16
        let t21 = t17 ^ y20, t22 = t18 ^ y19, t23 = t19 ^ y21, t24 = t20 ^ y18

        let t25 = t21 ^ t22, t26 = t21 & t23, t27 = t24 ^ t26, t28 = t25 & t27
        let t29 = t28 ^ t22, t30 = t23 ^ t24, t31 = t22 ^ t26, t32 = t31 & t30
        let t33 = t32 ^ t24, t34 = t23 ^ t33, t35 = t27 ^ t33, t36 = t24 & t35
        let t37 = t36 ^ t34, t38 = t27 ^ t36, t39 = t29 & t38
        let t40 = t25 ^ t39

        let t41 = t40 ^ t37, t42 = t29 ^ t33, t43 = t29 ^ t40, t44 = t33 ^ t37
        let t45 = t42 ^ t41
        return AESSboxProducts(
            z0: t44 & y15, z1: t37 & y6, z2: t33 & x7, z3: t43 & y16, z4: t40 & y1, z5: t29 & y7,
            z6: t42 & y11, z7: t45 & y17, z8: t41 & y10, z9: t44 & y12, z10: t37 & y3, z11: t33 & y4,
            z12: t43 & y13, z13: t40 & y5, z14: t29 & y2, z15: t42 & y9, z16: t45 & y14, z17: t41 & y8)
    }

    /// InvSubBytes (FIPS 197 §5.3.2) from the forward circuit: with S(x) = A(x⁻¹) ⊕ 0x63,
    /// S⁻¹(y) = A⁻¹(S(z) ⊕ 0x63) where z = A⁻¹(y ⊕ 0x63).
    @inline(__always)
    package mutating func inverseSubstituteBytes() {
        inverseAffine(addingConstant: true)
        substituteBytes(addingConstant: true)
        inverseAffine(addingConstant: true)
    }

    /// InvSubBytes of y with y ⊕ 0x63 given: S⁻¹(y) = A⁻¹(S′(A⁻¹(y ⊕ 0x63))) where S′ is SubBytes
    /// less its constant (the two inner constants cancel). The decryption round keys carry the
    /// outer one (0x63 in every byte passes InvMixColumns unchanged: E ⊕ B ⊕ D ⊕ 9 = 1).
    ///
    /// A⁻¹ is merged into the circuit's linear layers: the top layer after A⁻¹ (22 linear forms
    /// of the input planes) and A⁻¹ after the bottom layer (8 forms of the 18 products) as
    /// straight-line XOR programs found by Paar's greedy pairing ("Optimized arithmetic for
    /// Reed–Solomon encoders", ISIT 1997), best of many random tie-breaks: 29 + 35 XORs in
    /// place of 16 + 23 and 30 + 16. `AESTests` checks the result on all 256 inputs.
    @inline(__always)
    package mutating func inverseSubstituteBytesLessConstant() {
        let m = Self.sboxMiddle(inverseTop())
        let n0 = m.z6 ^ m.z15; let n1 = m.z13 ^ n0; let n2 = m.z12 ^ n1; let n3 = m.z16 ^ n2
        let n4 = m.z3 ^ m.z4; let n5 = m.z8 ^ n3; let n6 = m.z2 ^ m.z10; let n7 = m.z1 ^ n4
        let n8 = m.z4 ^ m.z5; let n9 = m.z9 ^ m.z17; let n10 = m.z8 ^ n6; let n11 = m.z14 ^ n10
        let n12 = m.z0 ^ n5; let n13 = n7 ^ n11; let n14 = m.z11 ^ n13; let n15 = m.z16 ^ n0
        let n16 = m.z1 ^ n8; let n17 = m.z0 ^ n8; let n18 = m.z17 ^ n2; let n19 = n1 ^ n9
        let n20 = m.z12 ^ n15; let n21 = m.z3 ^ n5; let n22 = m.z15 ^ n9; let n23 = n6 ^ n18
        let n24 = m.z7 ^ m.z11; let n25 = m.z7 ^ n3; let n26 = n23 ^ n24; let n27 = n13 ^ n19
        let n28 = m.z5 ^ n21; let n29 = n12 ^ n16; let n30 = m.z2 ^ n12; let n31 = m.z11 ^ n22
        let n32 = n4 ^ n25; let n33 = n14 ^ n20; let n34 = n17 ^ n26
        q0 = n31; q1 = n32; q2 = n29; q3 = n34; q4 = n30; q5 = n33; q6 = n27; q7 = n28
    }

    /// The top layer of the circuit after A⁻¹ (no constant), from the planes.
    @inline(__always)
    private func inverseTop() -> AESSboxSignals<Word> {
        let n0 = q4 ^ q6; let n1 = q0 ^ q1; let n2 = q3 ^ q4; let n3 = q3 ^ q6
        let n4 = n0 ^ n1; let n5 = q2 ^ q7; let n6 = q6 ^ q7; let n7 = q5 ^ n0
        let n8 = n1 ^ n3; let n9 = q7 ^ n0; let n10 = q4 ^ q7; let n11 = q0 ^ q7
        let n12 = q2 ^ n2; let n13 = q0 ^ q3; let n14 = n3 ^ n11; let n15 = n1 ^ n6
        let n16 = q5 ^ n4; let n17 = q1 ^ n12; let n18 = q1 ^ n3; let n19 = q0 ^ n2
        let n20 = n1 ^ n2; let n21 = q5 ^ n18; let n22 = q0 ^ n7; let n23 = q5 ^ n5
        let n24 = n5 ^ n8; let n25 = n4 ^ n5; let n26 = q5 ^ n2; let n27 = q2 ^ n7
        let n28 = q3 ^ n9
        return AESSboxSignals(y1: n19, y2: n8, y3: n10, y4: n4, y5: n0, y6: n9, y7: n16, y8: n6, y9: n2, y10: n14, y11: n25, y12: n15, y13: n20, y14: n28, y15: n27, y16: n21, y17: n17, y18: n26, y19: n13, y20: n24, y21: n22, x7: n23)
    }

    /// `b ↦ A⁻¹(b ⊕ 0x63)`, or `A⁻¹(b)` when `addingConstant` is false: negate bits 0, 1, 5, 6,
    /// then bit i = b(i+2) ⊕ b(i+5) ⊕ b(i+7).
    @inline(__always)
    private mutating func inverseAffine(addingConstant: Bool) {
        let b0 = addingConstant ? ~q0 : q0, b1 = addingConstant ? ~q1 : q1, b2 = q2, b3 = q3, b4 = q4
        let b5 = addingConstant ? ~q5 : q5, b6 = addingConstant ? ~q6 : q6, b7 = q7
        q0 = b2 ^ b5 ^ b7
        q1 = b3 ^ b6 ^ b0
        q2 = b4 ^ b7 ^ b1
        q3 = b5 ^ b0 ^ b2
        q4 = b6 ^ b1 ^ b3
        q5 = b7 ^ b2 ^ b4
        q6 = b0 ^ b3 ^ b5
        q7 = b1 ^ b4 ^ b6
    }
}

/// The 22 signals the top linear layer of the Boyar–Peralta circuit hands to its non-linear
/// middle (their y1…y21 and x7).
struct AESSboxSignals<Word: AESBitslicedWord> {
    var y1: Word, y2: Word, y3: Word, y4: Word, y5: Word, y6: Word, y7: Word, y8: Word, y9: Word, y10: Word, y11: Word
    var y12: Word, y13: Word, y14: Word, y15: Word, y16: Word, y17: Word, y18: Word, y19: Word, y20: Word, y21: Word
    var x7: Word
}

/// The 18 products z0…z17 the non-linear middle hands to the bottom linear layer.
struct AESSboxProducts<Word: AESBitslicedWord> {
    var z0: Word, z1: Word, z2: Word, z3: Word, z4: Word, z5: Word, z6: Word, z7: Word, z8: Word
    var z9: Word, z10: Word, z11: Word, z12: Word, z13: Word, z14: Word, z15: Word, z16: Word, z17: Word
}
