// The two moduli of P-256 and the curve constants (SEC 2 v2 §2.4.2, FIPS 186-5 §D.1.2.3).
// Montgomery constants were computed from the definitions; a test recomputes each of them.

import CryptoCore

/// The base-field prime p = 2²⁵⁶ − 2²²⁴ + 2¹⁹² + 2⁹⁶ − 1. Since p ≡ −1 (mod 2⁶⁴), the
/// Montgomery constant −p⁻¹ mod 2⁶⁴ is 1.
@usableFromInline
package enum P256FieldModulus: MontgomeryModulus {
    @inlinable package static var modulus: FixedUInt<4> {
        FixedUInt(limbs: [0xFFFF_FFFF_FFFF_FFFF, 0x0000_0000_FFFF_FFFF, 0x0000_0000_0000_0000, 0xFFFF_FFFF_0000_0001])
    }
    @inlinable package static var inverse: UInt64 { 1 }
    @inlinable package static var montgomeryOne: FixedUInt<4> {
        FixedUInt(limbs: [0x0000_0000_0000_0001, 0xFFFF_FFFF_0000_0000, 0xFFFF_FFFF_FFFF_FFFF, 0x0000_0000_FFFF_FFFE])
    }
    @inlinable package static var rSquared: FixedUInt<4> {
        FixedUInt(limbs: [0x0000_0000_0000_0003, 0xFFFF_FFFB_FFFF_FFFF, 0xFFFF_FFFF_FFFF_FFFE, 0x0000_0004_FFFF_FFFD])
    }
}

/// The group order n = FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551.
@usableFromInline
package enum P256OrderModulus: MontgomeryModulus {
    @inlinable package static var modulus: FixedUInt<4> {
        FixedUInt(limbs: [0xF3B9_CAC2_FC63_2551, 0xBCE6_FAAD_A717_9E84, 0xFFFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF_0000_0000])
    }
    @inlinable package static var inverse: UInt64 { 0xCCD1_C8AA_EE00_BC4F }
    @inlinable package static var montgomeryOne: FixedUInt<4> {
        FixedUInt(limbs: [0x0C46_353D_039C_DAAF, 0x4319_0552_58E8_617B, 0x0000_0000_0000_0000, 0x0000_0000_FFFF_FFFF])
    }
    @inlinable package static var rSquared: FixedUInt<4> {
        FixedUInt(limbs: [0x8324_4C95_BE79_EEA2, 0x4699_799C_49BD_6FA6, 0x2845_B239_2B6B_EC59, 0x66E1_2D94_F3D9_5620])
    }
}

extension P256FieldModulus {
    /// p prepared for inversion by divsteps.
    package static let divstep = DivstepModulus(modulus)
}

extension P256OrderModulus {
    /// n prepared for inversion by divsteps.
    package static let divstep = DivstepModulus(modulus)
}

/// The NIST P-256 curve y² = x³ − 3x + b over GF(p) (secp256r1, prime256v1), with its
/// public-key and signature APIs shaped like CryptoKit's.
public enum P256 {
    /// An element of GF(p), Montgomery form inside.
    package typealias FieldElement = MontgomeryResidue<4, P256FieldModulus>
    /// An integer modulo the group order n, Montgomery form inside.
    package typealias Scalar = MontgomeryResidue<4, P256OrderModulus>

    /// The coefficient b (Montgomery form of 5AC635D8…27D2604B).
    package static var curveB: FieldElement {
        FieldElement(montgomeryForm: FixedUInt(limbs: [0xD89C_DF62_29C4_BDDF, 0xACF0_05CD_7884_3090, 0xE5A2_20AB_F721_2ED6, 0xDC30_061D_0487_4834]))
    }

    /// The base point G (Montgomery forms of its coordinates 6B17D1F2…D898C296, 4FE342E2…37BF51F5).
    package static var generator: AffinePoint {
        AffinePoint(
            x: FieldElement(montgomeryForm: FixedUInt(limbs: [0x79E7_30D4_18A9_143C, 0x75BA_95FC_5FED_B601, 0x79FB_732B_7762_2510, 0x1890_5F76_A537_55C6])),
            y: FieldElement(montgomeryForm: FixedUInt(limbs: [0xDDF2_5357_CE95_560A, 0x8B4A_B8E4_BA19_E45C, 0xD2E8_8688_DD21_F325, 0x8571_FF18_2588_5D85])))
    }

    /// The byte length of field elements and scalars.
    package static let byteCount = 32
}
