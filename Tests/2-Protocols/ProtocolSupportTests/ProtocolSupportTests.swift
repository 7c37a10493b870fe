// The shared protocol helpers against hand-written expectations and Foundation's own parsers.

import CryptoPrimitives
import Foundation
import ProtocolSupport
import Testing
import ClientTestSupport
import TestSupport

@Suite struct ProtocolSupportTests {
    @Test func jsonTextIsCompactOrderedAndEscapesOnlyWhatItMust() throws {
        let value = JSONText.object([
            ("z", .string("a/b \"q\" \\ \n\t\u{1}é€")), ("a", .array([.integer(-5), .bool(true), .null, .object([])])),
        ])
        #expect(value.text == #"{"z":"a/b \"q\" \\ \n\t\u0001é€","a":[-5,true,null,{}]}"#)
        // Foundation reads back the same values.
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(value.bytes)) as? [String: Any])
        #expect(parsed["z"] as? String == "a/b \"q\" \\ \n\t\u{1}é€")
        #expect(JSONText.integer(Int64.min).text == "-9223372036854775808")
    }

    @Test func jsonTextWritesASecretLikeTheStringItWouldBe() throws {
        let value = JSONText.object([("puk", .secret(SecretBytes("0123456789".utf8))), ("odd", .secret(SecretBytes("a\"\\\n\u{1}é".utf8)))])
        #expect(value.text == #"{"puk":"0123456789","odd":"a\"\\\n\u0001é"}"#)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(value.bytes)) as? [String: Any])
        #expect(parsed["puk"] as? String == "0123456789" && parsed["odd"] as? String == "a\"\\\n\u{1}é")
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(value) }
    }

    @Test func percentCodingKeepsPlusAndRejectsBrokenEscapes() {
        #expect(URLText.percentEncoded("a+b/c=d é~") == "a%2Bb%2Fc%3Dd%20%C3%A9~")
        #expect(URLText.percentDecoded("a+b%2F%3d%C3%A9") == "a+b/=é")
        for bad in ["%", "%4", "%G0", "%C3"] { #expect(URLText.percentDecoded(bad) == nil) }
        let split = URLText.split("authenticator://x/y?a=1&b=&c&d=%2B+#frag")
        #expect(split?.base == "authenticator://x/y")
        #expect(split?.query == [HTTPHeader("a", "1"), HTTPHeader("b", ""), HTTPHeader("c", ""), HTTPHeader("d", "++")])
        #expect(URLText.components(of: "https://Host.example:8443/a//b/?q")?.path == ["a", "b"])
        #expect(URLText.components(of: "https:///path") == nil)
        #expect(URLText.components(of: "no scheme") == nil)
    }

    /// A secret field never shows its value as text; on the wire every byte of a secret query
    /// value is a `%XX` triple, unreserved ones included (RFC 3986 §2.1: an encoded octet is the octet).
    @Test func secretFieldsAreRedactedAndPercentEncodedWhole() {
        let token = HTTPHeader("Access-Token", secret: SecretBytes("tok-9".utf8))
        #expect(token.value == HTTPHeader.redactedValue && token.secret == SecretBytes("tok-9".utf8))
        #expect(!"\(token)".contains("tok-9") && !String(reflecting: token).contains("tok-9"))
        #expect(token.withValueBytes { Array($0) } == Array("tok-9".utf8))
        #expect(token != HTTPHeader("Access-Token", secret: SecretBytes("tok-8".utf8)) && token != HTTPHeader("Access-Token", "tok-9"))

        let request = HTTPRequest(method: .get, path: "s/7b", query: [HTTPHeader("a b", "1/2"), HTTPHeader("regOTT", secret: SecretBytes("A+~\u{0}".utf8))],
                                  headers: [token])
        #expect(request.url(relativeTo: "https://h.example") == "https://h.example/s/7b?a%20b=1%2F2&regOTT=REDACTED")
        #expect(request.header("access-token") == "REDACTED" && request.secretHeader("access-token") == SecretBytes("tok-9".utf8))
        var query: [UInt8] = []
        request.appendQuery(to: &query)
        #expect(String(decoding: query, as: UTF8.self) == "a%20b=1%2F2&regOTT=%41%2B%7E%00")
        #expect(query.count <= request.queryCapacity)
        var all: [UInt8] = []
        URLText.appendPercentEncodedSecret(UnsafeRawBufferPointer(start: nil, count: 0), to: &all)
        Array(0...255 as ClosedRange<UInt8>).withUnsafeBytes { URLText.appendPercentEncodedSecret($0, to: &all) }
        let digits = Array("0123456789ABCDEF")
        let expected: [String] = (0..<256).map { (byte: Int) -> String in "%" + String(digits[byte >> 4]) + String(digits[byte & 15]) }
        #expect(String(decoding: all, as: UTF8.self) == expected.joined())
    }

    @Test func requestURLsKeepTheBasePrefix() {
        let request = HTTPRequest(method: .get, path: "api/x", query: [HTTPHeader("action id", "1/2")])
        #expect(request.url(relativeTo: "https://h.example/prefix/") == "https://h.example/prefix/api/x?action%20id=1%2F2")
        #expect(request.url(relativeTo: "https://h.example") == "https://h.example/api/x?action%20id=1%2F2")
    }

    @Test func timestampsInEveryServerLayout() {
        // 2021-03-11T10:00:00Z is 1615456800 (date -u -d @1615456800).
        for text in ["2021-03-11T10:00:00Z", "2021-03-11T11:00:00+01:00", "2021-03-11T11:00:00+0100", "2021-03-11T08:30:00-01:30",
                     "2021-03-11 10:00:00Z", "2021-03-11T11:00:00+01"] {
            #expect(Timestamp.parseISO8601(text) == Date(timeIntervalSince1970: 1_615_456_800), "\(text)")
        }
        #expect(Timestamp.parseISO8601("2020-02-29T00:00:00.250Z") == Date(timeIntervalSince1970: 1_582_934_400.25))
        #expect(Timestamp.parseISO8601("1969-12-31T23:59:59Z") == Date(timeIntervalSince1970: -1))
        for bad in ["", "2021-03-11", "2021-02-29T00:00:00Z", "2021-13-01T00:00:00Z", "2021-03-11T24:00:00Z", "2021-03-11T10:00:00",
                    "2021-03-11T10:00:00+1", "2021-03-11T10:00:00.Z", "2021-03-11T10:00:00Zjunk", "２０２１-03-11T10:00:00Z"] {
            #expect(Timestamp.parseISO8601(bad) == nil, "\(bad)")
        }
    }

    @Test func errorsCompareByCode() {
        #expect(ProtocolError(.expired, "a") == ProtocolError(.expired, "b"))
        #expect(ProtocolError(.expired, "a") != ProtocolError(.malformedInput, "a"))
        #expect(ProtocolError.decryptionFailure().message == "decryption failed")
        // The text a user reads has no Swift source location; the place stays in the error.
        let error = ProtocolError(.expired, "late")
        #expect("\(error)" == "expired: late")
        #expect(error.file.hasPrefix("ProtocolSupportTests/") && error.line > 0)
    }
}

