// Points of P-256 in projective coordinates with the complete formulas of Renes, Costello and
// Batina, "Complete addition formulas for prime order elliptic curves" (EUROCRYPT 2016),
// Algorithms 4 (addition), 5 (mixed addition) and 6 (doubling) for a = −3. Complete means no
// input needs special handling — the identity and P + P included — so the code has no branches.

import CryptoCore

extension P256 {
    /// A point (X : Y : Z) with x = X/Z, y = Y/Z; the identity is (0 : 1 : 0).
    package struct ProjectivePoint: Sendable {
        package var x: FieldElement
        package var y: FieldElement
        package var z: FieldElement

        package init(x: FieldElement, y: FieldElement, z: FieldElement) {
            self.x = x
            self.y = y
            self.z = z
        }

        /// The identity (0 : 1 : 0).
        package static var identity: ProjectivePoint { ProjectivePoint(x: .zero, y: .one, z: .zero) }

        /// The point of an affine point (Z = 1).
        package init(_ point: AffinePoint) {
            self.init(x: point.x, y: point.y, z: .one)
        }
    }

    /// A point (x, y) on the curve; never the identity. Points decoded from outside are checked
    /// on the curve before one of these is made.
    package struct AffinePoint: Sendable {
        package var x: FieldElement
        package var y: FieldElement

        package init(x: FieldElement, y: FieldElement) {
            self.x = x
            self.y = y
        }

        /// Whether y² = x³ − 3x + b.
        package var isOnCurve: Choice {
            let rhs = (x.squared() - FieldElement.three) * x + P256.curveB
            return y.squared().isEqual(to: rhs)
        }

        /// (x, −y).
        package var negated: AffinePoint { AffinePoint(x: x, y: -y) }

        /// `a` if `choice` is true, else `b`.
        package static func select(_ a: AffinePoint, _ b: AffinePoint, if choice: Choice) -> AffinePoint {
            AffinePoint(x: .select(a.x, b.x, if: choice), y: .select(a.y, b.y, if: choice))
        }
    }
}

extension MontgomeryResidue where Modulus == P256FieldModulus {
    /// 3 in Montgomery form.
    static var three: Self { .one + .one + .one }
}

extension P256.ProjectivePoint {
    /// P + Q, complete (RCB 2016, Algorithm 4: 12M + 2m_b + 29a).
    package static func + (p: Self, q: Self) -> Self {
        let b = P256.curveB
        var t0 = p.x * q.x, t1 = p.y * q.y, t2 = p.z * q.z
        var t3 = p.x + p.y, t4 = q.x + q.y
        t3 = t3 * t4
        t4 = t0 + t1
        t3 = t3 - t4
        t4 = p.y + p.z
        var x3 = q.y + q.z
        t4 = t4 * x3
        x3 = t1 + t2
        t4 = t4 - x3
        x3 = p.x + p.z
        var y3 = q.x + q.z
        x3 = x3 * y3
        y3 = t0 + t2
        y3 = x3 - y3
        var z3 = b * t2
        x3 = y3 - z3
        z3 = x3 + x3
        x3 = x3 + z3
        z3 = t1 - x3
        x3 = t1 + x3
        y3 = b * y3
        t1 = t2 + t2
        t2 = t1 + t2
        y3 = y3 - t2
        y3 = y3 - t0
        t1 = y3 + y3
        y3 = t1 + y3
        t1 = t0 + t0
        t0 = t1 + t0
        t0 = t0 - t2
        t1 = t4 * y3
        t2 = t0 * y3
        y3 = x3 * z3
        y3 = y3 + t2
        x3 = t3 * x3
        x3 = x3 - t1
        z3 = t4 * z3
        t1 = t3 * t0
        z3 = z3 + t1
        return Self(x: x3, y: y3, z: z3)
    }

    /// P + Q for an affine Q, complete for every P (RCB 2016, Algorithm 5: 11M + 2m_b + 23a).
    package func adding(_ q: P256.AffinePoint) -> Self {
        let b = P256.curveB
        var t0 = x * q.x, t1 = y * q.y
        var t3 = q.x + q.y, t4 = x + y
        t3 = t3 * t4
        t4 = t0 + t1
        t3 = t3 - t4
        t4 = q.y * z
        t4 = t4 + y
        var y3 = q.x * z
        y3 = y3 + x
        var z3 = b * z
        var x3 = y3 - z3
        z3 = x3 + x3
        x3 = x3 + z3
        z3 = t1 - x3
        x3 = t1 + x3
        y3 = b * y3
        t1 = z + z
        var t2 = t1 + z
        y3 = y3 - t2
        y3 = y3 - t0
        t1 = y3 + y3
        y3 = t1 + y3
        t1 = t0 + t0
        t0 = t1 + t0
        t0 = t0 - t2
        t1 = t4 * y3
        t2 = t0 * y3
        y3 = x3 * z3
        y3 = y3 + t2
        x3 = t3 * x3
        x3 = x3 - t1
        z3 = t4 * z3
        t1 = t3 * t0
        z3 = z3 + t1
        return Self(x: x3, y: y3, z: z3)
    }

    /// 2P, complete (RCB 2016, Algorithm 6: 8M + 3S + 2m_b + 21a).
    package func doubled() -> Self {
        let b = P256.curveB
        var t0 = x.squared(), t1 = y.squared(), t2 = z.squared()
        var t3 = x * y
        t3 = t3 + t3
        var z3 = x * z
        z3 = z3 + z3
        var y3 = b * t2
        y3 = y3 - z3
        var x3 = y3 + y3
        y3 = x3 + y3
        x3 = t1 - y3
        y3 = t1 + y3
        y3 = x3 * y3
        x3 = x3 * t3
        t3 = t2 + t2
        t2 = t2 + t3
        z3 = b * z3
        z3 = z3 - t2
        z3 = z3 - t0
        t3 = z3 + z3
        z3 = z3 + t3
        t3 = t0 + t0
        t0 = t3 + t0
        t0 = t0 - t2
        t0 = t0 * z3
        y3 = y3 + t0
        t0 = y * z
        t0 = t0 + t0
        z3 = t0 * z3
        x3 = x3 - z3
        z3 = t0 * t1
        z3 = z3 + z3
        z3 = z3 + z3
        return Self(x: x3, y: y3, z: z3)
    }

    /// −P.
    package var negated: Self { Self(x: x, y: -y, z: z) }

    /// Whether this is the identity (Z = 0).
    package var isIdentity: Choice { z.isZero }

    /// Whether two points are equal as group elements (X₁Z₂ = X₂Z₁ and Y₁Z₂ = Y₂Z₁).
    package func isEqual(to other: Self) -> Choice {
        (x * other.z).isEqual(to: other.x * z) & (y * other.z).isEqual(to: other.y * z)
    }

    /// `a` if `choice` is true, else `b`.
    package static func select(_ a: Self, _ b: Self, if choice: Choice) -> Self {
        Self(x: .select(a.x, b.x, if: choice), y: .select(a.y, b.y, if: choice), z: .select(a.z, b.z, if: choice))
    }

    /// The affine point and whether this was the identity (whose affine result is (0, 0)).
    /// Constant time: one field inversion (by divsteps).
    package var affine: (point: P256.AffinePoint, isIdentity: Choice) {
        let inverse = z.inverted()
        return (P256.AffinePoint(x: x * inverse, y: y * inverse), isIdentity)
    }
}

extension P256.ProjectivePoint: ConditionallySelectable {}
extension P256.AffinePoint: ConditionallySelectable {}
