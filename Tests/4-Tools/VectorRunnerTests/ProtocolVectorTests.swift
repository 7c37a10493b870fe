// The protocol vectors this project records itself (Vectors/protocols, written by
// Vectors/generate_protocols.py from the specs, not by the engine): `mfa vectors` must
// recognise every kind, pass every case, say FAIL for a wrong answer or a wrongly accepted
// invalid case, and never pass a kind it does not know.

import Foundation
import Testing
import TestSupport
import VectorRunner

struct ProtocolVectorTests {
    static let folder = SharedVectors.packageRoot + "/Vectors/protocols"

    /// The protocol kinds cheap enough for a debug build (no RSA private operation).
    static let lightFiles = ["powerauth-kdf.json", "powerauth-kdf-internal.json", "powerauth-signature.json", "powerauth-token.json",
                             "powerauth-status.json", "powerauth-vault.json", "cm-bearer-token.json", "cm-qr.json",
                             "bn254cx-g1.json", "bn254cx-g2.json"]

    @Test func lightProtocolFilesAreRecognisedAndPass() {
        for name in Self.lightFiles {
            let report = VectorRunner.check(path: Self.folder + "/" + name)
            #expect(report.recognized, "\(name) must be recognised")
            #expect(report.failed == 0 && report.passed >= 10, "\(name): \(report.passed) passed, \(report.failed) failed")
        }
    }

    @Test(.enabled(if: TestBuild.isOptimized, "RSA and P-256 heavy unoptimised; swift test -c release runs it"))
    func everyProtocolFilePasses() {
        let report = VectorRunner.run(roots: [Self.folder])
        #expect(report.files.count == 20)
        #expect(report.files.allSatisfy { $0.recognized })
        #expect(report.failed == 0)
        #expect(report.passed >= 384)
        #expect(report.exitCode == 0)
    }

    @Test func wrongAnswersFailAndUnknownKindsAreSkipped() throws {
        let temporary = try TemporaryDirectory("protocols")
        defer { temporary.remove() }
        let folder = URL(fileURLWithPath: temporary.appending("store"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func write(_ name: String, _ algorithm: String, _ cases: [String]) throws {
            let json = #"{"schema":"swiftmfa-vectors-v1","algorithm":"\#(algorithm)","cases":["# + cases.joined(separator: ",") + "]}"
            try json.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        // powerauth-kdf.json #1, then the same with the last output byte changed.
        let kdf = #"{"id":%d,"comment":"%@","result":"valid","inputs":{"index":"0","key":"d5ba3ad34c5bf396feb584bb0fd792fd"},"outputs":{"key":"ef510bab52e4f8e964acaccc1e3b1b8%@"}}"#
        try write("kdf.json", "POWERAUTH-KDF", [String(format: kdf, 1, "right", "2"), String(format: kdf, 2, "wrong", "3")])
        // powerauth-status.json #1, a good blob, recorded as invalid: accepting it must fail.
        let status = #"{"id":1,"comment":"good blob marked invalid","result":"invalid","inputs":{"challenge":"892ff165d5f3e14bce20ba90eb7e704f","#
            + #""ctrData":"307c1de145021936e71f2b6a4d8d12aa","encryptedStatusBlob":"4c0a648482310672cabfbf132c1acc673ce3216c75cec096d97ecb553e9fb139","#
            + #""nonce":"7aa1103da287c88617d595d426d432cf","transportKey":"4364dd5c8cc5260b10893add2df48e4f"},"outputs":{}}"#
        try write("status.json", "POWERAUTH-STATUS", [status])
        try write("future.json", "POWERAUTH-SOMETHING-NEW", [String(format: kdf, 1, "right", "2")])

        let report = VectorRunner.run(roots: [folder.path])
        #expect(report.passed == 1)
        #expect(report.failed == 2)
        #expect(report.exitCode == 1)
        let lines = report.text(verbose: false).split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("FAIL ") && $0.hasSuffix("kdf.json: 1 passed, 1 failed, 0 skipped") })
        #expect(lines.contains { $0.contains("kdf.json #2 wrong: expected ef510bab") && $0.hasSuffix("1b82") })
        #expect(lines.contains { $0.contains("status.json #1 good blob marked invalid: expected rejected, got accepted") })
        #expect(lines.contains { $0.hasPrefix("SKIP ") && $0.hasSuffix("future.json: unrecognized") })
    }
}
