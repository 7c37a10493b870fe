// Our recorded BN254CX pairing, M-Pin and DVS vectors (Vectors/protocols/bn254cx-pairing.json,
// mpin-passes.json, mpin-dvs.json, written by Vectors/generate_protocols_mpin.py with its own
// pairing): `mfa vectors` must recognise them without ../shared, pass every case, and fail a
// case whose recorded output or verdict is changed.

import Foundation
import Testing
import TestSupport
import VectorRunner

struct MPinProtocolVectorTests {
    static let folder = SharedVectors.packageRoot + "/Vectors/protocols"
    static let files = [("bn254cx-pairing.json", 14), ("mpin-passes.json", 9), ("mpin-dvs.json", 7)]

    @Test func pairingMPinAndDVSFilesAreRecognisedAndPass() {
        for (name, count) in Self.files {
            let report = VectorRunner.check(path: Self.folder + "/" + name)
            #expect(report.recognized, "\(name) must be recognised")
            #expect(report.failed == 0, "\(name): \(report.failures.prefix(3)) \(report.fileError ?? "")")
            #expect(report.passed == count && report.skipped == 0, "\(name): \(report.passed) passed, \(report.skipped) skipped")
        }
    }

    /// One changed output byte, or a refused case recorded as accepted (or the reverse), must
    /// fail exactly that case; the untouched cases still pass.
    @Test func aChangedOutputOrVerdictFailsItsCase() throws {
        let temporary = try TemporaryDirectory("mpin-vectors")
        defer { temporary.remove() }
        let folder = URL(fileURLWithPath: temporary.appending("store"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // file → [(case id, output field to change, or nil to flip the recorded verdict)]
        let changes: [String: [(Int, String?)]] = [
            "bn254cx-pairing.json": [(1, "gt"), (14, "gt")],
            "mpin-passes.json": [(1, "v"), (4, nil), (6, "onePassV"), (8, "kangarooF"), (2, nil)],
            "mpin-dvs.json": [(1, "v"), (5, nil), (2, "y")],
        ]
        for (name, edits) in changes {
            let data = try Data(contentsOf: URL(fileURLWithPath: Self.folder + "/" + name))
            var document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            var cases = try #require(document["cases"] as? [[String: Any]])
            for (id, field) in edits {
                let index = try #require(cases.firstIndex { $0["id"] as? Int == id })
                if let field {
                    var outputs = try #require(cases[index]["outputs"] as? [String: Any])
                    let hex = try #require(outputs[field] as? String)
                    let last = try #require(hex.last)
                    outputs[field] = String(hex.dropLast()) + (last == "0" ? "1" : "0")
                    cases[index]["outputs"] = outputs
                } else {
                    cases[index]["result"] = cases[index]["result"] as? String == "valid" ? "invalid" : "valid"
                }
            }
            document["cases"] = cases
            try JSONSerialization.data(withJSONObject: document).write(to: folder.appendingPathComponent(name))
        }
        for (name, count) in Self.files {
            let report = VectorRunner.check(path: folder.appendingPathComponent(name).path)
            let expectedIDs = Set((changes[name] ?? []).map { "#\($0.0)" })
            #expect(report.recognized, "\(name) must be recognised")
            #expect(Set(report.failures.map(\.id)) == expectedIDs, "\(name): failed \(report.failures.map(\.id))")
            #expect(report.failed == expectedIDs.count && report.passed == count - expectedIDs.count && report.skipped == 0,
                    "\(name): \(report.passed) passed, \(report.failed) failed")
        }
    }
}
