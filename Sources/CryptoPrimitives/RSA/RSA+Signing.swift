// RSA signatures: RSASSA-PKCS1-v1_5 (RFC 8017 §8.2) and RSASSA-PSS (§8.1), with MGF1 over
// the message hash.

import CryptoCore

extension RSA {
    /// Signatures.
    public enum Signing: RSAKeyPurpose {
        /// A verification public key.
        public typealias PublicKey = RSA.PublicKey<Signing>
        /// A signing private key.
        public typealias PrivateKey = RSA.PrivateKey<Signing>

        /// A signature: k bytes, big-endian.
        public struct RSASignature: Sendable, Equatable {
            /// The signature bytes.
            public let rawRepresentation: [UInt8]

            /// Wraps signature bytes (their length is checked at verification).
            public init(rawRepresentation: some Sequence<UInt8>) {
                self.rawRepresentation = Array(rawRepresentation)
            }
        }

        /// The signature scheme.
        public struct Padding: Sendable, Equatable {
            package enum Kind: Sendable, Equatable {
                case pkcs1v1_5
                case pss(saltLength: Int?)  // nil: the digest length when signing; any when verifying
            }
            package let kind: Kind

            /// RSASSA-PKCS1-v1_5 (JWS `RS256` with SHA-256).
            public static let pkcs1v1_5 = Padding(kind: .pkcs1v1_5)
            /// RSASSA-PSS with MGF1 over the message hash and a salt as long as the digest.
            public static let pss = Padding(kind: .pss(saltLength: -1))
            /// RSASSA-PSS with an empty salt (deterministic).
            public static let pssZeroSalt = Padding(kind: .pss(saltLength: 0))
            /// For verification only: RSASSA-PSS accepting any salt length.
            public static let pssAnySaltLength = Padding(kind: .pss(saltLength: nil))
        }
    }
}

extension RSA.PrivateKey where Purpose == RSA.Signing {
    /// Signs the SHA-256 digest of `data`. PSS salts come from the system random source.
    public func signature(for data: some Sequence<UInt8>, padding: RSA.Signing.Padding) throws(CryptoError) -> RSA.Signing.RSASignature {
        var random = SystemRandomSource()
        return try signature(for: SHA256.hash(data: data), padding: padding, using: &random)
    }

    /// Signs a digest. SHA-1 is refused (`CryptoError.invalidParameter`): new signatures must
    /// not use it. PSS salts come from `random`; PKCS #1 v1.5 signatures are deterministic.
    /// The private operation checks its result against e before releasing the signature.
    public func signature<H: HashFunction>(for digest: HashDigest<H>, padding: RSA.Signing.Padding,
                                           using random: inout some RandomSource) throws(CryptoError) -> RSA.Signing.RSASignature {
        guard H.algorithm != .insecureSHA1, keySizeInBits >= 1024 else { throw .invalidParameter }
        let k = publicKey.byteCount, modBits = keySizeInBits
        var em: [UInt8]
        switch padding.kind {
        case .pkcs1v1_5:
            em = try RSASignaturePadding.pkcs1Encode(digest: digest.bytes, hash: H.algorithm, emLength: k)
        case .pss(let saltLength):
            guard let saltLength else { throw .invalidParameter }
            let salt = try random.bytes(count: saltLength < 0 ? H.byteCount : saltLength)
            em = try RSASignaturePadding.pssEncode(digest: digest.bytes, hash: H.algorithm, salt: salt, emBits: modBits - 1)
        }
        em = [UInt8](repeating: 0, count: k - em.count) + em
        guard let signature = privateOperation(em) else { throw .invalidKey }
        return RSA.Signing.RSASignature(rawRepresentation: signature)
    }
}

extension RSA.PublicKey where Purpose == RSA.Signing {
    /// Whether `signature` is valid for the SHA-256 digest of `data`.
    public func isValidSignature(_ signature: RSA.Signing.RSASignature, for data: some Sequence<UInt8>, padding: RSA.Signing.Padding) -> Bool {
        isValidSignature(signature, for: SHA256.hash(data: data), padding: padding)
    }

    /// Whether `signature` is valid for a digest (SHA-1 accepted here, for legacy signatures).
    /// Every input is public; malformed signatures are simply invalid.
    public func isValidSignature<H: HashFunction>(_ signature: RSA.Signing.RSASignature, for digest: HashDigest<H>,
                                                  padding: RSA.Signing.Padding) -> Bool {
        let k = byteCount
        // §8.2.2 step 1 / §8.1.2 step 1: exactly k bytes; then s < n.
        guard signature.rawRepresentation.count == k, let em = publicOperationVartime(signature.rawRepresentation) else { return false }
        switch padding.kind {
        case .pkcs1v1_5:
            // Compare with the one canonical encoding (DigestInfo with NULL parameters).
            guard let expected = try? RSASignaturePadding.pkcs1Encode(digest: digest.bytes, hash: H.algorithm, emLength: k) else { return false }
            return em == expected
        case .pss(let saltLength):
            let emBits = keySizeInBits - 1, emLength = (emBits + 7) / 8
            guard em.prefix(k - emLength).allSatisfy({ $0 == 0 }) else { return false }
            return RSASignaturePadding.pssVerify(digest: digest.bytes, encoded: Array(em.suffix(emLength)), hash: H.algorithm,
                                                 saltLength: saltLength.map { $0 < 0 ? H.byteCount : $0 }, emBits: emBits)
        }
    }
}
