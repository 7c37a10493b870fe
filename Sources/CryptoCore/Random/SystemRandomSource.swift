// The operating system's CSPRNG.

#if canImport(Glibc)
import Glibc
#elseif hasFeature(Embedded)
/// `getrandom(2)`: glibc's and musl's wrapper on Linux; a board's support code elsewhere
/// (Embedded/Firmware/startup.c gives one that always fails).
@_extern(c, "getrandom")
private func getrandom(_ buffer: UnsafeMutableRawPointer?, _ count: Int, _ flags: UInt32) -> Int
/// Where the calling thread's `errno` lives (glibc, musl; a board's support code elsewhere).
@_extern(c, "__errno_location")
private func errnoLocation() -> UnsafeMutablePointer<Int32>
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
        var interruptions = 0
        #endif
        while offset < buffer.count {
            let chunk = min(256, buffer.count - offset)
            #if canImport(Glibc)
            guard getentropy(base + offset, chunk) == 0 else { throw .randomSourceFailure }
            offset += chunk
            #elseif hasFeature(Embedded)
            // At most 256 bytes per call: once the pool is initialised such a read is never short
            // and never interrupted. While it blocks for the pool, a signal gives -1 with EINTR,
            // retried as glibc's getentropy retries it (here at most 1,000 times, so a board
            // whose getrandom fails without setting errno cannot spin); a read of nothing is
            // final (getentropy's EIO), as is any other error.
            let read = getrandom(base + offset, chunk, 0)
            if read > 0, read <= chunk {
                offset += read
            } else if read == -1, errnoLocation().pointee == 4, interruptions < 1_000 {  // EINTR
                interruptions += 1
            } else {
                throw .randomSourceFailure
            }
            #else
            throw .randomSourceFailure
            #endif
        }
    }
}
