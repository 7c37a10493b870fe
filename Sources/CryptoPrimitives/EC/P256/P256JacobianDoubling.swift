// Doublings in Jacobian coordinates. The complete doubling of Renes–Costello–Batina costs
// 8M + 3S + 2 products by b, about 13 products; the Jacobian doubling for a = −3 costs 4M + 4S.
// The scalar multiplications keep their accumulator in Jacobian coordinates (with the additions
// of P256JacobianAddition.swift); a run of k doublings of a projective point converts
// (X : Y : Z) to Jacobian coordinates (XZ : YZ² : Z), doubles k times and converts back
// (XZ : Y : Z³), 4M + 2S for the round trip.
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
    /// 2P for a = −3, correct for every input including the identity (Z = 0 stays Z = 0):
    /// M = 3(X − Z²)(X + Z²), S = 4XY², X₃ = M² − 2S, Y₃ = M(S − X₃) − 8Y⁴, Z₃ = 2YZ, in the
    /// operation order of Gueron and Krasnov's P-256 doubling (as in BoringSSL's
    /// ecp_nistz256_point_double): 4M + 4S with nine additions and one halving (Z₃ is the
    /// product of 2Y, already formed for 4Y², and Z), where EFD dbl-2001-b (3M + 5S) needs
    /// sixteen additions.
    package func doubled() -> Self {
        // The eight products are inlined here (the kernels are @inline(__always)): the
        // doubling is the most frequent operation, and around eight calls every live value
        // is spilled; inlined, about 2 % fewer instructions.
        @inline(__always) func mul(_ a: P256.FieldElement, _ b: P256.FieldElement) -> P256.FieldElement {
            P256.FieldElement(montgomeryForm: P256FieldArithmetic.product(a.montgomeryForm, b.montgomeryForm))
        }
        @inline(__always) func sqr(_ a: P256.FieldElement) -> P256.FieldElement {
            P256.FieldElement(montgomeryForm: P256FieldArithmetic.square(a.montgomeryForm))
        }
        let twoY = y + y
        let zz = sqr(z)                                             // Z²
        let fourYY = sqr(twoY)                                      // 4Y²
        let z3 = mul(twoY, z)                                       // Z₃ = 2YZ, from 2Y (one addition fewer)
        let m0 = mul(x + zz, x - zz)                                // X² − Z⁴
        let m = m0 + m0 + m0                                        // M = 3(X − Z²)(X + Z²)
        let eightY4 = sqr(fourYY).dividedByTwo()                    // 16Y⁴ / 2 = 8Y⁴
        let s = mul(fourYY, x)                                      // S = 4XY²
        let x3 = sqr(m) - (s + s)                                   // X₃ = M² − 2S
        let y3 = mul(s - x3, m) - eightY4                           // Y₃ = M(S − X₃) − 8Y⁴
        return Self(x: x3, y: y3, z: z3)
    }
}
