// The optimal ate pairing e: G2 × G1 → GT and the target group GT ⊂ Fp12 (docs/protocols/mpin.md §2.4).

import CryptoCore

extension BN254CX {
    /// An element of GT, the order-r subgroup of Fp12*, with Milagro's 384-byte encoding.
    public struct GT: Sendable {
        package var value: Fp12

        package init(_ value: Fp12) {
            self.value = value
        }

        /// The identity, 1.
        public static var one: GT { GT(.one) }

        /// Whether this is the identity (all twelve coefficients those of 1, docs/protocols/mpin.md §2.4).
        public var isOne: Bool { value.isOne.isTrueVartime }

        /// 384 bytes a ‖ b ‖ c, each Fp4 as c0 ‖ c1, each Fp2 real part first (docs/protocols/mpin.md §2.3).
        public var rawRepresentation: [UInt8] { value.canonicalBytes }

        /// Decodes 384 bytes. Throws `CryptoError.invalidEncoding` for another length or a
        /// coordinate not below p, and `CryptoError.invalidKey` for a value outside GT.
        public init(rawRepresentation bytes: some Collection<UInt8>) throws(CryptoError) {
            guard let value = Fp12(canonicalBytes: bytes) else { throw .invalidEncoding }
            guard value.isInGTVartime else { throw .invalidKey }
            self.init(value)
        }

        /// The product.
        public static func * (a: GT, b: GT) -> GT { GT(a.value * b.value) }

        /// The inverse (the conjugate, for an element of GT).
        public var inverse: GT { GT(value.conjugate) }
    }

    /// e(Q, P), the optimal ate pairing with the full final exponentiation (p¹² − 1)/r, so the
    /// value equals Milagro's `PAIR_ate` + `PAIR_fexp` byte for byte. Constant time in P.
    public static func pairing(_ q: G2, _ p: G1) -> GT {
        multiPairing([(q, p)])
    }

    /// Π e(Qᵢ, Pᵢ) with one shared Miller loop and one final exponentiation (Milagro
    /// `PAIR_double_ate` for two pairs). All points are made affine with one inversion.
    public static func multiPairing(_ pairs: [(G2, G1)]) -> GT {
        // A pair with a point at infinity contributes 1: the loop leaves it out.
        let finite = pairs.filter { !$0.0.isInfinity && !$0.1.isInfinity }
        let (qs, ps) = affineBatch(g2: finite.map { $0.0.point }, g1: finite.map { $0.1.point })
        let loopPairs = finite.indices.map { i in
            (q: G2Prepared(x: qs[i].x, y: qs[i].y, isInfinity: false), px: ps[i].x, py: ps[i].y)
        }
        return GT(millerLoop(loopPairs).finalExponentiation())
    }

    /// Π e(Qᵢ, Pᵢ) for G2 points whose Miller-loop lines were computed beforehand (a fixed Q,
    /// such as ``generatorLines``, is then prepared once, not once per pairing).
    package static func multiPairing(prepared pairs: [(q: G2Prepared, p: G1)]) -> GT {
        let finite = pairs.filter { !$0.q.isInfinity && !$0.p.isInfinity }
        let (_, ps) = affineBatch(g2: [], g1: finite.map { $0.p.point })
        let loopPairs = finite.indices.map { i in (q: finite[i].q, px: ps[i].x, py: ps[i].y) }
        return GT(millerLoop(loopPairs).finalExponentiation())
    }

    /// The affine coordinates of points with Z ≠ 0, with one Fp inversion for all
    /// (``BN254CXCurveField/invertedTogether(_:)``; a G2 point's 1/Z is Z̄/N(Z) with the norm
    /// N(Z) = c0² + c1² in Fp). Constant time in the points (only the counts steer it).
    package static func affineBatch(g2: [G2Projective], g1: [G1Projective]) -> (g2: [(x: Fp2, y: Fp2)], g1: [(x: Fp, y: Fp)]) {
        var denominators: [Fp] = []
        denominators.reserveCapacity(g2.count + g1.count)  // one buffer, wiped below
        for point in g2 { denominators.append(point.z.c0.squared() + point.z.c1.squared()) }
        for point in g1 { denominators.append(point.z) }
        var inverses = Fp.invertedTogether(denominators)  // 1/di
        let g2Affine = g2.indices.map { i -> (x: Fp2, y: Fp2) in
            var zInverse = g2[i].z.conjugate * inverses[i]
            defer { withUnsafeMutableBytes(of: &zInverse) { SecretBytes.wipe($0) } }
            return (g2[i].x * zInverse, g2[i].y * zInverse)
        }
        let g1Affine = g1.indices.map { i -> (x: Fp, y: Fp) in
            (g1[i].x * inverses[g2.count + i], g1[i].y * inverses[g2.count + i])
        }
        // The points may be secret (a client's share), and so are the Zs and their inverses.
        denominators.withUnsafeMutableBytes { SecretBytes.wipe($0) }
        inverses.withUnsafeMutableBytes { SecretBytes.wipe($0) }
        return (g2Affine, g1Affine)
    }

