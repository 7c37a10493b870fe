// Benchmark rows of the curves TLS agrees keys and verifies certificates on: X25519 and P-384.

import CryptoPrimitives

extension BenchmarkCatalog {
    static func curveRows() throws -> [BenchmarkCase] {
        var seeded = SeededRandomSource(seed: 25519)
        let x25519 = try Curve25519.KeyAgreement.PrivateKey(using: &seeded)
        let x25519Peer = try Curve25519.KeyAgreement.PrivateKey(using: &seeded).publicKey
        let p384 = try P384.KeyAgreement.PrivateKey(using: &seeded)
        let p384Peer = try P384.KeyAgreement.PrivateKey(using: &seeded).publicKey
        // A signature OpenSSL made (Vectors/p384/ecdsa-p384-verify.json): P-384 cannot sign here.
        let verifier = try P384.Signing.PublicKey(x963Representation: try Hex.decode(
            "0422e7624ad88ab108bbc9e1c7966be0e0a95b0159838a1672c3e943eb91a2ed1da509ee014a7d0f7b2ddd9501dfb0450aee1363d129cf655580"
            + "c601bb94718b88f35547fe76747fe0242343c8e608304e759c3eb7a479d4ce1c46955ddf28df65"))
        let signature = try P384.Signing.ECDSASignature(derRepresentation: try Hex.decode(
            "30660231009f5c4220d9d926193cf3c9f3023141cf680edba02c74fcaee7702ec8f30a65ec0118361e676062c611a3c24164e6bb01023100d16e"
            + "0c3593d5e262dafd3b7da40d7c605d992e2dd9d301da66a45991e2c49c738c95ab4e040cfcfd6c58ce9f26f30f6e"))
        let message = try Hex.decode("655ec7e931")
        return [
            BenchmarkCase("x25519/ecdh", repeating: { try x25519.sharedSecretFromKeyAgreement(with: x25519Peer) }),
            BenchmarkCase("x25519/keygen", repeating: { try Curve25519.KeyAgreement.PrivateKey() }),
            BenchmarkCase("p384/ecdh", repeating: { try p384.sharedSecretFromKeyAgreement(with: p384Peer) }),
            BenchmarkCase("p384/keygen", repeating: { try P384.KeyAgreement.PrivateKey() }),
            BenchmarkCase("p384/ecdsa/verify", verifying: { verifier.isValidSignature(signature, for: message) }),
        ]
    }
}
