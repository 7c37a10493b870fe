// X25519 (RFC 7748 §5): the Montgomery ladder on Curve25519's u-coordinate, with keys shaped
// like CryptoKit's `Curve25519.KeyAgreement`. Constant time: the ladder runs all 255 steps and
// swaps by masks, and every field operation is branch-free (Curve25519Field.swift).

import CryptoCore

/// Curve25519 (RFC 7748): key agreement by X25519.
public enum Curve25519 {
    /// X25519 key agreement.
    public enum KeyAgreement {
        /// An X25519 public key: 32 bytes, a u-coordinate.
        public struct PublicKey: Sendable, Equatable {
            /// The 32 bytes.
            public let rawRepresentation: [UInt8]

            /// A key from its 32 bytes; another length throws `CryptoError.incorrectLength`.
            /// Every 32-byte string is a u-coordinate (RFC 7748 §5); small-order points are
            /// refused at agreement, where their all-zero result shows.
            public init(rawRepresentation: some Sequence<UInt8>) throws(CryptoError) {
                self.rawRepresentation = Array(rawRepresentation)
                guard self.rawRepresentation.count == 32 else { throw .incorrectLength }
            }
        }

        /// An X25519 private key: 32 secret bytes in wiped storage.
        public struct PrivateKey: Sendable, CustomStringConvertible {
            private let secret: SecretBytes
            /// The matching public key, X25519(k, 9).
            public let publicKey: PublicKey

            /// A fresh key from `random`.
            public init(using random: inout some RandomSource) throws(CryptoError) {
                try self.init(secret: random.secretBytes(count: 32))
            }

            /// A fresh key from the system random source.
            public init() throws(CryptoError) {
                var random = SystemRandomSource()
                try self.init(using: &random)
            }

            /// A key from its 32 bytes (clamped when used, RFC 7748 §5); another length throws
            /// `CryptoError.incorrectLength`.
            public init(rawRepresentation: some Sequence<UInt8>) throws(CryptoError) {
                try self.init(secret: SecretBytes(rawRepresentation))
            }

            private init(secret: SecretBytes) throws(CryptoError) {
                guard secret.count == 32 else { throw .incorrectLength }
                self.secret = secret
                var basePoint = [UInt8](repeating: 0, count: 32)
                basePoint[0] = 9
                let public_ = secret.withUnsafeBytes { scalar in
                    basePoint.withUnsafeBytes { X25519.multiply(scalar: scalar, uCoordinate: $0) }
                }
                publicKey = try PublicKey(rawRepresentation: public_.unsafeExposedBytes)
            }

            /// The 32 private bytes, as given.
            public var rawRepresentation: SecretBytes { secret }

            /// X25519(k, u) with the peer's key (RFC 7748 §6.1). An all-zero result — the
            /// peer's point has small order — throws `CryptoError.invalidKey`, as TLS 1.3
            /// requires (RFC 8446 §7.4.2); the check runs in constant time over the result.
            public func sharedSecretFromKeyAgreement(with publicKey: PublicKey) throws(CryptoError) -> SharedSecret {
                let shared = secret.withUnsafeBytes { scalar in
                    publicKey.rawRepresentation.withUnsafeBytes { X25519.multiply(scalar: scalar, uCoordinate: $0) }
                }
                let isZero = shared.withUnsafeBytes { ConstantTime.isEqual($0, [UInt8](repeating: 0, count: 32)) }
                guard !isZero.isTrueVartime else { throw .invalidKey }  // public: the verdict
                return SharedSecret(secret: shared)
            }

            /// A redacted description.
            public var description: String { "Curve25519.KeyAgreement.PrivateKey(redacted)" }
        }
    }
}

/// The X25519 function.
package enum X25519 {
    /// X25519(k, u) (RFC 7748 §5) for a 32-byte scalar (clamped here) and u-coordinate.
    package static func multiply(scalar: UnsafeRawBufferPointer, uCoordinate: UnsafeRawBufferPointer) -> SecretBytes {
        // decodeScalar25519: clear bits 0–2 and 255, set bit 254.
        var k = InlineArray<4, UInt64>(repeating: 0)
        for i in 0..<4 { k[i] = UInt64(littleEndian: scalar.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self)) }
        k[0] &= ~UInt64(7)
        k[3] = (k[3] & ~(UInt64(1) << 63)) | (UInt64(1) << 62)
        let x1 = Curve25519FieldElement(littleEndianBytes: uCoordinate)
        var x2 = Curve25519FieldElement.one, z2 = Curve25519FieldElement.zero
        var x3 = x1, z3 = Curve25519FieldElement.one
        var swap: UInt64 = 0
        for t in stride(from: 254, through: 0, by: -1) {
            let bit = (k[t >> 6] >> UInt64(t & 63)) & 1  // public: the index t
            swap ^= bit
            Curve25519FieldElement.conditionalSwap(&x2, &x3, if: Choice(bit: swap))
            Curve25519FieldElement.conditionalSwap(&z2, &z3, if: Choice(bit: swap))
            swap = bit
            let a = x2 + z2, aa = a.squared()
            let b = x2 - z2, bb = b.squared()
            let e = aa - bb
            let c = x3 + z3, d = x3 - z3
            let da = d * a, cb = c * b
            x3 = (da + cb).squared()
            z3 = x1 * (da - cb).squared()
            x2 = aa * bb
            z2 = e * (aa + e.timesA24())
        }
        Curve25519FieldElement.conditionalSwap(&x2, &x3, if: Choice(bit: swap))
        Curve25519FieldElement.conditionalSwap(&z2, &z3, if: Choice(bit: swap))
        for i in 0..<4 { k[i] = 0 }
        let u = x2 * z2.inverted()
        return SecretBytes(count: 32) { u.write(littleEndianTo: $0) }
    }
}
