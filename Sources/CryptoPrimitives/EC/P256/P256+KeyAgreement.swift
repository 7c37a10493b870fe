// ECDH over P-256 (SEC 1 v2 §3.3.1, NIST SP 800-56A §5.7.1.2), shaped like CryptoKit.

import CryptoCore

extension P256 {
    /// Elliptic-curve Diffie–Hellman.
    public enum KeyAgreement: P256KeyPurpose {
        /// A key-agreement public key.
        public typealias PublicKey = P256.PublicKey<KeyAgreement>
        /// A key-agreement private key.
        public typealias PrivateKey = P256.PrivateKey<KeyAgreement>
    }
}

extension P256.PrivateKey where Purpose == P256.KeyAgreement {
    /// The shared secret with `publicKey`: the x-coordinate of d·Q, 32 bytes, computed in
    /// constant time. The peer key was checked on the curve when it was decoded; a result at
    /// infinity (impossible on this prime-order curve) throws `CryptoError.invalidKey`.
    public func sharedSecretFromKeyAgreement(with publicKey: P256.KeyAgreement.PublicKey) throws(CryptoError) -> SharedSecret {
        let product = P256.multiplyJacobian(publicKey.point, by: scalar.canonical)
        let (x, isIdentity) = product.affineX
        guard !isIdentity.isTrueVartime else { throw .invalidKey }
        return SharedSecret(secret: SecretBytes(x.canonicalBytes))
    }
}

/// The raw output of a key agreement. Derive keys from it; do not use it as a key directly.
public struct SharedSecret: Sendable, Equatable, CustomStringConvertible {
    /// The secret bytes (for P-256: the x-coordinate, 32 bytes).
    public let secret: SecretBytes

    /// Wraps agreed secret bytes.
    public init(secret: SecretBytes) {
        self.secret = secret
    }

    /// ANSI X9.63 KDF over this secret (SEC 1 v2 §3.6.1).
    public func x963DerivedSymmetricKey<H: HashFunction>(
        using _: H.Type, sharedInfo: some Sequence<UInt8>, outputByteCount: Int
    ) throws(CryptoError) -> SymmetricKey {
        try X963KDF<H>.deriveKey(sharedSecret: secret, sharedInfo: sharedInfo, outputByteCount: outputByteCount)
    }

    /// HKDF (RFC 5869) over this secret.
    public func hkdfDerivedSymmetricKey<H: HashFunction>(
        using _: H.Type, salt: some Sequence<UInt8>, sharedInfo: some Sequence<UInt8>, outputByteCount: Int
    ) throws(CryptoError) -> SymmetricKey {
        try HKDF<H>.deriveKey(inputKeyMaterial: SymmetricKey(secret: secret), salt: salt, info: sharedInfo, outputByteCount: outputByteCount)
    }

    /// A redacted description.
    public var description: String { "SharedSecret(\(secret.count) bytes, redacted)" }
}
