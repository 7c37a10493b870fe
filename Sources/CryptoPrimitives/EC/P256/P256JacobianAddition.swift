// Additions in Jacobian coordinates, so the scalar multiplications can keep their accumulator
// in the coordinates of the (cheaper) Jacobian doubling (P256JacobianDoubling.swift) without
// converting at every window:
// - "madd-2007-bl" (Jacobian + affine: 7M + 4S, here 8M + 3S with four additions fewer)
//   against the complete mixed addition's 11M + 2 products by b (Renes–Costello–Batina
//   2016, Algorithm 5);
// - "add-2007-bl" (Jacobian + Jacobian: 11M + 5S) against the complete addition's 12M + 2
//   products by b plus 4M + 2S of coordinate conversions around every run of doublings.
// Both from the Explicit-Formulas Database (Bernstein and Lange), for any a.
//
// These formulas are not complete. With H = U₂ − U₁ and r = 2(S₂ − S₁):
// - P + Q with P ≠ ±Q, neither the identity: correct;
// - P + (−P): H = 0, r ≠ 0, and Z₃ = 0: the identity, correct (Z = 0 is the identity class);
// - P + P: H = 0, r = 0, and the result is (0 : 0 : 0): WRONG, not a point;
// - the identity (Z = 0) as either input: WRONG.
// Each caller says why the doubling case cannot reach it and replaces the identity cases by
// masks (constant time) or branches (public inputs): P256ScalarMultiplication.swift and
// P256DoubleScalarVartime.swift. `addingVartime(_:)` is
// the variant handling every case, by branches, for public points.

import CryptoCore

extension P256.JacobianPoint {
    /// The identity as (1 : 1 : 0) (any Z = 0 is the identity).
    package static var identity: Self { Self(x: .one, y: .one, z: .zero) }

    /// An affine point with Z = 1.
    package init(_ point: P256.AffinePoint) {
        self.init(x: point.x, y: point.y, z: .one)
    }

    /// Whether this is the identity (Z = 0).
    package var isIdentity: Choice { z.isZero }

    /// −P.
    package var negated: Self { Self(x: x, y: -y, z: z) }

    /// `a` if `choice` is true, else `b`.
    package static func select(_ a: Self, _ b: Self, if choice: Choice) -> Self {
        Self(x: .select(a.x, b.x, if: choice), y: .select(a.y, b.y, if: choice), z: .select(a.z, b.z, if: choice))
    }

    /// P + Q for an affine Q by madd-2007-bl (7M + 4S), with whether H and r were zero.
    /// Correct unless P is the identity or P = Q (see the file comment); constant time.
    ///
    /// Two of the formula's identities save four additions for one product in place of a
    /// square: I = 4·HH = (2H)², and Z₃ = (Z₁ + H)² − Z₁Z₁ − HH = 2·Z₁·H, so HH itself is
    /// never needed: 8M + 3S (BoringSSL's ecp_nistz256_point_add_affine likewise forms
    /// Z₃ = Z₁·H, for the unscaled r).
    package func incompleteAdding(_ q: P256.AffinePoint) -> (sum: Self, hIsZero: Choice, rIsZero: Choice) {
        // The products are inlined (the kernels are @inline(__always)), as in `doubled()`:
        // this addition runs once per window of every scalar multiplication.
        @inline(__always) func mul(_ a: P256.FieldElement, _ b: P256.FieldElement) -> P256.FieldElement {
            P256.FieldElement(montgomeryForm: P256FieldArithmetic.product(a.montgomeryForm, b.montgomeryForm))
        }
        @inline(__always) func sqr(_ a: P256.FieldElement) -> P256.FieldElement {
            P256.FieldElement(montgomeryForm: P256FieldArithmetic.square(a.montgomeryForm))
        }
        let z1z1 = sqr(z)                                           // Z₁Z₁ = Z₁²
        let u2 = mul(q.x, z1z1)                                     // U₂ = X₂·Z₁Z₁
        let s2 = mul(q.y, mul(z, z1z1))                             // S₂ = Y₂·Z₁·Z₁Z₁
        let h = u2 - x                                              // H = U₂ − X₁
        let h2 = h + h
        let i = sqr(h2)                                             // I = 4·HH = (2H)²
        let j = mul(h, i)                                           // J = H·I
        let sy = s2 - y
        let r = sy + sy                                             // r = 2·(S₂ − Y₁)
        let v = mul(x, i)                                           // V = X₁·I
        let x3 = sqr(r) - j - (v + v)                               // X₃ = r² − J − 2V
        let yj = mul(y, j)
        let y3 = mul(r, v - x3) - (yj + yj)                         // Y₃ = r·(V − X₃) − 2·Y₁·J
        let z3 = mul(z, h2)                                         // Z₃ = (Z₁ + H)² − Z₁Z₁ − HH = 2·Z₁·H
        return (Self(x: x3, y: y3, z: z3), h.isZero, r.isZero)
    }

