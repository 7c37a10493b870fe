// The private arithmetic of a key at the width class of its modulus: CRT when both primes fit
// half the width (every key FIPS 186-5 A.1 allows, and every key we generate), otherwise the
// direct exponentiation cᵈ mod n, so keys with unbalanced primes still work.

import CryptoCore

/// RSADP/RSASP1 (RFC 8017 §5.1.2, §5.2.1): cᵈ mod n as k bytes, for c < n given in at most
/// k bytes; nil when c ≥ n or the result fails its check against e. Constant time in the key
/// and in c. A closure made where the width is concrete, so the arithmetic inside is
/// specialised (a protocol witness on a generic class would run the unspecialised code).
typealias RSAPrivateOperation = @Sendable (_ input: [UInt8], _ byteCount: Int) -> [UInt8]?

/// The private arithmetic of a key.
struct RSAPrivateArithmetic: Sendable {
    private let operation: RSAPrivateOperation

    /// The arithmetic from a key's components, checked for consistency; throws
    /// `CryptoError.invalidKey` when they are inconsistent.
    init(_ key: RSAKeyComponents) throws(CryptoError) {
        switch try RSAPublicArithmetic(modulus: key.modulus, exponent: key.publicExponent) {
        case .bits1024(let c): operation = try Self.operation(c, key, half: 8)
        case .bits2048(let c): operation = try Self.operation(c, key, half: 16)
        case .bits3072(let c): operation = try Self.operation(c, key, half: 24)
        case .bits4096(let c): operation = try Self.operation(c, key, half: 32)
        case .bits8192(let c): operation = try Self.operation(c, key, half: 64)
        }
    }

    func privateOperation(_ input: [UInt8], byteCount k: Int) -> [UInt8]? {
        operation(input, k)
    }

    /// The CRT core when p and q fit `halfCount` limbs, else the direct core. Which one is used
    /// depends only on the primes' public lengths.
    private static func operation<let n: Int>(_ publicCore: RSAPublicCore<n>, _ key: RSAKeyComponents,
                                              half: Int) throws(CryptoError) -> RSAPrivateOperation {
        let fits = key.prime1.count <= half * 8 && key.prime2.count <= half * 8
        switch (fits, half) {
        case (true, 8): return try crt(publicCore, key, FixedUInt<8>.self)
        case (true, 16): return try crt(publicCore, key, FixedUInt<16>.self)
        case (true, 24): return try crt(publicCore, key, FixedUInt<24>.self)
        case (true, 32): return try crt(publicCore, key, FixedUInt<32>.self)
        case (true, 64): return try crt(publicCore, key, FixedUInt<64>.self)
        default:
            guard let core = RSADirectCore(publicCore: publicCore, key: key) else { throw .invalidKey }
            return { core.privateOperation($0, byteCount: $1) }
        }
    }

    private static func crt<let n: Int, let h: Int>(_ publicCore: RSAPublicCore<n>, _ key: RSAKeyComponents,
                                                    _: FixedUInt<h>.Type) throws(CryptoError) -> RSAPrivateOperation {
        func half(_ secret: SecretBytes) -> FixedUInt<h>? { secret.withUnsafeBytes { FixedUInt<h>(bigEndian: $0) } }
        guard let p = half(key.prime1), let q = half(key.prime2), let dP = half(key.exponent1), let dQ = half(key.exponent2),
              let qInv = half(key.coefficient),
              let core = RSAPrivateCore<n, h>(publicCore: publicCore, p: p, q: q, dP: dP, dQ: dQ, qInv: qInv),
              let d = key.privateExponent.withUnsafeBytes({ FixedUInt<n>(bigEndian: $0) }), publicCore.contains(d),
              exponentsAgree(d, p: p, q: q, dP: dP, dQ: dQ).isTrueVartime else { throw .invalidKey }
        return { core.privateOperation($0, byteCount: $1) }
    }

    /// d ≡ dP (mod p − 1) and d ≡ dQ (mod q − 1) (RFC 8017 §3.2: dP and dQ are d reduced, and
    /// with dP·e ≡ 1 and dQ·e ≡ 1, checked by the cores' test operation, e·d ≡ 1 mod λ(n)).
    /// The arithmetic never uses d, but implicit rejection keys on it and the key's DER carries
    /// it, so a key whose d disagrees is refused as other implementations refuse it. Constant
    /// time in every value; p and q are odd primes ≥ 3 when the caller has checked n = p·q.
    static func exponentsAgree<let n: Int, let h: Int>(_ d: FixedUInt<n>, p: FixedUInt<h>, q: FixedUInt<h>,
                                                       dP: FixedUInt<h>, dQ: FixedUInt<h>) -> Choice {
        let one = FixedUInt<h>(1)
        let pMinusOne = p.subtractingReportingBorrow(one).difference, qMinusOne = q.subtractingReportingBorrow(one).difference
        return FixedUInt.remainderConstantTime(d, modulo: pMinusOne).isEqual(to: dP)
            & FixedUInt.remainderConstantTime(d, modulo: qMinusOne).isEqual(to: dQ)
    }
}

