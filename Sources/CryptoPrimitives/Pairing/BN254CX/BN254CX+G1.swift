// Points of G1 = E(Fp), E: y² = x³ + 2 (cofactor 1), with Milagro's encodings: 65 bytes
// 04 ‖ x ‖ y and 33 bytes 02/03 ‖ x (docs/protocols/mpin.md §2.1, §2.3).

import CryptoCore

extension BN254CX {
    /// A point of G1. Every point of E(Fp) other than infinity has order r, so decoding a
    /// point on the curve is a subgroup check.
    public struct G1: Sendable {
        package var point: G1Projective

        package init(_ point: G1Projective) {
            self.point = point
        }

        /// The generator (−1, 1) (docs/protocols/mpin.md §2.1).
        public static var generator: G1 {
            G1(G1Projective(affineX: -Fp.one, y: .one))
        }

        /// The point at infinity (the identity). It has no encoding.
        public static var infinity: G1 { G1(.infinity) }

        /// Whether this is the point at infinity.
        public var isInfinity: Bool { point.isInfinity.isTrueVartime }

        /// Decodes 04 ‖ x ‖ y (65 bytes) or 02/03 ‖ x (33 bytes, 03 when y is odd). Throws
        /// `CryptoError.invalidEncoding` for other lengths or prefixes and for coordinates
        /// that are not below p, and `CryptoError.invalidKey` for points not on the curve.
        public init(encoded bytes: some Collection<UInt8>) throws(CryptoError) {
            let bytes = Array(bytes)
            guard let prefix = bytes.first else { throw .invalidEncoding }
            switch (prefix, bytes.count) {
            case (0x04, 65):
                guard let x = Fp(canonicalBytes: bytes[1..<33]), let y = Fp(canonicalBytes: bytes[33..<65]) else {
                    throw .invalidEncoding
                }
                let point = G1Projective(affineX: x, y: y)
                guard point.isOnCurve.isTrueVartime else { throw .invalidKey }
                self.init(point)
            case (0x02, 33), (0x03, 33):
                guard let x = Fp(canonicalBytes: bytes[1..<33]) else { throw .invalidEncoding }
                let (root, isSquare) = (x.squared() * x + Fp.curveB).squareRoot()
                guard isSquare.isTrueVartime else { throw .invalidKey }
                let wantOdd = Choice(bit: UInt64(prefix & 1))
                let y = Fp.select(-root, root, if: root.isOdd ^ wantOdd)
                self.init(G1Projective(affineX: x, y: y))
            default:
                throw .invalidEncoding
            }
        }

        /// 04 ‖ x ‖ y, 65 bytes (the form the M-Pin protocol sends); empty for infinity.
        public var uncompressedRepresentation: [UInt8] {
            guard !isInfinity else { return [] }
            let (x, y) = point.affine()
            return [0x04] + x.canonicalBytes + y.canonicalBytes
        }

        /// 02 ‖ x when y is even, 03 ‖ x when odd, 33 bytes; empty for infinity.
        public var compressedRepresentation: [UInt8] {
            guard !isInfinity else { return [] }
            let (x, y) = point.affine()
            return [y.isOdd.isTrueVartime ? 0x03 : 0x02] + x.canonicalBytes
        }

        /// P + Q.
        public static func + (p: G1, q: G1) -> G1 { G1(p.point + q.point) }
        /// P − Q.
        public static func - (p: G1, q: G1) -> G1 { G1(p.point - q.point) }
        /// −P.
        public static prefix func - (p: G1) -> G1 { G1(-p.point) }
    }
}

extension BN254CX.G1: Equatable {
    /// Equality of points (in constant time).
    public static func == (a: Self, b: Self) -> Bool { a.point.isEqual(to: b.point).isTrueVartime }
}

extension BN254CX.G1 {
    /// The point of a 32-byte hash by Milagro's "hunt and peck" (`ECP_mapit`, docs/protocols/mpin.md §3): x is
    /// the hash as an integer reduced mod p; while x³ + 2 is not a square, x ← x + 1; y is the
    /// even square root. Leaks: the number of increments (the hash is public, M-Pin identities
    /// only).
    public init(mappingHashVartime hash: some Collection<UInt8>) {
        typealias Fp = BN254CX.Fp
        var value = FixedUInt<4>.zero
        for byte in hash.suffix(32) { value = value.shiftedLeft(by: 8); value.limbs[0] |= UInt64(byte) }
        var x = Fp(reducing: value)
        while true {
            let (root, isSquare) = (x.squared() * x + Fp.curveB).squareRoot()
            if isSquare.isTrueVartime {
                let y = Fp.select(-root, root, if: root.isOdd)
                self.init(BN254CX.G1Projective(affineX: x, y: y))
                return
            }
            x = x + .one
        }
    }
}
