// Scalar multiplication by public scalars, and the G2 subgroup test that uses it.

import CryptoCore

extension BN254CX.CurvePoint {
    /// k·P by double-and-add over the bits of k. Leaks: k (its bits steer the loop); use only
    /// on public scalars.
    package func multipliedVartime<let n: Int>(by k: FixedUInt<n>) -> Self {
        var result = Self.infinity
        let bits = k.bitLengthVartime
        for i in stride(from: bits - 1, through: 0, by: -1) {
            result = result.doubled()
            if k.bit(i) == 1 { result = result + self }
        }
        return result
    }
}

extension BN254CX.CurvePoint where Field == BN254CX.Fp2 {
    /// 6u² as an integer (p ≡ 6u² mod r is the eigenvalue of ψ on G2).
    package static var sixUSquared: FixedUInt<2> {
        let u = UInt128(BN254CX.absoluteU)
        let value = 6 * u * u  // 127 bits
        return FixedUInt(limbs: [UInt64(truncatingIfNeeded: value), UInt64(truncatingIfNeeded: value >> 64)])
    }

    /// Whether a point of the twist lies in G2: ψ(Q) = [6u²]Q. Sound for BN254CX because
    /// gcd(36u⁴ − 6u²·t + p, 2p − r) = 1 for the eigenvalue 6u² (a test recomputes it), so no
    /// point of order dividing the cofactor 2p − r passes. Leaks nothing secret (Q is public).
    package var isInG2Vartime: Bool {
        psi().isEqual(to: multipliedVartime(by: Self.sixUSquared)).isTrueVartime
    }
}
