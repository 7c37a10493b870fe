// ECDSA: RFC 6979 A.2.5, sign-then-verify on random keys, hedged and deterministic nonces,
// signature encodings and their malformed forms.

import CryptoPrimitives
import CryptoCore
import Testing
import TestSupport

@Suite struct P256SignatureTests {
    /// RFC 6979 A.2.5 (P-256), re-checked with pyca/cryptography's deterministic signing.
    static let rfcKey = TestHex.bytes("c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721")

    @Test func rfc6979ExamplesWithSHA256() throws {
        let key = try P256.Signing.PrivateKey(rawRepresentation: Self.rfcKey)
        #expect(TestHex.string(key.publicKey.rawRepresentation)
                == "60fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6"
                + "7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299")
        let cases = [("sample", "efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716",
                      "f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8"),
                     ("test", "f1abb023518351cd71d881567b1ea663ed3efcf6c5132b354f28d3b0b7d38367",
                      "019f4113742a2b14bd25926b49c649155f267e60d3814b4c0cc84250e46f0083")]
        for (message, r, s) in cases {
            let signature = key.deterministicSignature(for: Array(message.utf8))
            #expect(TestHex.string(signature.rawRepresentation) == r + s, "\(message)")
            #expect(key.publicKey.isValidSignature(signature, for: Array(message.utf8)))
        }
        // The nonces themselves (RFC 6979 A.2.5, k for SHA-256).
        var drbg = Self.rfcKey.withUnsafeBytes { key in RFC6979<SHA256>(privateKey: key, digest: SHA256.hash(data: Array("sample".utf8)).bytes, additionalData: []) }
        #expect(TestHex.string(drbg.nextNonce().bigEndianBytes()) == "a6e3c57dd01abe90086538398355dd4c3b17aa873382b0f24d6129493d8aad60")
    }

    @Test func signThenVerifyOnRandomKeys() throws {
        var random = SeededRandomSource(seed: 6979)
        var messages = TestRandom("ecdsa messages")
        for _ in 0..<20 {
            let key = try P256.Signing.PrivateKey(using: &random)
            let message = messages.bytes(Int(messages.next() % 200))
            let hedged = try key.signature(for: message, randomness: &random)
            let again = try key.signature(for: message, randomness: &random)
            #expect(hedged != again)  // fresh randomness, different nonces
            #expect(key.publicKey.isValidSignature(hedged, for: message))
            #expect(key.publicKey.isValidSignature(again, for: message))
            #expect(key.deterministicSignature(for: message) == key.deterministicSignature(for: message))
            #expect(!key.publicKey.isValidSignature(hedged, for: message + [0]))
            let other = try P256.Signing.PrivateKey(using: &random)
            #expect(!other.publicKey.isValidSignature(hedged, for: message))
            let digest = SHA512.hash(data: message)
            #expect(key.publicKey.isValidSignature(key.deterministicSignature(for: digest), for: digest))
        }
        var system = try P256.Signing.PrivateKey()
        #expect(system.publicKey.isValidSignature(try system.signature(for: [1, 2, 3]), for: [1, 2, 3]))
        system = try P256.Signing.PrivateKey()
        _ = system
    }

    @Test func signaturesOutOfRangeAreInvalidNotFatal() throws {
        let key = try P256.Signing.PrivateKey(rawRepresentation: Self.rfcKey)
        let message = Array("sample".utf8)
        let good = key.deterministicSignature(for: message).rawRepresentation
        let n = TestHex.bytes("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
        let zero = [UInt8](repeating: 0, count: 32)
        for raw in [zero + Array(good[32...]), Array(good[..<32]) + zero, n + Array(good[32...]), Array(good[..<32]) + n,
                    [UInt8](repeating: 0xFF, count: 64)] {
            let signature = try P256.Signing.ECDSASignature(rawRepresentation: raw)
            #expect(!key.publicKey.isValidSignature(signature, for: message))
        }
        #expect(throws: CryptoError.invalidEncoding) { try P256.Signing.ECDSASignature(rawRepresentation: Array(good.dropLast())) }
    }

    @Test func derSignaturesAreStrict() throws {
        let key = try P256.Signing.PrivateKey(rawRepresentation: Self.rfcKey)
        let signature = key.deterministicSignature(for: Array("test".utf8))
        let der = signature.derRepresentation
        #expect(try P256.Signing.ECDSASignature(derRepresentation: der) == signature)
        // r = 019f… needs no leading zero; s = f7… in "sample" would. Both round-trip.
        let sample = key.deterministicSignature(for: Array("sample".utf8))
        #expect(try P256.Signing.ECDSASignature(derRepresentation: sample.derRepresentation) == sample)
        let malformed: [[UInt8]] = [
            der + [0],                                        // trailing byte
            Array(der.dropLast()),                            // truncated
            [0x30, 0x80] + Array(der.dropFirst(2)) + [0, 0],  // indefinite length (BER)
            [0x31] + Array(der.dropFirst()),                  // SET, not SEQUENCE
            [0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x81], // negative s
            [0x30, 0x07, 0x02, 0x02, 0x00, 0x01, 0x02, 0x01, 0x01], // non-minimal r
            [0x30, 0x03, 0x02, 0x01, 0x01],                   // s missing
            [0x30, 0x26, 0x02, 0x21] + [UInt8](repeating: 0x7F, count: 33) + [0x02, 0x01, 0x01],  // r longer than 32 bytes
        ]
        for bytes in malformed {
            #expect(throws: CryptoError.invalidEncoding, "\(TestHex.string(bytes))") { try P256.Signing.ECDSASignature(derRepresentation: bytes) }
        }
    }
}
