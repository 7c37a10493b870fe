// RSA keys, shaped like swift-crypto's `_RSA`: one implementation for both purposes, with a
// phantom purpose type so that a signing key is not silently used to decrypt.

import CryptoCore

/// RSA (RFC 8017): keys, OAEP and PKCS #1 v1.5 encryption, PKCS #1 v1.5 and PSS signatures.
public enum RSA {}

/// What an RSA key is for; `RSA.Signing` and `RSA.Encryption` conform.
public protocol RSAKeyPurpose: Sendable {}

extension RSA {
    /// An RSA public key: a modulus of 1024 to 8192 bits and an odd exponent e ≥ 3.
    public struct PublicKey<Purpose: RSAKeyPurpose>: Sendable {
        let storage: RSAPublicKeyStorage

        /// The largest public exponent a public key may have: 2³² − 1. A public key is usually
        /// someone else's, and e sets the cost of every verification and encryption (an e near
        /// an 8192-bit n makes each one an 8192-bit exponentiation), so it is bounded as
        /// BoringSSL (33 bits) and Go (2³¹ − 1) bound it. Private keys are the owner's and are
        /// not bounded (NIST's SP 800-56B vectors use exponents of hundreds of bits).
        public static var maximumPublicExponent: UInt64 { UInt64(UInt32.max) }

        /// A key from its modulus and public exponent (big-endian). Throws
        /// `CryptoError.invalidKey` for moduli outside 1024…8192 bits, even moduli, and
        /// exponents that are even, below 3, not below n or above ``maximumPublicExponent``.
        public init(modulus: some Sequence<UInt8>, publicExponent: some Sequence<UInt8>) throws(CryptoError) {
            let exponent = try Self.boundedExponent(Array(publicExponent))
            storage = try RSAPublicKeyStorage(modulus: Array(modulus), exponent: exponent)
        }

        /// A key from DER: SubjectPublicKeyInfo (rsaEncryption, NULL parameters) or PKCS #1
        /// RSAPublicKey. Strict: BER, trailing bytes and other algorithms are refused, and so is
        /// an exponent above ``maximumPublicExponent``.
        public init(derRepresentation: some Sequence<UInt8>) throws(CryptoError) {
            let (modulus, exponent) = try RSAKeyComponents.decodePublicKey(Array(derRepresentation))
            storage = try RSAPublicKeyStorage(modulus: modulus, exponent: Self.boundedExponent(exponent))
        }

        /// `exponent` when it is at most ``maximumPublicExponent``; `CryptoError.invalidKey`
        /// otherwise, before any arithmetic is set up. Leaks: e (public).
        private static func boundedExponent(_ exponent: [UInt8]) throws(CryptoError) -> [UInt8] {
            let significant = exponent.drop { $0 == 0 }
            guard significant.count <= 4 else { throw .invalidKey }
            return exponent
        }

        /// A key from PEM: `PUBLIC KEY` (SubjectPublicKeyInfo) or `RSA PUBLIC KEY` (PKCS #1).
        public init(pemRepresentation: String) throws(CryptoError) {
            let (label, der) = try PEM.decode(pemRepresentation)
            guard label == "PUBLIC KEY" || label == "RSA PUBLIC KEY" else { throw .invalidEncoding }
            try self.init(derRepresentation: der)
        }

        /// The same key, for the other purpose (Salt Edge signs and encrypts with one key pair).
        public init<Other: RSAKeyPurpose>(sameKeyAs other: PublicKey<Other>) {
            storage = other.storage
        }

        /// The modulus n, big-endian, without leading zeros.
        public var modulus: [UInt8] { storage.modulus }
        /// The public exponent e, big-endian, without leading zeros.
        public var publicExponent: [UInt8] { storage.exponent }
        /// The bit length of n.
        public var keySizeInBits: Int { storage.arithmetic.modulusBitCount }
        /// SubjectPublicKeyInfo DER.
        public var derRepresentation: [UInt8] { RSAKeyComponents.encodeSubjectPublicKeyInfo(modulus: modulus, exponent: publicExponent) }
        /// PKCS #1 RSAPublicKey DER.
        public var pkcs1DERRepresentation: [UInt8] { RSAKeyComponents.encodePublicKey(modulus: modulus, exponent: publicExponent) }
        /// PEM `PUBLIC KEY`: 64-character lines, LF, a trailing newline (docs/protocols/saltedge-v2.md §2.2).
        public var pemRepresentation: String { PEM.encode(label: "PUBLIC KEY", der: derRepresentation) }
        /// PEM `RSA PUBLIC KEY` (PKCS #1).
        public var pkcs1PEMRepresentation: String { PEM.encode(label: "RSA PUBLIC KEY", der: pkcs1DERRepresentation) }
    }

    /// An RSA private key with its CRT parameters, all in wiped storage.
    public struct PrivateKey<Purpose: RSAKeyPurpose>: Sendable, CustomStringConvertible {
        package let components: RSAKeyComponents
        let arithmetic: RSAPrivateArithmetic
        /// The matching public key.
        public let publicKey: PublicKey<Purpose>

