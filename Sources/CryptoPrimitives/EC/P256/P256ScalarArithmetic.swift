// Products and the inverse of P-256 scalars (mod n) on the straight-line Montgomery kernel
// (CryptoCore FixedUInt+MontgomeryStraightLine.swift). Signing inverts the
// nonce k with Fermat, k^(n−2): 256 squarings, which on the generic looped core were ~18 % of
// a signature. These overloads are chosen over the generic `MontgomeryResidue` operators
// wherever the type is `P256.Scalar` (the constrained extension is the more specific).

import CryptoCore

extension MontgomeryResidue where Modulus == P256OrderModulus {
    /// `a · b` (Montgomery product), called rather than inlined (it is large).
    @inline(never)
    package static func * (a: Self, b: Self) -> Self {
        Self(montgomeryForm: .montgomeryProductStraightLine(a.montgomeryForm, b.montgomeryForm, modulus: Modulus.modulus, inverse: Modulus.inverse))
    }

    /// `self²`.
    @inline(__always)
    package func squared() -> Self { self * self }

    /// The inverse (SEC 1 v2 §4.1.3 step 6 needs k⁻¹), by divsteps
    /// (``CryptoCore/MontgomeryResidue/invertedByDivsteps(_:)``; 2.3× faster than Fermat
    /// here): constant time in `self`; the inverse of zero is zero.
    package func inverted() -> Self { invertedByDivsteps(Modulus.divstep) }

    /// The inverse by Fermat, `self^(n−2)`; n − 2 is public, so its windows index the table
    /// directly (``CryptoCore/FixedUInt/powerByPublicExponent(_:_:one:times:)``): constant time
    /// in `self`. The inverse of zero is zero. A test checks ``inverted()`` against it.
    package func invertedByFermat() -> Self {
        FixedUInt<4>.powerByPublicExponent(self, FixedUInt(limbs: [0xF3B9_CAC2_FC63_254F, 0xBCE6_FAAD_A717_9E84, 0xFFFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF_0000_0000]),
                               one: Self(montgomeryForm: Modulus.montgomeryOne), times: { $0 * $1 })
    }
}
