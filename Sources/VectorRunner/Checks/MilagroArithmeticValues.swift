// Reading the values of Milagro's BN254CX arithmetic files (`mpin/milagro-crypto-c/bn254cx`):
// hex integers that may drop leading zeros, nested as [a,b] (Fp2), [[..],[..]] (Fp4), three
// Fp4s (Fp12), x:y (G1) and xa:xb&ya:yb (G2).

import CryptoCore
import CryptoPrimitives
import VectorFormats

enum MilagroValues {
    typealias Fp = BN254CX.Fp
    typealias Fp2 = BN254CX.Fp2
    typealias Fp4 = BN254CX.Fp4
    typealias Fp12 = BN254CX.Fp12

    /// Every hex run of the text as an integer.
    static func integers(_ text: String, _ field: String) throws(VectorFormatError) -> [FixedUInt<4>] {
        var values: [FixedUInt<4>] = []
        for run in text.split(whereSeparator: { !$0.isHexDigit }) {
            let digits = run.count % 2 == 1 ? "0" + run : String(run)
            guard let value = FixedUInt<4>(bigEndian: try HexText.bytes(digits, field: field)) else { throw .badHex(field) }
            values.append(value)
        }
        return values
    }

    static func values(_ block: CAVPFile.Block, _ name: String, count: Int) throws(VectorFormatError) -> [FixedUInt<4>] {
        guard let text = block[name] else { throw .missingField(name) }
        let values = try integers(text, name)
        guard values.count == count else { throw .badHex(name) }
        return values
    }

    static func fp(_ block: CAVPFile.Block, _ name: String) throws(VectorFormatError) -> Fp {
        Fp(reducing: try values(block, name, count: 1)[0])
    }

    static func fp2(_ v: ArraySlice<FixedUInt<4>>) -> Fp2 {
        Fp2(Fp(reducing: v[v.startIndex]), Fp(reducing: v[v.startIndex + 1]))
    }

    static func fp2(_ block: CAVPFile.Block, _ name: String) throws(VectorFormatError) -> Fp2 {
        fp2(try values(block, name, count: 2)[...])
    }

    static func fp4(_ v: ArraySlice<FixedUInt<4>>) -> Fp4 {
        Fp4(fp2(v.prefix(2)), fp2(v.dropFirst(2).prefix(2)))
    }

    static func fp4(_ block: CAVPFile.Block, _ name: String) throws(VectorFormatError) -> Fp4 {
        fp4(try values(block, name, count: 4)[...])
    }

    static func fp12(_ block: CAVPFile.Block, _ name: String) throws(VectorFormatError) -> Fp12 {
        let v = try values(block, name, count: 12)[...]
        return Fp12(fp4(v.prefix(4)), fp4(v.dropFirst(4).prefix(4)), fp4(v.dropFirst(8)))
    }

    static func scalar(_ block: CAVPFile.Block, _ name: String) throws(VectorFormatError) -> FixedUInt<4> {
        try values(block, name, count: 1)[0]
    }

    /// A G1 point x:y, or nil when it is not on the curve (the "wrong" and "inf" lines).
    static func g1(_ block: CAVPFile.Block, _ name: String) throws(VectorFormatError) -> BN254CX.G1Projective? {
        let v = try values(block, name, count: 2)
        let point = BN254CX.G1Projective(affineX: Fp(reducing: v[0]), y: Fp(reducing: v[1]))
        return point.isOnCurve.isTrueVartime ? point : nil
    }

    /// A G2 point xa:xb&ya:yb, or nil when it is not on the twist.
    static func g2(_ block: CAVPFile.Block, _ name: String) throws(VectorFormatError) -> BN254CX.G2Projective? {
        let v = try values(block, name, count: 4)[...]
        let point = BN254CX.G2Projective(affineX: fp2(v.prefix(2)), y: fp2(v.dropFirst(2)))
        return point.isOnCurve.isTrueVartime ? point : nil
    }

    /// Generic square-and-multiply for the field checks (public exponents).
    static func power<T>(_ base: T, _ exponent: FixedUInt<4>, one: T, _ multiply: (T, T) -> T) -> T {
        var result = one
        for i in stride(from: exponent.bitLengthVartime - 1, through: 0, by: -1) {
            result = multiply(result, result)
            if exponent.bit(i) == 1 { result = multiply(result, base) }
        }
        return result
    }
}
