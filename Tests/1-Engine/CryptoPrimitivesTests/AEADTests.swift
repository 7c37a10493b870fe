// AES-GCM and ChaCha20-Poly1305: published answers (the GCM specification's test cases, RFC 8439
// §2.3.2 and §2.5.2), GHASH against a bit-by-bit multiplication in GF(2¹²⁸), GCM's counter
// stream against AES-CTR, and refusals. Every file of both suites runs in RunnerTests.

import CryptoPrimitives
import Testing
import TestSupport

@Suite struct AEADTests {
    /// McGrew and Viega, "The Galois/Counter Mode of Operation", test cases 1 and 2.
    @Test func gcmSpecificationTestCases() throws {
        let key = SymmetricKey(data: [UInt8](repeating: 0, count: 16)), nonce = try AES.GCM.Nonce(data: [UInt8](repeating: 0, count: 12))
        let empty = try AES.GCM.seal([UInt8](), using: key, nonce: nonce)
        #expect(empty.ciphertext.isEmpty && TestHex.string(empty.tag) == "58e2fccefa7e3061367f1d57a4e7455a")
        let block = try AES.GCM.seal([UInt8](repeating: 0, count: 16), using: key, nonce: nonce)
        #expect(TestHex.string(block.ciphertext) == "0388dace60b6a392f328c2b971b2fe78")
        #expect(TestHex.string(block.tag) == "ab6e47d42cec13bdf53a67b21257bddf")
        #expect(try AES.GCM.open(block, using: key) == [UInt8](repeating: 0, count: 16))
    }

    /// (x ⊕ y)·H one bit at a time (SP 800-38D §6.3, Algorithm 1), the reference for the
    /// multiplication-based GHASH.
    static func slowMultiply(_ x: [UInt8], _ h: [UInt8]) -> [UInt8] {
        var z = [UInt8](repeating: 0, count: 16), v = h
        for i in 0..<128 {
            if x[i / 8] & (0x80 >> UInt8(i % 8)) != 0 { for j in 0..<16 { z[j] ^= v[j] } }
            let lsb = v[15] & 1
            for j in stride(from: 15, to: 0, by: -1) { v[j] = (v[j] >> 1) | (v[j - 1] << 7) }
            v[0] >>= 1
            if lsb == 1 { v[0] ^= 0xE1 }
        }
        return z
    }

    @Test func ghashMatchesTheBitwiseDefinition() {
        var random = TestRandom("ghash")
        for round in 0..<300 {
            var h = random.bytes(16), y = random.bytes(16), block = random.bytes(16)
            if round == 0 { h = [UInt8](repeating: 0xFF, count: 16); y = h; block = [UInt8](repeating: 0, count: 16) }
            if round == 1 { h = [0x80] + [UInt8](repeating: 0, count: 15) }  // H = 1: the identity
            let key = GHASHKey(high: Self.word(h, 0), low: Self.word(h, 8))
            var state = (high: Self.word(y, 0), low: Self.word(y, 8))
            key.multiplyAccumulate(&state, Self.word(block, 0), Self.word(block, 8))
            let expected = Self.slowMultiply(zip(y, block).map { $0 ^ $1 }, h)
            #expect(Self.bytes(state.high) + Self.bytes(state.low) == expected, "round \(round)")
        }
    }

    /// With a 96-bit nonce, GCM's ciphertext is AES-CTR from IV ‖ 00000002 (SP 800-38D §7.1):
    /// lengths that cross the 4 KiB first-round cache and TLS's 16 KiB records.
    @Test func gcmEncryptionIsCounterModeFromTheSecondBlock() throws {
        var random = TestRandom("gcm-ctr")
        for length in [0, 1, 15, 16, 17, 127, 128, 129, 4095, 4096, 4097, 16384, 20000] {
            for keyLength in [16, 32] {
                let key = SymmetricKey(data: random.bytes(keyLength)), nonce = random.bytes(12), message = random.bytes(length)
                let box = try AES.GCM.seal(message, using: key, nonce: AES.GCM.Nonce(data: nonce), authenticating: random.bytes(7))
                #expect(box.ciphertext == (try AES.UnauthenticatedCTR.encrypt(message, using: key, counterBlock: nonce + [0, 0, 0, 2])),
                        "\(length) bytes, \(8 * keyLength)-bit key")
            }
        }
    }

    @Test func forgeriesAndBadInputsAreRefused() throws {
        let key = SymmetricKey(data: [UInt8](repeating: 7, count: 32))
        let box = try AES.GCM.seal(Array("attack at dawn".utf8), using: key, authenticating: [1, 2, 3])
        for index in 0..<box.tag.count {
            var tag = box.tag
            tag[index] ^= 0x01
            #expect(throws: CryptoError.authenticationFailure) {
                try AES.GCM.open(AES.GCM.SealedBox(nonce: box.nonce, ciphertext: box.ciphertext, tag: tag), using: key, authenticating: [1, 2, 3])
            }
        }
        #expect(throws: CryptoError.authenticationFailure) { try AES.GCM.open(box, using: key, authenticating: [1, 2]) }
        #expect(throws: CryptoError.incorrectLength) { try AES.GCM.Nonce(data: [UInt8]()) }
        #expect(throws: CryptoError.incorrectLength) { try AES.GCM.SealedBox(nonce: box.nonce, ciphertext: [], tag: [1, 2]) }
        #expect(throws: CryptoError.incorrectLength) { try ChaChaPoly.Nonce(data: [UInt8](repeating: 0, count: 8)) }
        #expect(throws: CryptoError.incorrectLength) { try ChaChaPoly.seal([1], using: SymmetricKey(data: [1, 2, 3]), authenticating: [UInt8]()) }
        #expect(try AES.GCM.SealedBox(combined: box.combined ?? []) == box)
    }

    /// RFC 8439 §2.3.2: the block for key 00…1f, nonce 00000009 0000004a 00000000, counter 1.
    @Test func chacha20BlockFunction() {
        let key = (0..<32).map { UInt8($0) }, nonce = TestHex.bytes("000000090000004a00000000")
        var block = [UInt8](repeating: 0, count: 64)
        key.withUnsafeBytes { k in nonce.withUnsafeBytes { n in block.withUnsafeMutableBytes { ChaCha20(key: k, nonce: n).block(counter: 1, into: $0) } } }
        #expect(TestHex.string(block) == "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
                + "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e")
    }

    /// RFC 8439 §2.5.2, fed whole and in every two-piece split.
    @Test func poly1305Example() {
        let key = TestHex.bytes("85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b")
        let message = Array("Cryptographic Forum Research Group".utf8)
        for split in 0...message.count {
            var tag = [UInt8](repeating: 0, count: 16)
            key.withUnsafeBytes { k in
                var mac = Poly1305(key: k)
                message[..<split].withUnsafeBytes { mac.update($0) }
                message[split...].withUnsafeBytes { mac.update($0) }
                tag.withUnsafeMutableBytes { if let base = $0.baseAddress { mac.finalize(into: base) } }
            }
            #expect(TestHex.string(tag) == "a8061dc1305136c6c22b8baf0c0127a9", "split at \(split)")
        }
    }

    static func word(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
        bytes[offset..<(offset + 8)].reduce(0) { ($0 << 8) | UInt64($1) }
    }

    static func bytes(_ word: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: word >> (56 - 8 * $0)) } }
}
