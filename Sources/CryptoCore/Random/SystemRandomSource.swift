// The operating system's CSPRNG.

#if canImport(Glibc)
import Glibc
#elseif hasFeature(Embedded)
/// `getrandom(2)`: glibc's and musl's wrapper on Linux; a board's support code elsewhere
/// (Embedded/Firmware/startup.c gives one that always fails).
@_extern(c, "getrandom")
private func getrandom(_ buffer: UnsafeMutableRawPointer?, _ count: Int, _ flags: UInt32) -> Int
#endif

/// Random bytes from the kernel's CSPRNG.
///
/// With glibc, uses `getentropy(3)`, which is the `getrandom(2)` system call in chunks of at most
/// 256 bytes: it blocks until the kernel pool is initialised and never returns short reads.
/// (`getrandom` itself is not exported by Swift's Glibc module map.) Under Embedded Swift, where
/// there is no Glibc module, it calls the C symbol `getrandom` directly: on Linux that is the same
/// system call; a board without one links a `getrandom` that fails, and every draw throws.
public struct SystemRandomSource: RandomSource, Sendable {
    /// The system source.
    public init() {}

    /// Fills `buffer` from the kernel.
    public mutating func fill(_ buffer: UnsafeMutableRawBufferPointer) throws(CryptoError) {
        guard let base = buffer.baseAddress else { return }
        var offset = 0
        #if !canImport(Glibc) && hasFeature(Embedded)
        var failures = 0
        #endif
        while offset < buffer.count {
            let chunk = min(256, buffer.count - offset)
            #if canImport(Glibc)
            guard getentropy(base + offset, chunk) == 0 else { throw .randomSourceFailure }
            offset += chunk
            #elseif hasFeature(Embedded)
            // At most 256 bytes per call: once the pool is initialised such a read is never short
            // and never interrupted; a -1 while it is not (EINTR) is retried a few times.
            let read = getrandom(base + offset, chunk, 0)
            if read > 0, read <= chunk {
                offset += read
            } else {
                failures += 1
                guard failures < 8 else { throw .randomSourceFailure }
            }
            #else
            throw .randomSourceFailure
            #endif
        }
    }
}
