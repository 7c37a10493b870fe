// The RSA public operation (RFC 8017 §5.1.1 RSAEP, §5.2.2 RSAVP1) at one fixed width.

import CryptoCore

/// A modulus n with its public exponent e and Montgomery constants, at a width of `limbCount`
/// 64-bit limbs (n may be shorter than the width: other lengths are padded into a class).
struct RSAPublicCore<let limbCount: Int>: Sendable {
    let context: MontgomeryContext<limbCount>
    let exponent: FixedUInt<limbCount>
    /// e − 1 (e is odd, so this clears bit 0).
    private let exponentMinusOne: FixedUInt<limbCount>
    /// The bit length of n.
    let modulusBitCount: Int

    /// A core for an odd n and an exponent e (odd, 3 ≤ e < n); nil otherwise.
    init?(modulus: FixedUInt<limbCount>, exponent: FixedUInt<limbCount>) {
        guard let context = MontgomeryContext(modulus: modulus),
              exponent.limbs[0] & 1 == 1, exponent.compareVartime(FixedUInt(3)) >= 0,
              exponent.compareVartime(modulus) < 0 else { return nil }
        self.context = context
        self.exponent = exponent
        var exponentMinusOne = exponent
        exponentMinusOne.limbs[0] &= ~1
        self.exponentMinusOne = exponentMinusOne
        modulusBitCount = modulus.bitLengthVartime
    }

    /// xᵉ mod n for x < n. Leaks: e, which is public (square-and-multiply over its bits).
    /// Computed as (x·R)^(e−1) ⊗ x, whose Montgomery product leaves Montgomery form by itself:
    /// for e = 65537 that is 18 products instead of 20.
    func publicOperationVartime(_ x: FixedUInt<limbCount>) -> FixedUInt<limbCount> {
        context.product(context.powerVartime(context.montgomeryForm(of: x), exponentMinusOne), x)
    }

    /// Whether x < n.
    func contains(_ x: FixedUInt<limbCount>) -> Bool {
        x.isLess(than: context.modulus).isTrueVartime
    }
}
