// The benchmark harness: medians, calibration, failing rows, the catalogue's names. (Timings
// are never asserted: the machine is noisy and timings are benchmarks, not tests.)

import BenchmarkKit
import Foundation
import Testing
import TestSupport

struct HarnessTests {
    @Test func medianOfOddAndEvenCounts() {
        #expect(BenchmarkHarness.median([3, 1, 2]) == 2)
        #expect(BenchmarkHarness.median([4, 1, 3, 2]) == 2.5)
        #expect(BenchmarkHarness.median([]).isNaN)
    }

    @Test(.enabled(if: TestBuild.isOptimized, "heavy unoptimised; swift test -c release runs it"))
    func calibrationRunsTheBodyUntilTheMinimumTime() throws {
        let row = BenchmarkCase("test/sleepless/op") { n in
            var x = 0
            for i in 0..<n { x &+= i }
            blackHole(x)
        }
        let iterations = try BenchmarkHarness.calibrate(row, minTime: 0.01)
        #expect(iterations >= 1)
        let result = try BenchmarkHarness.measure(row, minTime: 0.005, rounds: 3)
        #expect(result.name == "test/sleepless/op" && result.nanosecondsPerOperation > 0 && result.bytesPerSecond == nil)
    }

    @Test(.enabled(if: TestBuild.isOptimized, "heavy unoptimised; swift test -c release runs it"))
    func catalogueNamesAreUniqueAndLayered() throws {
        let names = try BenchmarkCatalog.all().map(\.name)
        #expect(Set(names).count == names.count)
        for required in ["sha256/64B", "sha256/1KiB", "sha256/1MiB", "hmac-sha256/32B", "hmac-sha256/1KiB",
                         "aes128/cbc/encrypt/1KiB", "aes128/cbc/encrypt/1MiB", "aes128/cbc/decrypt/1MiB", "aes128/ctr/1MiB",
                         "x963kdf/sha256/48B", "pbkdf2/sha1/10000", "core/u256/mul", "core/montgomery256/mul",
                         "saltedge/decrypt-authorization", "saltedge/sign-request", "saltedge/connection-keygen", "cm/jwt",
                         "powerauth/sign/possession_knowledge", "powerauth/offline-sign", "powerauth/token-header",
                         "powerauth/ecies/request+response", "powerauth/status-decrypt", "powerauth/activation/client"] {
            #expect(names.contains(required), "missing \(required)")
        }
        #expect(names.allSatisfy { $0.split(separator: "/").count >= 2 })
        #expect(try BenchmarkCatalog.rows(matching: "aes128/ctr").map(\.name) == ["aes128/ctr/1MiB"])
        #expect(try BenchmarkCatalog.rows(matching: nil).count == names.count)
        #expect(try BenchmarkCatalog.rows(matching: "aes128/ctr|cm/jwt").map(\.name) == ["aes128/ctr/1MiB", "cm/jwt"])
    }

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
            #expect(error.row == "test/throws" && error.message.contains("Broken"))
        }
        let failingCheck = BenchmarkCase("test/verify", verifying: { false })
        #expect(throws: BenchmarkFailure(row: "test/verify", message: "the check returned false")) { try failingCheck.run(3) }
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
        let failure = BenchmarkFailure(row: "rsa", message: "set-up failed: KeyRefused()")
        #expect(throws: failure) { try BenchmarkCatalog.family("rsa") { () throws -> [BenchmarkCase] in throw KeyRefused() } }
        #expect(throws: Never.self) { try BenchmarkCatalog.family("empty") { [] } }
    }

    /// Every row's body runs once without failing, except the rows named here (each too slow
    /// to run once per test run): the exclusions are pinned by name, so a new row is run, never
    /// skipped by a pattern it happens to match. A digest, MAC or cipher row's throughput size
    /// is the size in its name. The rows the instruction-count guard measures
    /// (Benchmarks/instruction-baseline.txt) are all in the catalogue, once each.
    @Test(.enabled(if: TestBuild.isOptimized, "heavy unoptimised; swift test -c release runs it"))
    func everyRowRunsOnceAndTheGuardedRowsExist() throws {
        let skipped: Set<String> = ["sha256/1MiB", "aes128/cbc/encrypt/1MiB", "aes128/cbc/decrypt/1MiB", "aes128/ctr/1MiB", "pbkdf2/sha1/10000"]
        let all = try BenchmarkCatalog.all()
        let names = all.map(\.name)
        #expect(Set(names).count == names.count, "a row name is used twice")
        #expect(skipped.isSubset(of: Set(names)), "an excluded row is no longer in the catalogue: \(skipped.subtracting(names).sorted())")
        var ran = 0
        for row in all where !skipped.contains(row.name) {
            try row.run(1)
            ran += 1
        }
        #expect(ran == names.count - skipped.count && ran > 20)
        // The bulk rows (digest, MAC, cipher) report MB/s: their size is the one in their name.
        let sizes = ["32B": 32, "64B": 64, "1KiB": 1024, "16KiB": 16 << 10, "1MiB": 1 << 20]
        let bulk = all.filter { ["sha256", "hmac-sha256", "aes128"].contains(String($0.name.prefix { $0 != "/" })) }
        #expect(bulk.count >= 9)
        for row in bulk {
            let size = row.name.split(separator: "/").last.flatMap { sizes[String($0)] }
            #expect(size != nil && row.bytesPerOperation == size, "\(row.name) reports \(row.bytesPerOperation.map(String.init) ?? "no") bytes per operation")
        }
        let baseline = try String(contentsOfFile: SharedVectors.packageRoot + "/Benchmarks/instruction-baseline.txt", encoding: .utf8)
        let guarded = baseline.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(guarded.count >= 10)
        for name in guarded { #expect(names.contains(name), "\(name) is guarded but not in the catalogue") }
        #expect(Set(guarded).count == guarded.count, "a guarded row is listed twice")
    }
}
