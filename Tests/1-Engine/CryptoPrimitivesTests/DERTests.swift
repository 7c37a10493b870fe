// The strict DER reader, the writer, object identifiers and PEM armour.

import CryptoPrimitives
import Foundation
import Testing
import TestSupport

@Suite struct DERTests {
    @Test func readsAndWritesNestedStructures() throws {
        var writer = DER.Writer()
        writer.sequence { outer in
            outer.integer(0)
            outer.sequence { inner in
                inner.objectIdentifier(.ecPublicKey)
                inner.null()
            }
            outer.octetString([1, 2, 3])
            outer.bitString([0xAB])
            outer.constructed(tag: DER.Tag.context(0, constructed: true)) { $0.unsignedInteger([0x80]) }
        }
        // Encoded by hand from X.690 §8.1–§8.19.
        #expect(TestHex.string(writer.bytes) == "301f" + "020100" + "300b" + "06072a8648ce3d0201" + "0500"
                + "0403010203" + "030200ab" + "a004" + "02020080")
        var reader = DER.Reader(writer.bytes)
        var outer = try reader.readSequence()
        try reader.finish()
        #expect(try outer.readSmallInteger() == 0)
        var inner = try outer.readSequence()
        #expect(try inner.readObjectIdentifier() == .ecPublicKey)
        try inner.readNull()
        try inner.finish()
        #expect(try outer.readOctetString() == [1, 2, 3])
        #expect(try outer.readBitString() == [0xAB])
        var context = try outer.readConstructed(tag: DER.Tag.context(0, constructed: true))
        #expect(try context.readUnsignedInteger() == [0x80])
        try outer.finish()
    }

    @Test func objectIdentifiersEncodeAsX690Says() throws {
        #expect(TestHex.string(DER.ObjectIdentifier.ecPublicKey.derContent) == "2a8648ce3d0201")
        #expect(TestHex.string(DER.ObjectIdentifier.secp256r1.derContent) == "2a8648ce3d030107")
        #expect(TestHex.string(DER.ObjectIdentifier.sha256.derContent) == "608648016503040201")
        #expect(try DER.ObjectIdentifier(derContent: TestHex.bytes("2a864886f70d010101")) == .rsaEncryption)
        #expect(DER.ObjectIdentifier.rsaEncryption.description == "1.2.840.113549.1.1.1")
        for bad in ["", "2a86", "2a8048", "2a86488686868686868686860d"] {
            #expect(throws: CryptoError.invalidEncoding, "\(bad)") { try DER.ObjectIdentifier(derContent: TestHex.bytes(bad)) }
        }
    }

    @Test func rejectsBERAndMalformedInput() {
        let malformed = [
            "30",                 // truncated header
            "3004020101",         // length beyond the data
            "3080020100 0000",    // indefinite length (BER)
            "308103020101",       // long form for a short length
            "30820003020101",     // non-minimal long form
            "3085000000000302",   // too many length bytes
            "1f0100",             // high tag number
        ]
        for hex in malformed {
            var reader = DER.Reader(TestHex.bytes(hex))
            #expect(throws: CryptoError.invalidEncoding, "\(hex)") { _ = try reader.readSequence() }
        }
        let integers = ["020100ff", "0200", "0201ff", "02020001", "0202ff80"]  // the first with a trailing byte
        for hex in integers {
            #expect(throws: CryptoError.invalidEncoding, "\(hex)") {
                var reader = DER.Reader(TestHex.bytes(hex))
                _ = try reader.readUnsignedInteger()
                try reader.finish()
            }
        }
        var reader = DER.Reader(TestHex.bytes("03020101"))  // bit string with unused bits
        #expect(throws: CryptoError.invalidEncoding) { _ = try reader.readBitString() }
        var null = DER.Reader(TestHex.bytes("050101"))
        #expect(throws: CryptoError.invalidEncoding) { try null.readNull() }
        var wrongTag = DER.Reader(TestHex.bytes("0401ff"))
        #expect(throws: CryptoError.invalidEncoding) { _ = try wrongTag.readUnsignedInteger() }
    }

    @Test func integersUseMinimalEncodings() throws {
        for (magnitude, hex) in [([UInt8](), "020100"), ([0x7F], "02017f"), ([0x80], "02020080"), ([0, 0, 1], "020101")] {
            var writer = DER.Writer()
            writer.unsignedInteger(magnitude)
            #expect(TestHex.string(writer.bytes) == hex)
            var reader = DER.Reader(writer.bytes)
            #expect(try reader.readUnsignedInteger() == Array(magnitude.drop { $0 == 0 }))
        }
        var long = DER.Writer()
        long.octetString([UInt8](repeating: 7, count: 300))
        #expect(Array(long.bytes.prefix(4)) == [0x04, 0x82, 0x01, 0x2C])
        var reader = DER.Reader(long.bytes)
        #expect(try reader.readOctetString().count == 300)
    }

    @Test func pemUses64CharacterLinesAndDecodesStrictly() throws {
        let der = Array(0..<100).map { UInt8($0) }
        let pem = PEM.encode(label: "PUBLIC KEY", der: der)
        let lines = pem.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "-----BEGIN PUBLIC KEY-----")
        #expect(lines.map(\.count) == [26, 64, 64, 8, 24, 0])  // 100 bytes are 136 Base64 characters
        #expect(pem.hasSuffix("-----END PUBLIC KEY-----\n"))
        #expect(try PEM.decode(pem, label: "PUBLIC KEY") == der)
        #expect(try PEM.decode(pem.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n")).der == der)
        let bad = [
            pem.replacingFirst("END PUBLIC", with: "END PRIVATE"),
            pem + "junk\n",
            String(pem.dropFirst(5)),
            pem.replacingFirst("-----END", with: "!!\n-----END"),
            "-----BEGIN X-----\n" + String(repeating: "A", count: 68) + "\n-----END X-----\n",
        ]
        for text in bad {
            #expect(throws: CryptoError.invalidEncoding) { _ = try PEM.decode(text) }
        }
        #expect(throws: CryptoError.invalidEncoding) { _ = try PEM.decode(pem, label: "PRIVATE KEY") }
    }
}

extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
