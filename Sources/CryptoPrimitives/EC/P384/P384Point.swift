// Points of P-384 in projective coordinates with the complete formulas of Renes, Costello and
// Batina, "Complete addition formulas for prime order elliptic curves" (EUROCRYPT 2016),
// Algorithms 4 (addition) and 6 (doubling) for a = −3, and the SEC 1 v2 §2.3.3–§2.3.4
// encodings. Complete: the identity and P + P need no special case, so nothing branches.

import CryptoCore

extension P384 {
    /// A point (X : Y : Z) with x = X/Z, y = Y/Z; the identity is (0 : 1 : 0).
    package struct ProjectivePoint: Sendable, ConditionallySelectable {
        package var x: FieldElement
        package var y: FieldElement
        package var z: FieldElement

        package init(x: FieldElement, y: FieldElement, z: FieldElement) {
            self.x = x
            self.y = y
            self.z = z
        }

        /// The identity (0 : 1 : 0).
        package static var identity: Self { Self(x: .zero, y: .one, z: .zero) }

        /// The point of an affine point (Z = 1).
        package init(_ point: AffinePoint) { self.init(x: point.x, y: point.y, z: .one) }

        /// Whether this is the identity (Z = 0).
        package var isIdentity: Choice { z.isZero }

        /// −P.
        package var negated: Self { Self(x: x, y: -y, z: z) }

        /// `a` if `choice` is true, else `b`.
        package static func select(_ a: Self, _ b: Self, if choice: Choice) -> Self {
            Self(x: .select(a.x, b.x, if: choice), y: .select(a.y, b.y, if: choice), z: .select(a.z, b.z, if: choice))
        }

        /// The affine point and whether this was the identity (then the affine result is
        /// (0, 0)). Constant time: one inversion by Fermat.
        package var affine: (point: AffinePoint, isIdentity: Choice) {
            let inverse = z.inverted()
            return (AffinePoint(x: x * inverse, y: y * inverse), isIdentity)
        }
    }

    /// A point (x, y) on the curve; never the identity. Points decoded from outside are checked
    /// on the curve before one of these is made.
    package struct AffinePoint: Sendable {
        package var x: FieldElement
        package var y: FieldElement

        package init(x: FieldElement, y: FieldElement) {
            self.x = x
            self.y = y
        }

        /// Whether y² = x³ − 3x + b.
        package var isOnCurve: Choice {
            y.squared().isEqual(to: (x.squared() - .three) * x + P384.curveB)
        }
    }
}

extension P384.ProjectivePoint {
    /// P + Q, complete (RCB 2016, Algorithm 4: 12M + 2m_b + 29a).
    package static func + (p: Self, q: Self) -> Self {
        let b = P384.curveB
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
        var z3 = b * t2
        x3 = y3 - z3
        z3 = x3 + x3
        x3 = x3 + z3
        z3 = t1 - x3
        x3 = t1 + x3
        y3 = b * y3
        t1 = t2 + t2
        t2 = t1 + t2
        y3 = y3 - t2
        y3 = y3 - t0
        t1 = y3 + y3
        y3 = t1 + y3
        t1 = t0 + t0
        t0 = t1 + t0
        t0 = t0 - t2
        t1 = t4 * y3
        t2 = t0 * y3
        y3 = x3 * z3 + t2
        x3 = t3 * x3 - t1
        z3 = t4 * z3 + t3 * t0
        return Self(x: x3, y: y3, z: z3)
    }

    /// 2P, complete (RCB 2016, Algorithm 6: 8M + 3S + 2m_b + 21a).
    package func doubled() -> Self {
        let b = P384.curveB
        var t0 = x.squared(), t1 = y.squared(), t2 = z.squared()
        var t3 = x * y
        t3 = t3 + t3
        var z3 = x * z
        z3 = z3 + z3
        var y3 = b * t2 - z3
        var x3 = y3 + y3
        y3 = x3 + y3
        x3 = t1 - y3
        y3 = t1 + y3
        y3 = x3 * y3
        x3 = x3 * t3
        t3 = t2 + t2
        t2 = t2 + t3
        z3 = b * z3 - t2 - t0
        t3 = z3 + z3
        z3 = z3 + t3
        t3 = t0 + t0
        t0 = t3 + t0 - t2
        y3 = y3 + t0 * z3
        t0 = y * z
        t0 = t0 + t0
        x3 = x3 - t0 * z3
        z3 = t0 * t1
        z3 = z3 + z3
        z3 = z3 + z3
        return Self(x: x3, y: y3, z: z3)
    }
}

extension P384.AffinePoint {
    /// Decodes an uncompressed (97 B) or compressed (49 B) SEC 1 point. Throws
    /// `CryptoError.invalidEncoding` for a wrong length or prefix (the point at infinity
    /// included) and `CryptoError.invalidKey` for a coordinate ≥ p, a point off the curve or
    /// an x with no square root.
    package init(sec1 bytes: some Collection<UInt8>) throws(CryptoError) {
        let bytes = Array(bytes)
        switch (bytes.first, bytes.count) {
        case (0x04, 97):
            guard let x = P384.FieldElement(canonicalBytes48: bytes[1..<49]),
                  let y = P384.FieldElement(canonicalBytes48: bytes[49...]) else { throw .invalidKey }
            self.init(x: x, y: y)
            guard isOnCurve.isTrueVartime else { throw .invalidKey }
        case (0x02, 49), (0x03, 49):
            guard let x = P384.FieldElement(canonicalBytes48: bytes[1...]) else { throw .invalidKey }
            // SEC 1 v2 §2.3.4 step 2.4.1: y² = x³ − 3x + b, the root with the parity bit asked.
            let (root, isSquare) = ((x.squared() - .three) * x + P384.curveB).squareRoot()
            guard isSquare.isTrueVartime else { throw .invalidKey }
            let wantOdd = Choice(bit: UInt64(bytes[0] & 1))
            self.init(x: x, y: .select(-root, root, if: root.canonical.isOdd ^ wantOdd))
        default:
            throw .invalidEncoding
        }
    }

    /// 04‖X‖Y (SEC 1 v2 §2.3.3, uncompressed).
    package var uncompressedRepresentation: [UInt8] { [0x04] + x.canonicalBytes48 + y.canonicalBytes48 }

    /// 02‖X or 03‖X by the parity of y.
    package var compressedRepresentation: [UInt8] {
        [y.canonical.isOdd.isTrueVartime ? 0x03 : 0x02] + x.canonicalBytes48
    }
}