    /// P + Q by add-2007-bl (11M + 5S), with whether H and r were zero. Correct unless either
    /// input is the identity or P = Q (see the file comment); constant time.
    package func incompleteAdding(_ q: Self) -> (sum: Self, hIsZero: Choice, rIsZero: Choice) {
        let z1z1 = z.squared()                                      // Z₁Z₁ = Z₁²
        let z2z2 = q.z.squared()                                    // Z₂Z₂ = Z₂²
        let u1 = x * z2z2                                           // U₁ = X₁·Z₂Z₂
        let u2 = q.x * z1z1                                         // U₂ = X₂·Z₁Z₁
        let s1 = y * (q.z * z2z2)                                   // S₁ = Y₁·Z₂·Z₂Z₂
        let s2 = q.y * (z * z1z1)                                   // S₂ = Y₂·Z₁·Z₁Z₁
        let h = u2 - u1                                             // H = U₂ − U₁
        let h2 = h + h
        let i = h2.squared()                                        // I = (2H)²
        let j = h * i                                               // J = H·I
        let sd = s2 - s1
        let r = sd + sd                                             // r = 2·(S₂ − S₁)
        let v = u1 * i                                              // V = U₁·I
        let x3 = r.squared() - j - (v + v)                          // X₃ = r² − J − 2V
        let s1j = s1 * j
        let y3 = r * (v - x3) - (s1j + s1j)                         // Y₃ = r·(V − X₃) − 2·S₁·J
        let z3 = ((z + q.z).squared() - z1z1 - z2z2) * h            // Z₃ = ((Z₁ + Z₂)² − Z₁Z₁ − Z₂Z₂)·H
        return (Self(x: x3, y: y3, z: z3), h.isZero, sd.isZero)
    }

    /// P + Q for an affine Q, correct for every P. Leaks: whether P is the identity, P = Q or
    /// P = −Q (through branches); use only on public points.
    package func addingVartime(_ q: P256.AffinePoint) -> Self {
        if isIdentity.isTrueVartime { return Self(q) }
        let (sum, hIsZero, rIsZero) = incompleteAdding(q)
        if hIsZero.isTrueVartime {
            return rIsZero.isTrueVartime ? doubled() : .identity    // P = Q, or P = −Q
        }
        return sum
    }

    /// P + Q, correct for every P and Q. Leaks: whether either is the identity, P = Q or
    /// P = −Q (through branches); use only on public points.
    package func addingVartime(_ q: Self) -> Self {
        if isIdentity.isTrueVartime { return q }
        if q.isIdentity.isTrueVartime { return self }
        let (sum, hIsZero, rIsZero) = incompleteAdding(q)
        if hIsZero.isTrueVartime {
            return rIsZero.isTrueVartime ? doubled() : .identity    // P = Q, or P = −Q
        }
        return sum
    }

    /// The affine point (X/Z², Y/Z³) and whether this was the identity (whose affine result
    /// is (0, 0)). Constant time: one field inversion (by divsteps).
    package var affine: (point: P256.AffinePoint, isIdentity: Choice) {
        let inverse = z.inverted()
        let inverseSquared = inverse.squared()
        return (P256.AffinePoint(x: x * inverseSquared, y: y * (inverseSquared * inverse)), isIdentity)
    }

    /// The affine x-coordinate X/Z² and whether this was the identity (whose x is then 0).
    /// Constant time: one field inversion (by divsteps).
    package var affineX: (x: P256.FieldElement, isIdentity: Choice) {
        let inverse = z.inverted()
        return (x * inverse.squared(), isIdentity)
    }
}

extension P256.JacobianPoint: ConditionallySelectable {}
