// The BN254CX pairing curve of Apache Milagro and the MIRACL MFA platform (docs/protocols/mpin.md §1, §2.1):
// its two primes and curve constants. Montgomery constants were computed from the
// definitions; a test recomputes each of them.

import CryptoCore

/// The base-field prime p = 36u⁴ + 36u³ + 24u² + 6u + 1 with u = −0x4000000003C012B1
/// (254 bits, p ≡ 3 mod 4) (docs/protocols/mpin.md §2.1).
@usableFromInline
package enum BN254CXFieldModulus: MontgomeryModulus {
    @inlinable package static var modulus: FixedUInt<4> {
        FixedUInt(limbs: [0xBE66_23EF_5C1B_55B3, 0x243F_D6EE_1809_3EE1, 0xB0BD_DF64_7A63_66D3, 0x2400_0000_0870_2A0D])
    }
    @inlinable package static var inverse: UInt64 { 0xEF4E_205B_F978_9E85 }
    @inlinable package static var montgomeryOne: FixedUInt<4> {
        FixedUInt(limbs: [0xCB35_0474_7B40_A81B, 0x0241_1F7D_57BF_47D3, 0x2ACE_E440_A748_303A, 0x03FF_FFFF_C4EE_D9A0])
    }
    @inlinable package static var rSquared: FixedUInt<4> {
        FixedUInt(limbs: [0x1AB5_6897_EFB9_B4E3, 0xA691_C071_3A43_1A9C, 0xB09D_2443_2010_D99D, 0x0984_F987_7B26_5A33])
    }
}

extension BN254CXFieldModulus {
    /// p prepared for inversion by divsteps.
    package static let divstep = DivstepModulus(modulus)
}

/// The group order r = 36u⁴ + 36u³ + 18u² + 6u + 1 = p + 1 − t (docs/protocols/mpin.md §2.1).
@usableFromInline
package enum BN254CXOrderModulus: MontgomeryModulus {
    @inlinable package static var modulus: FixedUInt<4> {
        FixedUInt(limbs: [0xBE11_C0A6_36EB_1F6D, 0xC43F_D6EE_0CC9_06CE, 0xB0BD_DF64_7A63_66D2, 0x2400_0000_0870_2A0D])
    }
    @inlinable package static var inverse: UInt64 { 0x77A1_AAFA_9A63_3D9B }
    @inlinable package static var montgomeryOne: FixedUInt<4> {
        FixedUInt(limbs: [0xCD83_BB74_7F92_2405, 0xA241_1F7D_A680_D058, 0x2ACE_E440_A748_303C, 0x03FF_FFFF_C4EE_D9A0])
    }
    @inlinable package static var rSquared: FixedUInt<4> {
        FixedUInt(limbs: [0x7C88_2D12_FB96_BFAE, 0xA28F_033A_656F_A449, 0xFAC7_8569_46C1_7599, 0x104E_0B77_E15D_4CD6])
    }
}

/// The BN254CX pairing-friendly curve (the "CertiVox" BN curve, not Nogami's BN254):
/// G1 = E(Fp) for E: y² = x³ + 2, G2 on the D-type sextic twist over Fp2, GT in Fp12, and
/// the optimal ate pairing, with Milagro's byte encodings (docs/protocols/mpin.md §2).
public enum BN254CX {
    /// An element of Fp, Montgomery form inside.
    package typealias Fp = MontgomeryResidue<4, BN254CXFieldModulus>
    /// An integer modulo r, Montgomery form inside.
    package typealias Fr = MontgomeryResidue<4, BN254CXOrderModulus>

    /// |u| = 0x4000000003C012B1; u itself is negative (docs/protocols/mpin.md §2.1).
    package static let absoluteU: UInt64 = 0x4000_0000_03C0_12B1

    /// The prime p as an integer.
    package static var p: FixedUInt<4> { BN254CXFieldModulus.modulus }
    /// The group order r as an integer.
    package static var r: FixedUInt<4> { BN254CXOrderModulus.modulus }
}
