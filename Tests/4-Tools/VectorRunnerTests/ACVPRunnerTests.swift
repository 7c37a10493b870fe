// ACVP vector sets through the runner: the NIST samples per algorithm, and broken sets that
// must fail (or skip) with the reason naming the field.

import Foundation
import Testing
import TestSupport
import VectorRunner

/// A temporary folder of ACVP files for one test.
struct ACVPScratch {
    let directory: TemporaryDirectory
    /// The folder.
    var url: URL { URL(fileURLWithPath: directory.path) }

    /// A fresh folder.
    init() throws { directory = try TemporaryDirectory("acvp") }

    /// Writes `text` to `relative` (creating folders).
    func write(_ relative: String, _ text: String) throws {
        let file = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: file, atomically: true, encoding: .utf8)
    }

    func remove() { directory.remove() }

    /// SHA-256("abc").
    static let abc = "BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD"

    /// A SHA2-256 prompt with two "abc" cases, and expected results with the given answers.
    static func shaPair(len: String = "24", answers: [String]) -> (String, String) {
        let prompt = #"[{"acvVersion":"1.0"},{"vsId":1,"algorithm":"SHA2-256","revision":"1.0","testGroups":[{"tgId":1,"testType":"AFT","tests":[{"tcId":1,"msg":"616263","len":24},{"tcId":2,"msg":"616263","len":\#(len)}]}]}]"#
        let expected = #"[{"acvVersion":"1.0"},{"vsId":1,"algorithm":"SHA2-256","revision":"1.0","testGroups":[{"tgId":1,"tests":["#
            + answers.enumerated().map { #"{"tcId":\#($0.offset + 1)\#($0.element)}"# }.joined(separator: ",") + "]}]}]"
        return (prompt, expected)
    }
}

