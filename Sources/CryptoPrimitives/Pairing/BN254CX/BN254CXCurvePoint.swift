// Points of y² = x³ + b over Fp (G1) or over Fp2 (the twist carrying G2), in homogeneous
// projective coordinates with the complete formulas of Renes, Costello and Batina, "Complete
// addition formulas for prime order elliptic curves" (2016), algorithms 7–9 for a = 0: no
// input is special, so nothing branches on a point.

import CryptoCore

/// The field operations the curve formulas need (Fp for G1, Fp2 for G2).
package protocol BN254CXCurveField: Sendable {
    static var zero: Self { get }
    static var one: Self { get }
    /// 3b of the curve over this field (6 for E, 3(1 − i) for the twist).
    static var curveB3: Self { get }
    /// b of the curve over this field.
    static var curveB: Self { get }
    /// 3b·self by additions (no product).
    var timesCurveB3: Self { get }
    static func + (a: Self, b: Self) -> Self
    static func - (a: Self, b: Self) -> Self
    static func * (a: Self, b: Self) -> Self
    static prefix func - (a: Self) -> Self
    func squared() -> Self
    func inverted() -> Self
    var isZero: Choice { get }
    func isEqual(to other: Self) -> Choice
    static func select(_ a: Self, _ b: Self, if choice: Choice) -> Self
}

extension BN254CXCurveField {
    /// The inverses of `values`, every one nonzero, with a single inversion (Montgomery's
    /// simultaneous inversion: prefix products, one inverse of their product, then back through
    /// them, three products a value). Constant time in the values: only their count steers it.
    /// The values may be secret, so the prefix products, their running product and its inverse
    /// are wiped; the caller wipes the values and the inverses it gets.
    package static func invertedTogether(_ values: [Self]) -> [Self] {
        var prefix: [Self] = []
        prefix.reserveCapacity(values.count)
        var running = Self.one
        for value in values {
            prefix.append(running)
            running = running * value
        }
        var inverse = running.inverted()                  // 1/(v0·…·v(n−1))
        var inverses = [Self](repeating: .zero, count: values.count)
        for i in values.indices.reversed() {
            inverses[i] = inverse * prefix[i]             // 1/vi
            inverse = inverse * values[i]
        }
        prefix.withUnsafeMutableBytes { SecretBytes.wipe($0) }
        withUnsafeMutableBytes(of: &running) { SecretBytes.wipe($0) }
        withUnsafeMutableBytes(of: &inverse) { SecretBytes.wipe($0) }
        return inverses
    }
}

extension BN254CX.Fp: BN254CXCurveField {
    /// 6 in Montgomery form (6·2²⁵⁶ mod p), a literal so that no formula spends a product
    /// converting it (a test checks it against `Fp(small: 6)`).
    package static var curveB3: Self {
        Self(montgomeryForm: FixedUInt(limbs: [0xC33E_1ABA_E383_F0A2, 0x0D86_BCF0_0E7B_AEF6, 0x00D9_5983_EBB1_215C, 0x17FF_FFFE_9D99_19C1]))
    }
    package static var curveB: Self { Self(small: 2) }

    /// 6·self = 2·(2·self + self): three sums instead of a product by the literal.
    @inline(__always)
    package var timesCurveB3: Self {
        let twice = self + self
        let thrice = twice + self
        return thrice + thrice
    }
}

extension BN254CX.Fp2: BN254CXCurveField {
    /// 3b′ with b′ = b/ξ = 1 − i (the D-type twist, docs/protocols/mpin.md §2.2).
    /// As Montgomery literals (3 and −3), checked by a test against `Fp(small: 3)`.
    package static var curveB3: Self {
        Self(BN254CX.Fp(montgomeryForm: FixedUInt(limbs: [0x619F_0D5D_71C1_F851, 0x06C3_5E78_073D_D77B, 0x806C_ACC1_F5D8_90AE, 0x0BFF_FFFF_4ECC_8CE0])),
             BN254CX.Fp(montgomeryForm: FixedUInt(limbs: [0x5CC7_1691_EA59_5D62, 0x1D7C_7876_10CB_6766, 0x3051_32A2_848A_D625, 0x1800_0000_B9A3_9D2D])))
    }
    package static var curveB: Self { Self(.one, -.one) }

    /// 3(1 − i)·(c0 + c1·i) = 3(c0 + c1) + 3(c1 − c0)·i: six Fp sums instead of an Fp2
    /// product (three Fp products).
    @inline(__always)
    package var timesCurveB3: Self {
        let sum = c0 + c1, difference = c1 - c0
        return Self(sum + sum + sum, difference + difference + difference)
    }
}

