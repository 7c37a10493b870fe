// EMSA-PKCS1-v1_5 (RFC 8017 §9.2): the DigestInfo prefixes the encoding keeps per hash against
// the bytes RFC 8017 lists in §9.2 note 1, and the encoded message's layout.

import CryptoPrimitives
import CryptoCore
import Testing

struct RSASignaturePaddingTests {
    /// RFC 8017 §9.2 note 1, the DER of DigestInfo before H, as the RFC prints it.
    static let rfcPrefixes: [(HashAlgorithm, String)] = [
        (.insecureSHA1, "30 21 30 09 06 05 2b 0e 03 02 1a 05 00 04 14"),
        (.sha224, "30 2d 30 0d 06 09 60 86 48 01 65 03 04 02 04 05 00 04 1c"),
        (.sha256, "30 31 30 0d 06 09 60 86 48 01 65 03 04 02 01 05 00 04 20"),
        (.sha384, "30 41 30 0d 06 09 60 86 48 01 65 03 04 02 02 05 00 04 30"),
        (.sha512, "30 51 30 0d 06 09 60 86 48 01 65 03 04 02 03 05 00 04 40"),
    ]

    static func bytes(_ spaced: String) -> [UInt8] {
        spaced.split(separator: " ").compactMap { UInt8($0, radix: 16) }
    }

    @Test func digestInfoPrefixesAreTheRFCs() {
        for (hash, hex) in Self.rfcPrefixes {
            #expect(RSASignaturePadding.digestInfoPrefix(hash) == Self.bytes(hex), "\(hash)")
        }
        #expect(Self.rfcPrefixes.count == HashAlgorithm.allCases.count)
    }

    @Test func encodedMessageIsZeroOnePaddingZeroDigestInfo() throws {
        for (hash, hex) in Self.rfcPrefixes {
            let digest = hash.hash(Array("abc".utf8))
            let em = try RSASignaturePadding.pkcs1Encode(digest: digest, hash: hash, emLength: 256)
            let t = Self.bytes(hex) + digest
            #expect(em == [0x00, 0x01] + [UInt8](repeating: 0xFF, count: 256 - t.count - 3) + [0x00] + t, "\(hash)")
        }
        // emLen < tLen + 11: "intended encoded message length too short" (§9.2 step 3).
        let t = Self.bytes(Self.rfcPrefixes[4].1).count + 64
        #expect(throws: CryptoError.incorrectLength) {
            try RSASignaturePadding.pkcs1Encode(digest: [UInt8](repeating: 1, count: 64), hash: .sha512, emLength: t + 10)
        }
        #expect(try RSASignaturePadding.pkcs1Encode(digest: [UInt8](repeating: 1, count: 64), hash: .sha512, emLength: t + 11).count == t + 11)
    }

    /// A digest of another length is still encoded as its DigestInfo (the length octet follows it).
    @Test func aDigestOfAnotherLengthGetsItsOwnDigestInfo() throws {
        let digest = [UInt8](repeating: 0xAB, count: 20)
        let em = try RSASignaturePadding.pkcs1Encode(digest: digest, hash: .sha256, emLength: 128)
        let t = Self.bytes("30 25 30 0d 06 09 60 86 48 01 65 03 04 02 01 05 00 04 14") + digest
        #expect(em == [0x00, 0x01] + [UInt8](repeating: 0xFF, count: 128 - t.count - 3) + [0x00] + t)
    }
}
