// SHA-224 and SHA-256 (FIPS 180-4 §6.2, §6.3).

import CryptoCore

/// SHA-256 (FIPS 180-4).
public struct SHA256: HashFunction {
    /// 64 bytes.
    public static var blockByteCount: Int { 64 }
    /// 32 bytes.
    public static var byteCount: Int { 32 }
    /// The digest type.
    public typealias Digest = HashDigest<SHA256>

    private var engine = MerkleDamgardHasher<SHA256Compression>()

    /// A fresh SHA-256 state.
    public init() {}

    /// Absorbs `bytes`.
    public mutating func update(bufferPointer bytes: UnsafeRawBufferPointer) { engine.update(bytes) }

    /// The digest of everything absorbed so far.
    public func finalize() -> Digest { Digest(storage: engine.finalize()) }
}

/// SHA-224 (FIPS 180-4 §6.3): SHA-256 with another initial value, truncated to 28 bytes.
public struct SHA224: HashFunction {
    /// 64 bytes.
    public static var blockByteCount: Int { 64 }
    /// 28 bytes.
    public static var byteCount: Int { 28 }
    /// The digest type.
    public typealias Digest = HashDigest<SHA224>

    private var engine = MerkleDamgardHasher<SHA224Compression>()

    /// A fresh SHA-224 state.
    public init() {}

    /// Absorbs `bytes`.
    public mutating func update(bufferPointer bytes: UnsafeRawBufferPointer) { engine.update(bytes) }

    /// The digest of everything absorbed so far.
    public func finalize() -> Digest { Digest(storage: engine.finalize()) }
}

struct SHA256Compression: MerkleDamgardCompression {
    static var initialState: InlineArray<8, UInt32> { sha256InitialState }
    static var blockByteCount: Int { 64 }
    static var lengthFieldByteCount: Int { 8 }
    static var digestByteCount: Int { 32 }

    static func compress(_ state: inout InlineArray<8, UInt32>, blocks: UnsafeRawBufferPointer) {
        SHA2Rounds<UInt32>.compress(&state, blocks: blocks)
    }

    static func write(_ state: InlineArray<8, UInt32>, into digest: inout InlineArray<64, UInt8>) {
        SHA2Rounds<UInt32>.write(state, wordCount: 8, into: &digest)
    }
}

struct SHA224Compression: MerkleDamgardCompression {
    static var initialState: InlineArray<8, UInt32> { sha224InitialState }
    static var blockByteCount: Int { 64 }
    static var lengthFieldByteCount: Int { 8 }
    static var digestByteCount: Int { 28 }

    static func compress(_ state: inout InlineArray<8, UInt32>, blocks: UnsafeRawBufferPointer) {
        SHA2Rounds<UInt32>.compress(&state, blocks: blocks)
    }

    static func write(_ state: InlineArray<8, UInt32>, into digest: inout InlineArray<64, UInt8>) {
        SHA2Rounds<UInt32>.write(state, wordCount: 7, into: &digest)
    }
}
