// A secret symmetric key, shaped like CryptoKit's `SymmetricKey`.

import CryptoCore

/// A symmetric key: secret bytes, wiped on release, redacted when printed, compared in
/// constant time.
public struct SymmetricKey: Sendable, Equatable, CustomStringConvertible {
    /// The key bytes.
    public let secret: SecretBytes

    /// A key holding a copy of `data`.
    public init(data: some Sequence<UInt8>) {
        secret = SecretBytes(data)
    }

    /// A key wrapping existing secret bytes.
    public init(secret: SecretBytes) {
        self.secret = secret
    }

    /// A fresh random key of `byteCount` bytes from `random` (the system source by default).
    public init(byteCount: Int, using random: inout some RandomSource) throws(CryptoError) {
        secret = try random.secretBytes(count: byteCount)
    }

    /// A fresh random key of `byteCount` bytes from the system source.
    public init(byteCount: Int) throws(CryptoError) {
        var random = SystemRandomSource()
        try self.init(byteCount: byteCount, using: &random)
    }

    /// The key length in bits.
    public var bitCount: Int { secret.count * 8 }

    /// The key length in bytes.
    public var byteCount: Int { secret.count }

    /// Calls `body` with the key bytes. Do not let the pointer escape.
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try secret.withUnsafeBytes(body)
    }

    /// A redacted description.
    public var description: String { "SymmetricKey(\(bitCount) bits, redacted)" }
}
