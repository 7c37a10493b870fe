// The value a hash function produces.

import CryptoCore

/// A digest of a ``HashFunction``: up to 64 bytes held inline (no heap), compared in constant
/// time, printed as hex.
public struct HashDigest<Function: HashFunction>: Sendable, Sequence, Equatable, CustomStringConvertible {
    @usableFromInline var storage: InlineArray<64, UInt8>

    /// Wraps the first `Function.byteCount` bytes of `storage`.
    @inlinable
    init(storage: InlineArray<64, UInt8>) {
        self.storage = storage
    }

    /// A digest from bytes computed elsewhere (exactly `Function.byteCount` of them; extra
    /// bytes are ignored, missing ones are zero). For verifying precomputed digests.
    public init(replaying bytes: some Sequence<UInt8>) {
        var storage = InlineArray<64, UInt8>(repeating: 0)
        for (i, byte) in bytes.prefix(Swift.min(64, Function.byteCount)).enumerated() { storage[i] = byte }
        self.storage = storage
    }

    /// The number of bytes (`Function.byteCount`).
    @inlinable public var byteCount: Int { Function.byteCount }

    /// The digest as an array.
    @inlinable
    public var bytes: [UInt8] {
        (0..<Function.byteCount).map { storage[$0] }
    }

    /// Calls `body` with the digest bytes.
    @inlinable
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        Swift.withUnsafeBytes(of: storage) { body(UnsafeRawBufferPointer(rebasing: $0[0..<Function.byteCount])) }
    }

    /// Iterates over the digest bytes.
    public func makeIterator() -> IndexingIterator<[UInt8]> { bytes.makeIterator() }

    /// Constant-time equality.
    public static func == (lhs: HashDigest, rhs: HashDigest) -> Bool {
        var difference: UInt8 = 0
        for i in 0..<Function.byteCount {
            difference |= lhs.storage[i] ^ rhs.storage[i]
        }
        return UInt64(difference).isZero.isTrueVartime
    }

    /// Lower-case hex.
    public var description: String { Hex.encode(bytes) }
}
