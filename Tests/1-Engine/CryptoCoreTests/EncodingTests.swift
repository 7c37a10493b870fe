// Hex, Base64, Base32 and CRC-16 against RFC 4648 §10 and the CRC catalogue, plus malformed input.

import CryptoCore
import Testing
import TestSupport

@Suite struct EncodingTests {
    /// RFC 4648 §10: "", "f", "fo", "foo", "foob", "fooba", "foobar".
    static let rfcInputs = ["", "f", "fo", "foo", "foob", "fooba", "foobar"]

    @Test func base64MatchesRFC4648() throws {
        let expected = ["", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"]
        for (input, output) in zip(Self.rfcInputs, expected) {
            #expect(Base64.encode(Array(input.utf8)) == output)
            #expect(Base64.encode(secret: SecretBytes(input.utf8)) == SecretBytes(output.utf8))
            #expect(try Base64.decode(output) == Array(input.utf8))
            let unpadded = output.filter { $0 != "=" }
            #expect(Base64.encode(Array(input.utf8), padded: false) == unpadded)
            #expect(try Base64.decode(unpadded, padded: false) == Array(input.utf8))
            #expect(try Base64.decodeLenient(unpadded) == Array(input.utf8))
        }
    }

    @Test func base64AlphabetsAndRoundTrips() throws {
        let bytes: [UInt8] = [0xFB, 0xFF, 0xBF, 0xFE]
        #expect(Base64.encode(bytes) == "+/+//g==")
        #expect(Base64.encode(bytes, alphabet: .urlSafe, padded: false) == "-_-__g")
        #expect(try Base64.decode("-_-__g", alphabet: .urlSafe, padded: false) == bytes)
        #expect(try Base64.decodeLenient("-_-__g==") == bytes)
        var random = TestRandom("base64 round trips")
        for length in 0..<70 {
            let data = random.bytes(length)
            for alphabet in [Base64.Alphabet.standard, .urlSafe] {
                for padded in [true, false] {
                    #expect(try Base64.decode(Base64.encode(data, alphabet: alphabet, padded: padded), alphabet: alphabet, padded: padded) == data)
                }
            }
        }
    }

    @Test func lenientBase64SkipsLineBreaksAsSaltEdgeSendsThem() throws {
        var random = TestRandom("base64 wrapped")
        let data = random.bytes(200)
        let text = Base64.encode(data)
        // Salt Edge wraps every 60 characters with "\n"; others use CRLF or spaces.
        var wrapped = ""
        for (i, c) in text.enumerated() {
            if i > 0 && i % 60 == 0 { wrapped += "\n" }
            wrapped.append(c)
        }
        #expect(try Base64.decodeLenient(wrapped + "\n") == data)
        #expect(try Base64.decodeLenient(wrapped.replacingOccurrencesOfNewline(with: "\r\n")) == data)
        #expect(try Base64.decodeLenient(" " + text + " \t") == data)
        #expect(throws: CryptoError.invalidEncoding) { try Base64.decode(wrapped) }  // strict refuses
    }

    @Test func malformedBase64IsATypedError() throws {
        let bad = ["Zg=", "Zg===", "Z", "Zm9v!", "Zm9vYg=x", "=Zm9", "Zh==", "Zm9=Yg==", "Zm9vYg", "+/-_", "Zm 9v", "Zm9v\u{0}"]
        for text in bad {
            #expect(throws: CryptoError.invalidEncoding, "\(text)") { try Base64.decode(text) }
        }
        #expect(throws: CryptoError.invalidEncoding) { try Base64.decode("Zm9vYg==", padded: false) }
        #expect(throws: CryptoError.invalidEncoding) { try Base64.decodeLenient("Zm9v+Y-_") }  // mixed alphabets
        #expect(throws: CryptoError.invalidEncoding) { try Base64.decodeLenient("Zm9vY") }    // 1 mod 4
        #expect(throws: CryptoError.invalidEncoding) { try Base64.decodeLenient("Zm9v*Yg") }
        #expect(try Base64.decodeLenient("Zh") == [0x66])  // non-canonical trailing bits tolerated
        // canonical: false tolerates only the trailing bits; padding and alphabet stay strict.
        #expect(try Base64.decode("Zh==", canonical: false) == [0x66])
        #expect(try Base64.decode("ABC=", canonical: false) == [0x00, 0x10])
        for text in ["Zh=", "Zh", "AB", "ABA-=", "Zm 9v"] {
            #expect(throws: CryptoError.invalidEncoding, "\(text)") { try Base64.decode(text, canonical: false) }
        }
    }

    @Test func base32MatchesRFC4648WithoutPadding() throws {
        let expected = ["", "MY", "MZXQ", "MZXW6", "MZXW6YQ", "MZXW6YTB", "MZXW6YTBOI"]
        for (input, output) in zip(Self.rfcInputs, expected) {
            #expect(Base32.encode(Array(input.utf8)) == output)
            #expect(try Base32.decode(output) == Array(input.utf8))
        }
        var random = TestRandom("base32 round trips")
        for length in 0..<40 {
            let data = random.bytes(length)
            #expect(try Base32.decode(Base32.encode(data)) == data)
        }
        for text in ["M", "MZX", "MZXW6Y", "MY======", "my", "MZ0", "MZ1Q", "MZ", "M8"] {
            #expect(throws: CryptoError.invalidEncoding, "\(text)") { try Base32.decode(text) }
        }
    }

    @Test func hexRoundTripsAndRejectsMalformed() throws {
        #expect(Hex.encode([0x00, 0x0F, 0xA5, 0xFF]) == "000fa5ff")
        #expect(try Hex.decode("000fA5Ff") == [0x00, 0x0F, 0xA5, 0xFF])
        #expect(try Hex.decode("") == [])
        for text in ["0", "0g", "zz", "0x00", " 00", "00 "] {
            #expect(throws: CryptoError.invalidEncoding, "\(text)") { try Hex.decode(text) }
        }
        var random = TestRandom("hex round trips")
        let data = random.bytes(300)
        #expect(try Hex.decode(Hex.encode(data)) == data)
        #expect(Hex.encode(data) == TestHex.string(data))
    }

    @Test func hexSecretDecoderReadsAndRefusesWhatTheTextOneDoes() throws {
        #expect(try Hex.decode(secret: SecretBytes("000fA5Ff".utf8)).unsafeExposedBytes == [0x00, 0x0F, 0xA5, 0xFF])
        #expect(try Hex.decode(secret: SecretBytes([UInt8]())).count == 0)
        for text in ["0", "0g", "zz", "0x00", " 00", "00 ", "0\u{0}", "ａ0"] {
            #expect(throws: CryptoError.invalidEncoding, "\(text)") { try Hex.decode(secret: SecretBytes(text.utf8)) }
        }
        var random = TestRandom("hex secret decoder")
        let data = random.bytes(65)
        #expect(try Hex.decode(secret: SecretBytes(TestHex.string(data).uppercased().utf8)).unsafeExposedBytes == data)
    }

    @Test func crc16ARCCheckValue() {
        #expect(CRC16.arc(Array("123456789".utf8)) == 0xBB3D)  // CRC catalogue check value
        #expect(CRC16.arc([]) == 0)
    }
}

extension String {
    func replacingOccurrencesOfNewline(with replacement: String) -> String {
        split(separator: "\n", omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
