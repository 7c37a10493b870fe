// A status-blob case whose local counter is not within the server's look-ahead window carries
// no counterDistance: that absence means "not found" and is checked as such, not read as a
// malformed case. The cases are the official file's first case with its local counter replaced.

import Foundation
import Testing
import TestSupport
import VectorRunner

@Suite struct PowerAuthStatusDistanceTests {
    /// The official file's first case, with `ctrData` replaced and `counterDistance` set as
    /// `distance` says (nil: absent).
    static func file(ctrData: String?, distance: Any?, in folder: String) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: SharedVectors.path("powerauth/activation-status-blob-data.json")))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var first = try #require((json["data"] as? [[String: Any]])?.first)
        var input = try #require(first["input"] as? [String: Any]), output = try #require(first["output"] as? [String: Any])
        if let ctrData { input["ctrData"] = ctrData }
        output["counterDistance"] = distance
        (first["input"], first["output"]) = (input, output)
        let path = folder + "/activation-status-blob-data.json"
        try JSONSerialization.data(withJSONObject: ["description": "one case", "data": [first]]).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(.enabled(if: SharedVectors.isAvailable, "needs ../shared/vectors"))
    func anAbsentDistanceIsNotFoundAndCheckedAsSuch() throws {
        let temporary = try TemporaryDirectory("status-distance")
        defer { temporary.remove() }
        let folder = temporary.appending("powerauth")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let stranger = Data(repeating: 0x5A, count: 16).base64EncodedString()   // a counter no window reaches
        // (local counter, expected distance, passes?)
        let cases: [(String?, Any?, Bool)] = [
            (stranger, nil, true), (stranger, NSNull(), true), (stranger, "0", false),
            (nil, nil, false),             // the original counter is found at distance 0: "not found" is wrong
            (nil, "0", true), (nil, 0, true), (nil, "1", false),
        ]
        for (counter, distance, passes) in cases {
            let report = VectorRunner.check(path: try Self.file(ctrData: counter, distance: distance, in: folder))
            #expect(report.recognized && report.fileError == nil, "\(String(describing: report.fileError))")
            // Each field of the case is one check: nine in all, the distance one of them.
            #expect((report.passed, report.failed) == (passes ? (9, 0) : (8, 1)),
                    "ctrData \(counter ?? "original"), distance \(String(describing: distance)): \(report.passed) passed, \(report.failures)")
        }
    }
}
