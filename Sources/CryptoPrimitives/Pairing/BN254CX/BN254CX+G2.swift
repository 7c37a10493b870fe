// Points of G2, the order-r subgroup of the D-type twist E′: y² = x³ + (1 − i) over Fp2, with
// Milagro's 128-byte encoding x.c0 ‖ x.c1 ‖ y.c0 ‖ y.c1 (no prefix, real parts first;
// docs/protocols/mpin.md §2.2, §2.3).

import CryptoCore

extension BN254CX {
    /// A point of G2.
    public struct G2: Sendable {
        package var point: G2Projective

        package init(_ point: G2Projective) {
            self.point = point
        }

        /// The generator of docs/protocols/mpin.md §2.2 (Milagro crypto-c and miracl/core; not AMCL 4.1's).
        public static var generator: G2 {
            G2(G2Projective(
                affineX: Fp2(Fp(reducing: FixedUInt(limbs: [0xC085_1CEE_E4D2_EC74, 0x907C_85BF_A03E_2726, 0x358B_2500_F5C3_4BBB, 0x1968_2D2C_7053_B256])),
                             Fp(reducing: FixedUInt(limbs: [0x47A5_8E8B_2E29_CFE1, 0xF81B_97B0_C209_C30F, 0xA011_C937_A8E9_9743, 0x1466_B9EC_3E19_F64A]))),
                y: Fp2(Fp(reducing: FixedUInt(limbs: [0x0CFB_FCEB_CF0B_E09F, 0x6361_B33D_847E_C1B3, 0xD81E_2215_7DAE_E209, 0x0A79_EDD9_7233_2B8D])),
                       Fp(reducing: FixedUInt(limbs: [0xED90_4B22_8898_EE9D, 0xC286_4EA5_69D2_EDEB, 0x35C6_E451_2D8D_3461, 0x0616_0C39_ECC4_C090])))))
        }

        /// The point at infinity (the identity). It has no encoding.
        public static var infinity: G2 { G2(.infinity) }

        /// Whether this is the point at infinity.
        public var isInfinity: Bool { point.isInfinity.isTrueVartime }

        /// Decodes x.c0 ‖ x.c1 ‖ y.c0 ‖ y.c1 (128 bytes). Throws `CryptoError.invalidEncoding`
        /// for another length or a coordinate not below p, and `CryptoError.invalidKey` for a
        /// point off the twist or outside the order-r subgroup (Milagro checks only the curve
        /// equation, docs/protocols/mpin.md §2.2; we also check the subgroup, by ψ(Q) = [6u²]Q).
        public init(encoded bytes: some Collection<UInt8>) throws(CryptoError) {
            let bytes = Array(bytes)
            guard bytes.count == 128 else { throw .invalidEncoding }
            guard let x = Fp2(canonicalBytes: bytes[0..<64]), let y = Fp2(canonicalBytes: bytes[64..<128]) else {
                throw .invalidEncoding
            }
            let point = G2Projective(affineX: x, y: y)
            guard point.isOnCurve.isTrueVartime, point.isInG2Vartime else { throw .invalidKey }
            self.init(point)
        }

        /// Decodes bytes this engine produced from a point already checked to lie in G2 (the
        /// subgroup test is skipped; the curve equation is still checked). Nil otherwise.
        package init?(validatedEncoding bytes: some Collection<UInt8>) {
            let bytes = Array(bytes)
            guard bytes.count == 128, let x = Fp2(canonicalBytes: bytes[0..<64]), let y = Fp2(canonicalBytes: bytes[64..<128]) else {
                return nil
            }
            let point = G2Projective(affineX: x, y: y)
            guard point.isOnCurve.isTrueVartime else { return nil }
            self.init(point)
        }

        /// x.c0 ‖ x.c1 ‖ y.c0 ‖ y.c1, 128 bytes; empty for infinity.
        public var rawRepresentation: [UInt8] {
            guard !isInfinity else { return [] }
            let (x, y) = point.affine()
            return x.canonicalBytes + y.canonicalBytes
        }

        /// P + Q.
        public static func + (p: G2, q: G2) -> G2 { G2(p.point + q.point) }
        /// P − Q.
        public static func - (p: G2, q: G2) -> G2 { G2(p.point - q.point) }
        /// −P.
        public static prefix func - (p: G2) -> G2 { G2(-p.point) }
    }
}

extension BN254CX.G2: Equatable {
    /// Equality of points (in constant time).
    public static func == (a: Self, b: Self) -> Bool { a.point.isEqual(to: b.point).isTrueVartime }
}

extension BN254CX.CurvePoint where Field == BN254CX.Fp2 {
    /// ψ(Q) = (conj(x)·ξ^((p−1)/3), conj(y)·ξ^((p−1)/2)), the p-power Frobenius carried to the
    /// twist (docs/protocols/mpin.md §2.2); on G2 it acts as multiplication by p ≡ 6u² (mod r).
    package func psi() -> Self {
        Self(x: x.conjugate * BN254CX.frobeniusGamma2, y: y.conjugate * BN254CX.frobeniusGamma3, z: z.conjugate)
    }
}
