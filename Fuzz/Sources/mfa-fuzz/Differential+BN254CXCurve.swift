// diff-bn254cx-curve: G1 (y² = x³ + 2 over Fp) and the twist carrying G2 (y² = x³ + (1 − i)
// over Fp2) against affine textbook formulas and double-and-add on BigInt (docs/protocols/mpin.md §2.1,
// §2.2); the public decoders' verdicts; and the pairing's bilinearity, e(aP, bQ) = e(P, Q)^(ab),
// with multiPairing equal to the product of the single pairings.

import BigInt
@_spi(Fuzzing) import CryptoPrimitives

/// BN254CX's group order r.
let referenceR = integer(_ArithmeticProbe.modulus(.bn254Order))

/// What the reference curve needs of its field (Fp for G1, Fp2 for the twist).
protocol ReferenceCurveField: Equatable, Sendable {
    static var zero: Self { get }
    static var one: Self { get }
    /// b of the curve over this field.
    static var curveB: Self { get }
    static func + (a: Self, b: Self) -> Self
    static func - (a: Self, b: Self) -> Self
    static func * (a: Self, b: Self) -> Self
    var inverse: Self { get }
    var isZero: Bool { get }
    var bytes: [UInt8] { get }
}

/// An element of Fp on BigInt.
struct ReferenceFp: ReferenceCurveField {
    var v: BigUInt
    init(_ v: BigUInt) { self.v = v % referenceP }
    init(reduced v: BigUInt) { self.v = v }
    static let zero = ReferenceFp(0)
    static let one = ReferenceFp(1)
    static let curveB = ReferenceFp(2)
    // Sums and differences by one conditional correction (a division costs more than the sum).
    static func + (a: Self, b: Self) -> Self {
        let sum = a.v + b.v
        return Self(reduced: sum >= referenceP ? sum - referenceP : sum)
    }
    static func - (a: Self, b: Self) -> Self { Self(reduced: a.v >= b.v ? a.v - b.v : a.v + referenceP - b.v) }
    static func * (a: Self, b: Self) -> Self { Self(a.v * b.v) }
    var inverse: Self { Self(inverseOrZero(v, referenceP)) }
    var isZero: Bool { v.isZero }
    var bytes: [UInt8] { bigEndian(v, count: 32) }
    /// A square root (p ≡ 3 mod 4), nil for a non-square.
    var squareRoot: Self? {
        let root = Self(v.power((referenceP + 1) / 4, modulus: referenceP))
        return root * root == self ? root : nil
    }
}

extension ReferenceFp2: ReferenceCurveField {
    static let curveB = ReferenceFp2(1, referenceP - 1)

    /// A square root, nil for a non-square (the complex method for p ≡ 3 mod 4).
    var squareRoot: Self? {
        if c1.isZero {
            if let root = ReferenceFp(c0).squareRoot { return Self(root.v, 0) }
            return ReferenceFp(referenceP - c0).squareRoot.map { Self(0, $0.v) }  // −1 is no square
        }
        guard let alpha = ReferenceFp(c0 * c0 + c1 * c1).squareRoot else { return nil }
        let half = ReferenceFp(inverseOrZero(2, referenceP))
        var delta = (ReferenceFp(c0) + alpha) * half
        if delta.squareRoot == nil { delta = (ReferenceFp(c0) - alpha) * half }
        guard let x0 = delta.squareRoot, !x0.isZero else { return nil }
        let root = Self(x0.v, (ReferenceFp(c1) * (x0 + x0).inverse).v)
        return root * root == self ? root : nil
    }
}

/// An affine point, or infinity.
struct ReferencePoint<F: ReferenceCurveField>: Equatable, Sendable {
    var x: F
    var y: F
    var isInfinity: Bool

    static var infinity: Self { Self(x: .zero, y: .one, isInfinity: true) }
    var isOnCurve: Bool { isInfinity || y * y == x * x * x + F.curveB }
    var negated: Self { Self(x: x, y: .zero - y, isInfinity: isInfinity) }
    /// x ‖ y, empty for infinity (the probe's encoding).
    var bytes: [UInt8] { isInfinity ? [] : x.bytes + y.bytes }

    /// P + Q by the chord-and-tangent rule.
    static func + (p: Self, q: Self) -> Self {
        if p.isInfinity { return q }
        if q.isInfinity { return p }
        if p.x == q.x {
            guard p.y == q.y, !p.y.isZero else { return .infinity }
            let three = F.one + F.one + F.one
            let lambda = three * p.x * p.x * (p.y + p.y).inverse
            return line(p, p, lambda)
        }
        return line(p, q, (q.y - p.y) * (q.x - p.x).inverse)
    }

