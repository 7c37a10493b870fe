// ECDSA over P-256 with SHA-256 (FIPS 186-5 §6, SEC 1 v2 §4.1), shaped like CryptoKit.

import CryptoCore

extension P256 {
    /// ECDSA: keys, signatures, signing and verification.
    public enum Signing: P256KeyPurpose {
        /// A signing public key.
        public typealias PublicKey = P256.PublicKey<Signing>
        /// A signing private key.
        public typealias PrivateKey = P256.PrivateKey<Signing>
    }
}

extension P256.PrivateKey where Purpose == P256.Signing {
    /// Signs the SHA-256 digest of `data`. The nonce is RFC 6979's, hedged with 32 bytes from
    /// the system random source (RFC 6979 §3.6), so a weak random source cannot leak the key and
    /// a fault cannot be replayed.
    public func signature(for data: some Sequence<UInt8>) throws(CryptoError) -> P256.Signing.ECDSASignature {
        var random = SystemRandomSource()
        return try signature(for: SHA256.hash(data: data), randomness: &random)
    }

    /// Signs the SHA-256 digest of `data`, hedging the RFC 6979 nonce with bytes from `randomness`.
    public func signature(for data: some Sequence<UInt8>, randomness: inout some RandomSource) throws(CryptoError) -> P256.Signing.ECDSASignature {
        try signature(for: SHA256.hash(data: data), randomness: &randomness)
    }

    /// Signs a digest (its leftmost 256 bits are used), hedging the RFC 6979 nonce with
    /// bytes from `randomness`.
    public func signature<H: HashFunction>(for digest: HashDigest<H>, randomness: inout some RandomSource) throws(CryptoError) -> P256.Signing.ECDSASignature {
        sign(digest: digest.bytes, additionalData: try randomness.bytes(count: 32), hash: H.self)
    }

    /// The purely deterministic RFC 6979 signature of the SHA-256 digest of `data`: the same
    /// key and message always give the same signature.
    public func deterministicSignature(for data: some Sequence<UInt8>) -> P256.Signing.ECDSASignature {
        deterministicSignature(for: SHA256.hash(data: data))
    }

    /// The purely deterministic RFC 6979 signature of a digest, with HMAC over the digest's hash.
    public func deterministicSignature<H: HashFunction>(for digest: HashDigest<H>) -> P256.Signing.ECDSASignature {
        sign(digest: digest.bytes, additionalData: [], hash: H.self)
    }

    /// SEC 1 v2 §4.1.3 with RFC 6979 nonces; redraws on r = 0 or s = 0.
    private func sign<H: HashFunction>(digest: [UInt8], additionalData: [UInt8], hash: H.Type) -> P256.Signing.ECDSASignature {
        let d = scalar
        var nonces = secret.withUnsafeBytes { RFC6979<H>(privateKey: $0, digest: digest, additionalData: additionalData) }
        while true {
            if let values = P256.sign(digest: digest, privateKey: d, nonce: nonces.nextNonce()) {
                return P256.Signing.ECDSASignature(values: values)
            }
        }
    }
}

extension P256.PublicKey where Purpose == P256.Signing {
    /// Whether `signature` is valid for the SHA-256 digest of `data`. Malformed or
    /// out-of-range signatures are simply invalid.
    public func isValidSignature(_ signature: P256.Signing.ECDSASignature, for data: some Sequence<UInt8>) -> Bool {
        isValidSignature(signature, for: SHA256.hash(data: data))
    }

    /// Whether `signature` is valid for a digest (its leftmost 256 bits are used).
    public func isValidSignature<H: HashFunction>(_ signature: P256.Signing.ECDSASignature, for digest: HashDigest<H>) -> Bool {
        P256.isValidSignature(signature.values, digest: digest.bytes, publicKey: point)
    }
}

extension P256.Signing {
    /// An ECDSA signature (r, s).
    public struct ECDSASignature: Sendable, Equatable {
        let values: P256.SignatureValues

        init(values: P256.SignatureValues) {
            self.values = values
        }

        /// A signature from r‖s, 32 bytes each (IEEE P1363, JOSE `ES256`). Only the length is
        /// checked here; values out of range make the signature invalid at verification.
        public init(rawRepresentation: some Sequence<UInt8>) throws(CryptoError) {
            let bytes = Array(rawRepresentation)
            guard bytes.count == 64, let r = FixedUInt<4>(bigEndian: bytes[0..<32]), let s = FixedUInt<4>(bigEndian: bytes[32...]) else {
                throw .invalidEncoding
            }
            values = P256.SignatureValues(r: r, s: s)
        }

        /// A signature from strict DER: SEQUENCE { INTEGER r, INTEGER s }, minimal, positive,
        /// nothing trailing (BER variants are refused).
        public init(derRepresentation: some Sequence<UInt8>) throws(CryptoError) {
            let (rBytes, sBytes) = try DER.ecdsaSignature(derRepresentation)
            guard let r = FixedUInt<4>(bigEndian: rBytes), let s = FixedUInt<4>(bigEndian: sBytes) else { throw .invalidEncoding }
            values = P256.SignatureValues(r: r, s: s)
        }

        /// r‖s, 32 bytes each.
        public var rawRepresentation: [UInt8] { values.r.bigEndianBytes() + values.s.bigEndianBytes() }

        /// DER SEQUENCE { INTEGER r, INTEGER s }.
        public var derRepresentation: [UInt8] {
            var writer = DER.Writer()
            writer.sequence { sequence in
                sequence.unsignedInteger(values.r.bigEndianBytes())
                sequence.unsignedInteger(values.s.bigEndianBytes())
            }
            return writer.bytes
        }

        /// Equal when r and s are equal.
        public static func == (lhs: Self, rhs: Self) -> Bool { lhs.rawRepresentation == rhs.rawRepresentation }
    }
}
