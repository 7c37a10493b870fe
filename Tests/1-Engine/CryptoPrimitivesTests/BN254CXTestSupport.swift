// Helpers for the BN254CX tests: the curve constants from ../shared/vectors/mpin/own/
// bn254cx_params.json (extracted from Milagro and re-derived by the vector author; the source
// of constants in tests), and conversions to the reference integer.

import CryptoPrimitives
import CryptoCore
import Foundation
import TestSupport

enum BN254CXParams {
    /// The BN254CX entry of the params file, or nil when ../shared is absent.
    nonisolated(unsafe) static let curve: [String: Any]? = {  // read once, never mutated
        guard let data = FileManager.default.contents(atPath: SharedVectors.path("mpin/own/bn254cx_params.json")),
              let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let curves = json["curves"] as? [String: Any] else { return nil }
        return curves["BN254CX"] as? [String: Any]
    }()

    static func string(_ path: String...) -> String? {
        var node: Any? = curve
        for key in path { node = (node as? [String: Any])?[key] }
        return node as? String
    }

    static func integer(_ path: String...) -> ReferenceInteger? {
        var node: Any? = curve
        for key in path { node = (node as? [String: Any])?[key] }
        return (node as? String).map { ReferenceInteger(hex: $0) }
    }
}

extension FixedUInt {
    var reference: ReferenceInteger { ReferenceInteger(words: (0..<limbCount).map { limbs[$0] }) }

    init(_ reference: ReferenceInteger) {
        var limbs = InlineArray<limbCount, UInt64>(repeating: 0)
        for (i, word) in reference.words(count: limbCount).enumerated() { limbs[i] = word }
        self.init(limbs: limbs)
    }
}

extension BN254CX.Fp {
    var reference: ReferenceInteger { canonical.reference }
    static func random(_ random: inout TestRandom) -> BN254CX.Fp {
        BN254CX.Fp(reducing: FixedUInt(ReferenceInteger(bigEndian: random.bytes(32)) % BN254CX.p.reference))
    }
}

extension BN254CX.Fp2 {
    static func random(_ random: inout TestRandom) -> BN254CX.Fp2 { BN254CX.Fp2(.random(&random), .random(&random)) }
}

extension BN254CX.Fp4 {
    static func random(_ random: inout TestRandom) -> BN254CX.Fp4 { BN254CX.Fp4(.random(&random), .random(&random)) }
}

extension BN254CX.Fp12 {
    static func random(_ random: inout TestRandom) -> BN254CX.Fp12 { BN254CX.Fp12(.random(&random), .random(&random), .random(&random)) }

    /// Square-and-multiply with the general product: the plain power the fast maps must match.
    func plainPower(_ exponent: ReferenceInteger) -> BN254CX.Fp12 {
        var result = BN254CX.Fp12.one
        for i in stride(from: exponent.bitLength - 1, through: 0, by: -1) {
            result = result * result
            if exponent.bit(i) { result = result * self }
        }
        return result
    }
}

enum BN254CXReference {
    static let u = ReferenceInteger(BN254CX.absoluteU)  // |u|; u itself is negative
    static let p = BN254CX.p.reference
    static let r = BN254CX.r.reference
    /// 6u² (the sign of u cancels).
    static var sixUSquared: ReferenceInteger { ReferenceInteger(6) * u * u }
}
