// SHA-384 and SHA-512 (FIPS 180-4 §6.4, §6.5).

import CryptoCore

/// SHA-512 (FIPS 180-4).
public struct SHA512: HashFunction {
    /// 128 bytes.
    public static var blockByteCount: Int { 128 }
    /// 64 bytes.
    public static var byteCount: Int { 64 }
    /// The digest type.
    public typealias Digest = HashDigest<SHA512>

    private var engine = MerkleDamgardHasher<SHA512Compression>()

    /// A fresh SHA-512 state.
    public init() {}

    /// Absorbs `bytes`.
    public mutating func update(bufferPointer bytes: UnsafeRawBufferPointer) { engine.update(bytes) }

    /// The digest of everything absorbed so far.
    public func finalize() -> Digest { Digest(storage: engine.finalize()) }
}

/// SHA-384 (FIPS 180-4 §6.5): SHA-512 with another initial value, truncated to 48 bytes.
public struct SHA384: HashFunction {
    /// 128 bytes.
    public static var blockByteCount: Int { 128 }
    /// 48 bytes.
    public static var byteCount: Int { 48 }
    /// The digest type.
    public typealias Digest = HashDigest<SHA384>

    private var engine = MerkleDamgardHasher<SHA384Compression>()

    /// A fresh SHA-384 state.
    public init() {}

    /// Absorbs `bytes`.
    public mutating func update(bufferPointer bytes: UnsafeRawBufferPointer) { engine.update(bytes) }

    /// The digest of everything absorbed so far.
    public func finalize() -> Digest { Digest(storage: engine.finalize()) }
}

struct SHA512Compression: MerkleDamgardCompression {
    static var initialState: InlineArray<8, UInt64> { sha512InitialState }
    static var blockByteCount: Int { 128 }
    static var lengthFieldByteCount: Int { 16 }
    static var digestByteCount: Int { 64 }

    static func compress(_ state: inout InlineArray<8, UInt64>, blocks: UnsafeRawBufferPointer) {
        SHA2Rounds<UInt64>.compress(&state, blocks: blocks)
    }

    static func write(_ state: InlineArray<8, UInt64>, into digest: inout InlineArray<64, UInt8>) {
        SHA2Rounds<UInt64>.write(state, wordCount: 8, into: &digest)
    }
}

struct SHA384Compression: MerkleDamgardCompression {
    static var initialState: InlineArray<8, UInt64> { sha384InitialState }
    static var blockByteCount: Int { 128 }
    static var lengthFieldByteCount: Int { 16 }
    static var digestByteCount: Int { 48 }

    static func compress(_ state: inout InlineArray<8, UInt64>, blocks: UnsafeRawBufferPointer) {
        SHA2Rounds<UInt64>.compress(&state, blocks: blocks)
    }

    static func write(_ state: InlineArray<8, UInt64>, into digest: inout InlineArray<64, UInt8>) {
        SHA2Rounds<UInt64>.write(state, wordCount: 6, into: &digest)
    }
}
