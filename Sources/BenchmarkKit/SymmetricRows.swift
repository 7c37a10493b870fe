// Benchmark rows of the symmetric primitives.

import CryptoPrimitives

extension BenchmarkCatalog {
    static func symmetricRows() throws -> [BenchmarkCase] {
        typealias F = BenchmarkFixtures
        let key16 = SymmetricKey(data: F.key16), key32 = SymmetricKey(data: F.key32), iv = F.iv
        let (message32, message64, message1K, message1M) = (F.message32, F.message64, F.message1K, F.message1M)
        let ciphertext1M = try AES.UnauthenticatedCBC.encrypt(message1M, using: key16, iv: iv, padding: .none)
        let (secret24, salt16, password) = (F.secret24, F.salt16, F.password)
        let message16K = Array(message1M.prefix(16 << 10))
        let gcmNonce = try AES.GCM.Nonce(data: F.iv.prefix(12)), chachaNonce = try ChaChaPoly.Nonce(data: F.iv.prefix(12))

        return [
            BenchmarkCase("sha256/64B", bytesPerOperation: 64, repeating: { SHA256.hash(data: message64) }),
            BenchmarkCase("sha256/1KiB", bytesPerOperation: 1024, repeating: { SHA256.hash(data: message1K) }),
            BenchmarkCase("sha256/1MiB", bytesPerOperation: 1 << 20, repeating: { SHA256.hash(data: message1M) }),
            BenchmarkCase("hmac-sha256/32B", bytesPerOperation: 32, repeating: { HMAC<SHA256>.authenticationCode(for: message32, using: key32) }),
            BenchmarkCase("hmac-sha256/1KiB", bytesPerOperation: 1024, repeating: { HMAC<SHA256>.authenticationCode(for: message1K, using: key32) }),
            BenchmarkCase("aes128/cbc/encrypt/1KiB", bytesPerOperation: 1024,
                          repeating: { try AES.UnauthenticatedCBC.encrypt(message1K, using: key16, iv: iv, padding: .none) }),
            BenchmarkCase("aes128/cbc/encrypt/1MiB", bytesPerOperation: 1 << 20,
                          repeating: { try AES.UnauthenticatedCBC.encrypt(message1M, using: key16, iv: iv, padding: .none) }),
            BenchmarkCase("aes128/cbc/decrypt/1MiB", bytesPerOperation: 1 << 20,
                          repeating: { try AES.UnauthenticatedCBC.decrypt(ciphertext1M, using: key16, iv: iv, padding: .none) }),
            BenchmarkCase("aes128/ctr/1MiB", bytesPerOperation: 1 << 20,
                          repeating: { try AES.UnauthenticatedCTR.encrypt(message1M, using: key16, counterBlock: iv) }),
            BenchmarkCase("aes128/gcm/seal/16KiB", bytesPerOperation: 16 << 10,
                          repeating: { try AES.GCM.seal(message16K, using: key16, nonce: gcmNonce, authenticating: message32) }),
            BenchmarkCase("aes128/gcm/seal/1MiB", bytesPerOperation: 1 << 20,
                          repeating: { try AES.GCM.seal(message1M, using: key16, nonce: gcmNonce) }),
            // GHASH alone: 1 MiB of authenticated data and no message (one block encrypted).
            BenchmarkCase("aes128/gcm/ghash/1MiB", bytesPerOperation: 1 << 20,
                          repeating: { try AES.GCM.seal([UInt8](), using: key16, nonce: gcmNonce, authenticating: message1M) }),
            BenchmarkCase("chacha20-poly1305/seal/1MiB", bytesPerOperation: 1 << 20,
                          repeating: { try ChaChaPoly.seal(message1M, using: key32, nonce: chachaNonce, authenticating: [UInt8]()) }),
            BenchmarkCase("x963kdf/sha256/48B",
                          repeating: { try X963KDF<SHA256>.deriveKey(sharedSecret: secret24, sharedInfo: salt16, outputByteCount: 48) }),
            BenchmarkCase("pbkdf2/sha1/10000", repeating: {
                try PBKDF2<Insecure.SHA1>.deriveKey(from: password, salt: salt16, rounds: 10_000, outputByteCount: 16)
            }),
        ]
    }
}
