// BN254CX against Milagro's own constants (../shared/vectors/mpin/own/bn254cx_params.json: the
// primes, the Frobenius and GLV constants, the generators' encodings and e(G2, G1)). Disabled,
// and reported as skipped with the reason, when ../shared is absent; when it is present, a
// missing or unreadable params file fails instead of skipping.

import CryptoPrimitives
import CryptoCore
import TestSupport
import Testing

@Suite(.enabled(if: SharedVectors.isAvailable, "../shared/vectors is absent: Milagro's BN254CX constants cannot be compared"))
struct BN254CXMilagroConstantsTests {
    typealias R = BN254CXReference

    init() throws {
        _ = try #require(BN254CXParams.curve, "mpin/own/bn254cx_params.json is missing or has no BN254CX entry")
    }

    @Test func primesAreMilagros() {
        #expect(BN254CXParams.integer("p") == R.p)
        #expect(BN254CXParams.integer("r") == R.r)
    }

    // docs/protocols/mpin.md §2.1, §2.2.
    @Test func frobeniusAndGLVConstantsAreMilagros() {
        let key = "frobenius_constant_xi_pow_(p-1)/6"
        #expect(BN254CX.frobeniusGamma1.c0.reference == BN254CXParams.integer(key, "a"))
        #expect(BN254CX.frobeniusGamma1.c1.reference == BN254CXParams.integer(key, "b"))
        #expect(BN254CX.frobeniusGamma3.c0.reference == BN254CXParams.integer("xi_pow_(p-1)/2", "a"))
        #expect(BN254CX.glvBeta.reference == BN254CXParams.integer("cube_root_of_unity_mod_p_(GLV_beta)"))
    }

    @Test func generatorEncodingsAreMilagros() {
        #expect(TestHex.string(BN254CX.G1.generator.uncompressedRepresentation) == BN254CXParams.string("G1gen_uncompressed_65B"))
        #expect(TestHex.string(BN254CX.G1.generator.compressedRepresentation) == BN254CXParams.string("G1gen_compressed_33B"))
        #expect(TestHex.string(BN254CX.G2.generator.rawRepresentation) == BN254CXParams.string("G2gen_milagro_128B"))
    }

    @Test func generatorPairingIsMilagros() {
        let e = BN254CX.pairing(.generator, .generator)
        #expect(TestHex.string(e.rawRepresentation) == BN254CXParams.string("GT_e(G2gen,G1gen)_milagro_order"))
    }
}
