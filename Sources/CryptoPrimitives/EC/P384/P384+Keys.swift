// P-384 keys and signatures shaped like CryptoKit's: verification keys and ECDSA signatures,
// and ECDH key pairs. One public-key type serves both purposes through a phantom purpose, as
// for P-256.

import CryptoCore

/// What a P-384 key is for; `P384.Signing` and `P384.KeyAgreement` conform.
public protocol P384KeyPurpose: Sendable {}

extension P384 {
    /// A P-384 public key: a point on the curve, never the identity, checked on decoding.
    public struct PublicKey<Purpose: P384KeyPurpose>: Sendable, Equatable {
        package let point: AffinePoint

        package init(point: AffinePoint) { self.point = point }

        /// A key from the SEC 1 uncompressed form 04‖X‖Y (97 bytes, ANSI X9.63).
        public init(x963Representation: some Sequence<UInt8>) throws(CryptoError) {
            let bytes = Array(x963Representation)
            guard bytes.count == 97 else { throw .invalidEncoding }
            point = try AffinePoint(sec1: bytes)
        }

        /// A key from the SEC 1 compressed form 02/03‖X (49 bytes).
        public init(compressedRepresentation: some Sequence<UInt8>) throws(CryptoError) {
            let bytes = Array(compressedRepresentation)
            guard bytes.count == 49 else { throw .invalidEncoding }
            point = try AffinePoint(sec1: bytes)
        }

        /// A key from a DER SubjectPublicKeyInfo (RFC 5480) naming secp384r1; explicit curve
        /// parameters are refused.
        public init(derRepresentation: some Sequence<UInt8>) throws(CryptoError) {
            var reader = DER.Reader(derRepresentation)
            var spki = try reader.readSequence()
            try reader.finish()
            var algorithm = try spki.readSequence()
            guard try algorithm.readObjectIdentifier() == .ecPublicKey,
                  try algorithm.readObjectIdentifier() == .secp384r1 else { throw .invalidKey }
            try algorithm.finish()
            let point = try spki.readBitString()
            try spki.finish()
            self.point = try AffinePoint(sec1: point)
        }

        /// 04‖X‖Y (97 bytes).
        public var x963Representation: [UInt8] { point.uncompressedRepresentation }
        /// 02/03‖X (49 bytes).
        public var compressedRepresentation: [UInt8] { point.compressedRepresentation }

        /// Equal when the points are equal.
        public static func == (lhs: Self, rhs: Self) -> Bool { lhs.x963Representation == rhs.x963Representation }
    }

    /// ECDSA verification (SEC 1 v2 §4.1.4).
    public enum Signing: P384KeyPurpose {
        /// A verification key.
        public typealias PublicKey = P384.PublicKey<Signing>

        /// An ECDSA signature (r, s).
        public struct ECDSASignature: Sendable, Equatable {
            package let r: FixedUInt<6>
            package let s: FixedUInt<6>

            /// A signature from r‖s, 48 bytes each (IEEE P1363). Values out of range make the
            /// signature invalid at verification.
            public init(rawRepresentation: some Sequence<UInt8>) throws(CryptoError) {
                let bytes = Array(rawRepresentation)
                guard bytes.count == 96, let r = FixedUInt<6>(bigEndian: bytes[0..<48]), let s = FixedUInt<6>(bigEndian: bytes[48...]) else {
                    throw .invalidEncoding
                }
                (self.r, self.s) = (r, s)
            }

            /// A signature from strict DER: SEQUENCE { INTEGER r, INTEGER s }, minimal and
            /// positive, nothing trailing.
            public init(derRepresentation: some Sequence<UInt8>) throws(CryptoError) {
                let (rBytes, sBytes) = try DER.ecdsaSignature(derRepresentation)
                guard let r = FixedUInt<6>(bigEndian: rBytes), let s = FixedUInt<6>(bigEndian: sBytes) else { throw .invalidEncoding }
                (self.r, self.s) = (r, s)
            }

            /// r‖s, 48 bytes each.
            public var rawRepresentation: [UInt8] { r.bigEndianBytes() + s.bigEndianBytes() }

            /// Equal when r and s are equal.
            public static func == (lhs: Self, rhs: Self) -> Bool { lhs.rawRepresentation == rhs.rawRepresentation }
        }
    }

    /// Elliptic-curve Diffie–Hellman (SEC 1 v2 §3.3.1).
    public enum KeyAgreement: P384KeyPurpose {
        /// A key-agreement public key.
        public typealias PublicKey = P384.PublicKey<KeyAgreement>

        /// A key-agreement private key: a secret scalar in [1, n) in wiped storage.
        public struct PrivateKey: Sendable, CustomStringConvertible {
            private let secret: SecretBytes
            /// The matching public key.
            public let publicKey: PublicKey

            /// A fresh key from `random`, by rejection sampling (no modular bias).
            public init(using random: inout some RandomSource) throws(CryptoError) {
                while true {
                    let candidate = try random.secretBytes(count: 48)
                    do throws(CryptoError) {
                        try self.init(validating: candidate)
                        return
                    } catch {
                        continue  // outside [1, n): draw again
                    }
                }
            }

            /// A fresh key from the system random source.
            public init() throws(CryptoError) {
                var random = SystemRandomSource()
                try self.init(using: &random)
            }

            /// A key from its 48-byte big-endian scalar; throws `CryptoError.invalidKey`
            /// unless 1 ≤ d < n.
            public init(rawRepresentation: some Sequence<UInt8>) throws(CryptoError) {
                try self.init(validating: SecretBytes(rawRepresentation))
            }

            private init(validating bytes: SecretBytes) throws(CryptoError) {
                guard let scalar = bytes.withUnsafeBytes({ Scalar(canonicalBytes48: $0) }), !scalar.isZero.isTrueVartime else {
                    throw .invalidKey
                }
                secret = bytes
                publicKey = PublicKey(point: P384.multiply(P384.generator, by: scalar.canonical).affine.point)
            }

            /// The scalar, 48 big-endian bytes.
            public var rawRepresentation: SecretBytes { secret }

            /// The x-coordinate of d·Q (48 bytes), computed in constant time. A result at
            /// infinity (impossible for a checked point on this prime-order curve) throws
            /// `CryptoError.invalidKey`.
            public func sharedSecretFromKeyAgreement(with publicKey: PublicKey) throws(CryptoError) -> SharedSecret {
                let scalar = secret.withUnsafeBytes { Scalar(canonicalBytes48: $0) } ?? .zero
                let (point, isIdentity) = P384.multiply(publicKey.point, by: scalar.canonical).affine
                guard !isIdentity.isTrueVartime else { throw .invalidKey }
                return SharedSecret(secret: SecretBytes(point.x.canonicalBytes48))
            }

            /// A redacted description.
            public var description: String { "P384.KeyAgreement.PrivateKey(redacted)" }
        }
    }
}

extension P384.PublicKey where Purpose == P384.Signing {
    /// Whether `signature` is valid for `digest` (any hash: its leftmost 384 bits are used).
    /// Every input is public; malformed signatures are simply invalid.
    public func isValidSignature<H: HashFunction>(_ signature: P384.Signing.ECDSASignature, for digest: HashDigest<H>) -> Bool {
        P384.isValidSignature(r: signature.r, s: signature.s, digest: digest.bytes, publicKey: point)
    }

    /// Whether `signature` is valid for the SHA-384 digest of `data`.
    public func isValidSignature(_ signature: P384.Signing.ECDSASignature, for data: some Sequence<UInt8>) -> Bool {
        isValidSignature(signature, for: SHA384.hash(data: data))
    }
}
