// diff-bn254cx-curve, public API half: the G1 and G2 decoders' verdicts and the scalar decoder's
// against the reference curve (Differential+BN254CXCurve.swift), the public scalar
// multiplications (GLV, Galbraith–Scott, the PIN-sized multiple) against double-and-add, and
// the pairing's bilinearity.

import BigInt
import CryptoPrimitives

/// The verdict of a throwing decoder as text: "ok <hex>" or the error.
func verdict(_ body: () throws(CryptoError) -> [UInt8]) -> String {
    do {
        return "ok " + Hex.encode(try body())
    } catch {
        return "\(error)"
    }
}

/// A G1 (04 ‖ x ‖ y, 02/03 ‖ x) or G2 (x ‖ y) encoding, sometimes malformed, decoded by the
/// engine and judged by the reference.
func decoderDifferential(_ input: inout ArithmeticInput, _ data: [UInt8]) {
    func coordinate(_ value: BigUInt) -> BigUInt {
        // Sometimes the non-canonical representative value + p, when it fits in 32 bytes.
        input.choose(8) == 0 && value + referenceP < BigUInt(1) << 256 ? value + referenceP : value
    }
    switch input.choose(4) {
    case 3:  // hash to G1: x = the hash mod p, incremented until x³ + 2 is a square; y the even root
        let hash = bigEndian(input.edge(referenceP, bits: 256), count: 32)
        let engine = BN254CX.G1(mappingHashVartime: hash).uncompressedRepresentation
        var x = ReferenceFp(integer(hash))
        while (x * x * x + ReferenceFp.curveB).squareRoot == nil { x = x + .one }
        let root = (x * x * x + ReferenceFp.curveB).squareRoot ?? .zero
        let y = (root.v.words.first ?? 0) & 1 == 0 ? root : .zero - root
        expectEqual(engine, [4] + x.bytes + y.bytes, "diff-bn254cx-curve G1 mappingHashVartime \(Hex.encode(hash))", data)
    case 0:  // G1 uncompressed, with an occasional wrong prefix or length
        let point = input.g1Point(offCurve: true)
        let x = coordinate(point.x.v), y = coordinate(point.y.v)
        var bytes = [UInt8(4)] + bigEndian(x, count: 32) + bigEndian(y, count: 32)
        if input.choose(8) == 0 { bytes[0] = input.byte() % 8 }
        if input.choose(16) == 0 { bytes.removeLast(input.choose(3) + 1) }
        let engine = verdict { () throws(CryptoError) in try BN254CX.G1(encoded: bytes).uncompressedRepresentation }
        let reference: String
        if bytes[0] != 4 || bytes.count != 65 || x >= referenceP || y >= referenceP {
            reference = "invalidEncoding"
        } else {
            // Judged by its coordinates (infinity arrives as (0, 1), which is off the curve).
            let finite = ReferenceG1(x: point.x, y: point.y, isInfinity: false)
            reference = finite.isOnCurve ? "ok " + Hex.encode(bytes) : "invalidKey"
        }
        if engine != reference { FuzzTarget.mismatch("diff-bn254cx-curve G1 decoder \(Hex.encode(bytes)): engine \(engine) reference \(reference)", data) }
    case 1:  // G1 compressed
        let x = coordinate(input.edge(referenceP, bits: 256))
        var bytes = [UInt8(2 + input.choose(2))] + bigEndian(x, count: 32)
        if input.choose(8) == 0 { bytes[0] = input.byte() % 8 }
        let engine = verdict { () throws(CryptoError) in try BN254CX.G1(encoded: bytes).uncompressedRepresentation }
        let reference: String
        if !(bytes[0] == 2 || bytes[0] == 3) || x >= referenceP {
            reference = "invalidEncoding"
        } else if let root = (ReferenceFp(x) * ReferenceFp(x) * ReferenceFp(x) + ReferenceFp.curveB).squareRoot {
            let wantOdd = bytes[0] == 3
            let y = (root.v.words.first ?? 0) & 1 == 1 ? (wantOdd ? root : .zero - root) : (wantOdd ? .zero - root : root)
            reference = "ok " + Hex.encode([4] + ReferenceFp(x).bytes + y.bytes)
        } else {
            reference = "invalidKey"
        }
        if engine != reference { FuzzTarget.mismatch("diff-bn254cx-curve G1 compressed decoder \(Hex.encode(bytes)): engine \(engine) reference \(reference)", data) }
    default:  // G2
        let point = input.g2Point(inGroup: input.choose(2) == 0, offCurve: true)
        var c: [BigUInt] = []
        for value in [point.x.c0, point.x.c1, point.y.c0, point.y.c1] { c.append(coordinate(value)) }
        let bytes = c.flatMap { bigEndian($0, count: 32) }
        let finite = ReferenceG2(x: point.x, y: point.y, isInfinity: false)  // infinity arrives as (0, 1)
        let engine = verdict { () throws(CryptoError) in try BN254CX.G2(encoded: bytes).rawRepresentation }
        let reference: String
        if c.contains(where: { $0 >= referenceP }) {
            reference = "invalidEncoding"
        } else if finite.isOnCurve && finite.multiplied(by: referenceR).isInfinity {
            reference = "ok " + Hex.encode(finite.bytes)
        } else {
            reference = "invalidKey"
        }
        if engine != reference { FuzzTarget.mismatch("diff-bn254cx-curve G2 decoder \(Hex.encode(bytes)): engine \(engine) reference \(reference)", data) }
    }
}

