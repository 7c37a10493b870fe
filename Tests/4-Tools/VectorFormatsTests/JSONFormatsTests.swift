// Wycheproof, our own schema and file recognition.

import Foundation
import Testing
import VectorFormats

@Suite struct JSONFormatsTests {
    static let wycheproof = """
        {"algorithm":"HMACSHA256","schema":"mac_test_schema_v1.json","numberOfTests":2,
         "notes":{"Pseudorandom":{}},
         "testGroups":[{"type":"MacTest","keySize":256,"tagSize":128,"tests":[
           {"tcId":1,"comment":"c","flags":["Pseudorandom"],"key":"00","msg":"","tag":"ab","result":"valid"},
           {"tcId":2,"comment":"","flags":[],"key":"00","msg":"","tag":"ab","result":"acceptable"}]}]}
        """

    @Test func wycheproofFilesParse() throws {
        let json = try JSONValue.parse(Data(Self.wycheproof.utf8))
        let file = try #require(try WycheproofFile(json))
        #expect(file.algorithm == "HMACSHA256" && file.numberOfTests == 2 && file.notedFlags == ["Pseudorandom"])
        #expect(file.groups[0].fields["tagSize"]?.int == 128)
        #expect(file.groups[0].tests.map(\.result) == [.valid, .acceptable])
        #expect(try file.groups[0].tests[0].bytes("tag") == [0xAB])
        #expect(try WycheproofFile(.object([:])) == nil)
        #expect(throws: VectorFormatError.self) {
            _ = try WycheproofFile(JSONValue.parse(Data(#"{"algorithm":"x","schema":"y","testGroups":[{"tests":[{"tcId":1}]}]}"#.utf8)))
        }
    }

    @Test func ownSchemaWithRepeatPatterns() throws {
        let text = #"{"schema":"swiftmfa-vectors-v1","algorithm":"SHA-256","reference":"r","cases":[{"id":1,"result":"valid","inputs":{"msg":{"repeat":"6162","count":3},"n":5},"outputs":{"digest":"00"}},{"id":2,"result":"invalid","inputs":{},"outputs":{}}]}"#
        let file = try #require(try OwnVectorFile(JSONValue.parse(Data(text.utf8))))
        #expect(file.cases.count == 2 && file.cases[0].isValid && !file.cases[1].isValid)
        #expect(try file.cases[0].input("msg") == [0x61, 0x62, 0x61, 0x62, 0x61, 0x62])
        #expect(try file.cases[0].integer("n") == 5)
        #expect(throws: VectorFormatError.missingField("msg")) { try file.cases[1].input("msg") }
        let bad = #"{"schema":"swiftmfa-vectors-v1","algorithm":"A","cases":[{"id":1,"result":"maybe"}]}"#
        #expect(throws: VectorFormatError.self) { _ = try OwnVectorFile(JSONValue.parse(Data(bad.utf8))) }
    }

    @Test func recognitionByContent() throws {
        guard case .wycheproof = try VectorFile.parse(Data(Self.wycheproof.utf8), path: "x.json") else {
            Issue.record("Wycheproof not recognised")
            return
        }
        guard case .json = try VectorFile.parse(Data(#"{"description":"d","data":[]}"#.utf8), path: "p.json") else {
            Issue.record("plain JSON not kept")
            return
        }
        guard case .unrecognized = try VectorFile.parse(Data("just words".utf8), path: "notes.txt") else {
            Issue.record("prose recognised")
            return
        }
        guard case .unrecognized = try VectorFile.parse(Data("a = b".utf8), path: "key.bin") else {
            Issue.record("unknown extension recognised")
            return
        }
        guard case .pem(let text) = try VectorFile.parse(Data("-----BEGIN X-----".utf8), path: "key.pem"), text == "-----BEGIN X-----" else {
            Issue.record("PEM file not kept as text")
            return
        }
        #expect(throws: VectorFormatError.self) { _ = try VectorFile.parse(Data("{not json".utf8), path: "bad.json") }
        #expect(VectorFile.isDocumentation(path: "a/README.md") && VectorFile.isDocumentation(path: "x/LICENSE"))
        #expect(!VectorFile.isDocumentation(path: "a/b.json") && !VectorFile.isDocumentation(path: "cavp/sha/SHA256ShortMsg.rsp"))
        #expect(VectorFile.isDocumentation(path: "cavp/rsa/NIST_RSADP_Readme.txt") && VectorFile.isDocumentation(path: "x/pkcs-1v2-1d2-vec_readme.txt"))
        #expect(VectorFile.isDocumentation(path: "../shared/vectors/wycheproof/schemas/rsa_common.json"))
        #expect(!VectorFile.isDocumentation(path: "../shared/vectors/wycheproof/testvectors_v1/rsa_pkcs1_2048_test.json"))
    }

    @Test func hexTextIsStrictButToleratesSpaces() throws {
        #expect(try HexText.bytes("0a 0B") == [0x0A, 0x0B])
        #expect(HexText.string([0, 255]) == "00ff")
        #expect(throws: VectorFormatError.badHex("value")) { try HexText.bytes("abc") }
        #expect(throws: VectorFormatError.badHex("value")) { try HexText.bytes("zz") }
    }
}
