// `mfa acvp respond|check` for the algorithms whose answers the IUT chooses or derives: ECDSA
// keyGen and sigGen, RSA sigGen, KDA HKDF and KTS-IFC. Our recorded sets (one file holding
// inputs and answers) are split into a prompt.json and an expectedResults.json as the ACVP
// server hands them out; respond must answer every case, check must pass the response and fail
// a tampered one.

import Foundation
import Testing
import TestSupport
import VectorRunner

@Suite struct ACVPRespondCoverageTests {
    /// Splits a recorded combined file into `prompt.json` and `expectedResults.json` in
    /// `scratch`, keeping the groups `keep` accepts: the fields `answers` names (per group, from
    /// the group's fields) move from the prompt to the expected results. Returns the folder.
    static func split(_ name: String, into scratch: ACVPScratch, groupAnswers: Set<String> = [],
                      keep: ([String: Any]) -> Bool = { _ in true }, answers: ([String: Any]) -> Set<String>) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: SharedVectors.ownPath("acvp/\(name).json")))
        let whole = try #require(try JSONSerialization.jsonObject(with: data) as? [Any])
        var body = try #require(whole.last as? [String: Any])
        var promptGroups: [Any] = [], expectedGroups: [Any] = []
        for case let group as [String: Any] in try #require(body["testGroups"] as? [Any]) where keep(group) {
            let caseAnswers = answers(group)
            var promptGroup = group.filter { !groupAnswers.contains($0.key) }
            var expectedGroup = group.filter { groupAnswers.contains($0.key) || $0.key == "tgId" }
            var promptTests: [Any] = [], expectedTests: [Any] = []
            for case let test as [String: Any] in try #require(group["tests"] as? [Any]) {
                promptTests.append(test.filter { !caseAnswers.contains($0.key) })
                expectedTests.append(test.filter { caseAnswers.contains($0.key) || $0.key == "tcId" })
            }
            promptGroup["tests"] = promptTests
            expectedGroup["tests"] = expectedTests
            promptGroups.append(promptGroup)
            expectedGroups.append(expectedGroup)
        }
        body["testGroups"] = promptGroups
        try scratch.write("\(name)/prompt.json", try text([["acvVersion": "1.0"], body]))
        body["testGroups"] = expectedGroups
        try scratch.write("\(name)/expectedResults.json", try text([["acvVersion": "1.0"], body]))
        return scratch.url.path + "/" + name
    }

    static func text(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), as: UTF8.self)
    }

    /// The tcIds of a prompt or response document.
    static func caseIDs(_ json: String) throws -> [Int] {
        let whole = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [Any])
        let body = try #require(whole.last as? [String: Any])
        return (body["testGroups"] as? [[String: Any]] ?? []).flatMap { group in
            (group["tests"] as? [[String: Any]] ?? []).compactMap { $0["tcId"] as? Int }
        }
    }

    /// The response with `edit` applied to the fields of case `tcId`.
    static func tampered(_ json: String, tcId: Int, _ edit: (inout [String: Any]) -> Void) throws -> String {
        var whole = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [Any])
        var body = try #require(whole.last as? [String: Any])
        var groups = try #require(body["testGroups"] as? [[String: Any]])
        for index in groups.indices {
            var tests = groups[index]["tests"] as? [[String: Any]] ?? []
            for caseIndex in tests.indices where tests[caseIndex]["tcId"] as? Int == tcId { edit(&tests[caseIndex]) }
            groups[index]["tests"] = tests
        }
        body["testGroups"] = groups
        whole[whole.count - 1] = body
        return try text(whole)
    }

    /// The hex string with the low bit of its first byte flipped.
    static func flipped(_ hex: Any?) -> String {
        let text = hex as? String ?? ""
        guard let first = text.first?.hexDigitValue else { return "FF" }
        return String(first ^ 1, radix: 16).uppercased() + text.dropFirst()
    }

    /// Responds to `folder`/prompt.json, checks the response, and returns both.
    static func respondAndCheck(_ folder: String, _ scratch: ACVPScratch) throws -> (ACVPLab.Response, FileReport) {
        let response = try ACVPLab.respond(promptPath: folder + "/prompt.json")
        try scratch.write("response.json", response.json)
        let report = try ACVPLab.check(responsePath: scratch.url.path + "/response.json", expectedPath: folder + "/expectedResults.json")
        return (response, report)
    }

    static func checkTampered(_ json: String, _ folder: String, _ scratch: ACVPScratch) throws -> FileReport {
        try scratch.write("tampered.json", json)
        return try ACVPLab.check(responsePath: scratch.url.path + "/tampered.json", expectedPath: folder + "/expectedResults.json")
    }

    @Test func ecdsaKeyGenAnswersOwnKeysAndCheckValidatesThem() throws {
        let scratch = try ACVPScratch()
        defer { scratch.remove() }
        let folder = try Self.split("ECDSA-KeyGen-FIPS186-5", into: scratch) { _ in ["d", "qx", "qy"] }
        let (response, report) = try Self.respondAndCheck(folder, scratch)
        #expect(response.answered == 10 && response.unanswered.isEmpty, "\(response.unanswered.prefix(2))")
        #expect(try Self.caseIDs(response.json) == Array(1...10))
        // Our keys are not the expected results' keys, and still every case passes.
        #expect(report.passed == 10 && report.failed == 0 && report.skipped == 0, "\(report.failures.prefix(2)) \(report.skips.prefix(2))")
        let otherQx = try #require(response.json.components(separatedBy: "\"qx\" : \"").dropFirst(2).first?.prefix(64))
        let wrong = try Self.tampered(response.json, tcId: 1) { $0["qx"] = String(otherQx) }
        let failing = try Self.checkTampered(wrong, folder, scratch)
        #expect(failing.passed == 9 && failing.failures.map(\.id) == ["#1"])
        // d = 0 is outside [1, n − 1] whatever Q says.
        let zero = try Self.tampered(response.json, tcId: 2) { $0["d"] = String(repeating: "0", count: 64) }
        #expect(try Self.checkTampered(zero, folder, scratch).failures.map(\.id) == ["#2"])
    }

    static let gx = "6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296"
    static let gy = "4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5"

    /// The server's ephemeral key is G, so an AFT Z is the x of the IUT's own public key, and
    /// with d = 1 a VAL Z is Gx.
    @Test func kasECCSSCAnswersP256AndValidatesOnlyWhatItCan() throws {
        let scratch = try ACVPScratch()
        defer { scratch.remove() }
        let server = #""ephemeralPublicServerX":"\#(Self.gx)","ephemeralPublicServerY":"\#(Self.gy)""#
        let iut = #""ephemeralPrivateIut":"01","ephemeralPublicIutX":"\#(Self.gx)","ephemeralPublicIutY":"\#(Self.gy)""#
        let header = #""algorithm":"KAS-ECC-SSC","revision":"Sp800-56Ar3","testGroups":"#
        let group = #""domainParameterGenerationMode":"P-256","scheme":"ephemeralUnified""#
        try scratch.write("KAS/prompt.json", #"{\#(header)[{"tgId":1,"testType":"AFT",\#(group),"kasRole":"initiator","tests":[{"tcId":1,\#(server)}]},"#
            + #"{"tgId":2,"testType":"VAL",\#(group),"kasRole":"responder","tests":[{"tcId":2,\#(server),\#(iut),"z":"\#(Self.gx)"},"#
            + #"{"tcId":3,\#(server),\#(iut),"z":"\#(Self.flipped(Self.gx))"}]}]}"#)
        try scratch.write("KAS/expectedResults.json", #"{\#(header)[{"tgId":1,"tests":[{"tcId":1,"ephemeralPublicIutX":"00","ephemeralPublicIutY":"00","z":"00"}]},"#
            + #"{"tgId":2,"tests":[{"tcId":2,"testPassed":true},{"tcId":3,"testPassed":false}]}]}"#)
        let (response, report) = try Self.respondAndCheck(scratch.url.path + "/KAS", scratch)
        #expect(response.answered == 3 && response.unanswered.isEmpty, "\(response.unanswered.prefix(2))")
        let aft = response.json.components(separatedBy: "\"ephemeralPublicIutX\" : \"").dropFirst().first?.prefix(64)
        #expect(aft != nil && response.json.contains(#""z" : "\#(aft ?? "")""#))
        // VAL compared; AFT needs the IUT's private key the response does not carry: skipped, not passed.
        #expect(report.passed == 2 && report.failed == 0 && report.skips.map(\.id) == ["#1"])
    }

    @Test func kdaHKDFAnswersDerivedKeysAndVerdicts() throws {
        let scratch = try ACVPScratch()
        defer { scratch.remove() }
        let folder = try Self.split("KDA-HKDF-Sp800-56Cr2", into: scratch) { group in
            group["testType"] as? String == "VAL" ? ["testPassed"] : ["dkm"]
        }
        let (response, report) = try Self.respondAndCheck(folder, scratch)
        #expect(response.answered == 25 && response.unanswered.isEmpty, "\(response.unanswered.prefix(2))")
        #expect(try Self.caseIDs(response.json) == Array(1...25))
        #expect(report.passed == 25 && report.failed == 0 && report.skipped == 0, "\(report.failures.prefix(2))")
        let wrong = try Self.tampered(response.json, tcId: 2) { $0["dkm"] = Self.flipped($0["dkm"]) }
        let failing = try Self.checkTampered(wrong, folder, scratch)
        #expect(failing.passed == 24 && failing.failures.map(\.id) == ["#2"])
    }

    @Test func ktsIFCAnswersBothRolesAndCheckDecryptsTheInitiatorsCiphertext() throws {
        let scratch = try ACVPScratch()
        defer { scratch.remove() }
        let folder = try Self.split("KTS-IFC-Sp800-56Br2", into: scratch) { group in
            group["testType"] as? String == "VAL" ? ["testPassed"] : group["kasRole"] as? String == "initiator" ? ["iutC", "dkm"] : ["dkm"]
        }
        let (response, report) = try Self.respondAndCheck(folder, scratch)
        #expect(response.answered == 8 && response.unanswered.isEmpty, "\(response.unanswered.prefix(2))")
        #expect(try Self.caseIDs(response.json) == Array(1...8))
        #expect(response.json.contains("\"iutC\""))
        #expect(report.passed == 8 && report.failed == 0 && report.skipped == 0, "\(report.failures.prefix(2)) \(report.skips.prefix(2))")
        // A responder's dkm (compared) and an initiator's dkm (its iutC no longer unwraps to it).
        for tcId in [1, 5] {
            let wrong = try Self.tampered(response.json, tcId: tcId) { $0["dkm"] = Self.flipped($0["dkm"]) }
            let failing = try Self.checkTampered(wrong, folder, scratch)
            #expect(failing.passed == 7 && failing.failures.map(\.id) == ["#\(tcId)"])
        }
    }

    @Test func rsaSigGenAnswersWithOwnKeysAndCheckVerifies() throws {
        let scratch = try ACVPScratch()
        defer { scratch.remove() }
        // The 2048-bit groups (PKCS #1 v1.5 and PSS) only: a debug-build 3072-bit key takes minutes.
        let folder = try Self.split("RSA-SigGen-FIPS186-5", into: scratch, groupAnswers: ["n", "e"], keep: { $0["modulo"] as? Int == 2048 }) { _ in
            ["signature"]
        }
        let (response, report) = try Self.respondAndCheck(folder, scratch)
        #expect(response.answered == 8 && response.unanswered.isEmpty, "\(response.unanswered.prefix(2))")
        #expect(try Self.caseIDs(response.json) == Array(1...8))
        #expect(report.passed == 8 && report.failed == 0 && report.skipped == 0, "\(report.failures.prefix(2)) \(report.skips.prefix(2))")
        let wrong = try Self.tampered(response.json, tcId: 3) { $0["signature"] = Self.flipped($0["signature"]) }
        let failing = try Self.checkTampered(wrong, folder, scratch)
        #expect(failing.passed == 7 && failing.failures.map(\.id) == ["#3"])
    }

    @Test(.enabled(if: ACVPSampleTests.available, "needs ../shared/vectors/acvp"))
    func theSampleECDSASigGenP256GroupsAreSignedAndVerified() throws {
        let scratch = try ACVPScratch()
        defer { scratch.remove() }
        let (response, report) = try Self.respondAndCheck(SharedVectors.path("acvp/ECDSA-SigGen-FIPS186-5"), scratch)
        // P-256 with SHA-1/SHA-2 and no randomized hashing: tgId 13-16, tcIds 121-160.
        // The other 2840 cases are unanswered, so check reports them missing and nothing else.
        #expect(response.answered == 40 && response.unanswered.count == 2840, "\(response.unanswered.prefix(2))")
        #expect(try Self.caseIDs(response.json) == Array(121...160))
        let answerFailures = report.failures.filter { $0.got != "none in the response" }
        #expect(report.passed == 40 && report.failed == 2840 && answerFailures.isEmpty, "\(answerFailures.prefix(2))")
        let wrong = try Self.tampered(response.json, tcId: 121) { $0["s"] = Self.flipped($0["s"]) }
        let failing = try Self.checkTampered(wrong, SharedVectors.path("acvp/ECDSA-SigGen-FIPS186-5"), scratch)
        #expect(failing.passed == 39 && failing.failures.filter { $0.got != "none in the response" }.map(\.id) == ["#121"])
    }
}
