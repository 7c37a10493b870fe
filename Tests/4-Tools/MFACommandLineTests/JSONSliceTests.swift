// The allocation-free scan `mfa powerauth call` prints large answers through: every document of
// the table is judged by RFC 8259's grammar, and Foundation's JSONSerialization (an independent
// parser) must agree on which are JSON; the printed range is the `responseObject` member's.

import Foundation
import mfa
import Testing

@Suite struct JSONSliceTests {
    static let valid = [
        #"{"status":"OK","responseObject":{"a":[1,-0,2.5e-3,true,false,null]}}"#, #"  [ ]  "#, #""x""#, "-0", "1E+2", "0.5",
        #"{"responseObject":"\u00e9\n\"\\\/"}"#, "{\"k\":\"\u{E9}\u{1F600}\"}", #"{"a":{"b":{"c":[[[]]]}}}"#, "\t\r\n{}\n",
    ]
    static let malformed = [
        "", " ", "{", "}", #"{"a" 1}"#, "01", "1.", ".5", "-", "1e", "+1", "tru", "nul", "True", #""abc"#,
        "\"tab\there\"", #""\x""#, #""\u12G4""#, "{} {}", "[1] x", "{'a':1}", "\u{0}",
    ]
    /// Not JSON by RFC 8259's grammar, though Foundation's parser forgives them.
    static let trailingCommas = ["[1,]", #"{"a":1,}"#]
    static let malformedBytes: [[UInt8]] = [
        [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0xE2, 0x82, 0x22],
        [0x22, 0xFF, 0x22], [0x22, 0x80, 0x22],
    ]

    static func foundationAccepts(_ bytes: [UInt8]) -> Bool {
        (try? JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)) != nil
    }

    @Test(arguments: valid) func validDocumentsScan(_ text: String) throws {
        #expect(Self.foundationAccepts(Array(text.utf8)), "the table's own claim")
        #expect(throws: Never.self) { try JSONSlice.responseObject(in: Array(text.utf8)) }
    }

    @Test(arguments: malformed.map { Array($0.utf8) } + malformedBytes) func malformedDocumentsAreRefused(_ bytes: [UInt8]) {
        #expect(!Self.foundationAccepts(bytes), "the table's own claim")
        #expect(throws: JSONSlice.Malformed.self) { try JSONSlice.responseObject(in: bytes) }
    }

    @Test(arguments: trailingCommas) func trailingCommasAreRefused(_ text: String) {
        #expect(throws: JSONSlice.Malformed.self) { try JSONSlice.responseObject(in: Array(text.utf8)) }
    }

    @Test func theRangeIsTheResponseObjectMemberOrTheWholeDocument() throws {
        let envelope = Array(#" {"status":"OK", "responseObject" : {"x":"}"} , "n":1} "#.utf8)
        #expect(String(decoding: envelope[try JSONSlice.responseObject(in: envelope)], as: UTF8.self) == #"{"x":"}"}"#)
        let nested = Array(#"{"a":{"responseObject":1},"b":2}"#.utf8)
        #expect(String(decoding: nested[try JSONSlice.responseObject(in: nested)], as: UTF8.self) == #"{"a":{"responseObject":1},"b":2}"#)
        let plain = Array(" [1, 2] ".utf8)
        #expect(String(decoding: plain[try JSONSlice.responseObject(in: plain)], as: UTF8.self) == "[1, 2]")
    }

    @Test func nestingIsBoundedAt512() throws {
        let within = Array((String(repeating: "[", count: 512) + String(repeating: "]", count: 512)).utf8)
        #expect(throws: Never.self) { try JSONSlice.responseObject(in: within) }
        let deeper = Array((String(repeating: "[", count: 513) + String(repeating: "]", count: 513)).utf8)
        #expect(throws: JSONSlice.Malformed.self) { try JSONSlice.responseObject(in: deeper) }
        let hostile = Array(String(repeating: "[", count: 1 << 20).utf8)
        #expect(throws: JSONSlice.Malformed.self) { try JSONSlice.responseObject(in: hostile) }
    }
}
