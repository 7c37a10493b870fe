// SHA-1 and SHA-2: FIPS 180-4 example messages, streaming in every split, CAVP long messages.

import CryptoPrimitives
import Testing
import TestSupport
import VectorFormats

@Suite struct DigestTests {
    static let messages: [String: [UInt8]] = [
        "empty": [], "abc": Array("abc".utf8),
        "448": Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8),
        "896": Array("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu".utf8),
    ]

    /// Expected digests from Python's hashlib (FIPS 180-4 example messages).
    static let expected: [String: [String: String]] = [
        "SHA-1": ["empty": "da39a3ee5e6b4b0d3255bfef95601890afd80709", "abc": "a9993e364706816aba3e25717850c26c9cd0d89d",
                  "448": "84983e441c3bd26ebaae4aa1f95129e5e54670f1", "896": "a49b2446a02c645bf419f995b67091253a04a259"],
        "SHA-224": ["empty": "d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f",
                    "abc": "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7",
                    "448": "75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525",
                    "896": "c97ca9a559850ce97a04a96def6d99a9e0e0e2ab14e6b8df265fc0b3"],
        "SHA-256": ["empty": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                    "abc": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
                    "448": "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
                    "896": "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"],
        "SHA-384": ["empty": "38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da274edebfe76f65fbd51ad2f14898b95b",
                    "abc": "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7",
                    "448": "3391fdddfc8dc7393707a65b1b4709397cf8b1d162af05abfe8f450de5f36bc6b0455a8520bc4e6f5fe95b1fe3c8452b",
                    "896": "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712fcc7c71a557e2db966c3e9fa91746039"],
        "SHA-512": ["empty": "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e",
                    "abc": "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
                    "448": "204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c33596fd15c13b1b07f9aa1d3bea57789ca031ad85c7a71dd70354ec631238ca3445",
                    "896": "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909"],
    ]

    @Test(arguments: ["SHA-1", "SHA-224", "SHA-256", "SHA-384", "SHA-512"])
    func exampleMessages(_ name: String) throws {
        for (label, message) in Self.messages {
            let digest = try #require(Self.hash(name, message))
            #expect(TestHex.string(digest) == Self.expected[name]?[label], "\(name) \(label)")
        }
    }

    @Test func aMillionAs() {
        #expect(SHA256.hash(data: [UInt8](repeating: 0x61, count: 1_000_000)).description
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test(arguments: ["SHA-1", "SHA-224", "SHA-256", "SHA-384", "SHA-512"])
    func streamingWholeByteByByteAndRandomSplitsAgree(_ name: String) throws {
        var random = TestRandom("streaming \(name)")
        for length in [0, 1, 55, 56, 63, 64, 65, 111, 112, 127, 128, 129, 300, 1000] {
            let message = random.bytes(length)
            let oneShot = try #require(Self.hash(name, message))
            #expect(Self.streamed(name, message, splits: [1]) == oneShot, "byte by byte, length \(length)")
            var splits: [Int] = []
            var total = 0
            while total < length {
                let size = Int(random.next() % 70)
                splits.append(size)
                total += size
            }
            #expect(Self.streamed(name, message, splits: splits.isEmpty ? [1] : splits) == oneShot, "random splits, length \(length)")
        }
    }

    @Test(.enabled(if: SharedVectors.isAvailable, "needs ../shared/vectors"))
    func cavpLongMessagesStreamedInRandomSplits() throws {
        guard case .cavp(let file) = try VectorFile.load(path: SharedVectors.path("cavp/sha/SHA256LongMsg.rsp")) else {
            Issue.record("SHA256LongMsg.rsp not parsed as CAVP")
            return
        }
        var random = TestRandom("CAVP long messages")
        var checked = 0
        for block in file.blocks where block.has("Msg") {
            let message = Array(try block.bytes("Msg").prefix(try block.integer("Len") / 8))
            var hasher = SHA256()
            var offset = 0
            while offset < message.count {
                let end = min(message.count, offset + Int(random.next() % 200) + 1)
                hasher.update(data: message[offset..<end])
                offset = end
            }
            #expect(hasher.finalize().bytes == (try block.bytes("MD")))
            checked += 1
        }
        #expect(checked == 64)
    }

    @Test func finalizeLeavesTheStateUsable() {
        var hasher = SHA256()
        hasher.update(data: Array("ab".utf8))
        _ = hasher.finalize()
        hasher.update(data: Array("c".utf8))
        #expect(hasher.finalize() == SHA256.hash(data: Array("abc".utf8)))
        #expect(SHA256.hash(data: [1]) != SHA256.hash(data: [2]))
        #expect(SHA512.Digest.self == HashDigest<SHA512>.self)
        #expect(SHA384.hash(data: []).byteCount == 48)
    }

    static func hash(_ name: String, _ message: [UInt8]) -> [UInt8]? {
        switch name {
        case "SHA-1": Insecure.SHA1.hash(data: message).bytes
        case "SHA-224": SHA224.hash(data: message).bytes
        case "SHA-256": SHA256.hash(data: message).bytes
        case "SHA-384": SHA384.hash(data: message).bytes
        case "SHA-512": SHA512.hash(data: message).bytes
        default: nil
        }
    }

    static func streamed(_ name: String, _ message: [UInt8], splits: [Int]) -> [UInt8]? {
        func run<H: HashFunction>(_: H.Type) -> [UInt8] {
            var hasher = H()
            var offset = 0, index = 0
            while offset < message.count {
                let end = min(message.count, offset + splits[index % splits.count])
                hasher.update(data: message[offset..<end])
                offset = end
                index += 1
            }
            return hasher.finalize().bytes
        }
        switch name {
        case "SHA-1": return run(Insecure.SHA1.self)
        case "SHA-224": return run(SHA224.self)
        case "SHA-256": return run(SHA256.self)
        case "SHA-384": return run(SHA384.self)
        case "SHA-512": return run(SHA512.self)
        default: return nil
        }
    }
}
