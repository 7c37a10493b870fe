// The ANSI X9.63 key derivation function (SEC 1 v2 §3.6.1; NIST SP 800-135 §4.1).

import CryptoCore

/// ANSI X9.63 KDF: `K = H(Z ‖ counter₁ ‖ SharedInfo) ‖ H(Z ‖ counter₂ ‖ SharedInfo) ‖ …`
/// with a 32-bit big-endian counter starting at 1, truncated to the requested length.
/// PowerAuth's ECIES uses it over SHA-256 (docs/protocols/powerauth.md §9).
public enum X963KDF<H: HashFunction> {
    /// Derives `outputByteCount` bytes (1 ≤ count ≤ HashLen · (2³² − 1)) from the shared secret.
    public static func deriveKey(
        sharedSecret: SecretBytes, sharedInfo: some Sequence<UInt8>, outputByteCount: Int
    ) throws(CryptoError) -> SymmetricKey {
        guard outputByteCount >= 1, UInt64(outputByteCount) <= UInt64(UInt32.max) * UInt64(H.byteCount) else { throw .invalidParameter }
        let sharedInfo = Array(sharedInfo)
        return SymmetricKey(secret: SecretBytes(count: outputByteCount) { output in
            var written = 0
            var counter: UInt32 = 1
            while written < outputByteCount {
                var hasher = H()
                sharedSecret.withUnsafeBytes { hasher.update(bufferPointer: $0) }
                hasher.update(data: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: counter >> $0) })
                hasher.update(data: sharedInfo)
                let block = hasher.finalize()
                block.withUnsafeBytes { bytes in
                    for i in 0..<min(bytes.count, outputByteCount - written) { output[written + i] = bytes[i] }
                }
                written += H.byteCount
                counter &+= 1
            }
        })
    }

    /// Derives a key from a shared secret given as plain bytes.
    public static func deriveKey(
        sharedSecret: some Sequence<UInt8>, sharedInfo: some Sequence<UInt8>, outputByteCount: Int
    ) throws(CryptoError) -> SymmetricKey {
        try deriveKey(sharedSecret: SecretBytes(sharedSecret), sharedInfo: sharedInfo, outputByteCount: outputByteCount)
    }
}
