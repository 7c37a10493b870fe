// Start-up self-tests in the FIPS 140-3 style (the shape
// of Go's CAST): one fast known-answer test per algorithm, run once — the first time anything
// asks — and cached. A failure fails closed: `requirePassed()` throws the algorithm's name from
// then on, and the SDK clients refuse to start. Expected values come from independent sources:
// FIPS 180-4 examples, RFC 4231 case 1, RFC 5869 case 1, FIPS 197 C.1, SP 800-38A F.2.1 and
// F.5.5, RFC 6979 A.2.5; PBKDF2, ECDH and the RSA signature from Python `cryptography`. The
// pairing has no short independent KAT here, so it gets a pairwise-consistency test
// (bilinearity), as FIPS does for key generation.

/// The engine's start-up self-tests.
public enum CryptoSelfTest {
    /// A self-test that did not give its known answer: the engine must not be used.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The algorithm whose test failed, e.g. `AES-128`.
        public let algorithm: String

        /// `self-test failed: <algorithm>`.
        public var description: String { "self-test failed: \(algorithm)" }
    }

    /// The outcome of the one run, computed on first use (thread-safe lazy initialisation).
    private static let outcome: Failure? = runKnownAnswerTests().first { !$0.passed }.map { Failure(algorithm: $0.algorithm) }

    /// Returns when every self-test passed; runs them the first time it is called (a few
    /// milliseconds, mostly the pairing and the RSA signature) and answers from the cached
    /// outcome after that. Throws ``Failure`` — every time — when one did not.
    public static func requirePassed() throws(Failure) {
        if let outcome { throw outcome }
    }

    /// Runs every test now (not cached) and reports each: for `mfa selftest` and the benchmark.
    public static func runKnownAnswerTests() -> [(algorithm: String, passed: Bool)] {
        tests.map { test in
            let passed = (try? test.check()) ?? false  // a throw is a failed test, reported as such
            return (test.algorithm, passed)
        }
    }

    private static let abc = Array("abc".utf8)

    private static func hex(_ text: String) throws(CryptoError) -> [UInt8] { try Hex.decode(text) }

    private static let tests: [(algorithm: String, check: @Sendable () throws(CryptoError) -> Bool)] = [
        ("SHA-1", { () throws(CryptoError) -> Bool in Insecure.SHA1.hash(data: abc).bytes == (try hex("a9993e364706816aba3e25717850c26c9cd0d89d")) }),
        ("SHA-256", { () throws(CryptoError) -> Bool in SHA256.hash(data: abc).bytes == (try hex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")) }),
        ("SHA-384", { () throws(CryptoError) -> Bool in
            SHA384.hash(data: abc).bytes
                == (try hex("cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"))
        }),
        ("SHA-512", { () throws(CryptoError) -> Bool in
            SHA512.hash(data: abc).bytes == (try hex("ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
                                                     + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"))
        }),
        ("HMAC-SHA-256", { () throws(CryptoError) -> Bool in
            let key = SymmetricKey(data: try hex(String(repeating: "0b", count: 20)))
            return HMAC<SHA256>.isValidAuthenticationCode(try hex("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
                                                          authenticating: Array("Hi There".utf8), using: key)
        }),
        ("HKDF-SHA-256", { () throws(CryptoError) -> Bool in
            let key = try HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: try hex(String(repeating: "0b", count: 22))),
                                                 salt: try hex("000102030405060708090a0b0c"), info: try hex("f0f1f2f3f4f5f6f7f8f9"), outputByteCount: 42)
            return key == SymmetricKey(data: try hex("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"))
        }),
        ("PBKDF2-HMAC-SHA-256", { () throws(CryptoError) -> Bool in
            let key = try PBKDF2<SHA256>.deriveKey(from: SecretBytes(Array("password".utf8)), salt: Array("salt".utf8), rounds: 2, outputByteCount: 32)
            return key == SymmetricKey(data: try hex("ae4d0c95af6b46d32d0adff928f06dd02a303f8ef3c251dfd6e2d85a95474c43"))
        }),
        ("AES-128", { () throws(CryptoError) -> Bool in
            let key = SymmetricKey(data: try hex("000102030405060708090a0b0c0d0e0f"))
            let plaintext = try hex("00112233445566778899aabbccddeeff"), ciphertext = try hex("69c4e0d86a7b0430d8cdb78070b4c55a")
            let encrypted = try AES.encryptBlock(plaintext, using: key), decrypted = try AES.decryptBlock(ciphertext, using: key)
            return encrypted == ciphertext && decrypted == plaintext
        }),
        ("AES-128-CBC", { () throws(CryptoError) -> Bool in
            let key = SymmetricKey(data: try hex("2b7e151628aed2a6abf7158809cf4f3c")), iv = try hex("000102030405060708090a0b0c0d0e0f")
            let plaintext = try hex("6bc1bee22e409f96e93d7e117393172a"), ciphertext = try hex("7649abac8119b246cee98e9b12e9197d")
            let encrypted = try AES.UnauthenticatedCBC.encrypt(plaintext, using: key, iv: iv, padding: .none)
            let decrypted = try AES.UnauthenticatedCBC.decrypt(ciphertext, using: key, iv: iv, padding: .none)
            return encrypted == ciphertext && decrypted == plaintext
        }),
        ("AES-256-CTR", { () throws(CryptoError) -> Bool in
            let key = SymmetricKey(data: try hex("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"))
            return try AES.UnauthenticatedCTR.encrypt(try hex("6bc1bee22e409f96e93d7e117393172a"), using: key,
                                                      counterBlock: try hex("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff")) == (try hex("601ec313775789a5b7a7f504bbf3d228"))
        }),
        ("ECDSA P-256", { () throws(CryptoError) -> Bool in
            let key = try P256.Signing.PrivateKey(rawRepresentation: try hex("c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721"))
            let message = Array("sample".utf8)
            let signature = key.deterministicSignature(for: message)
            return signature.rawRepresentation == (try hex("efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716"
                                                           + "f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8"))
                && key.publicKey.isValidSignature(signature, for: message) && !key.publicKey.isValidSignature(signature, for: abc)
        }),
        ("ECDH P-256", { () throws(CryptoError) -> Bool in
            let key = try P256.KeyAgreement.PrivateKey(rawRepresentation: try hex("c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721"))
            let peer = try P256.KeyAgreement.PublicKey(x963Representation: try hex(
                "04ead218590119e8876b29146ff89ca61770c4edbbf97d38ce385ed281d8a6b230"
                    + "28af61281fd35e2fa7002523acc85a429cb06ee6648325389f59edfce1405141"))
            return try key.sharedSecretFromKeyAgreement(with: peer).secret
                == SecretBytes(try hex("61e109425a7adbb9d0137091cff10a55550b708d14ad0137b80fa0ec1328394f"))
        }),
        ("RSA-2048 PKCS #1 v1.5", { () throws(CryptoError) -> Bool in
            let key = try RSA.Signing.PrivateKey(derRepresentation: try Base64.decode(rsaKeyPKCS8Base64))
            let message = Array("SwiftMFA self-test".utf8)
            let signature = try key.signature(for: message, padding: .pkcs1v1_5)
            return signature.rawRepresentation == (try hex(rsaSignatureHex))
                && key.publicKey.isValidSignature(signature, for: message, padding: .pkcs1v1_5)
        }),
        ("BN254CX pairing", { () throws(CryptoError) -> Bool in
            // e(3P, 2Q) = e(P, Q)⁶ and e(P, Q) ≠ 1: two pairings, both arguments multiplied.
            let p = BN254CX.G1.generator, q = BN254CX.G2.generator
            let base = BN254CX.pairing(q, p)
            let square = base * base
            return !base.isOne && BN254CX.pairing(q.multiplied(by: BN254CX.Scalar(2)), p.multiplied(by: BN254CX.Scalar(3))) == square * square * square
        }),
    ]

    private static let rsaSignatureHex =
        "a9bd417d3526efe7cbe9e6e0334828a09d582ec0ead5239d5f84c86380c8cd65fbfe22584ebd7aee4ebee977f3c200f256b17442a66fb821369b7bf6790163317c"
            + "ec1ebc78d942230413de432255396e4aaa3629c4c6bc5d016307aef7a3505d99c85804039ce08c9aa7bfb70dc4fd771829bd7b7167459dedb3ec19de0fd56cce"
            + "33e46d6031a7ae8de77243791aac0092c264bbe07d2b65f402bc6636cdd4f3a4fca367ea71d33a5aa0dfcf9f6513dd936d577452b8a00cd300b781b34def6782"
            + "6add7ca50cf6e3f5f901a58b891bf16ebc437d4da738ff93eb5bc8440edfa5066fe084bd797b7d6ec49d4db41221b1ebffaccd90b87711d0a47a1b13b00ee7"
}
