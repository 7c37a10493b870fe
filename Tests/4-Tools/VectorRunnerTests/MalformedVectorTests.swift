// Hand-written edge and malformed vector files: a case whose operation fails must fail (an
// empty expected value is no excuse), an "invalid" case passes only when its inputs were read
// correctly and the operation refused them, a malformed field is a failure, and a missing group
// or an unsupported hash is reported, never silently dropped.

import Foundation
import Testing
import TestSupport
import VectorRunner

struct MalformedVectorTests {
    /// Writes `text` as `name` in a fresh directory and runs the runner on that one file.
    private func check(_ name: String, _ text: String) throws -> FileReport {
        let temporary = try TemporaryDirectory("malformed")
        defer { temporary.remove() }
        let path = temporary.appending(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return VectorRunner.check(path: path)
    }

    /// A file of our own schema with the given cases.
    private func own(_ algorithm: String, _ cases: [String]) -> String {
        #"{"schema":"swiftmfa-vectors-v1","algorithm":"\#(algorithm)","cases":["# + cases.joined(separator: ",") + "]}"
    }

    @Test func anOwnCaseWhoseOperationFailsFailsEvenWhenTheExpectedValueIsEmpty() throws {
        // A 5-byte AES key cannot encrypt anything; the recorded ciphertext is empty.
        let report = try check("aes-ecb.json", own("AES-ECB", [#"{"id":1,"comment":"bad key","result":"valid","inputs":{"key":"0102030405","pt":""},"outputs":{"ct":""}}"#]))
        #expect(report.recognized)
        #expect(report.passed == 0)
        #expect(report.failed == 1)
    }

    @Test func anOwnInvalidCaseWithAMalformedFieldIsNotCountedAsPassed() throws {
        let cbc = try check("aes-cbc.json", own("AES-CBC-PKCS7", [
            #"{"id":1,"comment":"ct not hex","result":"invalid","inputs":{"key":"000102030405060708090a0b0c0d0e0f","iv":"000102030405060708090a0b0c0d0e0f","ct":"zz"},"outputs":{}}"#,
        ]))
        #expect(cbc.passed == 0)
        #expect(cbc.failed == 1)
        #expect(cbc.failures.first?.got.contains("not hex") == true)
        let oaep = try check("oaep.json", own("RSAES-OAEP", [
            #"{"id":1,"comment":"key not hex","result":"invalid","inputs":{"privateKey":"zz","hash":"SHA-256","mgf1Hash":"SHA-256","label":"","ct":"00"},"outputs":{}}"#,
        ]))
        #expect(oaep.passed == 0)
        #expect(oaep.failed == 1)
        let verify = try check("ecdsa.json", own("ECDSA-P256-SHA256-VERIFY", [
            #"{"id":1,"comment":"signature missing","result":"invalid","inputs":{"publicKey":"04","msg":""},"outputs":{}}"#,
        ]))
        #expect(verify.passed == 0)
        #expect(verify.failed == 1)
    }

    /// A real Wycheproof OAEP key with hand-written cases: a valid case with an empty message and
    /// a wrong ciphertext, an invalid case whose ct is not hex, a valid case whose label is not
    /// hex, and a group naming a hash we do not know.
    @Test(.enabled(if: SharedVectors.isAvailable, "needs ../shared/vectors"))
    func wycheproofOAEPFailuresAreNeverPasses() throws {
        let source = try Data(contentsOf: URL(fileURLWithPath: SharedVectors.path("wycheproof/testvectors_v1/rsa_oaep_2048_sha256_mgf1sha256_test.json")))
        let document = try JSONSerialization.jsonObject(with: source) as? [String: Any]
        let first = (document?["testGroups"] as? [[String: Any]])?.first
        let key = try #require(first?["privateKeyPkcs8"] as? String)
        let realCT = try #require((first?["tests"] as? [[String: Any]])?.first?["ct"] as? String)
        func test(_ id: Int, _ result: String, ct: String, label: String) -> String {
            #"{"tcId":\#(id),"comment":"c\#(id)","flags":[],"msg":"","ct":"\#(ct)","label":"\#(label)","result":"\#(result)"}"#
        }
        func group(_ sha: String, _ tests: [String]) -> String {
            #"{"type":"RsaesOaepDecrypt","keySize":2048,"sha":"\#(sha)","mgf":"MGF1","mgfSha":"SHA-256","privateKeyPkcs8":"\#(key)","tests":["#
                + tests.joined(separator: ",") + "]}"
        }
        let json = #"{"algorithm":"RSAES-OAEP","schema":"rsaes_oaep_decrypt_schema_v1.json","numberOfTests":4,"testGroups":["#
            + group("SHA-256", [test(1, "valid", ct: "00", label: ""), test(2, "invalid", ct: "zz", label: ""), test(3, "valid", ct: realCT, label: "zz")])
            + "," + group("SHA3-999", [test(4, "valid", ct: realCT, label: "")]) + "]}"
        let report = try check("rsa_oaep_2048_sha256_mgf1sha256_test.json", json)
        #expect(report.recognized)
        #expect(report.passed == 0)
        #expect(report.failures.map { $0.id }.sorted() == ["#1", "#2", "#3"])
        #expect(report.skips.map { $0.id } == ["#4"])
        #expect(report.skips.first?.reason.contains("SHA3-999") == true)
    }

    @Test func aWycheproofECDSAGroupWhoseKeyIsNotHexIsAFileError() throws {
        let json = #"{"algorithm":"ECDSA","schema":"ecdsa_verify_schema_v1.json","numberOfTests":1,"testGroups":[{"type":"EcdsaVerify","#
            + #""publicKey":{"type":"EcPublicKey","curve":"secp256r1","uncompressed":"04zz"},"sha":"SHA-256","#
            + #""tests":[{"tcId":1,"comment":"","flags":[],"msg":"","sig":"3000","result":"invalid"}]}]}"#
        let report = try check("ecdsa_secp256r1_sha256_test.json", json)
        #expect(report.recognized)
        #expect(report.passed == 0)
        #expect(report.skipped == 0)
        #expect(report.fileError != nil)
    }

    @Test func aCAVPSignatureRecordWithAnUnloadableKeyFailsAndAnUnknownHashIsSkipped() throws {
        let text = """
        # "SigVer PKCS#1 Ver 1.5" information
        [mod = 1024]

        n = 00

        SHAAlg = SHA256
        e = 03
        Msg = 00
        S = 01
        Result = F

        SHAAlg = SHA3-256
        e = 03
        Msg = 00
        S = 01
        Result = F

        """
        let report = try check("SigVer15_186-3.rsp", text)
        #expect(report.recognized)
        #expect(report.passed == 0)
        #expect(report.failed == 1)
        #expect(report.skipped == 1)
        #expect(report.skips.first?.reason.contains("SHA3-256") == true)
    }

    @Test func aMissingOrMistypedCaseGroupIsAFileError() throws {
        let crc = try check("crc16-arc.json", #"{"cases":{"inputAscii":"a","crc16":"0xE8C1"}}"#)
        #expect(crc.recognized)
        #expect(crc.fileError != nil)
        let codes = try check("activation-code-cases.json", #"{"validActivationCodes":[]}"#)
        #expect(codes.recognized)
        #expect(codes.fileError != nil)
    }
}
