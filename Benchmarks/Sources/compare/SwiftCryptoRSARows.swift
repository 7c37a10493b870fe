// swift-crypto's RSA rows (CryptoExtras `_RSA`, BoringSSL underneath), on the same fixed keys
// and message as BenchmarkKit's rsaRows.

import BenchmarkKit
import CryptoExtras
import Foundation

extension SwiftCryptoRows {
    static func rsa() throws -> [BenchmarkCase] {
        try rsa(bits: 2048, pem: BenchmarkFixtures.rsa2048PrivateKeyPEM, everyOperation: true)
            + rsa(bits: 3072, pem: BenchmarkFixtures.rsa3072PrivateKeyPEM, everyOperation: false)
            + rsa(bits: 4096, pem: BenchmarkFixtures.rsa4096PrivateKeyPEM, everyOperation: false)
            + [BenchmarkCase("rsa2048/keygen", repeating: { try _RSA.Signing.PrivateKey(keySize: .bits2048) })]
    }

    private static func rsa(bits: Int, pem: String, everyOperation: Bool) throws -> [BenchmarkCase] {
        let message = Data(BenchmarkFixtures.message32)
        let prefix = "rsa\(bits)"
        let signingKey = try _RSA.Signing.PrivateKey(pemRepresentation: pem)
        let encryptionKey = try _RSA.Encryption.PrivateKey(pemRepresentation: pem)
        let ciphertext = try encryptionKey.publicKey.encrypt(message, padding: .PKCS1_OAEP_SHA256)
        let signature = try signingKey.signature(for: message, padding: .insecurePKCS1v1_5)
        // CryptoExtras' encryption keys are not Sendable; each row only reads its key.
        let decryptionKey = UncheckedSendable(encryptionKey)
        var rows = [
            BenchmarkCase("\(prefix)/decrypt-oaep", repeating: { try decryptionKey.value.decrypt(ciphertext, padding: .PKCS1_OAEP_SHA256) }),
            BenchmarkCase("\(prefix)/sign-pkcs1", repeating: { try signingKey.signature(for: message, padding: .insecurePKCS1v1_5) }),
        ]
        guard everyOperation else { return rows }
        let publicKey = signingKey.publicKey, encryptionPublicKey = UncheckedSendable(encryptionKey.publicKey)
        rows += [
            BenchmarkCase("\(prefix)/sign-pss", repeating: { try signingKey.signature(for: message, padding: .PSS) }),
            BenchmarkCase("\(prefix)/verify", verifying: { publicKey.isValidSignature(signature, for: message, padding: .insecurePKCS1v1_5) }),
            BenchmarkCase("\(prefix)/encrypt-oaep", repeating: { try encryptionPublicKey.value.encrypt(message, padding: .PKCS1_OAEP_SHA256) }),
        ]
        return rows
    }
}

/// A value read, never mutated, from benchmark closures.
private struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