/// Engine errors become protocol errors with their cause kept (docs/design.md §2, habits 9 and 17).
@Suite struct ProtocolErrorConversionTests {
    @Test func theCauseIsKeptAndTheCodeFollowsIt() {
        let decryption = ProtocolError(CryptoError.authenticationFailure, "some context")
        #expect(decryption.code == .decryptionFailed && decryption.message == "decryption failed")
        #expect(decryption.cryptoError == .authenticationFailure)
        #expect(ProtocolError(CryptoError.randomSourceFailure, "nonce").code == .cryptoFailure)
        #expect(ProtocolError(CryptoError.invalidEncoding, "field").code == .malformedInput)
        #expect(ProtocolError(CryptoError.invalidKey, "key").cryptoError == .invalidKey)
        #expect(ProtocolError(CryptoError.invalidParameter, "count").code == .invalidArgument)
    }

    @Test func convertingRethrowsAsAProtocolError() {
        struct Failing: RandomSource {
            mutating func fill(_ buffer: UnsafeMutableRawBufferPointer) throws(CryptoError) { throw .randomSourceFailure }
        }
        var random = Failing()
        let error = expectError(code: .cryptoFailure, "a failing random source gave bytes") {
            try ProtocolError.converting("nonce") { () throws(CryptoError) in try random.bytes(count: 16) }
        }
        #expect(error?.cryptoError == .randomSourceFailure)
        #expect((try? ProtocolError.converting("ok") { () throws(CryptoError) in 42 }) == 42)
    }
}
