// The RSA public operation (RFC 8017 §5.1.1 RSAEP, §5.2.2 RSAVP1) at one fixed width.

import CryptoCore

/// A modulus n with its public exponent e and Montgomery constants, at a width of `limbCount`
/// 64-bit limbs (n may be shorter than the width: other lengths are padded into a class).
struct RSAPublicCore<let limbCount: Int>: Sendable {
    let context: MontgomeryContext<limbCount>
    let exponent: FixedUInt<limbCount>
    /// The bit length of n.
    let modulusBitCount: Int

    /// A core for an odd n and an exponent e (odd, 3 ≤ e < n); nil otherwise.
    init?(modulus: FixedUInt<limbCount>, exponent: FixedUInt<limbCount>) {
        guard let context = MontgomeryContext(modulus: modulus),
              exponent.limbs[0] & 1 == 1, exponent.compareVartime(FixedUInt(3)) >= 0,
              exponent.compareVartime(modulus) < 0 else { return nil }
        self.context = context
        self.exponent = exponent
        modulusBitCount = modulus.bitLengthVartime
    }

    /// xᵉ mod n for x < n. Leaks: e, which is public (square-and-multiply over its bits).
    func publicOperationVartime(_ x: FixedUInt<limbCount>) -> FixedUInt<limbCount> {
        context.canonical(of: context.powerVartime(context.montgomeryForm(of: x), exponent))
    }

    /// Whether x < n.
    func contains(_ x: FixedUInt<limbCount>) -> Bool {
        x.isLess(than: context.modulus).isTrueVartime
    }
}
