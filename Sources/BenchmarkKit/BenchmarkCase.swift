// A benchmark row and the one way it fails: a row whose set-up or operation fails reports
// that failure instead of timing the failure path as if it were the operation.

/// Why a row could not be measured: its set-up, or one of its operations, failed.
public struct BenchmarkFailure: Error, Equatable, CustomStringConvertible {
    /// The row (or, for a set-up failure, the family of rows) that failed.
    public let row: String
    /// What failed, in words.
    public let reason: String

    /// A failure of `row` for `reason`.
    public init(row: String, reason: String) {
        self.row = row
        self.reason = reason
    }

    /// `row: reason`.
    public var description: String { "\(row): \(reason)" }
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
                guard try check() else { throw BenchmarkFailure(row: name, reason: "the check returned false") }
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
                guard rejected else { throw BenchmarkFailure(row: name, reason: "the operation was accepted; it must be rejected") }
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
            throw BenchmarkFailure(row: name, reason: "\(error)")
        }
    }
}
