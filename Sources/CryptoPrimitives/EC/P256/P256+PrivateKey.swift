// P-256 private keys: a secret scalar d in [1, n) in wiped storage, with its public key.

import CryptoCore

extension P256 {
    /// A P-256 private key. The scalar lives in `SecretBytes`; descriptions are redacted.
    public struct PrivateKey<Purpose: P256KeyPurpose>: Sendable, CustomStringConvertible {
        package let secret: SecretBytes
        /// The matching public key.
        public let publicKey: PublicKey<Purpose>

        /// A fresh key from `random`, by rejection sampling: 32 random bytes are accepted when
        /// they encode a value in [1, n) and drawn again otherwise (no modular bias).
        public init(using random: inout some RandomSource) throws(CryptoError) {
            while true {
                let candidate = try random.secretBytes(count: 32)
                if let key = try? Self(validating: candidate) {
                    self = key
                    return
                }
            }
        }

        /// A fresh key from the system random source.
        public init() throws(CryptoError) {
            var random = SystemRandomSource()
            try self.init(using: &random)
        }

        /// A key from its raw scalar: 32 big-endian bytes, or the Java `BigInteger` encodings
        /// PowerAuth servers store (`toByteArray()`): 33 bytes with a leading zero sign byte, or
        /// fewer than 32 when the scalar is small (about one key in 256). Throws
        /// `CryptoError.invalidKey` unless 1 ≤ d < n, for an empty input, or for 33 bytes
        /// whose first is not zero. The length (public in any encoding) decides the path.
        public init(rawRepresentation: some Sequence<UInt8>) throws(CryptoError) {
            let bytes = SecretBytes(rawRepresentation)
            guard (1...33).contains(bytes.count) else { throw .invalidKey }
            if bytes.count == 32 {
                try self.init(validating: bytes)
                return
            }
            var signByte: UInt8 = 0
            let padded = bytes.withUnsafeBytes { source in
                SecretBytes(count: 32) { out in
                    let digits = source.count == 33 ? UnsafeRawBufferPointer(rebasing: source[1...]) : source
                    signByte = source.count == 33 ? source[0] : 0
                    if let base = digits.baseAddress {
                        out.baseAddress?.advanced(by: 32 - digits.count).copyMemory(from: base, byteCount: digits.count)
                    }
                }
            }
            guard signByte == 0 else { throw .invalidKey }
            try self.init(validating: padded)
        }

        /// The same key, for the other purpose (signing ↔ key agreement), without the scalar
        /// leaving wiped storage.
        public init<Other: P256KeyPurpose>(sameKeyAs other: PrivateKey<Other>) {
            secret = other.secret
            publicKey = PublicKey(sameKeyAs: other.publicKey)
        }

        /// A key from DER: SEC 1 `ECPrivateKey` (RFC 5915) or PKCS #8 (RFC 5958) naming
        /// secp256r1. An embedded public key, uncompressed or compressed, must match the scalar.
        public init(derRepresentation: some Sequence<UInt8>) throws(CryptoError) {
            let (scalar, embeddedPublicKey) = try P256.decodePrivateKeyDER(Array(derRepresentation))
            try self.init(validating: scalar)
            // RFC 5915 §3 / SEC 1 v2 §C.4: publicKey is an ECPoint in either SEC 1 form.
            if let embeddedPublicKey, embeddedPublicKey != publicKey.x963Representation,
               embeddedPublicKey != publicKey.compressedRepresentation { throw .invalidKey }
        }

        /// A key from PEM: `EC PRIVATE KEY` (SEC 1) or `PRIVATE KEY` (PKCS #8).
        public init(pemRepresentation: String) throws(CryptoError) {
            let (label, der) = try PEM.decode(pemRepresentation)
            guard label == "EC PRIVATE KEY" || label == "PRIVATE KEY" else { throw .invalidEncoding }
            try self.init(derRepresentation: der)
        }

        private init(validating bytes: SecretBytes) throws(CryptoError) {
            guard bytes.count == 32,
                  let scalar = bytes.withUnsafeBytes({ P256.Scalar(canonicalBytes: $0) }),
                  !scalar.isZero.isTrueVartime else { throw .invalidKey }
            secret = bytes
            let point = P256.multiplyGeneratorJacobian(by: scalar.canonical).affine.point
            publicKey = PublicKey(point: point)
        }

        /// The scalar as a residue mod n (for the operations; the caller must not keep it).
        package var scalar: P256.Scalar {
            secret.withUnsafeBytes { P256.Scalar(canonicalBytes: $0) } ?? .zero
        }

        /// The scalar, 32 big-endian bytes.
        public var rawRepresentation: SecretBytes { secret }

        /// PKCS #8 DER (RFC 5958), with the public key inside, as OpenSSL writes it.
        public var derRepresentation: SecretBytes { P256.encodePKCS8(self.secret, publicKey: publicKey.x963Representation) }

        /// SEC 1 `ECPrivateKey` DER (RFC 5915) with the curve and the public key.
        public var sec1DERRepresentation: SecretBytes { P256.encodeSEC1(self.secret, publicKey: publicKey.x963Representation, withCurve: true) }

        /// PEM `PRIVATE KEY` (PKCS #8), as UTF-8 bytes in wiped storage.
        public var pemRepresentation: SecretBytes {
            derRepresentation.withUnsafeBytes { SecretBytes(PEM.encode(label: "PRIVATE KEY", der: $0).utf8) }
        }

        /// A redacted description.
        public var description: String { "P256.PrivateKey(redacted)" }
    }
}
