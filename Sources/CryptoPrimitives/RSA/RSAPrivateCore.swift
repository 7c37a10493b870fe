// The RSA private operation (RFC 8017 §5.1.2 RSADP, §5.2.1 RSASP1) with the Chinese remainder
// theorem, Garner's recombination, and a check of the result against e before it leaves.

import CryptoCore

/// The CRT parameters of one private key at a modulus width of `limbCount` limbs and prime
/// width of `halfCount` limbs (`limbCount = 2·halfCount`), in memory wiped on release.
final class RSAPrivateCore<let limbCount: Int, let halfCount: Int>: @unchecked Sendable {
    let publicCore: RSAPublicCore<limbCount>
    private var p: MontgomeryContext<halfCount>
    private var q: MontgomeryContext<halfCount>
    private var exponentP: FixedUInt<halfCount>        // dP = d mod (p − 1)
    private var exponentQ: FixedUInt<halfCount>        // dQ = d mod (q − 1)
    private var coefficient: FixedUInt<halfCount>      // qInv·R mod p (Montgomery form)
    private var pRCubed: FixedUInt<halfCount>          // R³ mod p, to reduce the high half of c
    private var qRCubed: FixedUInt<halfCount>
    private var primeQ: FixedUInt<halfCount>

    /// Checks the parameters' consistency (odd primes that fit the half width, n = p·q,
    /// qInv·q ≡ 1 mod p, dP < p, dQ < q, and dP, dQ against e by a test operation); nil when
    /// they are inconsistent.
    init?(publicCore: RSAPublicCore<limbCount>, p: FixedUInt<halfCount>, q: FixedUInt<halfCount>,
          dP: FixedUInt<halfCount>, dQ: FixedUInt<halfCount>, qInv: FixedUInt<halfCount>) {
        guard limbCount == 2 * halfCount,
              let pContext = MontgomeryContext(modulus: p), let qContext = MontgomeryContext(modulus: q),
              Self.join(p.multipliedFullWidth(by: q)).isEqual(to: publicCore.context.modulus).isTrueVartime,
              dP.isLess(than: p).isTrueVartime, dQ.isLess(than: q).isTrueVartime, qInv.isLess(than: p).isTrueVartime
        else { return nil }
        let coefficient = pContext.montgomeryForm(of: qInv)
        // qInv·q ≡ 1 (mod p): (qInv·R)·(q·R²)·R⁻² = qInv·q·R → canonical must be 1.
        let check = pContext.canonical(of: pContext.product(coefficient, pContext.montgomeryForm(of: q)))
        guard check.isEqual(to: FixedUInt(1)).isTrueVartime else { return nil }
        self.publicCore = publicCore
        self.p = pContext
        self.q = qContext
        exponentP = dP
        exponentQ = dQ
        self.coefficient = coefficient
        pRCubed = pContext.product(pContext.rSquared, pContext.rSquared)
        qRCubed = qContext.product(qContext.rSquared, qContext.rSquared)
        primeQ = q
        // dP and dQ against e: one private operation on 2ᵉ must give 2 back (its own check
        // against e catches a mismatch), so a key that cannot work is refused when it is loaded.
        let two = FixedUInt<limbCount>(2)
        guard privateOperation(publicCore.publicOperationVartime(two)) != nil else { return nil }
    }

    deinit {
        withUnsafeMutableBytes(of: &p) { SecretBytes.wipe($0) }
        withUnsafeMutableBytes(of: &q) { SecretBytes.wipe($0) }
        withUnsafeMutableBytes(of: &exponentP) { SecretBytes.wipe($0) }
        withUnsafeMutableBytes(of: &exponentQ) { SecretBytes.wipe($0) }
        withUnsafeMutableBytes(of: &coefficient) { SecretBytes.wipe($0) }
        withUnsafeMutableBytes(of: &pRCubed) { SecretBytes.wipe($0) }
        withUnsafeMutableBytes(of: &qRCubed) { SecretBytes.wipe($0) }
        withUnsafeMutableBytes(of: &primeQ) { SecretBytes.wipe($0) }
    }

    /// cᵈ mod n for c < n, or nil when the result fails the check m^e = c (a fault, or an
    /// inconsistent key: the result must not leave, or it could reveal a factor).
    /// Constant time: both exponentiations run over every bit of dP and dQ with a scanned table.
    func privateOperation(_ c: FixedUInt<limbCount>) -> FixedUInt<limbCount>? {
        let (low, high) = Self.split(c)
        // c mod p in Montgomery form: high·R³ + low·R² (each product reduced by R once).
        let cp = FixedUInt.modularSum(p.product(high, pRCubed), p.product(low, p.rSquared), modulus: p.modulus)
        let cq = FixedUInt.modularSum(q.product(high, qRCubed), q.product(low, q.rSquared), modulus: q.modulus)
        // Both exponentiations in lockstep (each step mod p, then the same step mod q).
        let (m1, m2Montgomery) = p.powers(cp, exponentP, alongside: q, cq, exponentQ)  // Montgomery form
        let m2 = q.canonical(of: m2Montgomery)                   // m2 < q
        // Garner: h = qInv·(m1 − m2) mod p; m = m2 + h·q.
        let difference = FixedUInt.modularDifference(m1, p.montgomeryForm(of: m2), modulus: p.modulus)
        let h = p.canonical(of: p.product(difference, coefficient))
        let (sum, _) = Self.join(h.multipliedFullWidth(by: primeQ)).addingReportingCarry(m2.resized())
        let check = publicCore.publicOperationVartime(sum)
        guard check.isEqual(to: c).isTrueVartime else { return nil }
        return sum
    }

    /// The halves (low, high) of a full-width value.
    static func split(_ value: FixedUInt<limbCount>) -> (FixedUInt<halfCount>, FixedUInt<halfCount>) {
        var low = FixedUInt<halfCount>.zero, high = FixedUInt<halfCount>.zero
        for i in 0..<halfCount {
            low.limbs[i] = value.limbs[i]
            high.limbs[i] = value.limbs[i + halfCount]
        }
        return (low, high)
    }

    /// A full-width value from (high, low) halves.
    static func join(_ halves: (high: FixedUInt<halfCount>, low: FixedUInt<halfCount>)) -> FixedUInt<limbCount> {
        var value = FixedUInt<limbCount>.zero
        for i in 0..<halfCount {
            value.limbs[i] = halves.low.limbs[i]
            value.limbs[i + halfCount] = halves.high.limbs[i]
        }
        return value
    }
}
