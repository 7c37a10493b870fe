// Benchmark rows of the arithmetic core: the numbers every curve and RSA will live on.

import CryptoCore

/// A 256-bit modulus for the core benchmarks: the P-256 field prime.
enum BenchmarkModulus256: MontgomeryModulus {
    static var modulus: FixedUInt<4> { FixedUInt(limbs: [0xFFFF_FFFF_FFFF_FFFF, 0x0000_0000_FFFF_FFFF, 0, 0xFFFF_FFFF_0000_0001]) }
    static var inverse: UInt64 { 1 }
    static var montgomeryOne: FixedUInt<4> { FixedUInt(limbs: [1, 0xFFFF_FFFF_0000_0000, 0xFFFF_FFFF_FFFF_FFFF, 0x0000_0000_FFFF_FFFE]) }
    static var rSquared: FixedUInt<4> { FixedUInt(limbs: [3, 0xFFFF_FFFB_FFFF_FFFF, 0xFFFF_FFFF_FFFF_FFFE, 0x0000_0004_FFFF_FFFD]) }
}

extension BenchmarkCatalog {
    /// A Montgomery product at an RSA width (an arbitrary odd modulus with its top bit set).
    static func montgomeryRows<let n: Int>(_: FixedUInt<n>.Type) throws(BenchmarkFailure) -> [BenchmarkCase] {
        var modulus = FixedUInt<n>.zero
        for i in 0..<n { modulus.limbs[i] = 0x9E37_79B9_7F4A_7C15 &* UInt64(i + 3) }
        modulus.limbs[0] |= 1
        modulus.limbs[n - 1] |= 1 << 63
        guard let context = MontgomeryContext(modulus: modulus) else {
            throw BenchmarkFailure(row: "core/montgomery\(64 * n)", message: "the modulus was refused")
        }
        return [
            BenchmarkCase("core/montgomery\(64 * n)/mul") { iterations in
                var a = context.montgomeryOne
                let b = context.rSquared
                for _ in 0..<iterations { a = context.product(a, b) }
                blackHole(a)
            },
            BenchmarkCase("core/montgomery\(64 * n)/sqr") { iterations in
                var a = context.rSquared
                for _ in 0..<iterations { a = context.squared(a) }
                blackHole(a)
            },
        ]
    }

    static func coreRows() throws(BenchmarkFailure) -> [BenchmarkCase] {
        try montgomeryRows(FixedUInt<16>.self) + montgomeryRows(FixedUInt<32>.self) + [
            BenchmarkCase("core/u256/mul") { n in
                var a = FixedUInt<4>(limbs: [0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210, 0x0F1E_2D3C_4B5A_6978, 0x8796_A5B4_C3D2_E1F0])
                let b = FixedUInt<4>(limbs: [0x1111_2222_3333_4444, 0x5555_6666_7777_8888, 0x9999_AAAA_BBBB_CCCC, 0xDDDD_EEEE_FFFF_0001])
                for _ in 0..<n {
                    let (high, low) = a.multipliedFullWidth(by: b)
                    a = FixedUInt(limbs: [low.limbs[0] ^ high.limbs[3], low.limbs[1], low.limbs[2], low.limbs[3]])
                }
                blackHole(a)
            },
            BenchmarkCase("core/montgomery256/mul") { n in
                typealias Residue = MontgomeryResidue<4, BenchmarkModulus256>
                var a = Residue(reducing: FixedUInt(limbs: [0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210, 0x0F1E_2D3C_4B5A_6978, 0x0796_A5B4_C3D2_E1F0]))
                let b = Residue(reducing: FixedUInt(limbs: [0x1111_2222_3333_4444, 0x5555_6666_7777_8888, 0x9999_AAAA_BBBB_CCCC, 0x0DDD_EEEE_FFFF_0001]))
                for _ in 0..<n { a = a * b }
                blackHole(a)
            },
        ]
    }
}
