// ACVP KTS-IFC (RSA-OAEP key transport) and KDA HKDF through the runner, and the ACVP files
// this project records itself in Vectors/acvp (answers from Python, never from the engine).

import Foundation
import Testing
import TestSupport
import VectorRunner

@Suite struct ACVPKeyTransportTests {
    static let ownFiles = ["ACVP-AES-ECB-1.0", "ECDSA-KeyGen-FIPS186-5", "HMAC-SHA-1-1.0", "KDA-HKDF-Sp800-56Cr2",
                           "KTS-IFC-Sp800-56Br2", "RSA-SigGen-FIPS186-5", "RSA-SignaturePrimitive-2.0", "SHA-1-1.0",
                           "SHA2-224-1.0", "SHA2-384-1.0"]

    /// Every recorded ACVP file passes whole: nothing failed, nothing skipped.
    @Test(arguments: ownFiles)
    func aRecordedFilePassesWhole(_ name: String) {
        let report = VectorRunner.check(path: SharedVectors.ownPath("acvp/\(name).json"))
        #expect(report.recognized, "\(name)")
        #expect(report.passed > 0, "\(name)")
        #expect(report.failed == 0, "\(name): \(report.failures.prefix(2)) \(report.fileError ?? "")")
        #expect(report.skipped == 0, "\(name): \(report.skips.prefix(2).map(\.reason))")
    }

    /// RFC 5869 test case 1 as a KDA HKDF set: IKM as z, the info as a literal fixedInfo, L = 42 bytes.
    static func rfc5869(dkm: String, testType: String = "AFT", extra: String = "") -> String {
        #"{"algorithm":"KDA","mode":"HKDF","revision":"Sp800-56Cr2","testGroups":[{"tgId":1,"testType":"\#(testType)","#
            + #""kdfConfiguration":{"kdfType":"hkdf","l":336,"saltMethod":"random","fixedInfoPattern":"literal[f0f1f2f3f4f5f6f7f8f9]","#
            + #""fixedInfoEncoding":"concatenation","hmacAlg":"SHA2-256"},"tests":[{"tcId":1,"kdfParameter":{"kdfType":"hkdf","#
            + #""salt":"000102030405060708090a0b0c","z":"0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b","l":336},"dkm":"\#(dkm)"\#(extra)}]},"#
            + #"{"tgId":2,"testType":"AFT","kdfMultiExpansionConfiguration":{"kdfType":"hkdf","l":256,"hmacAlg":"SHA2-256"},"#
            + #""multiExpansion":true,"tests":[{"tcId":2,"dkm":"00"}]}]}"#
    }

    static let okm = "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"

    @Test func kdaHKDFDerivesTheRFC5869AnswerAndSkipsMultiExpansion() throws {
        let scratch = try ACVPScratch()
        defer { scratch.remove() }
        try scratch.write("kda.json", Self.rfc5869(dkm: Self.okm))
        let report = VectorRunner.check(path: scratch.url.path + "/kda.json")
        #expect(report.passed == 1 && report.failed == 0 && report.skipped == 1)
        #expect(report.skips.first?.reason == "KDA HKDF multi-expansion groups are not supported by this runner")
    }

    @Test func kdaHKDFWrongKeyingMaterialFailsAndVALJudgesIt() throws {
        let scratch = try ACVPScratch()
        defer { scratch.remove() }
        let wrong = String(Self.okm.dropLast()) + "6"
        try scratch.write("wrong.json", Self.rfc5869(dkm: wrong))
        try scratch.write("val.json", Self.rfc5869(dkm: wrong, testType: "VAL", extra: #","testPassed":false"#))
        let failing = VectorRunner.check(path: scratch.url.path + "/wrong.json")
        #expect(failing.failed == 1 && failing.failures.first?.got == Self.okm)
        let judged = VectorRunner.check(path: scratch.url.path + "/val.json")
        #expect(judged.passed == 1 && judged.failed == 0)
    }

    /// A recorded KTS-IFC file with one responder dkm changed: that case fails.
    @Test func ktsIFCWrongKeyingMaterialFails() throws {
        let scratch = try ACVPScratch()
        defer { scratch.remove() }
        var text = try String(contentsOfFile: SharedVectors.ownPath("acvp/KTS-IFC-Sp800-56Br2.json"), encoding: .utf8)
        let marker = try #require(text.range(of: #""dkm":""#))
        let digit = text.index(marker.upperBound, offsetBy: 5)
        text.replaceSubrange(digit...digit, with: text[digit] == "0" ? "1" : "0")
        try scratch.write("kts.json", text)
        let report = VectorRunner.check(path: scratch.url.path + "/kts.json")
        #expect(report.failed == 1 && report.skipped == 0)
        #expect(report.failures.first?.comment.hasSuffix("iut decrypts") == true)
    }

    /// Key-confirmation schemes, and initiator cases without the server's private key, are
    /// skipped with the reason.
    @Test func ktsIFCCasesTheRunnerCannotJudgeAreSkippedWithTheReason() throws {
        let scratch = try ACVPScratch()
        defer { scratch.remove() }
        let configuration = #""ktsConfiguration":{"hashAlg":"SHA2-256","associatedDataPattern":"","encoding":"none"}"#
        try scratch.write("kts.json", #"{"algorithm":"KTS-IFC","revision":"Sp800-56Br2","testGroups":["#
            + #"{"tgId":1,"testType":"AFT","scheme":"KTS-OAEP-Party_V-confirmation","kasRole":"responder","l":256,"iutId":"01","serverId":"02","#
            + configuration + #","tests":[{"tcId":1}]},"#
            + #"{"tgId":2,"testType":"AFT","scheme":"KTS-OAEP-basic","kasRole":"initiator","l":256,"iutId":"01","serverId":"02","#
            + configuration + #","tests":[{"tcId":2,"serverN":"C3","serverE":"010001","iutC":"00","dkm":"00"}]}]}"#)
        let report = VectorRunner.check(path: scratch.url.path + "/kts.json")
        #expect(report.passed == 0 && report.failed == 0 && report.skipped == 2)
        #expect(report.skips.map(\.reason) == [
            "KTS scheme KTS-OAEP-Party_V-confirmation: key confirmation is not implemented by this runner (KTS-OAEP-basic only)",
            "the server's private key is not in the vector set: the lab checks the IUT's ciphertext"])
    }

    @Test func malformedHexFailsItsCaseNamingTheField() throws {
        let scratch = try ACVPScratch()
        defer { scratch.remove() }
        try scratch.write("kda.json", Self.rfc5869(dkm: "zz"))
        let report = VectorRunner.check(path: scratch.url.path + "/kda.json")
        #expect(report.failed == 1 && report.failures.first?.got == "field dkm is not hex (tcId 1)")
    }

    @Test func unparseableJSONIsAFileError() throws {
        let scratch = try ACVPScratch()
        defer { scratch.remove() }
        try scratch.write("SHA2-256-1.0/prompt.json", #"{"algorithm":"SHA2-256","revision":"1.0","testGroups":[{"tgId":1,"#)
        let report = VectorRunner.run(roots: [scratch.url.path])
        #expect(report.failed == 1 && report.exitCode == 1)
    }
}
