// The ECDSA operations on scalars and points (SEC 1 v2 §4.1.3 signing, §4.1.4 verification).

import CryptoCore

extension P256 {
    /// An ECDSA signature (r, s), each in [1, n).
    package struct SignatureValues: Sendable {
        package let r: FixedUInt<4>
        package let s: FixedUInt<4>

        package init(r: FixedUInt<4>, s: FixedUInt<4>) {
            self.r = r
            self.s = s
        }

        /// The values of a public signature.
        package init(_ signature: P256.Signing.ECDSASignature) {
            self = signature.values
        }
    }

    /// Signs a digest with the private scalar d and nonce k (both secret, in [1, n)); nil in
    /// the negligible cases r = 0 or s = 0, where the caller draws another nonce.
    /// Constant time in d and k.
    package static func sign(digest: some Collection<UInt8>, privateKey d: Scalar, nonce k: FixedUInt<4>) -> SignatureValues? {
        let z = Scalar(digest: digest)                                 // §4.1.3 step 5
        let (x, _) = multiplyGeneratorJacobian(by: k).affineX          // step 1: R = k·G
        let r = Scalar(reducing: x.canonical)                          // steps 2–3: r = x mod n
        let kScalar = Scalar(reducing: k)
        let s = kScalar.inverted() * (z + r * d)                       // step 6
        guard !(r.isZero | s.isZero).isTrueVartime else { return nil } // step 4 and 6
        return SignatureValues(r: r.canonical, s: s.canonical)
    }

    /// Whether (r, s) is a valid signature of the digest under the public point Q.
    /// Every input is public; the arithmetic is variable time.
    package static func isValidSignature(_ signature: SignatureValues, digest: some Collection<UInt8>, publicKey q: AffinePoint) -> Bool {
        // §4.1.4 step 1: r and s in [1, n − 1].
        let n = P256OrderModulus.modulus
        guard !signature.r.isZero.isTrueVartime, !signature.s.isZero.isTrueVartime,
              signature.r.isLess(than: n).isTrueVartime, signature.s.isLess(than: n).isTrueVartime else { return false }
        let z = Scalar(digest: digest)
        let w = Scalar(reducing: signature.s).inverted()  // divsteps: about half the binary Euclid's cost here
        let r = Scalar(reducing: signature.r)
        let u1 = (z * w).canonical, u2 = (r * w).canonical
        let point = doubleScalarMultiplyVartime(generatorScalar: u1, point: ProjectivePoint(q), scalar: u2)
        guard !point.isIdentity.isTrueVartime else { return false }
        // x(R) ≡ r (mod n), checked projectively: X = r·Z, or X = (r + n)·Z when r + n < p.
        let rField = FieldElement(reducing: signature.r)
        if point.x.isEqual(to: rField * point.z).isTrueVartime { return true }
        let (rPlusN, carry) = signature.r.addingReportingCarry(n)
        guard carry == 0, rPlusN.isLess(than: P256FieldModulus.modulus).isTrueVartime else { return false }
        return point.x.isEqual(to: FieldElement(reducing: rPlusN) * point.z).isTrueVartime
    }
}