@Suite struct ACVPRunnerTests {
    @Test func aPairIsOneReportNamedByItsFolder() throws {
        let scratch = try ACVPScratch()
        defer { scratch.remove() }
        let (prompt, expected) = ACVPScratch.shaPair(answers: [#","md":"\#(ACVPScratch.abc)""#, #","md":"\#(ACVPScratch.abc)""#])
        try scratch.write("SHA2-256-1.0/prompt.json", prompt)
        try scratch.write("SHA2-256-1.0/expectedResults.json", expected)
        let report = VectorRunner.run(roots: [scratch.url.path])
        #expect(report.files.count == 1)
        #expect(report.files.first?.path == scratch.url.path + "/SHA2-256-1.0")
        #expect(report.passed == 2 && report.failed == 0 && report.exitCode == 0)
        // Given the expected results directly, the pair is still read whole.
        #expect(VectorRunner.check(path: scratch.url.path + "/SHA2-256-1.0/expectedResults.json").passed == 2)
    }

    @Test func aWrongAnswerFails() throws {
        let scratch = try ACVPScratch()
        defer { scratch.remove() }
        let wrong = String(ACVPScratch.abc.dropLast()) + "E"
        let (prompt, expected) = ACVPScratch.shaPair(answers: [#","md":"\#(ACVPScratch.abc)""#, #","md":"\#(wrong)""#])
        try scratch.write("s/prompt.json", prompt)
        try scratch.write("s/expectedResults.json", expected)
        let report = VectorRunner.run(roots: [scratch.url.path])
        #expect(report.passed == 1 && report.failed == 1 && report.exitCode == 1)
        let lines = report.text(verbose: false).split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("FAIL ") && $0.hasSuffix("/s: 1 passed, 1 failed, 0 skipped") })
        #expect(lines.contains { $0.contains("/s #2 tgId 1 AFT: expected ba7816bf") && $0.contains("15ae, got ba7816bf") })
        #expect(lines.last == "1 passed, 1 failed, 0 skipped")
    }

    @Test func aMissingAnswerFailsItsCaseNamingTheField() throws {
        let scratch = try ACVPScratch()
        defer { scratch.remove() }
        let (prompt, expected) = ACVPScratch.shaPair(answers: [#","md":"\#(ACVPScratch.abc)""#, ""])
        try scratch.write("s/prompt.json", prompt)
        try scratch.write("s/expectedResults.json", expected)
        let report = VectorRunner.run(roots: [scratch.url.path])
        #expect(report.passed == 1 && report.failed == 1)
        #expect(report.files.first?.failures.first?.got == "missing field md (tcId 2)")
    }

    @Test func aFieldOfTheWrongTypeFailsItsCaseNamingTheField() throws {
        let scratch = try ACVPScratch()
        defer { scratch.remove() }
        let (prompt, expected) = ACVPScratch.shaPair(len: #""twenty-four""#, answers: [#","md":"\#(ACVPScratch.abc)""#, #","md":"\#(ACVPScratch.abc)""#])
        try scratch.write("s/prompt.json", prompt)
        try scratch.write("s/expectedResults.json", expected)
        let report = VectorRunner.run(roots: [scratch.url.path])
        #expect(report.passed == 1 && report.failed == 1)
        #expect(report.files.first?.failures.first?.got == "field len is not a non-negative integer (tcId 2)")
    }

    @Test func aBrokenSkeletonIsAFileError() throws {
        let scratch = try ACVPScratch()
        defer { scratch.remove() }
        try scratch.write("combined.json", #"{"algorithm":"SHA2-256","revision":"1.0","testGroups":[{"testType":"AFT","tests":[]}]}"#)
        let report = VectorRunner.run(roots: [scratch.url.path])
        #expect(report.failed == 1 && report.exitCode == 1)
        #expect(report.files.first?.fileError == "missing field tgId (prompt)")
    }

    @Test func anUnknownAlgorithmIsSkippedWithTheReasonNeverPassed() throws {
        let scratch = try ACVPScratch()
        defer { scratch.remove() }
        try scratch.write("gcm.json", #"{"algorithm":"ACVP-AES-GCM","revision":"1.0","testGroups":[{"tgId":1,"tests":[{"tcId":1},{"tcId":2}]}]}"#)
        let report = VectorRunner.run(roots: [scratch.url.path])
        #expect(report.passed == 0 && report.failed == 0 && report.skipped == 2 && report.exitCode == 1)
        #expect(report.files.first?.status == "SKIP")
        #expect(report.files.first?.skips.first?.reason == "ACVP ACVP-AES-GCM 1.0 is not supported by this runner")
    }

    @Test func aCombinedFileIsCheckedFromItsInlineAnswers() throws {
        let scratch = try ACVPScratch()
        defer { scratch.remove() }
        // RFC 4231 test case 2 (HMAC-SHA-256, key "Jefe"), the MAC truncated to 128 bits.
        let combined = #"[{"acvVersion":"1.0"},{"algorithm":"HMAC-SHA2-256","revision":"1.0","testGroups":[{"tgId":1,"testType":"AFT","macLen":128,"tests":[{"tcId":1,"key":"4A656665","msg":"7768617420646F2079612077616E7420666F72206E6F7468696E673F","mac":"5BDCC146BF60754E6A042426089575C7"}]}]}]"#
        try scratch.write("hmac.json", combined)
        let report = VectorRunner.run(roots: [scratch.url.path])
        #expect(report.passed == 1 && report.failed == 0)
    }

    @Test func aLargeDataTestIsHashedUpToTheLimitAndSkippedBeyondIt() throws {
        let scratch = try ACVPScratch()
        defer { scratch.remove() }
        // 0123456789ABCDEF repeated to 1 MiB (8,388,608 bits); the second case asks for 1 GiB.
        let combined = #"{"algorithm":"SHA2-256","revision":"1.0","testGroups":[{"tgId":3,"testType":"LDT","tests":["#
            + #"{"tcId":1,"largeMsg":{"content":"0123456789ABCDEF","contentLength":64,"fullLength":8388608,"expansionTechnique":"repeating"},"#
            + #""md":"378A2997C5F456EE3830533E4F4F15818BF096238BBD33A8B7FACD7A52A8E41E"},"#
            + #"{"tcId":2,"largeMsg":{"content":"0123456789ABCDEF","contentLength":64,"fullLength":8589934592,"expansionTechnique":"repeating"},"md":"00"}]}]}"#
        try scratch.write("ldt.json", combined)
        let report = VectorRunner.run(roots: [scratch.url.path])
        #expect(report.passed == 1 && report.failed == 0 && report.skipped == 1)
        #expect(report.files.first?.skips.first?.reason == "LDT message of 1024 MiB is over the 64 MiB limit of a vector run")
    }

    /// KAS-ECC-SSC on P-256 (the sample set has no P-256 group): a VAL case with the right Z
    /// (CAVP KAS_ECC_CDH_PrimitiveTest P-256 COUNT 0), one with a changed Z, and an AFT case
    /// without the IUT's private key.
    @Test func kasECCOnP256JudgesZ() throws {
        let scratch = try ACVPScratch()
        defer { scratch.remove() }
        let server = #""staticPublicServerX":"700C48F77F56584C5CC632CA65640DB91B6BACCE3A4DF6B42CE7CC838833D287","staticPublicServerY":"DB71E509E3FD9B060DDB20BA5C51DCC5948D46FBF640DFE0441782CAB85FA4AC""#
        let iut = #""staticPrivateIut":"7D7DC5F71EB29DDAF80D6214632EEAE03D9058AF1FB6D22ED80BADB62BC1A534""#
        let z = "46FC62106420FF012E54A434FBDD2D25CCC5852060561E68040DD7778997BD7B"
        let combined = #"{"algorithm":"KAS-ECC-SSC","revision":"Sp800-56Ar3","testGroups":["#
            + #"{"tgId":1,"testType":"VAL","domainParameterGenerationMode":"P-256","scheme":"staticUnified","kasRole":"initiator","tests":["#
            + #"{"tcId":1,\#(server),\#(iut),"z":"\#(z)","testPassed":true},"#
            + #"{"tcId":2,\#(server),\#(iut),"z":"\#(z.dropLast())C","testPassed":false},"#
            + #"{"tcId":3,\#(server),\#(iut),"z":"\#(z.dropLast())C","testPassed":true}]},"#
            + #"{"tgId":2,"testType":"AFT","domainParameterGenerationMode":"P-256","scheme":"staticUnified","kasRole":"initiator","tests":[{"tcId":4,\#(server),"z":"00"}]}]}"#
        try scratch.write("kas.json", combined)
        let report = VectorRunner.run(roots: [scratch.url.path])
        #expect(report.passed == 2 && report.failed == 1 && report.skipped == 1)
        #expect(report.files.first?.failures.first?.id == "#3")
        #expect(report.files.first?.skips.first?.reason.contains("static private key is not in the vector set") == true)
    }
}
