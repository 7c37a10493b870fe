// swift-crypto's side of every row it can do, under the same names as BenchmarkCatalog and on
// the same BenchmarkFixtures bytes.

import BenchmarkKit
import Crypto
import CryptoExtras
import Foundation

enum SwiftCryptoRows {
    /// One P-256 ECDSA signature: the unit for rows swift-crypto cannot do.
    static var yardstick: BenchmarkCase {
        let key = P256.Signing.PrivateKey()
        let message = Data(repeating: 0x61, count: 32)
        return BenchmarkCase("yardstick/p256/sign", repeating: { try key.signature(for: message) })
    }

    /// Every row by name; throws if a fixture is refused (a row left out would be reported in
    /// units instead, which reads as swift-crypto not having it).
    static func all() throws -> [String: BenchmarkCase] {
        typealias F = BenchmarkFixtures
        let key16 = SymmetricKey(data: F.key16), key32 = SymmetricKey(data: F.key32)
        let (message32, message64, message1K, message1M) = (F.message32, F.message64, F.message1K, F.message1M)
        let cbcIV = try AES._CBC.IV(ivBytes: F.iv)
        let ctrNonce = try AES._CTR.Nonce(nonceBytes: F.iv)
        let ciphertext1M = try AES._CBC.encrypt(message1M, using: key16, iv: cbcIV, noPadding: true)

        let rows: [BenchmarkCase] = [
            BenchmarkCase("sha256/64B", bytesPerOperation: 64, repeating: { SHA256.hash(data: message64) }),
            BenchmarkCase("sha256/1KiB", bytesPerOperation: 1024, repeating: { SHA256.hash(data: message1K) }),
            BenchmarkCase("sha256/1MiB", bytesPerOperation: 1 << 20, repeating: { SHA256.hash(data: message1M) }),
            BenchmarkCase("hmac-sha256/32B", bytesPerOperation: 32, repeating: { HMAC<SHA256>.authenticationCode(for: message32, using: key32) }),
            BenchmarkCase("hmac-sha256/1KiB", bytesPerOperation: 1024, repeating: { HMAC<SHA256>.authenticationCode(for: message1K, using: key32) }),
            BenchmarkCase("aes128/cbc/encrypt/1KiB", bytesPerOperation: 1024,
                          repeating: { try AES._CBC.encrypt(message1K, using: key16, iv: cbcIV, noPadding: true) }),
            BenchmarkCase("aes128/cbc/encrypt/1MiB", bytesPerOperation: 1 << 20,
                          repeating: { try AES._CBC.encrypt(message1M, using: key16, iv: cbcIV, noPadding: true) }),
            BenchmarkCase("aes128/cbc/decrypt/1MiB", bytesPerOperation: 1 << 20,
                          repeating: { try AES._CBC.decrypt(ciphertext1M, using: key16, iv: cbcIV, noPadding: true) }),
            BenchmarkCase("aes128/ctr/1MiB", bytesPerOperation: 1 << 20,
                          repeating: { try AES._CTR.encrypt(message1M, using: key16, nonce: ctrNonce) }),
            BenchmarkCase("pbkdf2/sha1/10000", repeating: {
                try KDF.Insecure.PBKDF2.deriveKey(from: F.password, salt: F.salt16, using: .insecureSHA1,
                                                   outputByteCount: 16, unsafeUncheckedRounds: 10_000)
            }),
        ]
        return Dictionary(uniqueKeysWithValues: (try rows + p256() + rsa() + tls()).map { ($0.name, $0) })
    }
}

extension SwiftCryptoRows {
    /// swift-crypto's P-256 rows.
    static func p256() throws -> [BenchmarkCase] {
        let message = BenchmarkFixtures.message32
        let signingKey = P256.Signing.PrivateKey()
        let signature = try signingKey.signature(for: message)
        let agreementKey = P256.KeyAgreement.PrivateKey()
        let peerKey = P256.KeyAgreement.PrivateKey().publicKey
        return [
            BenchmarkCase("p256/ecdsa/sign", repeating: { try signingKey.signature(for: message) }),
            BenchmarkCase("p256/ecdsa/verify", verifying: { signingKey.publicKey.isValidSignature(signature, for: message) }),
            BenchmarkCase("p256/ecdh", repeating: { try agreementKey.sharedSecretFromKeyAgreement(with: peerKey) }),
            BenchmarkCase("p256/keygen", repeating: { P256.Signing.PrivateKey() }),
        ]
    }
}
