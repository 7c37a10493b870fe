// HKDF (RFC 5869).

import CryptoCore

/// The HMAC-based extract-and-expand key derivation function of RFC 5869.
public enum HKDF<H: HashFunction> {
    /// HKDF-Extract (RFC 5869 §2.2): `PRK = HMAC(salt, IKM)`. An empty salt acts as `HashLen`
    /// zero bytes.
    public static func extract(inputKeyMaterial: SymmetricKey, salt: some Sequence<UInt8>) -> SymmetricKey {
        var mac = HMAC<H>(key: SymmetricKey(data: salt))
        inputKeyMaterial.withUnsafeBytes { mac.update(bufferPointer: $0) }
        return SymmetricKey(data: mac.finalize().bytes)
    }

    /// HKDF-Expand (RFC 5869 §2.3): `T(i) = HMAC(PRK, T(i−1) ‖ info ‖ i)`, truncated to
    /// `outputByteCount`, which must lie in `1...255·HashLen`.
    public static func expand(
        pseudoRandomKey: SymmetricKey, info: some Sequence<UInt8>, outputByteCount: Int
    ) throws(CryptoError) -> SymmetricKey {
        guard outputByteCount >= 1, outputByteCount <= 255 * H.byteCount else { throw .invalidParameter }
        let prf = HMAC<H>(key: pseudoRandomKey)
        let info = Array(info)
        return SymmetricKey(secret: SecretBytes(count: outputByteCount) { output in
            var previous: [UInt8] = []
            var written = 0
            var counter: UInt8 = 1
            while written < outputByteCount {
                var mac = prf
                mac.update(data: previous)
                mac.update(data: info)
                mac.update(data: [counter])
                SecretBytes.wipe(&previous)  // T(i−1) is key material: wipe it before it is released
                previous = mac.finalize().bytes
                for byte in previous where written < outputByteCount {
                    output[written] = byte
                    written += 1
                }
                counter &+= 1
            }
            SecretBytes.wipe(&previous)
        })
    }

    /// Extract then expand in one call.
    public static func deriveKey(
        inputKeyMaterial: SymmetricKey, salt: some Sequence<UInt8>, info: some Sequence<UInt8>, outputByteCount: Int
    ) throws(CryptoError) -> SymmetricKey {
        try expand(pseudoRandomKey: extract(inputKeyMaterial: inputKeyMaterial, salt: salt), info: info, outputByteCount: outputByteCount)
    }
}
