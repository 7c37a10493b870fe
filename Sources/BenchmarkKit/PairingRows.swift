// Benchmark rows of BN254CX.

import CryptoCore
import CryptoPrimitives

extension BenchmarkCatalog {
    static func pairingRows() throws -> [BenchmarkCase] {
        var seeded = SeededRandomSource(seed: 254)
        let a = try BN254CX.Scalar.random(using: &seeded)
        let b = try BN254CX.Scalar.random(using: &seeded)
        let p = BN254CX.G1.generator.multiplied(by: a), q = BN254CX.G2.generator.multiplied(by: b)
        let p2 = BN254CX.G1.generator.multiplied(by: b), q2 = BN254CX.G2.generator.multiplied(by: a)
        let g = BN254CX.pairing(q, p)
        let x = BN254CX.Fp(reducing: FixedUInt(limbs: [0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210, 0x0F1E_2D3C_4B5A_6978, 0x0796_A5B4_C3D2_E1F0]))
        let y = BN254CX.Fp(reducing: FixedUInt(limbs: [0x1111_2222_3333_4444, 0x5555_6666_7777_8888, 0x9999_AAAA_BBBB_CCCC, 0x0DDD_EEEE_FFFF_0001]))
        return [
            BenchmarkCase("bn254cx/fp/mul") { n in
                var z = x
                for _ in 0..<n { z = z * y }
                blackHole(z)
            },
            BenchmarkCase("bn254cx/g1/mul", repeating: { p.multiplied(by: b) }),
            BenchmarkCase("bn254cx/g2/mul", repeating: { q.multiplied(by: a) }),
            BenchmarkCase("bn254cx/gt/pow", repeating: { g.power(a) }),
            BenchmarkCase("bn254cx/pairing", repeating: { BN254CX.pairing(q, p) }),
            BenchmarkCase("bn254cx/pairing2", repeating: { BN254CX.multiPairing([(q, p), (q2, p2)]) }),
        ]
    }
}
