// `mfa acvp respond|check`: the engine's response to a prompt agrees with the expected results,
// and a response that differs, or leaves a case out, is reported as failed.

import Foundation
import Testing
import TestSupport
import VectorRunner

@Suite struct ACVPLabTests {
    @Test func aResponseAgreesWithTheExpectedResultsAndADifferenceFails() throws {
        let scratch = try ACVPScratch()
        defer { scratch.remove() }
        let (prompt, expected) = ACVPScratch.shaPair(answers: [#","md":"\#(ACVPScratch.abc.lowercased())""#, #","md":"\#(ACVPScratch.abc)""#])
        try scratch.write("prompt.json", prompt)
        try scratch.write("expected.json", expected)
        let response = try ACVPLab.respond(promptPath: scratch.url.path + "/prompt.json")
        #expect(response.answered == 2 && response.unanswered.isEmpty)
        #expect(response.json.contains(#""acvVersion""#) && response.json.contains(#""md" : "\#(ACVPScratch.abc)""#))
        try scratch.write("response.json", response.json)
        let agreeing = try ACVPLab.check(responsePath: scratch.url.path + "/response.json", expectedPath: scratch.url.path + "/expected.json")
        #expect(agreeing.passed == 2 && agreeing.failed == 0)

        // A changed answer and a case left out.
        let edited = response.json.replacingOccurrences(of: ACVPScratch.abc, with: String(ACVPScratch.abc.dropLast()) + "E")
        try scratch.write("wrong.json", edited)
        let differing = try ACVPLab.check(responsePath: scratch.url.path + "/wrong.json", expectedPath: scratch.url.path + "/expected.json")
        #expect(differing.passed == 0 && differing.failed == 2)
        #expect(differing.failures.first?.comment == "tgId 1 md")
        let partial = #"[{"acvVersion":"1.0"},{"algorithm":"SHA2-256","revision":"1.0","testGroups":[{"tgId":1,"tests":[{"tcId":1,"md":"\#(ACVPScratch.abc)"}]}]}]"#
        try scratch.write("partial.json", partial)
        let missing = try ACVPLab.check(responsePath: scratch.url.path + "/partial.json", expectedPath: scratch.url.path + "/expected.json")
        #expect(missing.passed == 1 && missing.failures.first?.got == "none in the response")
    }

    @Test func casesTheEngineCannotAnswerAreListedNotInvented() throws {
        let scratch = try ACVPScratch()
        defer { scratch.remove() }
        try scratch.write("prompt.json", #"{"algorithm":"ECDSA","mode":"sigGen","revision":"FIPS186-5","testGroups":[{"tgId":1,"curve":"P-384","hashAlg":"SHA2-256","tests":[{"tcId":1,"message":"00"}]}]}"#)
        let response = try ACVPLab.respond(promptPath: scratch.url.path + "/prompt.json")
        #expect(response.answered == 0)
        #expect(response.unanswered.first?.hasPrefix("tcId 1: curve P-384 is not in the engine") == true)
        #expect(throws: ACVPLab.FileError.self) { try ACVPLab.respond(promptPath: scratch.url.path + "/absent.json") }
    }

    @Test(.enabled(if: ACVPSampleTests.available, "needs ../shared/vectors/acvp"))
    func theSampleHMACResponseAgrees() throws {
        let scratch = try ACVPScratch()
        defer { scratch.remove() }
        let folder = SharedVectors.path("acvp/HMAC-SHA2-256-1.0")
        let response = try ACVPLab.respond(promptPath: folder + "/prompt.json")
        try scratch.write("response.json", response.json)
        let report = try ACVPLab.check(responsePath: scratch.url.path + "/response.json", expectedPath: folder + "/expectedResults.json")
        #expect(report.passed == 975 && report.failed == 0)
    }
}
