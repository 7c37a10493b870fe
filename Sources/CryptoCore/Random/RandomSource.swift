// Injected randomness (docs/design.md §2, habit 8): every key generation, nonce and protocol step
// takes its random bytes from a `RandomSource` the caller passes in.

/// A source of random bytes.
///
/// The engine uses ``SystemRandomSource`` by default; tests and reproducible protocol transcripts
/// pass a ``SeededRandomSource``. Implementations must fill the whole buffer or throw.
public protocol RandomSource {
    /// Fills `buffer` completely with random bytes.
    mutating func fill(_ buffer: UnsafeMutableRawBufferPointer) throws(CryptoError)
}

extension RandomSource {
    /// `count` random bytes as a public array.
    public mutating func bytes(count: Int) throws(CryptoError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        let result: Result<Void, CryptoError> = out.withUnsafeMutableBytes { buffer in
            do throws(CryptoError) { try fill(buffer); return .success(()) } catch { return .failure(error) }
        }
        try result.get()
        return out
    }

    /// `count` random bytes written straight into secret storage.
    public mutating func secretBytes(count: Int) throws(CryptoError) -> SecretBytes {
        try SecretBytes(count: count) { (buffer) throws(CryptoError) in try fill(buffer) }
    }

    /// A uniformly random 64-bit word.
    public mutating func nextWord() throws(CryptoError) -> UInt64 {
        let bytes = try self.bytes(count: 8)
        return bytes.reduce(0) { ($0 << 8) | UInt64($1) }
    }
}