    static func line(_ p: Self, _ q: Self, _ lambda: F) -> Self {
        let x = lambda * lambda - p.x - q.x
        return Self(x: x, y: lambda * (p.x - x) - p.y, isInfinity: false)
    }

    /// k·P by double-and-add in Jacobian coordinates (x = X/Z², y = Y/Z³), one inversion at the end.
    func multiplied(by k: BigUInt) -> Self {
        var (rx, ry, rz) = (F.one, F.one, F.zero)  // infinity
        func double() {
            guard !rz.isZero, !ry.isZero else { (rx, ry, rz) = (.one, .one, .zero); return }
            let a = rx * rx, b = ry * ry, c = b * b
            let t = rx + b
            let d0 = t * t - a - c, d = d0 + d0
            let e = a + a + a, f = e * e
            let x3 = f - d - d
            let c2 = c + c, c4 = c2 + c2
            let y3 = e * (d - x3) - c4 - c4
            let yz = ry * rz
            (rx, ry, rz) = (x3, y3, yz + yz)
        }
        func addSelf() {
            guard !isInfinity else { return }
            guard !rz.isZero else { (rx, ry, rz) = (x, y, .one); return }
            let z2 = rz * rz
            let h = x * z2 - rx, r = y * z2 * rz - ry
            if h.isZero {
                if r.isZero { double() } else { (rx, ry, rz) = (.one, .one, .zero) }
                return
            }
            let h2 = h * h, h3 = h2 * h
            let u = rx * h2
            let x3 = r * r - h3 - u - u
            let y3 = r * (u - x3) - ry * h3
            (rx, ry, rz) = (x3, y3, rz * h)
        }
        for i in stride(from: k.bitWidth - 1, through: 0, by: -1) {
            double()
            if k[bitAt: i] { addSelf() }
        }
        guard !rz.isZero else { return .infinity }
        let zi = rz.inverse, zi2 = zi * zi
        return Self(x: rx * zi2, y: ry * zi2 * zi, isInfinity: false)
    }

    /// X ‖ Y ‖ Z with Z = z (nonzero) for a finite point, (0 : z : 0) for infinity.
    func projectiveBytes(_ z: F) -> [UInt8] {
        isInfinity ? F.zero.bytes + z.bytes + F.zero.bytes : (x * z).bytes + (y * z).bytes + z.bytes
    }
}

typealias ReferenceG1 = ReferencePoint<ReferenceFp>
typealias ReferenceG2 = ReferencePoint<ReferenceFp2>

/// The twist's cofactor 2p − r, which maps any twist point into G2.
let referenceG2Cofactor = 2 * referenceP - referenceR
/// The G2 generator (the engine's constant, read once through the public encoding).
let referenceG2Generator: ReferenceG2 = {
    let bytes = BN254CX.G2.generator.rawRepresentation
    let c = (0..<4).map { integer(bytes[(32 * $0)..<(32 * $0 + 32)]) }
    return ReferenceG2(x: ReferenceFp2(c[0], c[1]), y: ReferenceFp2(c[2], c[3]), isInfinity: false)
}()
let referenceG1Generator = ReferenceG1(x: ReferenceFp(referenceP - 1), y: .one, isInfinity: false)
/// λ = 36U³ − 18U² + 6U − 2 (U = |u|), the eigenvalue of φ(x, y) = (βx, y) on G1.
let referenceLambda: BigUInt = {
    let u = BigUInt(0x4000_0000_03C0_12B1)
    return 36 * u * u * u + 6 * u - 18 * u * u - 2
}()
/// ψ's coefficients ξ^((p−1)/3) and ξ^((p−1)/2), from the untwist (x, y) ↦ (x·w², y·w³).
let referencePsi = (ReferenceFp2.xi.power((referenceP - 1) / 3), ReferenceFp2.xi.power((referenceP - 1) / 2))

extension ArithmeticInput {
    /// An element of Fp, edge-biased.
    mutating func fp() -> ReferenceFp { ReferenceFp(edge(referenceP, bits: 256)) }
    /// An element of Fp2, edge-biased.
    mutating func fp2() -> ReferenceFp2 { ReferenceFp2(edge(referenceP, bits: 256), choose(4) == 0 ? 0 : edge(referenceP, bits: 256)) }

    /// A point of G1 (every point of E(Fp) is), infinity, or with `offCurve` sometimes not on E.
    mutating func g1Point(offCurve: Bool) -> ReferenceG1 {
        switch choose(10) {
        case 0: return .infinity
        case 1: return referenceG1Generator.multiplied(by: BigUInt(byte()))
        case 2 where offCurve: return ReferenceG1(x: fp(), y: fp(), isInfinity: false)
        default:
            var x = fp()
            let negate = choose(2) == 0
            while true {
                if let y = (x * x * x + ReferenceFp.curveB).squareRoot { return ReferenceG1(x: x, y: negate ? .zero - y : y, isInfinity: false) }
                x = x + .one
            }
        }
    }