/// The public scalar decoder and the public multiplications, constant-time and variable-time.
func publicMultipleDifferential(_ input: inout ArithmeticInput, _ data: [UInt8]) {
    var k = input.edge(referenceR, bits: 256)
    let kBytes = bigEndian(k, count: 32)
    let decoded = verdict { () throws(CryptoError) in try BN254CX.Scalar(rawRepresentation: kBytes).rawRepresentation.unsafeExposedBytes }
    let expected = k < referenceR ? "ok " + Hex.encode(kBytes) : "invalidEncoding"
    if decoded != expected { FuzzTarget.mismatch("diff-bn254cx-curve scalar decoder \(Hex.encode(kBytes)): engine \(decoded) reference \(expected)", data) }
    let scalar = BN254CX.Scalar(reducing: kBytes)
    k %= referenceR
    let what = "diff-bn254cx-curve public multiple k=\(Hex.encode(kBytes))"
    switch input.choose(3) {
    case 0:
        let p = input.g1Point(offCurve: false)
        let point: BN254CX.G1
        do {
            point = p.isInfinity ? .infinity : try BN254CX.G1(encoded: [4] + p.bytes)
        } catch {
            FuzzTarget.mismatch("\(what): G1 point \(Hex.encode(p.bytes)) refused: \(error)", data)
        }
        let product = p.multiplied(by: k)
        let reference = product.isInfinity ? [] : [4] + product.bytes
        expectEqual(point.multiplied(by: scalar).uncompressedRepresentation, reference, what + " G1 GLV P=\(Hex.encode(p.bytes))", data)
        expectEqual(point.multipliedVartime(by: scalar).uncompressedRepresentation, reference, what + " G1 vartime P=\(Hex.encode(p.bytes))", data)
    case 1:
        let p = input.g1Point(offCurve: false)
        guard let point = try? BN254CX.G1(encoded: [4] + p.bytes), !p.isInfinity else { return }  // infinity has no encoding
        let small = UInt32(input.byte()) << 24 | UInt32(input.byte()) << 16 | UInt32(input.byte()) << 8 | UInt32(input.byte())
        let bitCount = input.choose(36)
        let masked = bitCount >= 32 ? BigUInt(small) : BigUInt(small) & ((BigUInt(1) << bitCount) - 1)
        let product = p.multiplied(by: masked)
        expectEqual(point.multiplied(bySmall: small, bitCount: bitCount).uncompressedRepresentation, product.isInfinity ? [] : [4] + product.bytes,
                    "diff-bn254cx-curve G1 multiplied(bySmall: \(small), bitCount: \(bitCount)) P=\(Hex.encode(p.bytes))", data)
    default:
        let q = input.g2Point(inGroup: true, offCurve: false)
        let point: BN254CX.G2
        do {
            point = q.isInfinity ? .infinity : try BN254CX.G2(encoded: q.bytes)
        } catch {
            FuzzTarget.mismatch("\(what): G2 point \(Hex.encode(q.bytes)) refused: \(error)", data)
        }
        let reference = q.multiplied(by: k).bytes
        expectEqual(point.multiplied(by: scalar).rawRepresentation, reference, what + " G2 GS Q=\(Hex.encode(q.bytes))", data)
        expectEqual(point.multipliedVartime(by: scalar).rawRepresentation, reference, what + " G2 vartime Q=\(Hex.encode(q.bytes))", data)
    }
}

/// e(bQ, aP) = e(Q, P)^(ab), or Π e(Qᵢ, Pᵢ) by multiPairing = the product of the pairings, on
/// fuzzer-chosen scalars (two pairings per input).
func pairingProperties(_ input: inout ArithmeticInput, _ data: [UInt8], multi: Bool) {
    func scalar() -> BN254CX.Scalar { BN254CX.Scalar(reducing: bigEndian(input.edge(referenceR, bits: 256), count: 32)) }
    let s = scalar(), t = scalar(), a = scalar(), b = scalar()
    let p = BN254CX.G1.generator.multiplied(by: s), q = BN254CX.G2.generator.multiplied(by: t)
    let what = "diff-bn254cx-curve pairing s=\(Hex.encode(s.rawRepresentation.unsafeExposedBytes)) t=\(Hex.encode(t.rawRepresentation.unsafeExposedBytes)) "
        + "a=\(Hex.encode(a.rawRepresentation.unsafeExposedBytes)) b=\(Hex.encode(b.rawRepresentation.unsafeExposedBytes))"
    let base = BN254CX.pairing(q, p)
    if multi {
        // e(Q, P)·e(bQ, aP) = e(Q, P)^(1 + ab), and e(Q, P)·e(Q, −P) = 1 when b = −1 and a = 1.
        let combined = BN254CX.multiPairing([(q, p), (q.multiplied(by: b), p.multiplied(by: a))])
        expectEqual(combined.rawRepresentation, (base * base.power(a * b)).rawRepresentation, what + " multiPairing", data)
    } else {
        let scaled = BN254CX.pairing(q.multiplied(by: b), p.multiplied(by: a))
        expectEqual(scaled.rawRepresentation, base.power(a * b).rawRepresentation, what + " bilinearity", data)
    }
}
