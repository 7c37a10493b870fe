// Benchmark rows of RSA: the 2048-bit operations Salt Edge and CM use, and the
// 3072/4096-bit private operations, all on the fixed keys in RSAFixtures.swift.

import CryptoCore
import CryptoPrimitives

extension BenchmarkCatalog {
    static func rsaRows() throws -> [BenchmarkCase] {
        try rsaRows(bits: 2048, pem: BenchmarkFixtures.rsa2048PrivateKeyPEM, everyOperation: true)
            + rsaRows(bits: 3072, pem: BenchmarkFixtures.rsa3072PrivateKeyPEM, everyOperation: false)
            + rsaRows(bits: 4096, pem: BenchmarkFixtures.rsa4096PrivateKeyPEM, everyOperation: false)
            + [BenchmarkCase("rsa2048/keygen", repeating: { try RSA.Signing.PrivateKey(keySize: .bits2048) })]
    }

    /// decrypt-oaep and sign-pkcs1 (the private operation) for every size; with `everyOperation`
    /// also sign-pss, verify (PKCS #1 v1.5) and encrypt-oaep.
    private static func rsaRows(bits: Int, pem: String, everyOperation: Bool) throws -> [BenchmarkCase] {
        let message = BenchmarkFixtures.message32
        let prefix = "rsa\(bits)"
        let signingKey = try RSA.Signing.PrivateKey(pemRepresentation: pem)
        let encryptionKey = try RSA.Encryption.PrivateKey(pemRepresentation: pem)
        let ciphertext = try encryptionKey.publicKey.encrypt(message, padding: .oaepSHA256)
        let signature = try signingKey.signature(for: message, padding: .pkcs1v1_5)
        var rows = [
            BenchmarkCase("\(prefix)/decrypt-oaep", repeating: { try encryptionKey.decrypt(ciphertext, padding: .oaepSHA256) }),
            BenchmarkCase("\(prefix)/sign-pkcs1", repeating: { try signingKey.signature(for: message, padding: .pkcs1v1_5) }),
        ]
        guard everyOperation else { return rows }
        let publicKey = signingKey.publicKey, encryptionPublicKey = encryptionKey.publicKey
        rows += [
            BenchmarkCase("\(prefix)/sign-pss", repeating: { try signingKey.signature(for: message, padding: .pss) }),
            BenchmarkCase("\(prefix)/verify", verifying: { publicKey.isValidSignature(signature, for: message, padding: .pkcs1v1_5) }),
            BenchmarkCase("\(prefix)/encrypt-oaep", repeating: { try encryptionPublicKey.encrypt(message, padding: .oaepSHA256) }),
        ]
        return rows
    }
}