    /// A point of the twist: in G2 when `inGroup`, else sometimes outside it, or off the twist.
    mutating func g2Point(inGroup: Bool, offCurve: Bool) -> ReferenceG2 {
        switch choose(10) {
        case 0: return .infinity
        case 1, 2: return referenceG2Generator.multiplied(by: BigUInt(byte()) + 1)
        case 3 where offCurve: return ReferenceG2(x: fp2(), y: fp2(), isInfinity: false)
        default:
            var x = fp2()
            let negate = choose(2) == 0
            while true {
                if let y = (x * x * x + ReferenceFp2.curveB).squareRoot {
                    let point = ReferenceG2(x: x, y: negate ? .zero - y : y, isInfinity: false)
                    return inGroup || choose(3) == 0 ? point.multiplied(by: referenceG2Cofactor) : point
                }
                x = x + .one
            }
        }
    }
}

/// One curve operation, decoder verdict or pairing identity.
func curveDifferential(_ data: [UInt8]) {
    var input = ArithmeticInput(data)
    let operations = _ArithmeticProbe.CurveOperation.allCases
    let which = input.choose(operations.count + 4)
    guard which < operations.count else {
        switch which - operations.count {
        case 0: decoderDifferential(&input, data)
        case 1: publicMultipleDifferential(&input, data)
        default: pairingProperties(&input, data, multi: which - operations.count == 3)
        }
        return
    }
    let operation = operations[which]
    let onCurveOnly: Bool
    switch operation {
    case .isOnCurve, .affine: onCurveOnly = false
    default: onCurveOnly = true
    }
    let inGroup = operation == .multipleEndomorphism
    let needsQ = operation == .sum || operation == .difference  // Q costs a cofactor multiple on G2
    var k = input.edge(referenceR, bits: 256)
    if inGroup { k %= referenceR }
    let kBytes = bigEndian(k, count: 32)
    if input.choose(2) == 0 {
        let p = input.g1Point(offCurve: !onCurveOnly), q = needsQ ? input.g1Point(offCurve: false) : .infinity
        let zp = input.fp(), zq = input.fp()
        let engine = _ArithmeticProbe.g1(operation, p.projectiveBytes(zp.isZero ? .one : zp), q.projectiveBytes(zq.isZero ? .one : zq), scalar: kBytes)
        let reference: [UInt8]?
        switch operation {
        case .sum: reference = (p + q).bytes
        case .difference: reference = (p + q.negated).bytes
        case .doubling: reference = (p + p).bytes
        case .negation: reference = p.negated.bytes
        case .multipleConstantTime, .multipleVartime, .multipleEndomorphism: reference = p.multiplied(by: k).bytes
        case .isOnCurve: reference = [p.isOnCurve ? 1 : 0]
        case .isInSubgroup: reference = nil
        case .endomorphism: reference = p.multiplied(by: referenceLambda).bytes
        case .affine: reference = p.bytes
        }
        expectEqual(engine, reference, "diff-bn254cx-curve G1 \(operation) P=\(Hex.encode(p.bytes)) Q=\(Hex.encode(q.bytes)) k=\(Hex.encode(kBytes))", data)
    } else {
        let p = input.g2Point(inGroup: inGroup, offCurve: !onCurveOnly && operation != .isInSubgroup)
        let q = needsQ ? input.g2Point(inGroup: false, offCurve: false) : .infinity
        let zp = input.fp2(), zq = input.fp2()
        let engine = _ArithmeticProbe.g2(operation, p.projectiveBytes(zp.isZero ? .one : zp), q.projectiveBytes(zq.isZero ? .one : zq), scalar: kBytes)
        let reference: [UInt8]?
        switch operation {
        case .sum: reference = (p + q).bytes
        case .difference: reference = (p + q.negated).bytes
        case .doubling: reference = (p + p).bytes
        case .negation: reference = p.negated.bytes
        case .multipleConstantTime, .multipleVartime, .multipleEndomorphism: reference = p.multiplied(by: k).bytes
        case .isOnCurve: reference = [p.isOnCurve ? 1 : 0]
        case .isInSubgroup: reference = [p.multiplied(by: referenceR).isInfinity ? 1 : 0]
        case .endomorphism:
            reference = p.isInfinity ? [] : ReferenceG2(x: p.x.conjugate * referencePsi.0, y: p.y.conjugate * referencePsi.1, isInfinity: false).bytes
        case .affine: reference = p.bytes
        }
        expectEqual(engine, reference, "diff-bn254cx-curve G2 \(operation) P=\(Hex.encode(p.bytes)) Q=\(Hex.encode(q.bytes)) k=\(Hex.encode(kBytes))", data)
    }
}
