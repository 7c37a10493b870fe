// Constant-time modular inversion by divsteps: Bernstein and Yang, "Fast constant-time gcd
// computation and modular inversion" (TCHES 2019, "safegcd"), in the arrangement of
// libsecp256k1's modinv64 (Wuille's write-up, doc/safegcd_implementation.md): numbers in five
// signed 62-bit limbs, batches of 59 divsteps on the low words giving a 2×2 transition matrix
// scaled by 2⁶², applied to (f, g) exactly and to (d, e) modulo m. Ten batches, 590 divsteps,
// reach g = 0 for every input below a modulus of at most 256 bits (the paper's bound for the
// δ = ½ variant). Every step is masks and wrapping arithmetic: no branch and no memory index
// depends on the input. It replaces Fermat ladders, in which the P-256 affine conversion and
// the signing nonce's inverse spent ~9 µs of a 34 µs signature.

/// An odd modulus below 2²⁵⁶ prepared for ``FixedUInt/divstepInverse(_:modulus:)``.
@usableFromInline
package struct DivstepModulus: Sendable {
    @usableFromInline let limbs: DivstepSigned62
    /// m⁻¹ mod 2⁶².
    @usableFromInline let inverse62: UInt64

    /// Prepares an odd modulus m < 2²⁵⁶.
    package init(_ modulus: FixedUInt<4>) {
        limbs = DivstepSigned62(modulus)
        let m0 = modulus.limbs[0]
        var inverse: UInt64 = m0  // correct to 3 bits for odd m0; each Newton step doubles that
        for _ in 0..<5 { inverse = inverse &* (2 &- m0 &* inverse) }
        inverse62 = inverse & DivstepSigned62.mask
    }
}

/// A signed integer as five limbs of 62 bits (the top limb signed and unbounded), value
/// v₀ + v₁·2⁶² + v₂·2¹²⁴ + v₃·2¹⁸⁶ + v₄·2²⁴⁸.
@usableFromInline
struct DivstepSigned62: Sendable {
    @usableFromInline static var mask: UInt64 { (1 << 62) - 1 }
    @usableFromInline var v0, v1, v2, v3, v4: Int64

    @inlinable init(_ v0: Int64, _ v1: Int64, _ v2: Int64, _ v3: Int64, _ v4: Int64) {
        (self.v0, self.v1, self.v2, self.v3, self.v4) = (v0, v1, v2, v3, v4)
    }

    /// The limbs of a 256-bit unsigned value.
    @inlinable init(_ value: FixedUInt<4>) {
        let a0 = value.limbs[0], a1 = value.limbs[1], a2 = value.limbs[2], a3 = value.limbs[3]
        let m = Self.mask
        self.init(Int64(bitPattern: a0 & m),
                  Int64(bitPattern: ((a0 >> 62) | (a1 << 2)) & m),
                  Int64(bitPattern: ((a1 >> 60) | (a2 << 4)) & m),
                  Int64(bitPattern: ((a2 >> 58) | (a3 << 6)) & m),
                  Int64(bitPattern: a3 >> 56))
    }

    /// The 256-bit value of limbs already normalised to [0, 2²⁵⁶) with each low limb in [0, 2⁶²).
    @inlinable var unsigned: FixedUInt<4> {
        let b0 = UInt64(bitPattern: v0), b1 = UInt64(bitPattern: v1), b2 = UInt64(bitPattern: v2)
        let b3 = UInt64(bitPattern: v3), b4 = UInt64(bitPattern: v4)
        return FixedUInt(limbs: [b0 | (b1 << 62), (b1 >> 2) | (b2 << 60), (b2 >> 4) | (b3 << 58), (b3 >> 6) | (b4 << 56)])
    }
}

/// The transition matrix of one batch of divsteps, scaled by 2⁶²: (f, g) ← (u·f + v·g, q·f + r·g) / 2⁶².
@usableFromInline
struct DivstepMatrix {
    @usableFromInline var u, v, q, r: Int64
    @inlinable init(u: Int64, v: Int64, q: Int64, r: Int64) { (self.u, self.v, self.q, self.r) = (u, v, q, r) }
}

extension FixedUInt where limbCount == 4 {
    /// `x⁻¹ mod m` for `x < m` (m odd, below 2²⁵⁶), in constant time; the inverse of zero is zero.
    /// A value with gcd(x, m) ≠ 1 gives an unspecified result (the moduli used are prime).
    @inlinable
    package static func divstepInverse(_ x: FixedUInt<4>, modulus: DivstepModulus) -> FixedUInt<4> {
        var d = DivstepSigned62(0, 0, 0, 0, 0)
        var e = DivstepSigned62(1, 0, 0, 0, 0)
        var f = modulus.limbs
        var g = DivstepSigned62(x)
        var zeta: Int64 = -1  // ζ = −(δ + ½), δ starting at ½
        for _ in 0..<10 {
            let matrix: DivstepMatrix
            (zeta, matrix) = divsteps59(zeta, UInt64(bitPattern: f.v0), UInt64(bitPattern: g.v0))
            updateModular(&d, &e, matrix, modulus)
            updateExact(&f, &g, matrix)
        }
        // g = 0 and f = ±1 now; d holds ±x⁻¹ in (−2m, m): fold in the sign of f and normalise.
        return normalise(d, negate: f.v4, modulus: modulus).unsigned
    }

