// `mpin/own/bn254cx_params.json`: the curve constants as recorded from Milagro — the two primes,
// the generators in Milagro's encodings and e(G2, G1). Its BN254 (Nogami) section is another
// curve, which the engine deliberately does not implement: skipped with that reason.

import CryptoCore
import CryptoPrimitives
import VectorFormats

enum MPinParamsFile {
    static func check(_ json: JSONValue, _ log: inout CaseLog) {
        guard let curve = json["curves"]?["BN254CX"] else { return log.fileError("no curves.BN254CX") }
        func bytes(_ value: JSONValue?) -> [UInt8] { (try? HexText.bytes(value?.string ?? "")) ?? [] }
        log.expect(BN254CXFieldModulus.modulus.bigEndianBytes(count: 32), equals: bytes(curve["p"]), "BN254CX", "p")
        log.expect(BN254CXOrderModulus.modulus.bigEndianBytes(count: 32), equals: bytes(curve["r"]), "BN254CX", "r")
        log.expect(BN254CX.G1.generator.uncompressedRepresentation, equals: bytes(curve["G1gen_uncompressed_65B"]), "BN254CX", "G1 generator, 65 B")
        log.expect(BN254CX.G1.generator.compressedRepresentation, equals: bytes(curve["G1gen_compressed_33B"]), "BN254CX", "G1 generator, 33 B")
        log.expect(BN254CX.G2.generator.rawRepresentation, equals: bytes(curve["G2gen_milagro_128B"]), "BN254CX", "G2 generator, 128 B")
        let g2 = curve["G2_generator"]
        log.expect(BN254CX.G2.generator.rawRepresentation, equals: bytes(g2?["x_a"]) + bytes(g2?["x_b"]) + bytes(g2?["y_a"]) + bytes(g2?["y_b"]),
                   "BN254CX", "G2 generator coordinates")
        log.expect(BN254CX.pairing(.generator, .generator).rawRepresentation, equals: bytes(curve["GT_e(G2gen,G1gen)_milagro_order"]),
                   "BN254CX", "e(G2, G1)")
        if json["curves"]?["BN254"] != nil {
            log.skip("BN254", reason: "the Nogami curve BN254 is not implemented (only BN254CX, which the MFA platform uses)")
        }
    }
}
