// The hash-function abstraction, shaped like CryptoKit's `HashFunction`.

import CryptoCore

/// A cryptographic hash function with a streaming (`update`/`finalize`) and a one-shot API.
public protocol HashFunction: Sendable {
    /// The input block size in bytes (64 for SHA-1/SHA-256, 128 for SHA-384/SHA-512).
    static var blockByteCount: Int { get }
    /// The digest size in bytes.
    static var byteCount: Int { get }
    /// The same function as a run-time value.
    static var algorithm: HashAlgorithm { get }

    /// A fresh hash state.
    init()

    /// Absorbs `bytes`.
    mutating func update(bufferPointer bytes: UnsafeRawBufferPointer)

    /// The digest of everything absorbed so far. The state is left unchanged, so the caller may
    /// keep updating a copy.
    func finalize() -> HashDigest<Self>
}

extension HashFunction {
    /// Absorbs `data` (an array, a slice, `Data`, or any sequence of bytes).
    @inlinable
    public mutating func update(data: some Sequence<UInt8>) {
        let done: Void? = data.withContiguousStorageIfAvailable { buffer in
            update(bufferPointer: UnsafeRawBufferPointer(buffer))
        }
        if done == nil {
            Array(data).withUnsafeBytes { update(bufferPointer: $0) }
        }
    }

    /// The digest of `data` in one call.
    @inlinable
    public static func hash(data: some Sequence<UInt8>) -> HashDigest<Self> {
        var hasher = Self()
        hasher.update(data: data)
        return hasher.finalize()
    }
}
