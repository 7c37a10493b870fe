// The two moduli of P-384 and the curve constants (SEC 2 v2 §2.5.1, FIPS 186-5 §D.1.2.4).
// The Montgomery constants were computed from the definitions; a test recomputes each of them.
// P-384 runs on the generic Montgomery core (six-limb CIOS): it is verified in certificate
// chains and agreed once per TLS handshake, where its cost is small beside the rest.

import CryptoCore

/// The base-field prime p = 2³⁸⁴ − 2¹²⁸ − 2⁹⁶ + 2³² − 1.
@usableFromInline
package enum P384FieldModulus: MontgomeryModulus {
    @inlinable package static var modulus: FixedUInt<6> {
        FixedUInt(limbs: [0x0000_0000_FFFF_FFFF, 0xFFFF_FFFF_0000_0000, 0xFFFF_FFFF_FFFF_FFFE,
                          0xFFFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF_FFFF_FFFF])
    }
    @inlinable package static var inverse: UInt64 { 0x0000_0001_0000_0001 }
    @inlinable package static var montgomeryOne: FixedUInt<6> {
        FixedUInt(limbs: [0xFFFF_FFFF_0000_0001, 0x0000_0000_FFFF_FFFF, 0x0000_0000_0000_0001, 0, 0, 0])
    }
    @inlinable package static var rSquared: FixedUInt<6> {
        FixedUInt(limbs: [0xFFFF_FFFE_0000_0001, 0x0000_0002_0000_0000, 0xFFFF_FFFE_0000_0000,
                          0x0000_0002_0000_0000, 0x0000_0000_0000_0001, 0])
    }
}

/// The group order n = FFFF…FFFF C7634D81F4372DDF 581A0DB248B0A77A ECEC196ACCC52973.
@usableFromInline
package enum P384OrderModulus: MontgomeryModulus {
    @inlinable package static var modulus: FixedUInt<6> {
        FixedUInt(limbs: [0xECEC_196A_CCC5_2973, 0x581A_0DB2_48B0_A77A, 0xC763_4D81_F437_2DDF,
                          0xFFFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF_FFFF_FFFF])
    }
    @inlinable package static var inverse: UInt64 { 0x6ED4_6089_E88F_DC45 }
    @inlinable package static var montgomeryOne: FixedUInt<6> {
        FixedUInt(limbs: [0x1313_E695_333A_D68D, 0xA7E5_F24D_B74F_5885, 0x389C_B27E_0BC8_D220, 0, 0, 0])
    }
    @inlinable package static var rSquared: FixedUInt<6> {
        FixedUInt(limbs: [0x2D31_9B24_19B4_09A9, 0xFF3D_81E5_DF1A_A419, 0xBC3E_483A_FCB8_2947,
                          0xD40D_4917_4AAB_1CC5, 0x3FB0_5B7A_2826_6895, 0x0C84_EE01_2B39_BF21])
    }
}

/// The NIST P-384 curve y² = x³ − 3x + b over GF(p) (secp384r1): ECDSA verification and ECDH,
/// with keys shaped like CryptoKit's. It signs nothing: TLS needs only to verify P-384
/// certificates and agree keys on the curve.
public enum P384 {
    /// An element of GF(p), Montgomery form inside.
    package typealias FieldElement = MontgomeryResidue<6, P384FieldModulus>
    /// An integer modulo the group order n, Montgomery form inside.
    package typealias Scalar = MontgomeryResidue<6, P384OrderModulus>

    /// The byte length of field elements and scalars.
    package static let byteCount = 48

    /// The coefficient b (Montgomery form of B3312FA7…D3EC2AEF).
    package static var curveB: FieldElement {
        FieldElement(montgomeryForm: FixedUInt(limbs: [0x0811_8871_9D41_2DCC, 0xF729_ADD8_7A4C_32EC, 0x77F2_209B_1920_022E,
                                                      0xE337_4BEE_9493_8AE2, 0xB62B_21F4_1F02_2094, 0xCD08_114B_604F_BFF9]))
    }

    /// The base point G (Montgomery forms of AA87CA22…72760AB7, 3617DE4A…90EA0E5F).
    package static var generator: AffinePoint {
        AffinePoint(
            x: FieldElement(montgomeryForm: FixedUInt(limbs: [0x3DD0_7566_49C0_B528, 0x20E3_78E2_A0D6_CE38, 0x879C_3AFC_541B_4D6E,
                                                             0x6454_8684_59A3_0EFF, 0x812F_F723_614E_DE2B, 0x4D3A_ADC2_299E_1513])),
            y: FieldElement(montgomeryForm: FixedUInt(limbs: [0x2304_3DAD_4B03_A4FE, 0xA1BF_A8BF_7BB4_A9AC, 0x8BAD_E756_2E83_B050,
                                                             0xC6C3_5219_68F4_FFD9, 0xDD80_0226_3969_A840, 0x2B78_ABC2_5A15_C5E9])))
    }

    /// (p + 1)/4, the exponent of a square root (p ≡ 3 mod 4).
    package static var squareRootExponent: FixedUInt<6> {
        FixedUInt(limbs: [0x0000_0000_4000_0000, 0xBFFF_FFFF_C000_0000, 0xFFFF_FFFF_FFFF_FFFF,
                          0xFFFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF_FFFF_FFFF, 0x3FFF_FFFF_FFFF_FFFF])
    }
}

extension MontgomeryResidue where limbCount == 6 {
    /// Decodes 48 big-endian bytes; nil unless the length is 48 and the value is below the
    /// modulus. The check reveals only whether the value was in range.
    package init?(canonicalBytes48 bytes: some Collection<UInt8>) {
        guard bytes.count == 48, let value = FixedUInt<6>(bigEndian: bytes) else { return nil }
        let (residue, isCanonical) = Self.fromCanonical(value)
        guard isCanonical.isTrueVartime else { return nil }
        self = residue
    }

    /// The canonical value as 48 big-endian bytes.
    package var canonicalBytes48: [UInt8] { canonical.bigEndianBytes() }
}

extension MontgomeryResidue where Modulus == P384FieldModulus {
    /// A square root, `self^((p+1)/4)`, and whether `self` is a square. Constant time.
    package func squareRoot() -> (root: Self, isSquare: Choice) {
        let root = power(P384.squareRootExponent)
        return (root, root.squared().isEqual(to: self))
    }

    /// 3, for the curve equation and the doubling formula.
    static var three: Self { .one + .one + .one }
}

extension MontgomeryResidue where Modulus == P384OrderModulus {
    /// The scalar of a message digest: its leftmost 384 bits (bits2int, SEC 1 v2 §4.1.3 step 5),
    /// reduced mod n; a shorter digest is taken whole.
    package init(digest: some Collection<UInt8>) {
        var bytes = Array(digest.prefix(48))
        if bytes.count < 48 { bytes = [UInt8](repeating: 0, count: 48 - bytes.count) + bytes }
        self.init(reducing: FixedUInt<6>(bigEndian: bytes) ?? .zero)
    }
}
