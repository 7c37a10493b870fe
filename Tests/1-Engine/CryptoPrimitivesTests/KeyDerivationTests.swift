// PBKDF2 (RFC 6070 inputs), HKDF (RFC 5869), X9.63 KDF and their parameter checks.
// Expected values: Python hashlib.pbkdf2_hmac and pyca/cryptography.

import CryptoPrimitives
import Testing
import TestSupport

@Suite struct KeyDerivationTests {
    @Test func pbkdf2RFC6070InputsWithSHA1AndSHA256() throws {
        let cases: [(String, String, Int, String, String)] = [
            ("password", "salt", 1, "0c60c80f961f0e71f3a9b524af6012062fe037a6", "120fb6cffcf8b32c43e7225256c4f837a86548c9"),
            ("password", "salt", 2, "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957", "ae4d0c95af6b46d32d0adff928f06dd02a303f8e"),
            ("password", "salt", 4096, "4b007901b765489abead49d926f721d065a429c1", "c5e478d59288c841aa530db6845c4c8d962893a0"),
            ("passwordPASSWORDpassword", "saltSALTsaltSALTsaltSALTsaltSALTsalt", 4096,
             "3d2eec4fe41c849b80c8d83662c0e44a8b291a964cf2f07038", "348c89dbcbd32b2f32d814b8116e84cf2b17347ebc1800181c"),
            ("pass\u{0}word", "sa\u{0}lt", 4096, "56fa6aa75548099dcc37d7f03425e0c3", "89b69d0516f829893c696226650a8687"),
        ]
        for (password, salt, rounds, sha1, sha256) in cases {
            let length = sha1.count / 2
            let key1 = try PBKDF2<Insecure.SHA1>.deriveKey(from: Array(password.utf8), salt: Array(salt.utf8), rounds: rounds, outputByteCount: length)
            #expect(TestHex.string(key1.secret.unsafeExposedBytes) == sha1)
            let key256 = try PBKDF2<SHA256>.deriveKey(from: SecretBytes(password.utf8), salt: Array(salt.utf8), rounds: rounds, outputByteCount: length)
            #expect(TestHex.string(key256.secret.unsafeExposedBytes) == sha256)
        }
    }

    @Test func pbkdf2RejectsBadParameters() {
        #expect(throws: CryptoError.invalidParameter) { try PBKDF2<SHA256>.deriveKey(from: [1], salt: [2], rounds: 0, outputByteCount: 16) }
        #expect(throws: CryptoError.invalidParameter) { try PBKDF2<SHA256>.deriveKey(from: [1], salt: [2], rounds: 1, outputByteCount: 0) }
    }

    @Test func hkdfRFC5869() throws {
        let okm1 = try HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: [UInt8](repeating: 0x0B, count: 22)),
                                              salt: Array(0...12), info: Array(0xF0...0xF9), outputByteCount: 42)
        #expect(TestHex.string(okm1.secret.unsafeExposedBytes)
                == "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865")
        let okm3 = try HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: [UInt8](repeating: 0x0B, count: 22)),
                                              salt: [], info: [], outputByteCount: 42)
        #expect(TestHex.string(okm3.secret.unsafeExposedBytes)
                == "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8")
        let okm4 = try HKDF<Insecure.SHA1>.deriveKey(inputKeyMaterial: SymmetricKey(data: [UInt8](repeating: 0x0B, count: 11)),
                                                     salt: Array(0...12), info: Array(0xF0...0xF9), outputByteCount: 42)
        #expect(TestHex.string(okm4.secret.unsafeExposedBytes)
                == "085a01ea1b10f36933068b56efa5ad81a4f14b822f5b091568a9cdd4f155fda2c22e422478d305f3f896")
        // The longest output RFC 5869 allows, 255 · HashLen.
        let longest = try HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: Array("ikm".utf8)),
                                                 salt: Array("salt".utf8), info: Array("info".utf8), outputByteCount: 255 * 32)
        #expect(TestHex.string(longest.secret.unsafeExposedBytes.suffix(16)) == "7ec49a08915e6f50d16fecad12b8e8b9")
        #expect(throws: CryptoError.invalidParameter) {
            try HKDF<SHA256>.expand(pseudoRandomKey: SymmetricKey(data: [1]), info: [], outputByteCount: 255 * 32 + 1)
        }
        #expect(throws: CryptoError.invalidParameter) {
            try HKDF<SHA256>.expand(pseudoRandomKey: SymmetricKey(data: [1]), info: [], outputByteCount: 0)
        }
    }

    @Test func x963KDFBlocksAndLimits() throws {
        // Output longer than one hash is the concatenation of the counter blocks.
        let secret: [UInt8] = Array(1...24), info: [UInt8] = [9, 9]
        let long = try X963KDF<SHA256>.deriveKey(sharedSecret: secret, sharedInfo: info, outputByteCount: 70).secret.unsafeExposedBytes
        for counter in 1...3 {
            let block = SHA256.hash(data: secret + [0, 0, 0, UInt8(counter)] + info).bytes
            #expect(Array(long[(32 * (counter - 1))..<min(70, 32 * counter)]) == Array(block.prefix(min(32, 70 - 32 * (counter - 1)))))
        }
        #expect(throws: CryptoError.invalidParameter) { try X963KDF<SHA256>.deriveKey(sharedSecret: secret, sharedInfo: [], outputByteCount: 0) }
    }
}
