// P-256 public keys, one implementation for both purposes: `P256.Signing.PublicKey` and
// `P256.KeyAgreement.PublicKey` are this type with a phantom purpose, so a key made for one
// purpose cannot be passed where the other is expected.

import CryptoCore

/// What a P-256 key is for; `P256.Signing` and `P256.KeyAgreement` conform.
public protocol P256KeyPurpose: Sendable {}

extension P256 {
    /// A P-256 public key: a point on the curve, never the identity, checked on decoding.
    public struct PublicKey<Purpose: P256KeyPurpose>: Sendable {
        package let point: AffinePoint

        package init(point: AffinePoint) {
            self.point = point
        }

        /// The same key, for the other purpose (signing ↔ key agreement).
        public init<Other: P256KeyPurpose>(sameKeyAs other: PublicKey<Other>) {
            self.init(point: other.point)
        }

        /// A key from the raw 64-byte X‖Y form.
        public init(rawRepresentation: some Sequence<UInt8>) throws(CryptoError) {
            point = try AffinePoint(raw: Array(rawRepresentation))
        }

        /// A key from the ANSI X9.63 / SEC 1 uncompressed form 04‖X‖Y (65 bytes).
        public init(x963Representation: some Sequence<UInt8>) throws(CryptoError) {
            let bytes = Array(x963Representation)
            guard bytes.count == 65 else { throw .invalidEncoding }
            point = try AffinePoint(sec1: bytes)
        }

        /// A key from the SEC 1 compressed form 02/03‖X (33 bytes).
        public init(compressedRepresentation: some Sequence<UInt8>) throws(CryptoError) {
            let bytes = Array(compressedRepresentation)
            guard bytes.count == 33 else { throw .invalidEncoding }
            point = try AffinePoint(sec1: bytes)
        }

        /// A key from either SEC 1 form, uncompressed or compressed (as PowerAuth exchanges them).
        public init(sec1Representation: some Sequence<UInt8>) throws(CryptoError) {
            point = try AffinePoint(sec1: Array(sec1Representation))
        }

        /// A key from a DER SubjectPublicKeyInfo (RFC 5480) naming secp256r1.
        public init(derRepresentation: some Sequence<UInt8>) throws(CryptoError) {
            point = try P256.decodeSubjectPublicKeyInfo(Array(derRepresentation))
        }

        /// A key from a PEM `PUBLIC KEY` block.
        public init(pemRepresentation: String) throws(CryptoError) {
            try self.init(derRepresentation: PEM.decode(pemRepresentation, label: "PUBLIC KEY"))
        }

        /// X‖Y (64 bytes).
        public var rawRepresentation: [UInt8] { point.rawRepresentation }
        /// 04‖X‖Y (65 bytes).
        public var x963Representation: [UInt8] { point.uncompressedRepresentation }
        /// 02/03‖X (33 bytes).
        public var compressedRepresentation: [UInt8] { point.compressedRepresentation }
        /// DER SubjectPublicKeyInfo with the uncompressed point.
        public var derRepresentation: [UInt8] { P256.encodeSubjectPublicKeyInfo(point) }
        /// PEM `PUBLIC KEY` (64-character lines, LF, trailing newline).
        public var pemRepresentation: String { PEM.encode(label: "PUBLIC KEY", der: derRepresentation) }
    }
}

extension P256.PublicKey: Equatable {
    /// Equal when the points are equal.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.rawRepresentation == rhs.rawRepresentation
    }
}
