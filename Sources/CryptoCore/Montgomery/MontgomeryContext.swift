// A modulus known only at run time (RSA moduli and their prime factors).

/// Montgomery arithmetic modulo an odd modulus chosen at run time.
///
/// The modulus itself is public (an RSA modulus, or a prime factor that is only ever used in
/// constant-time operations); creating a context is variable-time in the modulus.
@frozen
@usableFromInline
package struct MontgomeryContext<let limbCount: Int>: Sendable {
    /// The odd modulus m.
    @usableFromInline package let modulus: FixedUInt<limbCount>
    /// `−m⁻¹ mod 2⁶⁴`.
    @usableFromInline package let inverse: UInt64
    /// `R mod m`.
    @usableFromInline package let montgomeryOne: FixedUInt<limbCount>
    /// `R² mod m`.
    @usableFromInline package let rSquared: FixedUInt<limbCount>

    /// A context for an odd modulus greater than 1; nil otherwise.
    @inlinable
    package init?(modulus: FixedUInt<limbCount>) {
        guard modulus.limbs[0] & 1 == 1, modulus.bitLengthVartime > 1 else { return nil }
        self.modulus = modulus
        inverse = FixedUInt.montgomeryInverse(of: modulus)
        montgomeryOne = FixedUInt.powerOfTwo(FixedUInt<limbCount>.bitWidth, modulo: modulus)
        rSquared = FixedUInt.powerOfTwo(2 * FixedUInt<limbCount>.bitWidth, modulo: modulus)
    }

    /// Converts `value < R` into Montgomery form, reducing it mod m.
    @inlinable
    package func montgomeryForm(of value: FixedUInt<limbCount>) -> FixedUInt<limbCount> {
        .montgomeryProduct(value, rSquared, modulus: modulus, inverse: inverse)
    }

    /// Converts out of Montgomery form.
    @inlinable
    package func canonical(of montgomeryValue: FixedUInt<limbCount>) -> FixedUInt<limbCount> {
        .montgomeryProduct(montgomeryValue, FixedUInt(1), modulus: modulus, inverse: inverse)
    }

    /// The Montgomery product `a · b · R⁻¹ mod m`.
    @inlinable @inline(__always)
    package func product(_ a: FixedUInt<limbCount>, _ b: FixedUInt<limbCount>) -> FixedUInt<limbCount> {
        .montgomeryProduct(a, b, modulus: modulus, inverse: inverse)
    }

    /// The Montgomery square of `a` (`a < m`), in constant time.
    @inlinable
    package func squared(_ a: FixedUInt<limbCount>) -> FixedUInt<limbCount> {
        .montgomerySquare(a, modulus: modulus, inverse: inverse)
    }

    /// `base^exponent` for a base in Montgomery form, in constant time.
    @inlinable
    package func power<let exponentLimbs: Int>(
        _ base: FixedUInt<limbCount>, _ exponent: FixedUInt<exponentLimbs>
    ) -> FixedUInt<limbCount> {
        .montgomeryPower(base, exponent, modulus: modulus, inverse: inverse, one: montgomeryOne)
    }

    /// `base^exponent` modulo this modulus and `otherBase^otherExponent` modulo `other`'s, bases
    /// and results in Montgomery form, computed in lockstep (the CRT halves of an RSA private
    /// operation; see ``FixedUInt/montgomeryPowers(_:_:modulus:inverse:one:alongside:_:modulus:inverse:one:)``).
    /// Constant time in both bases and both exponents.
    @inlinable
    package func powers<let exponentLimbs: Int>(
        _ base: FixedUInt<limbCount>, _ exponent: FixedUInt<exponentLimbs>,
        alongside other: MontgomeryContext, _ otherBase: FixedUInt<limbCount>, _ otherExponent: FixedUInt<exponentLimbs>
    ) -> (FixedUInt<limbCount>, FixedUInt<limbCount>) {
        FixedUInt.montgomeryPowers(base, exponent, modulus: modulus, inverse: inverse, one: montgomeryOne,
                                   alongside: otherBase, otherExponent, modulus: other.modulus, inverse: other.inverse,
                                   one: other.montgomeryOne)
    }

    /// `base^exponent` for a base in Montgomery form. Leaks: the exponent (public exponents only).
    @inlinable
    package func powerVartime<let exponentLimbs: Int>(
        _ base: FixedUInt<limbCount>, _ exponent: FixedUInt<exponentLimbs>
    ) -> FixedUInt<limbCount> {
        .montgomeryPowerVartime(base, exponent, modulus: modulus, inverse: inverse, one: montgomeryOne)
    }
}
