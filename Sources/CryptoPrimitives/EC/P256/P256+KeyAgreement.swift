// ECDH over P-256 (SEC 1 v2 §3.3.1, NIST SP 800-56A §5.7.1.2), shaped like CryptoKit, and the
// single-use agreement of an ECIES sender.

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

// A single-use key agreement for ECIES senders (SEC 1 v2 §5.1.3 steps 1–3): a fresh ephemeral
// key, its public key and the shared secret with the recipient, where the ephemeral private
// key is used once and never needed again.
//
// Done separately, the sender pays two field inversions: one to make the ephemeral public key
// affine (PrivateKey(using:)), one for the x-coordinate of the shared point. Both results come
// out of their scalar multiplications in Jacobian coordinates, with Z₁ and Z₂, so Montgomery's
// simultaneous-inversion trick (P. L. Montgomery, "Speeding the Pollard and elliptic curve
// methods of factorization", Math. Comp. 1987, §10.3.1) serves both with one inversion:
// I = (Z₁Z₂)⁻¹, Z₁⁻¹ = I·Z₂, Z₂⁻¹ = I·Z₁, for three extra products. An inversion (by divsteps)
// costs about 2 % of the ECIES request.

extension P256.KeyAgreement {
    /// A fresh ephemeral key pair drawn from `random` and its shared secret with `peer`, in
    /// constant time in the ephemeral scalar. The key is drawn exactly as
    /// `PrivateKey(using:)` draws it (32 bytes at a time, rejected unless in [1, n)), so the
    /// same random source gives the same key. The private key is not returned: an ECIES
    /// sender uses it for this one agreement only. Throws `CryptoError.invalidKey` if the
    /// shared point is the identity (impossible for a peer key on this prime-order curve).
    public static func ephemeralAgreement(
        with peer: PublicKey, using random: inout some RandomSource
    ) throws(CryptoError) -> (publicKey: PublicKey, sharedSecret: SharedSecret) {
        var d = P256.Scalar.zero
        while true {
            let candidate = try random.secretBytes(count: 32)
            // The same check as PrivateKey(validating:): only whether a candidate was rejected leaks.
            if let scalar = candidate.withUnsafeBytes({ P256.Scalar(canonicalBytes: $0) }), !scalar.isZero.isTrueVartime {
                d = scalar
                break
            }
        }
        let k = d.canonical
        let ephemeral = P256.multiplyGeneratorJacobian(by: k)           // Q = d·G
        let shared = P256.multiplyJacobian(peer.point, by: k)          // d·P
        // One inversion for both Z's (Montgomery's trick); a zero Z makes both results zero.
        let inverse = (ephemeral.z * shared.z).inverted()
        let ephemeralZInverse = inverse * shared.z, sharedZInverse = inverse * ephemeral.z
        let ephemeralZInverse2 = ephemeralZInverse.squared()
        let point = P256.AffinePoint(x: ephemeral.x * ephemeralZInverse2, y: ephemeral.y * (ephemeralZInverse2 * ephemeralZInverse))
        let x = shared.x * sharedZInverse.squared()
        guard !(ephemeral.isIdentity | shared.isIdentity).isTrueVartime else { throw .invalidKey }
        return (PublicKey(point: point), SharedSecret(secret: SecretBytes(x.canonicalBytes)))
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
