// The AES namespace and the single-block (ECB) call PowerAuth's key derivation needs.

import CryptoCore

/// AES-128/192/256 (FIPS 197), implemented without secret-indexed tables (see
/// `AESBitslicedConstantTime`): the time taken depends only on the lengths involved.
public enum AES {
    /// The block size in bytes.
    public static let blockByteCount = 16

    /// Encrypts one 16-byte block with the raw cipher (ECB of a single block).
    /// PowerAuth's KDF uses exactly this (docs/protocols/powerauth.md §4). Throws
    /// `CryptoError.incorrectLength` for a block that is not 16 bytes or a key that is not
    /// 16, 24 or 32 bytes.
    public static func encryptBlock(_ block: some Sequence<UInt8>, using key: SymmetricKey) throws(CryptoError) -> [UInt8] {
        try transformBlock(block, using: key, decrypt: false)
    }

    /// Decrypts one 16-byte block with the raw cipher.
    public static func decryptBlock(_ block: some Sequence<UInt8>, using key: SymmetricKey) throws(CryptoError) -> [UInt8] {
        try transformBlock(block, using: key, decrypt: true)
    }

    private static func transformBlock(_ block: some Sequence<UInt8>, using key: SymmetricKey, decrypt: Bool) throws(CryptoError) -> [UInt8] {
        let input = Array(block)
        guard input.count == blockByteCount else { throw .incorrectLength }
        let cipher = try expand(key)
        var lanes = [UInt8](repeating: 0, count: 64)
        lanes.replaceSubrange(0..<16, with: input)
        lanes.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            if decrypt {
                cipher.decrypt(base, base, lanes: UInt64.self)
            } else {
                cipher.encrypt(base, base, lanes: UInt64.self)
            }
        }
        let output = Array(lanes[0..<16])
        SecretBytes.wipe(&lanes)  // the lanes hold the block's output (a derived key for PowerAuth's KDF)
        return output
    }

    /// Expands `key`, rejecting lengths other than 16, 24 and 32 bytes.
    static func expand(_ key: SymmetricKey) throws(CryptoError) -> AESBitslicedConstantTime {
        try key.withUnsafeBytes { (bytes) throws(CryptoError) in try AESBitslicedConstantTime(key: bytes) }
    }
}
