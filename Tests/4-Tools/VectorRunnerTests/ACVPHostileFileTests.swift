// Vector files that ask for more work than any real suite: an iteration count of 10^12, a key
// of 10^9 bits, a Monte Carlo chain of 10^4 rounds. The runner fails the case naming the field
// and the responder leaves it unanswered, at once and in bounded memory (run as they are, they
// would take hours or gigabytes). The RSA signature primitive reads a key in CRT form.

import Foundation
import Testing
import TestSupport
import VectorRunner

@Suite struct ACVPHostileFileTests {
    /// A PBKDF prompt with one case and expected results whose answer is any 16 bytes.
    static func pbkdf(iterations: String, keyLength: String) -> (prompt: String, expected: String) {
        let head = #"[{"acvVersion":"1.0"},{"vsId":1,"algorithm":"PBKDF","revision":"1.0","testGroups":[{"tgId":1,"testType":"AFT","hmacAlg":"SHA2-256","tests":["#
        let prompt = head + #"{"tcId":1,"keyLen":\#(keyLength),"salt":"00112233445566778899AABBCCDDEEFF","password":"password","iterationCount":\#(iterations)}]}]}]"#
        let expected = #"[{"acvVersion":"1.0"},{"vsId":1,"algorithm":"PBKDF","revision":"1.0","testGroups":[{"tgId":1,"tests":[{"tcId":1,"derivedKey":"00000000000000000000000000000000"}]}]}]"#
        return (prompt, expected)
    }

    @Test(arguments: [("1000000000000", "128", "iterationCount"), ("1000", "1000000000", "keyLen"), ("0", "128", "iterationCount")])
    func aPBKDFCaseAskingForTooMuchIsRefusedNamingTheField(iterations: String, keyLength: String, field: String) throws {
        let scratch = try ACVPScratch()
        defer { scratch.remove() }
        let (prompt, expected) = Self.pbkdf(iterations: iterations, keyLength: keyLength)
        try scratch.write("PBKDF-1.0/prompt.json", prompt)
        try scratch.write("PBKDF-1.0/expectedResults.json", expected)
        let report = VectorRunner.run(roots: [scratch.url.path])
        #expect(report.passed == 0 && report.failed == 1 && report.exitCode == 1)
        let reason = report.files.first?.failures.first?.got ?? ""
        #expect(reason.contains("field \(field) is not an integer within") && reason.contains("(the file says \(field == "keyLen" ? keyLength : iterations))"),
                "\(reason)")
        let response = try ACVPLab.respond(promptPath: scratch.url.path + "/PBKDF-1.0/prompt.json")
        #expect(response.answered == 0 && response.unanswered.first?.contains("field \(field) is not an integer within") == true,
                "\(response.unanswered)")
    }

    @Test func aMonteCarloChainLongerThanAnyRealSuiteIsRefused() throws {
        let scratch = try ACVPScratch()
        defer { scratch.remove() }
        let rounds = Array(repeating: #"{"md":"\#(ACVPScratch.abc)"}"#, count: 10_000).joined(separator: ",")
        let file = #"[{"acvVersion":"1.0"},{"vsId":1,"algorithm":"SHA2-256","revision":"1.0","testGroups":[{"tgId":1,"testType":"MCT","#
            + #""tests":[{"tcId":1,"msg":"616263","len":24,"resultsArray":[\#(rounds)]}]}]}]"#
        try scratch.write("combined.json", file)
        let report = VectorRunner.run(roots: [scratch.url.path])
        #expect(report.passed == 0 && report.failed == 1)
        #expect(report.files.first?.failures.first?.got.contains("at most 1000 rounds (the file has 10000)") == true,
                "\(String(describing: report.files.first?.failures.first))")
    }

    /// The recorded signature-primitive file's CRT group (n, e, p, q, dmp1, dmq1, iqmp, no d):
    /// the runner passes it, and the responder's answers agree with the file's.
    @Test(.enabled(if: TestBuild.isOptimized, "2048-bit modular powers are slow unoptimised; swift test -c release runs it"))
    func aSignaturePrimitiveKeyInCRTFormIsRead() throws {
        let path = SharedVectors.packageRoot + "/Vectors/acvp/RSA-SignaturePrimitive-2.0.json"
        let report = VectorRunner.check(path: path)
        #expect(report.failed == 0 && report.passed == 19, "\(report.failures.prefix(2)) \(report.fileError ?? "")")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(#""keyFormat": "crt""#) && text.contains(#""dmp1""#))
        let response = try ACVPLab.respond(promptPath: path)
        #expect(response.answered == 19 && response.unanswered.isEmpty, "\(response.unanswered)")
        // Each answer against the file's: testPassed, and the signature where there is one.
        func answers(_ json: Data) throws -> [Int: [String: Any]] {
            let document = try #require(try JSONSerialization.jsonObject(with: json) as? [Any])
            let body = try #require(document.last as? [String: Any])
            var byCase: [Int: [String: Any]] = [:]
            for group in try #require(body["testGroups"] as? [[String: Any]]) {
                for test in try #require(group["tests"] as? [[String: Any]]) { byCase[try #require(test["tcId"] as? Int)] = test }
            }
            return byCase
        }
        let expected = try answers(Data(text.utf8)), got = try answers(Data(response.json.utf8))
        #expect(expected.count == 19 && got.count == 19)
        for (id, test) in expected {
            #expect(got[id]?["testPassed"] as? Bool == test["testPassed"] as? Bool, "tcId \(id)")
            #expect((got[id]?["signature"] as? String)?.uppercased() == (test["signature"] as? String)?.uppercased(), "tcId \(id)")
        }
    }
}
