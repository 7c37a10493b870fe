// Our recorded BN254CX vectors (Vectors/protocols/bn254cx-g1.json, bn254cx-g2.json, written by
// Vectors/generate_protocols.py with affine arithmetic on plain Python integers from the
// constants of docs/protocols/mpin.md §2): k·P and P + Q in G1 and G2, in Milagro's encodings (§2.3); points
// off the curve, outside G2, with coordinates not below p or of the wrong length (invalid).

import CryptoPrimitives
import VectorFormats

enum OwnBN254CX {
    typealias Outcome = OwnSymmetric.Outcome

    /// The checker for a BN254CX algorithm of our schema, or nil.
    static func checker(for algorithm: String) -> ((OwnVectorFile.Case) throws(VectorFormatError) -> Outcome)? {
        switch algorithm {
        case "BN254CX-G1": g1
        case "BN254CX-G2": g2
        default: nil
        }
    }

    private static func scalar(_ c: OwnVectorFile.Case) throws(VectorFormatError) -> BN254CX.Scalar {
        let scalarField = try c.input("scalar")
        guard let k = try? BN254CX.Scalar(rawRepresentation: scalarField) else { throw .malformed("scalar is not below r") }
        return k
    }

    /// k·P (uncompressed and compressed, empty for infinity) and P + Q; the point decodes from
    /// either form and re-encodes to the same bytes.
    private static func g1(_ c: OwnVectorFile.Case) throws(VectorFormatError) -> Outcome {
        let encoded = try c.input("point")
        let point = try? BN254CX.G1(encoded: encoded)
        guard c.isValid else { return .rejected(point == nil) }
        let otherField = try c.input("other")
        guard let other = try? BN254CX.G1(encoded: otherField) else { throw .malformed("other is not a G1 point") }
        let expected = try c.output("product") + c.output("compressedProduct") + c.output("sum") + encoded
        guard let point else { return .compare(nil, expected) }
        let product = point.multiplied(by: try scalar(c))
        let again = encoded.count == 33 ? point.compressedRepresentation : point.uncompressedRepresentation
        return .compare(product.uncompressedRepresentation + product.compressedRepresentation + (point + other).uncompressedRepresentation + again,
                        expected)
    }

    /// k·Q and Q + R in Milagro's 128-byte G2 form (real parts first).
    private static func g2(_ c: OwnVectorFile.Case) throws(VectorFormatError) -> Outcome {
        let encoded = try c.input("point")
        let point = try? BN254CX.G2(encoded: encoded)
        guard c.isValid else { return .rejected(point == nil) }
        let otherField = try c.input("other")
        guard let other = try? BN254CX.G2(encoded: otherField) else { throw .malformed("other is not a G2 point") }
        let expected = try c.output("product") + c.output("sum") + encoded
        guard let point else { return .compare(nil, expected) }
        let product = point.multiplied(by: try scalar(c))
        return .compare(product.rawRepresentation + (point + other).rawRepresentation + point.rawRepresentation, expected)
    }
}
