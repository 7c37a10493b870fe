// Products and the inverse of P-256 scalars (mod n) on the straight-line Montgomery kernel
// (CryptoCore FixedUInt+MontgomeryStraightLine.swift; issue #18 item 2). Signing inverts the
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

    /// The inverse by Fermat, `self^(n−2)` (SEC 1 v2 §4.1.3 step 6 needs k⁻¹), with fixed 4-bit
    /// windows over the public exponent: 252 squarings and 63 products by table entries indexed
    /// by the exponent's digits (public), so constant time in `self`. The inverse of zero is zero.
    package func inverted() -> Self {
        // n − 2, least significant limb first.
        let exponent: InlineArray<4, UInt64> = [0xF3B9_CAC2_FC63_254F, 0xBCE6_FAAD_A717_9E84, 0xFFFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF_0000_0000]
        var table = InlineArray<16, Self>(repeating: Self(montgomeryForm: Modulus.montgomeryOne))
        for i in 1..<16 { table[i] = table[i - 1] * self }
        var result = table[Int(exponent[3] >> 60)]
        for window in stride(from: 62, through: 0, by: -1) {
            result = result.squared().squared().squared().squared()
            let digit = Int((exponent[window >> 4] >> UInt64((window & 15) * 4)) & 0xF)
            if digit != 0 { result = result * table[digit] }  // the exponent is public
        }
        return result
    }
}
