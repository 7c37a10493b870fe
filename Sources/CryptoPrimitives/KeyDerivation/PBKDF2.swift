// PBKDF2 (RFC 8018 §5.2) with HMAC as the PRF.

import CryptoCore

/// PBKDF2 over `HMAC<H>`. PowerAuth wraps its knowledge key with `PBKDF2<Insecure.SHA1>` at
/// 10 000 rounds (docs/protocols/powerauth.md §4); new designs should prefer SHA-256.
public enum PBKDF2<H: HashFunction> {
    /// Derives `outputByteCount` bytes from `password` and `salt` with `rounds` iterations.
    ///
    /// Throws `CryptoError.invalidParameter` when `rounds` or `outputByteCount` is below 1, or
    /// when the output would need more than 2³² − 1 blocks.
    public static func deriveKey(
        from password: SecretBytes, salt: some Sequence<UInt8>, rounds: Int, outputByteCount: Int
    ) throws(CryptoError) -> SymmetricKey {
        guard rounds >= 1, outputByteCount >= 1,
              UInt64(outputByteCount) <= UInt64(UInt32.max) * UInt64(H.byteCount) else { throw .invalidParameter }
        let prf = password.withUnsafeBytes { HMAC<H>(keyBytes: $0) }
        let salt = Array(salt)
        let blockCount = (outputByteCount + H.byteCount - 1) / H.byteCount
        return SymmetricKey(secret: SecretBytes(count: outputByteCount) { output in
            for block in 1...blockCount {
                var mac = prf
                mac.update(data: salt)
                mac.update(data: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: UInt32(block) >> $0) })
                var u = mac.finalize()
                var t = u.storage
                for _ in 1..<max(rounds, 1) {
                    var next = prf
                    u.withUnsafeBytes { next.update(bufferPointer: $0) }
                    u = next.finalize()
                    for i in 0..<H.byteCount { t[i] ^= u.storage[i] }
                }
                let start = (block - 1) * H.byteCount
                for i in 0..<min(H.byteCount, outputByteCount - start) { output[start + i] = t[i] }
                withUnsafeMutableBytes(of: &t) { SecretBytes.wipe($0) }
            }
        })
    }

    /// Derives a key from a password given as plain bytes (see the `SecretBytes` overload).
    public static func deriveKey(
        from password: some Sequence<UInt8>, salt: some Sequence<UInt8>, rounds: Int, outputByteCount: Int
    ) throws(CryptoError) -> SymmetricKey {
        try deriveKey(from: SecretBytes(password), salt: salt, rounds: rounds, outputByteCount: outputByteCount)
    }
}
