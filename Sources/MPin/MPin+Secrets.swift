// The secret values of M-Pin as their own types (docs/protocols/mpin.md §4, §6): each holds its bytes in
// wiped storage, compares in constant time and is redacted in `description` and `dump`.

public import CryptoPrimitives

/// A point of G1 kept secret: its 65-byte encoding 04 ‖ x ‖ y in wiped storage. Opaque to
/// users: it is public only so that ``MPinSecretPoint`` can be.
public struct SecretG1Storage: Sendable, Equatable {
    package let bytes: SecretBytes

    package init(_ point: BN254CX.G1) {
        var encoding = point.uncompressedRepresentation
        defer { SecretBytes.wipe(&encoding) }   // the temporary copy of a secret point
        bytes = SecretBytes(encoding)
    }

    /// Decodes (strictly) and keeps the canonical uncompressed form; the temporary copy of the
    /// input is wiped.
    package init(encoded: some Sequence<UInt8>) throws(CryptoError) {
        var copy = Array(encoded)
        defer { SecretBytes.wipe(&copy) }
        self.init(try BN254CX.G1(encoded: copy))
    }

    package var point: BN254CX.G1 {
        bytes.withUnsafeBytes { raw in
            // Shares that cancel sum to infinity, kept as no bytes (its length is public, and
            // the clients refuse such a sum before use: ``MPinSecretPoint/isInfinity``).
            guard raw.count > 0 else { return .infinity }
            do throws(CryptoError) {
                return try BN254CX.G1(encoded: raw)
            } catch {
                // Only `init(_:)` and `init(encoded:)` fill the storage, both from a valid point.
                preconditionFailure("internal error: stored secret point does not decode")
            }
        }
    }

    /// Constant-time equality of the encodings.
    public static func == (a: SecretG1Storage, b: SecretG1Storage) -> Bool { a.bytes == b.bytes }
}

/// The shared shape of M-Pin's secret points of G1 (``MPin/ClientSecretShare``,
/// ``MPin/ClientSecret``, ``MPin/Token``, ``MPin/TimePermit``, ``MPin/AuthenticationSecret``):
/// built from and turned into their raw representation, compared in constant time, redacted.
public protocol MPinSecretPoint: Sendable, Equatable, CustomStringConvertible {
    /// The wiped storage (an implementation detail; use ``rawRepresentation``).
    var _storage: SecretG1Storage { get }
    /// Wraps storage (an implementation detail; use ``init(rawRepresentation:)``).
    init(_storage: SecretG1Storage)
}

extension MPinSecretPoint {
    /// Decodes 04 ‖ x ‖ y (or the 33-byte compressed form), as the platform sends shares and
    /// permits and as a token is stored (docs/protocols/mpin.md §7.1). Throws
    /// `CryptoError.invalidEncoding` or `CryptoError.invalidKey` (Milagro
    /// `MPIN_INVALID_POINT`) for bytes that are not a point of G1.
    public init(rawRepresentation bytes: some Sequence<UInt8>) throws(CryptoError) {
        self.init(_storage: try SecretG1Storage(encoded: bytes))
    }

    /// Decodes a raw representation held in secret bytes (a share read from an answer with no
    /// `String` between), by the rules of the initialiser that takes a byte sequence.
    public init(rawRepresentation secret: SecretBytes) throws(CryptoError) {
        self = try secret.withUnsafeBytes { (bytes) throws(CryptoError) in try Self(rawRepresentation: bytes) }
    }

    /// 04 ‖ x ‖ y, 65 bytes, in wiped storage; empty for the point at infinity.
    public var rawRepresentation: SecretBytes { _storage.bytes }

    /// Whether this is the point at infinity, which no usable secret is: a sum of shares that
    /// cancel (a faulty or hostile issuer sending the negation of the other share) gives it,
    /// and the clients refuse such a sum before a token or signature is made from it. Reads
    /// the encoding's length, which is public.
    public var isInfinity: Bool { _storage.bytes.count == 0 }

    package var point: BN254CX.G1 { _storage.point }

    package init(_ point: BN254CX.G1) { self.init(_storage: SecretG1Storage(point)) }

    /// Constant-time equality.
    public static func == (a: Self, b: Self) -> Bool { a._storage == b._storage }
}

extension MPin {
    /// A share of the client secret from one issuing authority, s₁·A (docs/protocols/mpin.md §4
    /// `GET_CLIENT_SECRET`).
    public struct ClientSecretShare: MPinSecretPoint {
        /// The wiped storage.
        public let _storage: SecretG1Storage
        /// Wraps storage.
        public init(_storage: SecretG1Storage) { self._storage = _storage }
        /// A redacted description.
        public var description: String { "MPin.ClientSecretShare(redacted)" }
    }

    /// The client secret s·A, the sum of the shares (`RECOMBINE_G1`).
    public struct ClientSecret: MPinSecretPoint {
        /// The wiped storage.
        public let _storage: SecretG1Storage
        /// Wraps storage.
        public init(_storage: SecretG1Storage) { self._storage = _storage }
        /// A redacted description.
        public var description: String { "MPin.ClientSecret(redacted)" }
    }