        init(components: RSAKeyComponents) throws(CryptoError) {
            self.components = components
            arithmetic = try RSAPrivateArithmetic(components)
            publicKey = PublicKey(storage: try RSAPublicKeyStorage(modulus: components.modulus, exponent: components.publicExponent))
        }

        /// A key from its integers (big-endian): n, e, d, p, q, dP = d mod (p−1), dQ = d mod (q−1)
        /// and qInv = q⁻¹ mod p, as in a JWK or RFC 8017 §3.2. Checked like a decoded key.
        public init(modulus: some Sequence<UInt8>, publicExponent: some Sequence<UInt8>, privateExponent: SecretBytes,
                    prime1: SecretBytes, prime2: SecretBytes, exponent1: SecretBytes, exponent2: SecretBytes,
                    coefficient: SecretBytes) throws(CryptoError) {
            try self.init(components: RSAKeyComponents(
                modulus: Array(modulus), publicExponent: Array(publicExponent), privateExponent: privateExponent,
                prime1: prime1, prime2: prime2, exponent1: exponent1, exponent2: exponent2, coefficient: coefficient))
        }

        /// A key from DER: PKCS #1 RSAPrivateKey or PKCS #8. The CRT parameters are checked
        /// for consistency (n = p·q, qInv·q ≡ 1 mod p); every operation also checks its result.
        public init(derRepresentation: some Sequence<UInt8>) throws(CryptoError) {
            try self.init(components: RSAKeyComponents.decodePrivateKey(Array(derRepresentation)))
        }

        /// A key from PEM: `RSA PRIVATE KEY` (PKCS #1) or `PRIVATE KEY` (PKCS #8).
        public init(pemRepresentation: String) throws(CryptoError) {
            let (label, der) = try PEM.decode(pemRepresentation)
            guard label == "RSA PRIVATE KEY" || label == "PRIVATE KEY" else { throw .invalidEncoding }
            try self.init(derRepresentation: der)
        }

        /// The same key, for the other purpose.
        public init<Other: RSAKeyPurpose>(sameKeyAs other: PrivateKey<Other>) {
            components = other.components
            arithmetic = other.arithmetic
            publicKey = PublicKey(sameKeyAs: other.publicKey)
        }

        /// PKCS #8 DER.
        public var derRepresentation: SecretBytes { components.pkcs8 }
        /// PKCS #1 RSAPrivateKey DER.
        public var pkcs1DERRepresentation: SecretBytes { components.pkcs1 }
        /// PEM `PRIVATE KEY` (PKCS #8), as UTF-8 bytes in wiped storage.
        public var pemRepresentation: SecretBytes { Self.pem("PRIVATE KEY", derRepresentation) }
        /// PEM `RSA PRIVATE KEY` (PKCS #1), as UTF-8 bytes in wiped storage.
        public var pkcs1PEMRepresentation: SecretBytes { Self.pem("RSA PRIVATE KEY", pkcs1DERRepresentation) }
        /// The bit length of n.
        public var keySizeInBits: Int { publicKey.keySizeInBits }
        /// A redacted description.
        public var description: String { "RSA.PrivateKey(\(keySizeInBits) bits, redacted)" }
        private static func pem(_ label: String, _ der: SecretBytes) -> SecretBytes {
            der.withUnsafeBytes { SecretBytes(PEM.encode(label: label, der: $0).utf8) }
        }

        /// The raw private operation (RSADP/RSASP1) on a k-byte input, or nil (input ≥ n, or a
        /// failed check). Constant time in the key and the input.
        package func privateOperation(_ input: [UInt8]) -> [UInt8]? {
            arithmetic.privateOperation(input, byteCount: publicKey.storage.arithmetic.byteCount)
        }
    }
}

/// n and e with their arithmetic, shared by copies of a public key (the arithmetic holds
/// Montgomery constants of up to a few kilobytes).
final class RSAPublicKeyStorage: Sendable {
    let modulus: [UInt8]
    let exponent: [UInt8]
    let arithmetic: RSAPublicArithmetic

    init(modulus: [UInt8], exponent: [UInt8]) throws(CryptoError) {
        self.modulus = Array(modulus.drop { $0 == 0 })
        self.exponent = Array(exponent.drop { $0 == 0 })
        arithmetic = try RSAPublicArithmetic(modulus: self.modulus, exponent: self.exponent)
    }
}

extension RSA.PublicKey {
    init(storage: RSAPublicKeyStorage) {
        self.storage = storage
    }

    /// The byte length k of the modulus.
    package var byteCount: Int { storage.arithmetic.byteCount }

    /// The raw public operation (RSAEP/RSAVP1) on a k-byte input, or nil when it is not below n.
    /// Leaks: e (public).
    package func publicOperationVartime(_ input: [UInt8]) -> [UInt8]? {
        storage.arithmetic.publicOperationVartime(input)
    }
}

extension RSA.PublicKey: Equatable {
    /// Equal when n and e are equal.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.modulus == rhs.modulus && lhs.publicExponent == rhs.publicExponent
    }
}

#if !hasFeature(Embedded)  // Embedded Swift has no reflection, so nothing for `dump` to show
extension RSA.PrivateKey: CustomReflectable {
    /// A mirror with no children, so `dump` shows nothing secret.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
#endif
