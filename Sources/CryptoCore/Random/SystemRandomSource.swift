// The operating system's CSPRNG.

#if canImport(Glibc)
import Glibc
#endif

/// Random bytes from the kernel's CSPRNG.
///
/// Uses glibc's `getentropy(3)`, which is the `getrandom(2)` system call in chunks of at most
/// 256 bytes: it blocks until the kernel pool is initialised and never returns short reads.
/// (`getrandom` itself is not exported by Swift's Glibc module map.)
public struct SystemRandomSource: RandomSource, Sendable {
    /// The system source.
    public init() {}

    /// Fills `buffer` from the kernel.
    public mutating func fill(_ buffer: UnsafeMutableRawBufferPointer) throws(CryptoError) {
        guard let base = buffer.baseAddress else { return }
        var offset = 0
        while offset < buffer.count {
            let chunk = min(256, buffer.count - offset)
            #if canImport(Glibc)
            guard getentropy(base + offset, chunk) == 0 else { throw .randomSourceFailure }
            #else
            throw .randomSourceFailure
            #endif
            offset += chunk
        }
    }
}
