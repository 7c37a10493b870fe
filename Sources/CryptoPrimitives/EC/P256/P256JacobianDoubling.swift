// Runs of doublings in Jacobian coordinates. The complete doubling of
// Renes–Costello–Batina costs 8M + 3S + 2 products by b, about 13 products; the Jacobian
// doubling for a = −3 ("dbl-2001-b" of the Explicit-Formulas Database, Bernstein and Lange)
// costs 3M + 5S. A run of k doublings converts (X : Y : Z) to Jacobian coordinates
// (XZ : YZ² : Z), doubles k times and converts back (XZ : Y : Z³), 4M + 2S for the round trip:
// the five doublings of a window cost ~46 products instead of ~65. The additions stay the
// complete ones.
//
// The identity needs no branch: homogeneous (0 : Y : 0) maps to Jacobian (0 : 0 : 0), which is
// not a point, so a mask replaces it by (1 : 1 : 0); the Jacobian doubling of any (X : Y : 0)
// has Z = 0 again, and (1 : 1 : 0) doubles to itself, which maps back to (0 : 1 : 0). On a
// curve of prime order no other point has Z = 0, and no point of order 2 exists, so the
// doubling formula has no exceptional input. Constant time.

import CryptoCore

extension P256 {
    /// A point (X : Y : Z) in Jacobian coordinates: x = X/Z², y = Y/Z³; Z = 0 for the identity.
    package struct JacobianPoint: Sendable {
        package var x: FieldElement
        package var y: FieldElement
        package var z: FieldElement
    }
}

extension P256.ProjectivePoint {
    /// 2ᵏ·P for k ≥ 1, by k Jacobian doublings between two coordinate conversions (constant
    /// time in P; k is public). Equal to k calls of ``doubled()`` as group elements.
    package func doubled(repeatedly count: Int) -> Self {
        var point = jacobian
        for _ in 0..<count { point = point.doubled() }
        return Self(point)
    }

    /// The same point in Jacobian coordinates (XZ : YZ² : Z), the identity as (1 : 1 : 0).
    package var jacobian: P256.JacobianPoint {
        let zz = z.squared()
        let isIdentity = z.isZero
        return P256.JacobianPoint(x: .select(.one, x * z, if: isIdentity), y: .select(.one, y * zz, if: isIdentity), z: z)
    }

    /// The same point in homogeneous projective coordinates (XZ : Y : Z³).
    package init(_ point: P256.JacobianPoint) {
        self.init(x: point.x * point.z, y: point.y, z: point.z.squared() * point.z)
    }
}

extension P256.JacobianPoint {
    /// 2P for a = −3 (EFD dbl-2001-b: 3M + 5S), correct for every input including the identity
    /// (Z = 0 stays Z = 0).
    package func doubled() -> Self {
        let delta = z.squared()
        let gamma = y.squared()
        let beta = x * gamma
        let t = (x - delta) * (x + delta)
        let alpha = t + t + t                                       // 3(X − δ)(X + δ)
        let beta2 = beta + beta, beta4 = beta2 + beta2
        let x3 = alpha.squared() - (beta4 + beta4)                  // α² − 8β
        let yz = y + z
        let z3 = yz.squared() - gamma - delta                       // (Y + Z)² − γ − δ
        let gamma2 = gamma.squared()
        let g2 = gamma2 + gamma2, g4 = g2 + g2
        let y3 = alpha * (beta4 - x3) - (g4 + g4)                   // α(4β − X₃) − 8γ²
        return Self(x: x3, y: y3, z: z3)
    }
}