    /// The Miller-loop lines of the G2 generator, computed once per process (the
    /// M-Pin verifier pairs with Q on every authentication) and normalized. Public values.
    package static let generatorLines = G2Prepared(normalizing: G2.generator)
}

extension BN254CX.G2Prepared {
    /// The lines for a G2 point, normalized (``normalize()``): for lines that are kept.
    package init(normalizing q: BN254CX.G2) {
        self.init(q)
        normalize()
    }

    /// The lines for a G2 point (none needed for the point at infinity).
    package init(_ q: BN254CX.G2) {
        if q.isInfinity {
            self.init(x: .zero, y: .zero, isInfinity: true)
        } else {
            let (x, y) = q.point.affine()
            self.init(x: x, y: y, isInfinity: false)
        }
    }
}

extension BN254CX.Fp12 {
    /// Whether the value lies in GT: in the cyclotomic subgroup (f^(p⁴ − p² + 1) = 1, checked
    /// as f^(p⁴)·f = f^(p²)) and f^p = f^(6u²), a test that is sound because gcd(p − 6u²,
    /// Φ₁₂(p)/r) = 1 for BN254CX (a test recomputes that gcd). Leaks: nothing about a value in
    /// GT beyond membership; used on public values.
    package var isInGTVartime: Bool {
        let p2 = frobeniusSquared()
        guard (p2.frobeniusSquared() * self).isEqual(to: p2).isTrueVartime else { return false }
        // f^(6u²) = (f^(u²))² · (f^(u²))⁴; two exponentiations by u (the signs cancel).
        let u2 = powerByU().powerByU()
        let u2Squared = u2.cyclotomicSquared()
        let sixU2 = u2Squared * u2Squared.cyclotomicSquared()
        return frobenius().isEqual(to: sixU2).isTrueVartime
    }
}

extension BN254CX.GT {
    /// g^k for an integer k below 2²⁵⁶, with cyclotomic squarings and a fixed 4-bit window
    /// whose table read scans all 16 entries. Constant time in k and g.
    package func power(by k: FixedUInt<4>) -> BN254CX.GT {
        typealias Fp12 = BN254CX.Fp12
        var table = InlineArray<16, Fp12>(repeating: .one)
        for i in 1..<16 { table[i] = table[i - 1] * value }
        var result = Fp12.one
        for window in stride(from: 63, through: 0, by: -1) {
            for _ in 0..<4 { result = result.cyclotomicSquared() }
            let bits = (k.limbs[window >> 4] >> UInt64((window & 15) * 4)) & 0xF
            var entry = Fp12.one
            for i in 0..<16 { entry = Fp12.select(table[i], entry, if: UInt64(i).isEqual(to: bits)) }
            result = result * entry
        }
        return BN254CX.GT(result)
    }

    /// g^k (Galbraith–Scott). Constant time in k and g.
    public func power(_ k: BN254CX.Scalar) -> BN254CX.GT {
        powerGS(by: k.integer)
    }
}

extension BN254CX.GT {
    /// The lowest 56-bit limb of the first Fp coefficient (a.c0.c0) as Milagro's 64-bit build
    /// stores it: in Montgomery form with R = 2²⁸⁰ (five 56-bit limbs), fully reduced. Milagro's
    /// PIN-error kangaroo picks its jumps from this value, so reproducing its answers needs it.
    /// Leaks: the value (use on public GT elements only).
    package var milagroFirstLimbVartime: UInt64 {
        // Our Montgomery form is x·2²⁵⁶ mod p; the product by 2²⁴ in Montgomery form carries it
        // to x·2²⁸⁰ mod p.
        let shifted = value.a.c0.c0 * BN254CX.Fp(small: 1 << 24)
        return shifted.montgomeryForm.limbs[0] & ((1 << 56) - 1)
    }

    /// g².
    package func squared() -> BN254CX.GT { BN254CX.GT(value.cyclotomicSquared()) }
}

extension BN254CX.GT: Equatable {
    /// Equality of the twelve coefficients (constant time).
    public static func == (a: Self, b: Self) -> Bool { a.value.isEqual(to: b.value).isTrueVartime }
}