extension BN254CX {
    /// A point (X : Y : Z) with x = X/Z, y = Y/Z; the point at infinity is (0 : 1 : 0).
    package struct CurvePoint<Field: BN254CXCurveField>: Sendable {
        package var x: Field
        package var y: Field
        package var z: Field

        @inline(__always)
        package init(x: Field, y: Field, z: Field) {
            self.x = x
            self.y = y
            self.z = z
        }

        /// The affine point (x, y).
        package init(affineX x: Field, y: Field) {
            self.init(x: x, y: y, z: .one)
        }

        package static var infinity: CurvePoint { CurvePoint(x: .zero, y: .one, z: .zero) }

        package var isInfinity: Choice { z.isZero }

        /// −P.
        package static prefix func - (p: CurvePoint) -> CurvePoint { CurvePoint(x: p.x, y: -p.y, z: p.z) }

        /// P + Q for any two points (RCB algorithm 7; the products by 3b are sums).
        package static func + (p: CurvePoint, q: CurvePoint) -> CurvePoint {
            var t0 = p.x * q.x, t1 = p.y * q.y, t2 = p.z * q.z
            var t3 = (p.x + p.y) * (q.x + q.y)
            var t4 = t0 + t1
            t3 = t3 - t4
            t4 = (p.y + p.z) * (q.y + q.z)
            var x3 = t1 + t2
            t4 = t4 - x3
            x3 = (p.x + p.z) * (q.x + q.z)
            var y3 = t0 + t2
            y3 = x3 - y3
            x3 = t0 + t0
            t0 = x3 + t0
            t2 = t2.timesCurveB3
            var z3 = t1 + t2
            t1 = t1 - t2
            y3 = y3.timesCurveB3
            x3 = t4 * y3
            t2 = t3 * t1
            x3 = t2 - x3
            y3 = y3 * t0
            t1 = t1 * z3
            y3 = t1 + y3
            t0 = t0 * t3
            z3 = z3 * t4
            z3 = z3 + t0
            return CurvePoint(x: x3, y: y3, z: z3)
        }

        package static func - (p: CurvePoint, q: CurvePoint) -> CurvePoint { p + (-q) }

        /// 2P (RCB algorithm 9; the product by 3b is sums).
        package func doubled() -> CurvePoint {
            var t0 = y.squared()
            var z3 = t0 + t0
            z3 = z3 + z3
            z3 = z3 + z3
            var t1 = y * z
            var t2 = z.squared()
            t2 = t2.timesCurveB3
            var x3 = t2 * z3
            var y3 = t0 + t2
            z3 = t1 * z3
            t1 = t2 + t2
            t2 = t1 + t2
            t0 = t0 - t2
            y3 = t0 * y3
            y3 = x3 + y3
            t1 = x * y
            x3 = t0 * t1
            x3 = x3 + x3
            return CurvePoint(x: x3, y: y3, z: z3)
        }

        /// Whether the point satisfies Y²Z = X³ + bZ³ (the infinity (0 : 1 : 0) does).
        package var isOnCurve: Choice {
            (y.squared() * z).isEqual(to: x.squared() * x + Field.curveB * z.squared() * z)
        }

        /// The affine coordinates (x, y); (0, 0) for the point at infinity. Constant time.
        package func affine() -> (x: Field, y: Field) {
            let zInverse = z.inverted()
            return (x * zInverse, y * zInverse)
        }

        /// Equality as points (X1·Z2 = X2·Z1 and Y1·Z2 = Y2·Z1, or both at infinity).
        package func isEqual(to other: CurvePoint) -> Choice {
            let sameX = (x * other.z).isEqual(to: other.x * z)
            let sameY = (y * other.z).isEqual(to: other.y * z)
            let bothInfinite = isInfinity & other.isInfinity
            let neitherInfinite = !isInfinity & !other.isInfinity
            return bothInfinite | (neitherInfinite & sameX & sameY)
        }

        package static func select(_ a: CurvePoint, _ b: CurvePoint, if choice: Choice) -> CurvePoint {
            CurvePoint(x: Field.select(a.x, b.x, if: choice), y: Field.select(a.y, b.y, if: choice),
                       z: Field.select(a.z, b.z, if: choice))
        }

        /// −P if `choice`, else P.
        package func negated(if choice: Choice) -> CurvePoint {
            CurvePoint(x: x, y: Field.select(-y, y, if: choice), z: z)
        }
    }

    package typealias G1Projective = CurvePoint<Fp>
    package typealias G2Projective = CurvePoint<Fp2>
}

extension BN254CX.CurvePoint: ConditionallySelectable {}
