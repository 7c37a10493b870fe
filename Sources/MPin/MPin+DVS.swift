// Designated-verifier signatures (docs/protocols/mpin.md §5): the client key pair z, Pa = z⁻¹·Q; the signing
// identity mpinId ‖ Pa; the secret multiplied by z; signing a document hash with an epoch
// time by one-pass M-Pin; verification by the platform, which holds sQ.

public import CryptoPrimitives

extension MPin {
    /// Designated-verifier signatures.
    public enum DVS {
        /// z, the DVS private key (a scalar mod r, secret).
        public struct PrivateKey: Sendable, Equatable, CustomStringConvertible {
            /// The scalar z.
            public let scalar: BN254CX.Scalar

            /// A key from its 32 big-endian bytes (below r); throws `CryptoError.invalidEncoding`.
            public init(rawRepresentation bytes: some Sequence<UInt8>) throws(CryptoError) {
                scalar = try BN254CX.Scalar(rawRepresentation: bytes)
            }

            /// A fresh key from `random` (`GET_DVS_KEYPAIR`).
            public init(using random: inout some RandomSource) throws(CryptoError) {
                scalar = try BN254CX.Scalar.random(using: &random)
            }

            /// Pa = z⁻¹·Q.
            public var publicKey: PublicKey { PublicKey(BN254CX.G2.generator.multiplied(by: scalar.inverse)) }

            /// Constant-time equality.
            public static func == (a: PrivateKey, b: PrivateKey) -> Bool { a.scalar == b.scalar }
            /// A redacted description.
            public var description: String { "MPin.DVS.PrivateKey(redacted)" }
        }

        /// Pa = z⁻¹·Q in G2, the public key the platform stores (128 bytes, docs/protocols/mpin.md §5.1).
        ///
        /// A key also holds the Miller-loop lines of Pa, computed once when it is made (about a
        /// quarter of a pairing with their normalization), which every verification with it replays: a
        /// verifier that keeps the key objects of its clients pays that cost once per client.
        public struct PublicKey: Sendable, Equatable {
            package let point: BN254CX.G2
            /// The lines of Pa for the verifier's shared Miller loop.
            package let lines: BN254CX.G2Prepared

            package init(_ point: BN254CX.G2) {
                self.point = point
                lines = BN254CX.G2Prepared(normalizing: point)
            }

            /// Decodes 128 bytes, with the subgroup check Milagro omits (docs/protocols/mpin.md §2.2).
            public init(rawRepresentation bytes: some Sequence<UInt8>) throws(CryptoError) {
                self.init(try BN254CX.G2(encoded: Array(bytes)))
            }

            /// Keys are equal when their points are (the lines follow from the point).
            public static func == (a: PublicKey, b: PublicKey) -> Bool { a.point == b.point }

            /// The 128-byte encoding.
            public var rawRepresentation: [UInt8] { point.rawRepresentation }
        }

        /// CS = z·(share₁ + share₂) (docs/protocols/mpin.md §5.3: the secret is multiplied by z before the
        /// PIN is extracted).
        public static func clientSecret(_ shares: [ClientSecretShare], privateKey: PrivateKey) -> ClientSecret {
            ClientSecret(Issuer.combine(shares).point.multiplied(by: privateKey.scalar))
        }

        /// A DVS signature: U and V of a one-pass authentication over the document hash.
        public struct Signature: Sendable, Equatable {
            /// U = x·A (65 bytes on the wire).
            public let u: BN254CX.G1
            /// V = −(x + y)·SEC.
            public let v: BN254CX.G1

            /// Wraps the two points.
            public init(u: BN254CX.G1, v: BN254CX.G1) {
                self.u = u
                self.v = v
            }
        }

        /// Signs a document hash at `time` (Unix seconds): one-pass M-Pin without permits,
        /// message = the raw hash, y = SHA-256(time_be32 ‖ U ‖ hash) mod r (docs/protocols/mpin.md §5.4).
        /// `identity` must be the signing identity mpinId ‖ Pa.
        public static func signature(for documentHash: some Sequence<UInt8>, time: Int32, identity: Identity, pin: PIN,
                                     token: Token, using random: inout some RandomSource) throws(CryptoError) -> Signature {
            let pass = try Client.onePass(identity: identity, pin: pin, token: token, message: documentHash, time: time, using: &random)
            return Signature(u: pass.first.u, v: pass.v)
        }

        /// Verification as the platform does it (docs/protocols/mpin.md §5.5): y recomputed, then
        /// e(Pa, V)·e(sQ, y·A + U) = 1.
        public static func isValidSignature(_ signature: Signature, for documentHash: some Sequence<UInt8>, time: Int32,
                                            identity: Identity, publicKey: PublicKey, serverSecret: ServerSecret) -> Bool {
            let (result, _) = Server.verifyOnePass(identity: identity, client: .init(u: signature.u, v: signature.v),
                                                   message: documentHash, time: time, serverSecret: serverSecret,
                                                   clientPublicKey: publicKey)
            return result == .accepted
        }

        /// SHA-256 of the document text, the hash relying parties sign (docs/protocols/mpin.md §5.6).
        public static func documentHash(of text: String) -> [UInt8] {
            SHA256.hash(data: Array(text.utf8)).bytes
        }

        /// `VerifyDocument`: whether the hash of `text` equals `hash` (constant time).
        public static func verifyDocument(_ text: String, hash: some Sequence<UInt8>) -> Bool {
            SecretBytes(documentHash(of: text)) == SecretBytes(hash)
        }
    }
}
