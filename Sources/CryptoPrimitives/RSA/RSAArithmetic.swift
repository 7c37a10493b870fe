// Choosing the fixed width for a key at run time: 1024, 2048, 3072, 4096 and 8192-bit classes
// (16, 32, 48, 64, 128 limbs, primes at half width); other lengths use the next class up.

import CryptoCore

/// The public arithmetic of a key, at the width class of its modulus.
enum RSAPublicArithmetic: Sendable {
    case bits1024(RSAPublicCore<16>)
    case bits2048(RSAPublicCore<32>)
    case bits3072(RSAPublicCore<48>)
    case bits4096(RSAPublicCore<64>)
    case bits8192(RSAPublicCore<128>)

    /// The arithmetic for a modulus of 1024 to 8192 bits and an odd exponent in [3, n).
    /// Throws `CryptoError.invalidKey` otherwise.
    init(modulus: [UInt8], exponent: [UInt8]) throws(CryptoError) {
        let bits = RSAPublicArithmetic.bitLength(modulus)
        switch bits {
        case 1024...1024: self = .bits1024(try Self.core(modulus, exponent))
        case 1025...2048: self = .bits2048(try Self.core(modulus, exponent))
        case 2049...3072: self = .bits3072(try Self.core(modulus, exponent))
        case 3073...4096: self = .bits4096(try Self.core(modulus, exponent))
        case 4097...8192: self = .bits8192(try Self.core(modulus, exponent))
        default: throw .invalidKey
        }
    }

    private static func core<let n: Int>(_ modulus: [UInt8], _ exponent: [UInt8]) throws(CryptoError) -> RSAPublicCore<n> {
        guard let m = FixedUInt<n>(bigEndian: modulus), let e = FixedUInt<n>(bigEndian: exponent),
              let core = RSAPublicCore(modulus: m, exponent: e) else { throw .invalidKey }
        return core
    }

    /// The significant bits of a big-endian integer.
    static func bitLength(_ bytes: [UInt8]) -> Int {
        guard let first = bytes.firstIndex(where: { $0 != 0 }) else { return 0 }
        return 8 * (bytes.count - first) - bytes[first].leadingZeroBitCount
    }

    /// The bit length of n.
    var modulusBitCount: Int {
        switch self {
        case .bits1024(let c): c.modulusBitCount
        case .bits2048(let c): c.modulusBitCount
        case .bits3072(let c): c.modulusBitCount
        case .bits4096(let c): c.modulusBitCount
        case .bits8192(let c): c.modulusBitCount
        }
    }

    /// The byte length k of n.
    var byteCount: Int { (modulusBitCount + 7) / 8 }

    /// xᵉ mod n as k bytes, for an input of at most k bytes; nil when x ≥ n (RFC 8017 §5.1.1
    /// step 1 and §5.2.2 step 1: "out of range"). Leaks: e (public).
    func publicOperationVartime(_ input: [UInt8]) -> [UInt8]? {
        guard input.count <= byteCount else { return nil }
        switch self {
        case .bits1024(let c): return Self.apply(c, input, byteCount)
        case .bits2048(let c): return Self.apply(c, input, byteCount)
        case .bits3072(let c): return Self.apply(c, input, byteCount)
        case .bits4096(let c): return Self.apply(c, input, byteCount)
        case .bits8192(let c): return Self.apply(c, input, byteCount)
        }
    }

    private static func apply<let n: Int>(_ core: RSAPublicCore<n>, _ input: [UInt8], _ k: Int) -> [UInt8]? {
        guard let x = FixedUInt<n>(bigEndian: input), core.contains(x) else { return nil }
        return core.publicOperationVartime(x).bigEndianBytes(count: k)
    }
}

extension RSA {
    /// base^exponent mod modulus for any odd modulus of 1024…8192 bits and any exponent (the
    /// RSADP primitive on a key given only as (n, d), in known-answer tests). nil when the
    /// modulus is unsupported or base ≥ modulus. Leaks: everything — public test data only.
    package static func modularPowerVartime(_ base: [UInt8], _ exponent: [UInt8], modulus: [UInt8]) -> [UInt8]? {
        let bits = RSAPublicArithmetic.bitLength(modulus), k = (bits + 7) / 8
        switch bits {
        case 1024...1024: return power(base, exponent, modulus, k, FixedUInt<16>.self)
        case 1025...2048: return power(base, exponent, modulus, k, FixedUInt<32>.self)
        case 2049...3072: return power(base, exponent, modulus, k, FixedUInt<48>.self)
        case 3073...4096: return power(base, exponent, modulus, k, FixedUInt<64>.self)
        case 4097...8192: return power(base, exponent, modulus, k, FixedUInt<128>.self)
        default: return nil
        }
    }

    private static func power<let n: Int>(_ base: [UInt8], _ exponent: [UInt8], _ modulus: [UInt8], _ k: Int,
                                          _: FixedUInt<n>.Type) -> [UInt8]? {
        guard let m = FixedUInt<n>(bigEndian: modulus), let x = FixedUInt<n>(bigEndian: base), let e = FixedUInt<n>(bigEndian: exponent),
              let context = MontgomeryContext(modulus: m), x.isLess(than: m).isTrueVartime else { return nil }
        return context.canonical(of: context.powerVartime(context.montgomeryForm(of: x), e)).bigEndianBytes(count: k)
    }
}
