// Benchmark rows of P-256.

import CryptoCore
import CryptoPrimitives

extension BenchmarkCatalog {
    static func p256Rows() throws -> [BenchmarkCase] {
        let message = BenchmarkFixtures.message32
        var seeded = SeededRandomSource(seed: 256)
        let signingKey = try P256.Signing.PrivateKey(using: &seeded)
        let agreementKey = try P256.KeyAgreement.PrivateKey(using: &seeded)
        let peerKey = try P256.KeyAgreement.PrivateKey(using: &seeded).publicKey
        let signature = signingKey.deterministicSignature(for: message)
        let a = P256.FieldElement(reducing: FixedUInt(limbs: [0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210, 0x0F1E_2D3C_4B5A_6978, 0x0796_A5B4_C3D2_E1F0]))
        let b = P256.FieldElement(reducing: FixedUInt(limbs: [0x1111_2222_3333_4444, 0x5555_6666_7777_8888, 0x9999_AAAA_BBBB_CCCC, 0x0DDD_EEEE_FFFF_0001]))
        let s = P256.Scalar(reducing: FixedUInt(limbs: [0x1111_2222_3333_4444, 0x5555_6666_7777_8888, 0x9999_AAAA_BBBB_CCCC, 0x0DDD_EEEE_FFFF_0001]))

        return [
            BenchmarkCase("p256/ecdsa/sign", repeating: {
                var random = SystemRandomSource()
                return try signingKey.signature(for: message, randomness: &random)
            }),
            BenchmarkCase("p256/ecdsa/verify", verifying: { signingKey.publicKey.isValidSignature(signature, for: message) }),
            BenchmarkCase("p256/ecdh", repeating: { try agreementKey.sharedSecretFromKeyAgreement(with: peerKey) }),
            BenchmarkCase("p256/keygen", repeating: { try P256.Signing.PrivateKey() }),
            BenchmarkCase("p256/fp/mul") { n in
                var x = a
                for _ in 0..<n { x = x * b }
                blackHole(x)
            },
            BenchmarkCase("p256/fp/inv") { n in
                var x = a
                for _ in 0..<n { x = x.inverted() }
                blackHole(x)
            },
            BenchmarkCase("p256/scalar/inv") { n in
                var x = s
                for _ in 0..<n { x = x.inverted() }
                blackHole(x)
            },
        ]
    }
}
