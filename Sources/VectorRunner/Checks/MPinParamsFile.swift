// `mpin/own/bn254cx_params.json`: the curve constants as recorded from Milagro — the two primes,
// the generators in Milagro's encodings and e(G2, G1). Its BN254 (Nogami) section is another
// curve, which the engine deliberately does not implement: skipped with that reason.

import CryptoCore
import CryptoPrimitives
import VectorFormats

enum MPinParamsFile {
    static func check(_ json: JSONValue, _ log: inout CaseLog) {
        guard let curve = json["curves"]?["BN254CX"] else { return log.fileError("no curves.BN254CX") }
        // A missing or non-hex constant is a malformed file, never an empty stand-in.
        func bytes(_ value: JSONValue?, _ name: String) throws(VectorFormatError) -> [UInt8] {
            guard let text = value?.string else { throw .missingField(name) }
            return try HexText.bytes(text, field: name)
        }
        do throws(VectorFormatError) {
            log.expect(BN254CXFieldModulus.modulus.bigEndianBytes(count: 32), equals: try bytes(curve["p"], "p"), "BN254CX", "p")
            log.expect(BN254CXOrderModulus.modulus.bigEndianBytes(count: 32), equals: try bytes(curve["r"], "r"), "BN254CX", "r")
            log.expect(BN254CX.G1.generator.uncompressedRepresentation, equals: try bytes(curve["G1gen_uncompressed_65B"], "G1gen_uncompressed_65B"),
                       "BN254CX", "G1 generator, 65 B")
            log.expect(BN254CX.G1.generator.compressedRepresentation, equals: try bytes(curve["G1gen_compressed_33B"], "G1gen_compressed_33B"),
                       "BN254CX", "G1 generator, 33 B")
            log.expect(BN254CX.G2.generator.rawRepresentation, equals: try bytes(curve["G2gen_milagro_128B"], "G2gen_milagro_128B"),
                       "BN254CX", "G2 generator, 128 B")
            let g2 = curve["G2_generator"]
            let coordinates = try bytes(g2?["x_a"], "G2_generator.x_a") + bytes(g2?["x_b"], "G2_generator.x_b")
                + bytes(g2?["y_a"], "G2_generator.y_a") + bytes(g2?["y_b"], "G2_generator.y_b")
            log.expect(BN254CX.G2.generator.rawRepresentation, equals: coordinates, "BN254CX", "G2 generator coordinates")
            log.expect(BN254CX.pairing(.generator, .generator).rawRepresentation,
                       equals: try bytes(curve["GT_e(G2gen,G1gen)_milagro_order"], "GT_e(G2gen,G1gen)_milagro_order"), "BN254CX", "e(G2, G1)")
        } catch {
            log.fileError("curves.BN254CX: \(error.description)")
        }
        if json["curves"]?["BN254"] != nil {
            log.skip("BN254", reason: "the Nogami curve BN254 is not implemented (only BN254CX, which the MFA platform uses)")
        }
    }
}
