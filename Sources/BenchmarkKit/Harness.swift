// Timing without dependencies: warm-up, calibrated rounds of at least a minimum time, the
// median round (BearSSL test_speed.c style, docs/design.md §5). Timings are benchmarks, never tests.
// A row whose set-up or operation fails reports that failure instead of timing the failure
// path as if it were the operation.

#if canImport(Glibc)
import Glibc
#endif

/// A benchmark row that could not be timed because its set-up or its operation failed.
public struct BenchmarkFailure: Error, Equatable, CustomStringConvertible {
    /// The row (or, for a set-up failure, the family of rows) that failed.
    public let row: String
    /// What failed, in words.
    public let message: String

    /// A failure of `row`, described by `message`.
    public init(row: String, message: String) {
        self.row = row
        self.message = message
    }

    /// `row: message`.
    public var description: String { "\(row): \(message)" }
}

/// One benchmark row: a name `layer/algorithm/op[/size]` and a body that performs the
/// operation `iterations` times, throwing if any of them fails.
public struct BenchmarkCase: Sendable {
    /// The row name, e.g. `sha256/1MiB`.
    public let name: String
    /// Bytes processed per operation, for bulk rows (MB/s is then reported).
    public let bytesPerOperation: Int?
    /// Performs the operation `iterations` times; throws the first failure.
    public let body: @Sendable (_ iterations: Int) throws -> Void

    /// A row.
    public init(_ name: String, bytesPerOperation: Int? = nil, body: @escaping @Sendable (_ iterations: Int) throws -> Void) {
        self.name = name
        self.bytesPerOperation = bytesPerOperation
        self.body = body
    }

    /// A row that calls `operation` once per iteration and consumes its result; an error from
    /// `operation` ends the round as the row's failure.
    public init<Result>(_ name: String, bytesPerOperation: Int? = nil, repeating operation: @escaping @Sendable () throws -> Result) {
        self.init(name, bytesPerOperation: bytesPerOperation) { iterations in
            for _ in 0..<iterations { blackHole(try operation()) }
        }
    }

    /// A row whose operation is a check that must pass (a signature verification): `false` is
    /// the row's failure, so a broken fixture is never timed as a fast rejection.
    public init(_ name: String, verifying check: @escaping @Sendable () throws -> Bool) {
        self.init(name) { iterations in
            for _ in 0..<iterations {
                guard try check() else { throw BenchmarkFailure(row: name, message: "the check returned false") }
            }
        }
    }

    /// A row whose operation must fail (a rejection path, timed on purpose): an operation that
    /// succeeds is the row's failure.
    public init(_ name: String, rejecting operation: @escaping @Sendable () throws -> Void) {
        self.init(name) { iterations in
            for _ in 0..<iterations {
                var rejected = false
                do { try operation() } catch { rejected = true }
                blackHole(rejected)
                guard rejected else { throw BenchmarkFailure(row: name, message: "the operation was accepted; it must be rejected") }
            }
        }
    }

    /// Runs the body `iterations` times, any error as a ``BenchmarkFailure`` of this row.
    public func run(_ iterations: Int) throws(BenchmarkFailure) {
        do {
            try body(iterations)
        } catch let failure as BenchmarkFailure {
            throw failure
        } catch {
            throw BenchmarkFailure(row: name, message: "\(error)")
        }
    }
}

/// A measured row.
public struct BenchmarkResult: Sendable {
    /// The row name.
    public let name: String
    /// Median nanoseconds per operation.
    public let nanosecondsPerOperation: Double
    /// Bytes per operation for bulk rows.
    public let bytesPerOperation: Int?

    /// Operations per second.
    public var operationsPerSecond: Double { 1e9 / nanosecondsPerOperation }
    /// Bytes per second for bulk rows.
    public var bytesPerSecond: Double? { bytesPerOperation.map { Double($0) * operationsPerSecond } }
}

/// The timing loop.
public enum BenchmarkHarness {
    /// Monotonic seconds.
    public static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }

    /// Seconds taken by one round of `iterations` operations. Throws the row's failure: a row
    /// whose operation fails is never timed as if it had worked.
    public static func round(_ benchmark: BenchmarkCase, iterations: Int) throws(BenchmarkFailure) -> Double {
        let start = now()
        try benchmark.run(iterations)
        return now() - start
    }

    /// The number of iterations that makes one round last at least `minTime` seconds, found
    /// while warming up.
    public static func calibrate(_ benchmark: BenchmarkCase, minTime: Double) throws(BenchmarkFailure) -> Int {
        var iterations = 1
        while true {
            let elapsed = try round(benchmark, iterations: iterations)
            if elapsed >= minTime || iterations >= 1 << 40 { return iterations }
            let factor = elapsed > 0 ? min(10, max(2, minTime * 1.2 / elapsed)) : 10
            iterations = Int((Double(iterations) * factor).rounded(.up))
        }
    }

    /// Warm-up and calibration, then `rounds` rounds; the median round gives the result.
    public static func measure(_ benchmark: BenchmarkCase, minTime: Double, rounds: Int = 5) throws(BenchmarkFailure) -> BenchmarkResult {
        let iterations = try calibrate(benchmark, minTime: minTime)
        var times: [Double] = []
        for _ in 0..<max(rounds, 1) { times.append(try round(benchmark, iterations: iterations) / Double(iterations)) }
        return BenchmarkResult(name: benchmark.name, nanosecondsPerOperation: median(times) * 1e9,
                               bytesPerOperation: benchmark.bytesPerOperation)
    }

    /// Runs `iterations` operations untimed, for an instruction counter: the function's name is
    /// what `Benchmarks/instruction-counts` tells callgrind to count inside (and to dump after),
    /// so it must stay a real call — never inlined, never renamed without the script.
    @inline(never)
    public static func instructionCountedRun(_ benchmark: BenchmarkCase, iterations: Int) throws(BenchmarkFailure) {
        try benchmark.run(iterations)
    }

    /// The median (the mean of the middle two for an even count).
    public static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

/// Sinks the optimiser must assume are read elsewhere: 64 slots a cache line apart, one per
/// thread (by a hash of the thread's identity), so rows run on several threads at once
/// (`Parallel.swift`) do not bounce one cache line between cores on every operation.
nonisolated(unsafe) public let benchmarkSinks: UnsafeMutablePointer<UInt8> = {
    let sinks = UnsafeMutablePointer<UInt8>.allocate(capacity: 64 * 64)
    sinks.initialize(repeating: 0, count: 64 * 64)
    return sinks
}()

/// Consumes a value so the optimiser cannot drop the work that produced it: its first byte
/// is folded into the calling thread's sink.
@inline(never)
public func blackHole<T>(_ value: T) {
    let slot = Int(truncatingIfNeeded: (UInt64(pthread_self()) &* 0x9E37_79B9_7F4A_7C15) >> 58)
    withUnsafeBytes(of: value) { benchmarkSinks[64 * slot] ^= $0.first ?? 0 }
}
