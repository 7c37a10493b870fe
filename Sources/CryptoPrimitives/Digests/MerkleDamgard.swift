// The buffering and padding shared by SHA-1 and the SHA-2 family (FIPS 180-4 §5.1).

import CryptoCore

/// A compression function and its constants; one conformer per hash.
protocol MerkleDamgardCompression: Sendable {
    associatedtype State: Sendable
    /// The initial chaining value.
    static var initialState: State { get }
    /// 64 or 128.
    static var blockByteCount: Int { get }
    /// 8 or 16 (the message-length field of the final block).
    static var lengthFieldByteCount: Int { get }
    /// The output length in bytes.
    static var digestByteCount: Int { get }
    /// Processes the whole blocks in `blocks` (its length is a multiple of the block size).
    static func compress(_ state: inout State, blocks: UnsafeRawBufferPointer)
    /// Writes the first `digestByteCount` bytes of the big-endian state into `digest`.
    static func write(_ state: State, into digest: inout InlineArray<64, UInt8>)
}

/// The streaming engine: a partial-block buffer, the running length and the padding rule.
struct MerkleDamgardHasher<Compression: MerkleDamgardCompression>: Sendable {
    private var state = Compression.initialState
    private var buffer = InlineArray<128, UInt8>(repeating: 0)
    private var buffered = 0
    private var totalByteCount: UInt64 = 0

    init() {}

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var input = bytes[...]
        let blockSize = Compression.blockByteCount
        totalByteCount &+= UInt64(input.count)
        if buffered > 0 {
            let take = min(blockSize - buffered, input.count)
            let start = buffered
            withUnsafeMutableBytes(of: &buffer) { buffer in
                UnsafeMutableRawBufferPointer(rebasing: buffer[start..<(start + take)])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: input.prefix(take)))
            }
            buffered += take
            input = input.dropFirst(take)
            if buffered == blockSize {
                withUnsafeBytes(of: buffer) { Compression.compress(&state, blocks: UnsafeRawBufferPointer(rebasing: $0[0..<blockSize])) }
                buffered = 0
            }
        }
        let wholeBytes = input.count - input.count % blockSize
        if wholeBytes > 0 {
            Compression.compress(&state, blocks: UnsafeRawBufferPointer(rebasing: input.prefix(wholeBytes)))
            input = input.dropFirst(wholeBytes)
        }
        if !input.isEmpty {
            withUnsafeMutableBytes(of: &buffer) { buffer in
                UnsafeMutableRawBufferPointer(rebasing: buffer[0..<input.count]).copyMemory(from: UnsafeRawBufferPointer(rebasing: input))
            }
            buffered = input.count
        }
    }

    /// FIPS 180-4 §5.1.1/§5.1.2: append 0x80, zeros, and the bit length big-endian.
    func finalize() -> InlineArray<64, UInt8> {
        var state = state
        var block = buffer
        let blockSize = Compression.blockByteCount
        var used = buffered
        block[used] = 0x80
        used += 1
        if used > blockSize - Compression.lengthFieldByteCount {
            for i in used..<blockSize { block[i] = 0 }
            withUnsafeBytes(of: block) { Compression.compress(&state, blocks: UnsafeRawBufferPointer(rebasing: $0[0..<blockSize])) }
            used = 0
        }
        for i in used..<(blockSize - 8) { block[i] = 0 }
        let bitLength = totalByteCount &<< 3
        let highBits = totalByteCount >> 61
        if Compression.lengthFieldByteCount == 16 {
            block[blockSize - 9] = UInt8(truncatingIfNeeded: highBits)
        }
        for i in 0..<8 {
            block[blockSize - 1 - i] = UInt8(truncatingIfNeeded: bitLength >> UInt64(8 * i))
        }
        withUnsafeBytes(of: block) { Compression.compress(&state, blocks: UnsafeRawBufferPointer(rebasing: $0[0..<blockSize])) }
        var digest = InlineArray<64, UInt8>(repeating: 0)
        Compression.write(state, into: &digest)
        return digest
    }
}