    /// 59 divsteps on the low words of f (odd) and g, starting from 8·I so that the matrix
    /// comes out scaled by 2⁶² (libsecp256k1 `secp256k1_modinv64_divsteps_59`). Masks only.
    @inlinable @inline(__always)
    static func divsteps59(_ zetaIn: Int64, _ f0: UInt64, _ g0: UInt64) -> (Int64, DivstepMatrix) {
        var u: UInt64 = 8, v: UInt64 = 0, q: UInt64 = 0, r: UInt64 = 8
        var f = f0, g = g0, zeta = zetaIn
        for _ in 3..<62 {
            var swap = UInt64(bitPattern: zeta >> 63)  // all ones when ζ < 0
            let odd = 0 &- (g & 1)                      // all ones when g is odd
            // g += ±f (and q, r alike), the sign negative when ζ < 0.
            let x = (f ^ swap) &- swap, y = (u ^ swap) &- swap, z = (v ^ swap) &- swap
            g = g &+ (x & odd)
            q = q &+ (y & odd)
            r = r &+ (z & odd)
            swap &= odd
            // ζ ← −ζ − 2 when swapping, else ζ − 1.
            zeta = (zeta ^ Int64(bitPattern: swap)) &- 1
            // When swapping, f ← f + (g − f) = g of before, u, v alike.
            f = f &+ (g & swap)
            u = u &+ (q & swap)
            v = v &+ (r & swap)
            g >>= 1
            u <<= 1
            v <<= 1
        }
        return (zeta, DivstepMatrix(u: Int64(bitPattern: u), v: Int64(bitPattern: v), q: Int64(bitPattern: q), r: Int64(bitPattern: r)))
    }

    /// (d, e) ← (matrix · (d, e) + m·(md, me)) / 2⁶², with md, me chosen to clear the low 62
    /// bits and to keep both in (−2m, m) (libsecp256k1 `secp256k1_modinv64_update_de_62`).
    @inlinable @inline(__always)
    static func updateModular(_ d: inout DivstepSigned62, _ e: inout DivstepSigned62, _ t: DivstepMatrix, _ modulus: DivstepModulus) {
        let m = modulus.limbs
        let mask = Int64(bitPattern: DivstepSigned62.mask)
        let sd = d.v4 >> 63, se = e.v4 >> 63
        var md = (t.u & sd) &+ (t.v & se)
        var me = (t.q & sd) &+ (t.r & se)
        var cd = Int128(t.u) &* Int128(d.v0) &+ Int128(t.v) &* Int128(e.v0)
        var ce = Int128(t.q) &* Int128(d.v0) &+ Int128(t.r) &* Int128(e.v0)
        md &-= Int64(bitPattern: (modulus.inverse62 &* UInt64(truncatingIfNeeded: cd) &+ UInt64(bitPattern: md)) & DivstepSigned62.mask)
        me &-= Int64(bitPattern: (modulus.inverse62 &* UInt64(truncatingIfNeeded: ce) &+ UInt64(bitPattern: me)) & DivstepSigned62.mask)
        cd &+= Int128(m.v0) &* Int128(md)
        ce &+= Int128(m.v0) &* Int128(me)
        cd >>= 62
        ce >>= 62
        @inline(__always) func limb(_ di: Int64, _ ei: Int64, _ mi: Int64) -> (Int64, Int64) {
            cd &+= Int128(t.u) &* Int128(di) &+ Int128(t.v) &* Int128(ei) &+ Int128(mi) &* Int128(md)
            ce &+= Int128(t.q) &* Int128(di) &+ Int128(t.r) &* Int128(ei) &+ Int128(mi) &* Int128(me)
            let outD = Int64(truncatingIfNeeded: cd) & mask, outE = Int64(truncatingIfNeeded: ce) & mask
            cd >>= 62
            ce >>= 62
            return (outD, outE)
        }
        let (d0, e0) = limb(d.v1, e.v1, m.v1)
        let (d1, e1) = limb(d.v2, e.v2, m.v2)
        let (d2, e2) = limb(d.v3, e.v3, m.v3)
        let (d3, e3) = limb(d.v4, e.v4, m.v4)
        d = DivstepSigned62(d0, d1, d2, d3, Int64(truncatingIfNeeded: cd))
        e = DivstepSigned62(e0, e1, e2, e3, Int64(truncatingIfNeeded: ce))
    }

