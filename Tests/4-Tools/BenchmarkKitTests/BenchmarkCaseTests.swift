// A benchmark row's failure: reported with the row's name, never timed as if the operation
// had worked. (Nothing here is timed.)

@testable import BenchmarkKit
import Testing

struct BenchmarkCaseTests {
    /// A row whose operation throws, whose check fails, or whose rejection path accepts is a
    /// failure of that row, not a timing of the failure: measure, calibrate and a parallel
    /// round all throw it, naming the row.
    @Test func aFailingRowIsReportedNotTimed() {
        struct Broken: Error {}
        let throwing = BenchmarkCase("test/throws", repeating: { () throws -> Int in throw Broken() })
        #expect(throws: BenchmarkFailure.self) { try BenchmarkHarness.measure(throwing, minTime: 0.001, rounds: 1) }
        do {
            _ = try BenchmarkHarness.calibrate(throwing, minTime: 0.001)
            Issue.record("calibrate timed a row that throws")
        } catch {
            #expect(error.row == "test/throws" && error.reason.contains("Broken"))
        }
        let failingCheck = BenchmarkCase("test/verify", verifying: { false })
        #expect(throws: BenchmarkFailure(row: "test/verify", reason: "the check returned false")) { try failingCheck.run(3) }
        let passingCheck = BenchmarkCase("test/verify-ok", verifying: { true })
        #expect(throws: Never.self) { try passingCheck.run(3) }
        let accepted = BenchmarkCase("test/reject", rejecting: {})
        #expect(throws: BenchmarkFailure.self) { try accepted.run(1) }
        let rejected = BenchmarkCase("test/reject-ok", rejecting: { throw Broken() })
        #expect(throws: Never.self) { try rejected.run(2) }
    }

    /// A family whose set-up throws is one failure naming the family (the catalog's rows are
    /// built this way), not an empty list of rows.
    @Test func aFamilyWhoseSetUpFailsIsReported() {
        struct KeyRefused: Error {}
        let failure = BenchmarkFailure(row: "rsa", reason: "set-up failed: KeyRefused()")
        #expect(throws: failure) { try BenchmarkCatalog.family("rsa") { () throws -> [BenchmarkCase] in throw KeyRefused() } }
        #expect(throws: Never.self) { try BenchmarkCatalog.family("empty") { [] } }
    }
}