    /// The token the client stores: the client secret less PIN·A (`EXTRACT_PIN`).
    public struct Token: MPinSecretPoint {
        /// The wiped storage.
        public let _storage: SecretG1Storage
        /// Wraps storage.
        public init(_storage: SecretG1Storage) { self._storage = _storage }
        /// A redacted description.
        public var description: String { "MPin.Token(redacted)" }
    }

    /// A time permit s·AT(date), or one authority's share of it (`GET_CLIENT_PERMIT`).
    public struct TimePermit: MPinSecretPoint {
        /// The wiped storage.
        public let _storage: SecretG1Storage
        /// Wraps storage.
        public init(_storage: SecretG1Storage) { self._storage = _storage }
        /// A redacted description.
        public var description: String { "MPin.TimePermit(redacted)" }
    }

    /// The client's authentication value SEC = TOKEN + PIN·A (+ permit), kept between the
    /// two passes.
    public struct AuthenticationSecret: MPinSecretPoint {
        /// The wiped storage.
        public let _storage: SecretG1Storage
        /// Wraps storage.
        public init(_storage: SecretG1Storage) { self._storage = _storage }
        /// A redacted description.
        public var description: String { "MPin.AuthenticationSecret(redacted)" }
    }

    /// A master-secret share s of an issuing authority (a scalar mod r).
    public struct MasterSecretShare: Sendable, Equatable, CustomStringConvertible {
        /// The scalar.
        public let scalar: BN254CX.Scalar

        /// Wraps a scalar.
        public init(_ scalar: BN254CX.Scalar) { self.scalar = scalar }

        /// 32 big-endian bytes below r; throws `CryptoError.invalidEncoding` otherwise.
        public init(rawRepresentation bytes: some Sequence<UInt8>) throws(CryptoError) {
            scalar = try BN254CX.Scalar(rawRepresentation: bytes)
        }

        /// A uniform share from `random` (`RANDOM_GENERATE`).
        public static func random(using random: inout some RandomSource) throws(CryptoError) -> MasterSecretShare {
            MasterSecretShare(try BN254CX.Scalar.random(using: &random))
        }

        /// A redacted description.
        public var description: String { "MPin.MasterSecretShare(redacted)" }
    }

    /// The server secret s·Q in G2 (`GET_SERVER_SECRET`), or one authority's share of it. It
    /// lets its holder verify, so it is kept like a key.
    ///
    /// The secret also holds the Miller-loop lines of s·Q, computed once when it is made (about
    /// a quarter of a pairing with their normalization), so that every ``Server/verify(identity:day:challenge:client:serverSecret:clientPublicKey:)``
    /// replays them instead of recomputing them. Keep one value for the
    /// server's lifetime. The lines reveal s·Q, so they are wiped when the last copy is released.
    public struct ServerSecret: Sendable, Equatable, CustomStringConvertible {
        package let storage: SecretBytes
        /// The lines of s·Q for the shared Miller loop, in wiped storage.
        package let lines: SecretLines

        package init(_ point: BN254CX.G2) {
            storage = SecretBytes(point.rawRepresentation)
            lines = SecretLines(BN254CX.G2Prepared(normalizing: point))
        }

        /// Decodes 128 bytes; throws like `BN254CX.G2.init(encoded:)`.
        public init(rawRepresentation bytes: some Sequence<UInt8>) throws(CryptoError) {
            var copy = Array(bytes)
            defer { SecretBytes.wipe(&copy) }   // the temporary copy of s·Q, as SecretG1Storage wipes its own
            self.init(try BN254CX.G2(encoded: copy))
        }

        /// The 128-byte encoding, in wiped storage.
        public var rawRepresentation: SecretBytes { storage }

        package var point: BN254CX.G2 {
            guard let point = storage.withUnsafeBytes({ BN254CX.G2(validatedEncoding: $0) }) else {
                // Only `init(_:)` and `init(rawRepresentation:)` fill the storage, both from a valid point.
                preconditionFailure("internal error: stored server secret does not decode")
            }
            return point
        }

        /// Constant-time equality.
        public static func == (a: ServerSecret, b: ServerSecret) -> Bool { a.storage == b.storage }
        /// A redacted description.
        public var description: String { "MPin.ServerSecret(redacted)" }
    }
}

extension MPin {
    /// Miller-loop lines of a secret G2 point (s·Q), wiped with `explicit_bzero` when the last
    /// reference is released. Package-internal: the verifier reads `prepared` only while it
    /// holds the owning ``ServerSecret``, so the wipe never runs under a reader.
    package final class SecretLines: @unchecked Sendable {
        // Written only by `init` and wiped only by `deinit`; immutable in between, so sharing
        // across threads is safe.
        package private(set) var prepared: BN254CX.G2Prepared

        package init(_ prepared: BN254CX.G2Prepared) { self.prepared = prepared }

        deinit { prepared.wipe() }
    }
}