extension RSAPrivateCore {
    func privateOperation(_ input: [UInt8], byteCount k: Int) -> [UInt8]? {
        guard input.count <= k, let c = FixedUInt<limbCount>(bigEndian: input), publicCore.contains(c),
              let m = privateOperation(c) else { return nil }
        return m.bigEndianBytes(count: k)
    }
}

/// cᵈ mod n without the CRT, for keys whose primes do not fit half the modulus width (about
/// four times slower than CRT). d is checked against e through a test exponentiation; memory
/// is wiped on release.
final class RSADirectCore<let limbCount: Int>: @unchecked Sendable {
    private let publicCore: RSAPublicCore<limbCount>
    private var exponent: FixedUInt<limbCount>

    /// nil when d ≥ n, (2ᵉ)ᵈ ≠ 2 mod n (a d that does not match e), or the CRT parameters the
    /// key carries disagree (n = p·q, d ≡ dP mod p − 1, d ≡ dQ mod q − 1, qInv < p,
    /// qInv·q ≡ 1 mod p): this core never uses them, but the key's DER re-exports them.
    init?(publicCore: RSAPublicCore<limbCount>, key: RSAKeyComponents) {
        func full(_ secret: SecretBytes) -> FixedUInt<limbCount>? { secret.withUnsafeBytes { FixedUInt<limbCount>(bigEndian: $0) } }
        guard let d = full(key.privateExponent), publicCore.contains(d),
              let p = full(key.prime1), let q = full(key.prime2), let dP = full(key.exponent1), let dQ = full(key.exponent2),
              let qInv = full(key.coefficient), let pContext = MontgomeryContext(modulus: p),
              Self.parametersAgree(modulus: publicCore.context.modulus, p: p, q: q, qInv: qInv, pContext: pContext).isTrueVartime,
              RSAPrivateArithmetic.exponentsAgree(d, p: p, q: q, dP: dP, dQ: dQ).isTrueVartime else { return nil }
        self.publicCore = publicCore
        exponent = d
        let two = FixedUInt<limbCount>(2)
        guard let roundTrip = privateOperation(publicCore.publicOperationVartime(two)),
              roundTrip.isEqual(to: two).isTrueVartime else { return nil }
    }

    deinit {
        withUnsafeMutableBytes(of: &exponent) { SecretBytes.wipe($0) }
    }

    /// 1 < p, 1 < q, n = p·q, qInv < p and qInv·q ≡ 1 (mod p), in constant time.
    private static func parametersAgree(modulus n: FixedUInt<limbCount>, p: FixedUInt<limbCount>, q: FixedUInt<limbCount>,
                                        qInv: FixedUInt<limbCount>, pContext: MontgomeryContext<limbCount>) -> Choice {
        let two = FixedUInt<limbCount>(2)
        let (high, low) = p.multipliedFullWidth(by: q)
        let qModP = FixedUInt.remainderConstantTime(q, modulo: p)
        let product = pContext.canonical(of: pContext.product(pContext.montgomeryForm(of: qInv), pContext.montgomeryForm(of: qModP)))
        return !p.isLess(than: two) & !q.isLess(than: two) & high.isZero & low.isEqual(to: n)
            & qInv.isLess(than: p) & product.isEqual(to: FixedUInt(1))
    }

    func privateOperation(_ input: [UInt8], byteCount k: Int) -> [UInt8]? {
        guard input.count <= k, let c = FixedUInt<limbCount>(bigEndian: input), publicCore.contains(c) else { return nil }
        return privateOperation(c)?.bigEndianBytes(count: k)
    }

    /// cᵈ mod n, checked by m^e = c. Constant time: the ladder runs over every bit of d.
    private func privateOperation(_ c: FixedUInt<limbCount>) -> FixedUInt<limbCount>? {
        let context = publicCore.context
        let m = context.canonical(of: context.power(context.montgomeryForm(of: c), exponent))
        guard publicCore.publicOperationVartime(m).isEqual(to: c).isTrueVartime else { return nil }
        return m
    }
}
