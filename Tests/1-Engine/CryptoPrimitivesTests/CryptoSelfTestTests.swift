// The start-up self-tests: every algorithm's known
// answer holds on this build, the list covers what the SDKs use, and the cached gate opens.
// The expected values inside CryptoSelfTest come from FIPS/RFC examples and Python
// `cryptography`, never from this engine, so a broken primitive makes this test fail.

import CryptoPrimitives
import Testing

@Suite struct CryptoSelfTestTests {
    @Test func everyKnownAnswerHolds() throws {
        let results = CryptoSelfTest.runKnownAnswerTests()
        #expect(results.map(\.algorithm) == ["SHA-1", "SHA-256", "SHA-384", "SHA-512", "HMAC-SHA-256", "HKDF-SHA-256", "PBKDF2-HMAC-SHA-256",
                                             "AES-128", "AES-128-CBC", "AES-256-CTR", "ECDSA P-256", "ECDH P-256", "RSA-2048 PKCS #1 v1.5",
                                             "BN254CX pairing"])
        for result in results { #expect(result.passed, "\(result.algorithm)") }
        try CryptoSelfTest.requirePassed()
    }

}