    /// (f, g) ← matrix · (f, g) / 2⁶², exactly (libsecp256k1 `secp256k1_modinv64_update_fg_62`).
    @inlinable @inline(__always)
    static func updateExact(_ f: inout DivstepSigned62, _ g: inout DivstepSigned62, _ t: DivstepMatrix) {
        let mask = Int64(bitPattern: DivstepSigned62.mask)
        var cf = Int128(t.u) &* Int128(f.v0) &+ Int128(t.v) &* Int128(g.v0)
        var cg = Int128(t.q) &* Int128(f.v0) &+ Int128(t.r) &* Int128(g.v0)
        cf >>= 62
        cg >>= 62
        @inline(__always) func limb(_ fi: Int64, _ gi: Int64) -> (Int64, Int64) {
            cf &+= Int128(t.u) &* Int128(fi) &+ Int128(t.v) &* Int128(gi)
            cg &+= Int128(t.q) &* Int128(fi) &+ Int128(t.r) &* Int128(gi)
            let outF = Int64(truncatingIfNeeded: cf) & mask, outG = Int64(truncatingIfNeeded: cg) & mask
            cf >>= 62
            cg >>= 62
            return (outF, outG)
        }
        let (f0, g0) = limb(f.v1, g.v1)
        let (f1, g1) = limb(f.v2, g.v2)
        let (f2, g2) = limb(f.v3, g.v3)
        let (f3, g3) = limb(f.v4, g.v4)
        f = DivstepSigned62(f0, f1, f2, f3, Int64(truncatingIfNeeded: cf))
        g = DivstepSigned62(g0, g1, g2, g3, Int64(truncatingIfNeeded: cg))
    }

    /// r in (−2m, m), negated when `negate` < 0, brought into [0, m) with low limbs in [0, 2⁶²)
    /// (libsecp256k1 `secp256k1_modinv64_normalize_62`).
    @inlinable @inline(__always)
    static func normalise(_ value: DivstepSigned62, negate: Int64, modulus: DivstepModulus) -> DivstepSigned62 {
        let m = modulus.limbs
        let mask = Int64(bitPattern: DivstepSigned62.mask)
        var r = value
        var add = r.v4 >> 63
        r.v0 &+= m.v0 & add; r.v1 &+= m.v1 & add; r.v2 &+= m.v2 & add; r.v3 &+= m.v3 & add; r.v4 &+= m.v4 & add
        let neg = negate >> 63
        r.v0 = (r.v0 ^ neg) &- neg; r.v1 = (r.v1 ^ neg) &- neg; r.v2 = (r.v2 ^ neg) &- neg
        r.v3 = (r.v3 ^ neg) &- neg; r.v4 = (r.v4 ^ neg) &- neg
        r.v1 &+= r.v0 >> 62; r.v0 &= mask
        r.v2 &+= r.v1 >> 62; r.v1 &= mask
        r.v3 &+= r.v2 >> 62; r.v2 &= mask
        r.v4 &+= r.v3 >> 62; r.v3 &= mask
        add = r.v4 >> 63
        r.v0 &+= m.v0 & add; r.v1 &+= m.v1 & add; r.v2 &+= m.v2 & add; r.v3 &+= m.v3 & add; r.v4 &+= m.v4 & add
        r.v1 &+= r.v0 >> 62; r.v0 &= mask
        r.v2 &+= r.v1 >> 62; r.v1 &= mask
        r.v3 &+= r.v2 >> 62; r.v2 &= mask
        r.v4 &+= r.v3 >> 62; r.v3 &= mask
        return r
    }
}

extension MontgomeryResidue where limbCount == 4 {
    /// The inverse by divsteps (``CryptoCore/FixedUInt/divstepInverse(_:modulus:)``) of the
    /// Montgomery form aR, brought back to Montgomery form by one product with R³:
    /// (aR)⁻¹ · R³ · R⁻¹ = a⁻¹R. Constant time; the inverse of zero is zero. `modulus` must be
    /// this type's modulus.
    @inlinable
    package func invertedByDivsteps(_ modulus: DivstepModulus) -> Self {
        let inverse = FixedUInt<4>.divstepInverse(montgomeryForm, modulus: modulus)
        let rCubed = FixedUInt<4>.montgomeryProduct(Modulus.rSquared, Modulus.rSquared, modulus: Modulus.modulus, inverse: Modulus.inverse)
        return Self(montgomeryForm: .montgomeryProduct(inverse, rCubed, modulus: Modulus.modulus, inverse: Modulus.inverse))
    }
}
