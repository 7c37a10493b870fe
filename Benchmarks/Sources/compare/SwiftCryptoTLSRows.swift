// swift-crypto's side of the rows of the primitives under TLS: AES-GCM, ChaCha20-Poly1305,
// X25519 and P-384, on the same fixtures (BoringSSL uses AES-NI and PCLMULQDQ where the CPU
// has them; ours is constant-time software throughout).

import BenchmarkKit
import Crypto
import Foundation

extension SwiftCryptoRows {
    static func tls() throws -> [BenchmarkCase] {
        typealias F = BenchmarkFixtures
        let key16 = SymmetricKey(data: F.key16), key32 = SymmetricKey(data: F.key32)
        let message1M = F.message1M, message16K = Array(F.message1M.prefix(16 << 10)), message32 = F.message32
        let gcmNonce = try AES.GCM.Nonce(data: F.iv.prefix(12)), chachaNonce = try ChaChaPoly.Nonce(data: F.iv.prefix(12))
        let x25519 = Curve25519.KeyAgreement.PrivateKey(), x25519Peer = Curve25519.KeyAgreement.PrivateKey().publicKey
        let p384 = P384.KeyAgreement.PrivateKey(), p384Peer = P384.KeyAgreement.PrivateKey().publicKey
        let signer = P384.Signing.PrivateKey()
        let message = Data([0x65, 0x5E, 0xC7, 0xE9, 0x31])
        let signature = try signer.signature(for: message)
        return [
            BenchmarkCase("aes128/gcm/seal/16KiB", bytesPerOperation: 16 << 10,
                          repeating: { try AES.GCM.seal(message16K, using: key16, nonce: gcmNonce, authenticating: message32) }),
            BenchmarkCase("aes128/gcm/seal/1MiB", bytesPerOperation: 1 << 20, repeating: { try AES.GCM.seal(message1M, using: key16, nonce: gcmNonce) }),
            BenchmarkCase("aes128/gcm/ghash/1MiB", bytesPerOperation: 1 << 20,
                          repeating: { try AES.GCM.seal(Data(), using: key16, nonce: gcmNonce, authenticating: message1M) }),
            BenchmarkCase("chacha20-poly1305/seal/1MiB", bytesPerOperation: 1 << 20,
                          repeating: { try ChaChaPoly.seal(message1M, using: key32, nonce: chachaNonce) }),
            BenchmarkCase("x25519/ecdh", repeating: { try x25519.sharedSecretFromKeyAgreement(with: x25519Peer) }),
            BenchmarkCase("x25519/keygen", repeating: { Curve25519.KeyAgreement.PrivateKey() }),
            BenchmarkCase("p384/ecdh", repeating: { try p384.sharedSecretFromKeyAgreement(with: p384Peer) }),
            BenchmarkCase("p384/keygen", repeating: { P384.KeyAgreement.PrivateKey() }),
            BenchmarkCase("p384/ecdsa/verify", verifying: { signer.publicKey.isValidSignature(signature, for: message) }),
        ]
    }
}
