// The inputs every symmetric row uses, shared with Benchmarks/compare so that both sides of a
// comparison process exactly the same bytes.

/// Fixed benchmark inputs.
public enum BenchmarkFixtures {
    /// An AES-128 key.
    public static let key16: [UInt8] = (0..<16).map { UInt8($0) }
    /// An HMAC key.
    public static let key32: [UInt8] = (0..<32).map { UInt8($0) }
    /// The CBC IV and CTR counter block.
    public static let iv = [UInt8](repeating: 0x24, count: 16)
    /// Messages of the sizes the row names give.
    public static let message32 = [UInt8](repeating: 0x61, count: 32)
    /// A 64-byte message.
    public static let message64 = [UInt8](repeating: 0x61, count: 64)
    /// A 1 KiB message.
    public static let message1K = [UInt8](repeating: 0x61, count: 1024)
    /// A 1 MiB message.
    public static let message1M = [UInt8](repeating: 0x61, count: 1 << 20)
    /// An ECDH-sized shared secret for the X9.63 row.
    public static let secret24 = [UInt8](repeating: 0x5A, count: 24)
    /// A 16-byte salt (PBKDF2) and shared info (X9.63).
    public static let salt16 = [UInt8](repeating: 0xA5, count: 16)
    /// A password for PBKDF2.
    public static let password = Array("correct horse battery staple".utf8)
}
