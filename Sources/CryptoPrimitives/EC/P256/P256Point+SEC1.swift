// SEC 1 v2 §2.3.3–§2.3.4 point encodings: uncompressed (04‖X‖Y), compressed (02/03‖X), and
// CryptoKit's raw X‖Y. Every decoded point is checked to be on the curve; the point at
// infinity is never accepted.

import CryptoCore

extension P256.AffinePoint {
    /// Decodes an uncompressed (65 B) or compressed (33 B) SEC 1 point.
    ///
    /// Throws `CryptoError.invalidEncoding` for a wrong length or prefix byte (including the
    /// one-byte encoding of infinity) and `CryptoError.invalidKey` for coordinates ≥ p, a point
    /// off the curve, or an x with no square root.
    package init(sec1 bytes: some Collection<UInt8>) throws(CryptoError) {
        let bytes = Array(bytes)
        switch (bytes.first, bytes.count) {
        case (0x04, 65):
            try self.init(coordinates: bytes[1...])
        case (0x02, 33), (0x03, 33):
            guard let x = P256.FieldElement(canonicalBytes: bytes[1...]) else { throw .invalidKey }
            // SEC 1 v2 §2.3.4 step 2.4.1: y² = x³ − 3x + b, then pick the root with the parity bit.
            let rhs = (x.squared() - .three) * x + P256.curveB
            let (root, isSquare) = rhs.squareRoot()
            guard isSquare.isTrueVartime else { throw .invalidKey }
            let wantOdd = Choice(bit: UInt64(bytes[0] & 1))
            let y = P256.FieldElement.select(-root, root, if: root.isOdd ^ wantOdd)
            self.init(x: x, y: y)
        default:
            throw .invalidEncoding
        }
    }

    /// Decodes the raw 64-byte X‖Y form (CryptoKit's `rawRepresentation`).
    package init(raw bytes: some Collection<UInt8>) throws(CryptoError) {
        let bytes = Array(bytes)
        guard bytes.count == 64 else { throw .invalidEncoding }
        try self.init(coordinates: bytes[...])
    }

    /// X‖Y, each 32 bytes, canonical and on the curve.
    private init(coordinates: ArraySlice<UInt8>) throws(CryptoError) {
        let start = coordinates.startIndex
        guard let x = P256.FieldElement(canonicalBytes: coordinates[start..<(start + 32)]),
              let y = P256.FieldElement(canonicalBytes: coordinates[(start + 32)...]) else { throw .invalidKey }
        self.init(x: x, y: y)
        guard isOnCurve.isTrueVartime else { throw .invalidKey }
    }

    /// 04‖X‖Y (SEC 1 v2 §2.3.3, uncompressed; also ANSI X9.63).
    package var uncompressedRepresentation: [UInt8] { [0x04] + rawRepresentation }

    /// 02‖X or 03‖X by the parity of y (SEC 1 v2 §2.3.3, compressed).
    package var compressedRepresentation: [UInt8] {
        [y.isOdd.isTrueVartime ? 0x03 : 0x02] + x.canonicalBytes
    }

    /// X‖Y.
    package var rawRepresentation: [UInt8] { x.canonicalBytes + y.canonicalBytes }
}
