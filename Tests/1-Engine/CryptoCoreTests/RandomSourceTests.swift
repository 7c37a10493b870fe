// The system source and the seeded ChaCha20 source.

import CryptoCore
import Testing
import TestSupport

@Suite struct RandomSourceTests {
    @Test func systemSourceFillsWholeBuffersWithFreshBytes() throws {
        var source = SystemRandomSource()
        let a = try source.bytes(count: 1000), b = try source.bytes(count: 1000)
        #expect(a.count == 1000 && a != b)
        #expect(Set(a).count > 200)  // 1000 uniform bytes hit far more than 200 values
        let secret = try source.secretBytes(count: 33)
        #expect(secret.count == 33)
        _ = try source.nextWord()
    }

    @Test func seededSourceIsTheChaCha20Keystream() throws {
        // Expected values: pyca/cryptography ChaCha20 with the same key, counter 0, nonce 0.
        var allZero = SeededRandomSource(seed: [UInt8](repeating: 0, count: 32))
        #expect(try allZero.bytes(count: 64) == TestHex.bytes(
            "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586"))
        var counting = SeededRandomSource(seed: (0..<32).map { UInt8($0) })
        let expected = TestHex.bytes(
            "39fd2b7dd9c5196a8dbd0377b8dc4a498a35d86fbcde6accb2cc7d4cd8ea24922b23cce7a26023ab3f0eef693ac87f64258235eab1f7a32dc22762a0485b410c"
            + "18b84231ade6a6d113615c61af434e27f8b1f3f5e1ad5b5cecf8fc122a35755c7208086dd1ee3c5d9d815824640e003c9ba0f65ede5d59ce0d2a4a7f31955acd42f2")
        // Taken in uneven pieces, the stream continues exactly across block boundaries.
        var pieces: [UInt8] = []
        for size in [1, 7, 56, 3, 63] { pieces += try counting.bytes(count: size) }
        #expect(pieces == Array(expected.prefix(130)))
        var word = SeededRandomSource(seed: UInt64(0x0123_4567_89AB_CDEF))
        #expect(try word.bytes(count: 8) == TestHex.bytes("81ff174f0ce9b04f"))
    }

    @Test func sameSeedSameStream() throws {
        var a = SeededRandomSource(seed: 42), b = SeededRandomSource(seed: 42), c = SeededRandomSource(seed: 43)
        let first = try a.bytes(count: 100)
        #expect(first == (try b.bytes(count: 100)))
        #expect(first != (try c.bytes(count: 100)))
    }
}
