// A modulus known at compile time and the residue type that lives on it.

/// A compile-time odd modulus with its Montgomery constants (R = 2^(64·limbs)).
///
/// Conforming types are caseless enums whose properties return literals, so every use folds to
/// constants after specialisation. A test recomputes each constant from `modulus`.
@usableFromInline
package protocol MontgomeryModulus: Sendable {
    /// The integer type (`FixedUInt<N>`).
    associatedtype Integer: Sendable
    /// The odd modulus m.
    static var modulus: Integer { get }
    /// `−m⁻¹ mod 2⁶⁴`.
    static var inverse: UInt64 { get }
    /// `R mod m`, the Montgomery form of 1.
    static var montgomeryOne: Integer { get }
    /// `R² mod m`, used to enter Montgomery form.
    static var rSquared: Integer { get }
}

/// An element of ℤ/mℤ for a compile-time modulus, always held in Montgomery form.
///
/// Every operation runs in constant time. Values enter through ``init(reducing:)`` or the
/// canonical decoder and leave through ``canonical``.
@frozen
@usableFromInline
package struct MontgomeryResidue<let limbCount: Int, Modulus: MontgomeryModulus>: Sendable
where Modulus.Integer == FixedUInt<limbCount> {
    /// `value · R mod m`.
    @usableFromInline
    package var montgomeryForm: FixedUInt<limbCount>

    /// Wraps a value already in Montgomery form (must be below m).
    @inlinable @inline(__always)
    package init(montgomeryForm: FixedUInt<limbCount>) {
        self.montgomeryForm = montgomeryForm
    }

    /// The residue of any `value < R`, reduced mod m.
    @inlinable @inline(__always)
    package init(reducing value: FixedUInt<limbCount>) {
        montgomeryForm = .montgomeryProduct(value, Modulus.rSquared, modulus: Modulus.modulus, inverse: Modulus.inverse)
    }

    /// A canonical value (`value < m`) and whether it was canonical; a non-canonical input
    /// yields zero with a false choice.
    @inlinable
    package static func fromCanonical(_ value: FixedUInt<limbCount>) -> (residue: Self, isCanonical: Choice) {
        let isCanonical = value.isLess(than: Modulus.modulus)
        let residue = Self(reducing: .select(value, .zero, if: isCanonical))
        return (residue, isCanonical)
    }

    /// The canonical representative in `0..<m`.
    @inlinable @inline(__always)
    package var canonical: FixedUInt<limbCount> {
        .montgomeryProduct(montgomeryForm, FixedUInt(1), modulus: Modulus.modulus, inverse: Modulus.inverse)
    }

    /// Zero.
    @inlinable package static var zero: Self { Self(montgomeryForm: .zero) }
    /// One.
    @inlinable package static var one: Self { Self(montgomeryForm: Modulus.montgomeryOne) }

    @inlinable @inline(__always)
    package static func + (a: Self, b: Self) -> Self {
        Self(montgomeryForm: .modularSum(a.montgomeryForm, b.montgomeryForm, modulus: Modulus.modulus))
    }

    @inlinable @inline(__always)
    package static func - (a: Self, b: Self) -> Self {
        Self(montgomeryForm: .modularDifference(a.montgomeryForm, b.montgomeryForm, modulus: Modulus.modulus))
    }

    @inlinable @inline(__always)
    package static prefix func - (a: Self) -> Self {
        Self(montgomeryForm: .modularNegation(a.montgomeryForm, modulus: Modulus.modulus))
    }

    @inlinable @inline(__always)
    package static func * (a: Self, b: Self) -> Self {
        Self(montgomeryForm: .montgomeryProduct(a.montgomeryForm, b.montgomeryForm, modulus: Modulus.modulus, inverse: Modulus.inverse))
    }

    /// `self²`.
    @inlinable @inline(__always)
    package func squared() -> Self { self * self }

    /// `self^exponent` in constant time (the exponent may be secret).
    @inlinable
    package func power<let exponentLimbs: Int>(_ exponent: FixedUInt<exponentLimbs>) -> Self {
        Self(montgomeryForm: .montgomeryPower(
            montgomeryForm, exponent, modulus: Modulus.modulus, inverse: Modulus.inverse, one: Modulus.montgomeryOne))
    }

    /// `self^exponent`. Leaks: the exponent; use only with public exponents (the base stays
    /// secret: it is never branched on).
    @inlinable
    package func powerVartime<let exponentLimbs: Int>(_ exponent: FixedUInt<exponentLimbs>) -> Self {
        Self(montgomeryForm: .montgomeryPowerVartime(
            montgomeryForm, exponent, modulus: Modulus.modulus, inverse: Modulus.inverse, one: Modulus.montgomeryOne))
    }

    /// The multiplicative inverse by Fermat's little theorem (`self^(m−2)`). Constant time in
    /// `self`: only the public exponent m − 2 shapes the sliding window. The modulus must be
    /// prime; the inverse of zero is zero.
    @inlinable
    package func inverted() -> Self {
        powerVartime(Modulus.modulus.subtractingReportingBorrow(FixedUInt(2)).difference)
    }

    /// Whether the residue is zero.
    @inlinable @inline(__always)
    package var isZero: Choice { montgomeryForm.isZero }

    /// Whether two residues are equal.
    @inlinable @inline(__always)
    package func isEqual(to other: Self) -> Choice { montgomeryForm.isEqual(to: other.montgomeryForm) }

    /// `a` if `choice` is true, else `b`.
    @inlinable @inline(__always)
    package static func select(_ a: Self, _ b: Self, if choice: Choice) -> Self {
        Self(montgomeryForm: .select(a.montgomeryForm, b.montgomeryForm, if: choice))
    }
}
