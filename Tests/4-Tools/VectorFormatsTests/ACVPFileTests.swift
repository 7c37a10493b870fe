// ACVP vector sets: pairing a prompt with its expected results, combined files, and a typed
// error naming the field for each way a file can be broken.

import Foundation
import Testing
import VectorFormats

@Suite struct ACVPFileTests {
    static let prompt = """
        [{"acvVersion":"1.0"},{"vsId":7,"algorithm":"SHA2-256","revision":"1.0","isSample":true,"futureField":{"x":1},
          "testGroups":[{"tgId":1,"testType":"AFT","tests":[{"tcId":1,"msg":"616263","len":24},{"tcId":2,"msg":"","len":"0"}]}]}]
        """
    static let expected = """
        {"vsId":7,"algorithm":"SHA2-256","revision":"1.0","testGroups":[{"tgId":1,"tests":[{"tcId":1,"md":"AB"},{"tcId":2,"md":"CD"}]}]}
        """

    static func json(_ text: String) throws -> JSONValue { try JSONValue.parse(Data(text.utf8)) }

    @Test func aPromptAndItsExpectedResultsArePairedOnGroupAndCase() throws {
        let file = try ACVPFile(prompt: Self.json(Self.prompt), expected: Self.json(Self.expected))
        #expect(file.algorithm == "SHA2-256" && file.revision == "1.0" && file.mode == "" && file.vectorSetID == 7)
        #expect(file.groups.count == 1 && file.groups[0].tests.map(\.id) == [1, 2])
        let first = file.groups[0].tests[0].fields
        #expect(try first.hex("msg") == [0x61, 0x62, 0x63])
        #expect(try first.integer("len") == 24)
        #expect(try file.groups[0].tests[1].fields.integer("len") == 0)  // a decimal string is read as a number
        #expect(try first.hex("md", answer: true) == [0xAB])
        #expect(try file.groups[0].fields.string("testType") == "AFT")
        let promptJSON = try Self.json(Self.prompt), expectedJSON = try Self.json(Self.expected)
        #expect(ACVPFile.isACVP(promptJSON) && ACVPFile.isACVP(expectedJSON))
        #expect(!ACVPFile.isACVP(try Self.json(#"{"algorithm":"ECDSA","schema":"x.json","testGroups":[]}"#)))
    }

    @Test func aCombinedFileCarriesItsAnswersInline() throws {
        let combined = #"{"algorithm":"HMAC-SHA2-256","revision":"1.0","testGroups":[{"tgId":3,"macLen":32,"tests":[{"tcId":9,"key":"00","msg":"","mac":"01020304"}]}]}"#
        let file = try ACVPFile(prompt: Self.json(combined))
        #expect(try file.groups[0].tests[0].fields.hex("mac", answer: true) == [1, 2, 3, 4])
        #expect(file.groups[0].tests[0].hasExpectedResult)
    }

    @Test func aMissingFieldIsNamed() throws {
        let noGroupID = #"{"algorithm":"SHA2-256","revision":"1.0","testGroups":[{"tests":[]}]}"#
        #expect(throws: ACVPFormatError.missingField("tgId", at: "prompt")) { try ACVPFile(prompt: Self.json(noGroupID)) }
        let noRevision = #"{"algorithm":"SHA2-256","testGroups":[]}"#
        #expect(throws: ACVPFormatError.missingField("revision", at: "vector set")) { try ACVPFile(prompt: Self.json(noRevision)) }
        let file = try ACVPFile(prompt: Self.json(Self.prompt))
        #expect(throws: ACVPFormatError.missingField("md", at: "tcId 1")) { try file.groups[0].tests[0].fields.hex("md", answer: true) }
        #expect(ACVPFormatError.missingField("md", at: "tcId 1").description == "missing field md (tcId 1)")
    }

    @Test func aFieldOfTheWrongTypeIsNamed() throws {
        let objectID = #"{"algorithm":"SHA2-256","revision":"1.0","testGroups":[{"tgId":1,"tests":[{"tcId":{"n":1}}]}]}"#
        #expect(throws: ACVPFormatError.wrongType("tcId", expected: "integer", at: "prompt tgId 1")) { try ACVPFile(prompt: Self.json(objectID)) }
        let badValues = #"{"algorithm":"SHA2-256","revision":"1.0","testGroups":[{"tgId":1,"tests":[{"tcId":1,"msg":"XYZ","len":-8,"ok":"maybe"}]}]}"#
        let fields = try ACVPFile(prompt: Self.json(badValues)).groups[0].tests[0].fields
        #expect(throws: ACVPFormatError.wrongType("msg", expected: "hex", at: "tcId 1")) { try fields.hex("msg") }
        #expect(throws: ACVPFormatError.wrongType("len", expected: "a non-negative integer", at: "tcId 1")) { try fields.integer("len") }
        #expect(throws: ACVPFormatError.wrongType("ok", expected: "a Boolean", at: "tcId 1")) { try fields.bool("ok") }
        #expect(throws: ACVPFormatError.wrongType("tcId", expected: "a string", at: "tcId 1")) { try fields.string("tcId") }
    }

    @Test func expectedResultsForAnotherSetAreRefused() throws {
        let other = #"{"algorithm":"SHA2-256","revision":"1.0","testGroups":[{"tgId":2,"tests":[]}]}"#
        #expect(throws: ACVPFormatError.mismatch("expected results have no tgId 1")) {
            try ACVPFile(prompt: Self.json(Self.prompt), expected: Self.json(other))
        }
        let otherAlgorithm = #"{"algorithm":"SHA2-512","revision":"1.0","testGroups":[]}"#
        #expect(throws: ACVPFormatError.self) { try ACVPFile(prompt: Self.json(Self.prompt), expected: Self.json(otherAlgorithm)) }
        // A case absent from the expected results is marked, so the runner fails it.
        let partial = #"{"algorithm":"SHA2-256","revision":"1.0","testGroups":[{"tgId":1,"tests":[{"tcId":1,"md":"AB"}]}]}"#
        let file = try ACVPFile(prompt: Self.json(Self.prompt), expected: Self.json(partial))
        #expect(file.groups[0].tests.map(\.hasExpectedResult) == [true, false])
    }
}
