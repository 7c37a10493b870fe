// What a vector run found: per case, per file, in total (docs/design.md §3).

/// One failed case.
public struct CaseFailure: Sendable, Equatable {
    /// The case identifier (`tcId`, `COUNT`, line number or our `id`).
    public let id: String
    /// The case comment.
    public let comment: String
    /// What the vector expects.
    public let expected: String
    /// What the engine produced.
    public let got: String
}

/// The outcome of one file.
public struct FileReport: Sendable {
    /// The file's path as given.
    public let path: String
    /// False when the file's kind is not understood (`SKIP <path>: unrecognized`).
    public let recognized: Bool
    /// Passed cases.
    public var passed = 0
    /// The ids of the passed cases that a checker named (for per-case reports such as JUnit;
    /// a checker that counts a pass without an id adds none).
    public var passedIDs: [String] = []
    /// Failed cases, with details.
    public var failures: [CaseFailure] = []
    /// Cases deliberately not run, with the reason.
    public var skips: [(id: String, reason: String)] = []
    /// A problem with the file as a whole (it could not be parsed, or declared counts mismatch).
    public var fileError: String?
    /// Remarks that change no count, such as a flag newer than this runner on a case that was
    /// still judged on its result.
    public var notes: [(id: String, text: String)] = []

    /// The number of failed cases (a file error counts as one).
    public var failed: Int { failures.count + (fileError == nil ? 0 : 1) }
    /// The number of skipped cases.
    public var skipped: Int { skips.count }

    /// `PASS`, `FAIL` or `SKIP`.
    public var status: String {
        if !recognized { return "SKIP" }
        if failed > 0 { return "FAIL" }
        return passed > 0 ? "PASS" : "SKIP"
    }

    /// A recognised file's report.
    init(path: String) {
        self.path = path
        recognized = true
    }

    /// The report of a file whose kind is not understood.
    static func unrecognized(_ path: String) -> FileReport {
        FileReport(path: path, recognized: false)
    }

    private init(path: String, recognized: Bool) {
        self.path = path
        self.recognized = recognized
    }
}

/// The outcome of a run.
public struct RunReport: Sendable {
    /// The roots that were read.
    public let roots: [String]
    /// One report per file, in path order.
    public let files: [FileReport]

    /// Passed cases in total.
    public var passed: Int { files.reduce(0) { $0 + $1.passed } }
    /// Failed cases in total.
    public var failed: Int { files.reduce(0) { $0 + $1.failed } }
    /// Skipped cases in total.
    public var skipped: Int { files.reduce(0) { $0 + $1.skipped } }
    /// Exit status: 0 only when nothing failed and something passed.
    public var exitCode: Int32 { failed == 0 && passed > 0 ? 0 : 1 }
}

/// Records the cases of one file as a checker runs them.
struct CaseLog {
    private(set) var report: FileReport

    init(path: String) {
        report = FileReport(path: path)
    }

    /// Counts a passed case.
    mutating func pass() {
        report.passed += 1
    }

    /// Counts a passed case and keeps its id.
    mutating func pass(_ id: String) {
        report.passed += 1
        report.passedIDs.append(id)
    }

    /// Records a failed case.
    mutating func fail(_ id: String, _ comment: String, expected: String, got: String) {
        report.failures.append(CaseFailure(id: id, comment: comment, expected: expected, got: got))
    }

    /// Records a case deliberately not run.
    mutating func skip(_ id: String, reason: String) {
        report.skips.append((id, reason))
    }

    /// Passes when the bytes are equal, fails with both in hex otherwise. A nil `got` (the
    /// operation under test failed) always fails, also when `expected` is empty.
    mutating func expect(_ got: [UInt8]?, equals expected: [UInt8], _ id: String, _ comment: String = "") {
        if let got, got == expected {
            pass(id)
        } else {
            fail(id, comment, expected: hex(expected), got: got.map(hex) ?? "operation failed")
        }
    }

    /// Passes when `condition` holds.
    mutating func expect(_ condition: Bool, _ id: String, _ comment: String = "", expected: String, got: String) {
        if condition { pass(id) } else { fail(id, comment, expected: expected, got: got) }
    }

    /// Records a remark on a case that was still judged.
    mutating func note(_ id: String, _ text: String) {
        report.notes.append((id, text))
    }

    /// The array `name` of a file (its cases, or a group of them). A missing or non-array value
    /// is a file error, and no entry is returned: a dropped group never looks like a pass.
    mutating func array(_ value: JSONValue?, _ name: String) -> [JSONValue] {
        guard let array = value?.array else {
            fileError("\(name) is missing or not an array")
            return []
        }
        return array
    }

    /// The array `name` of strings; a missing group or a non-string entry is a file error.
    mutating func strings(_ value: JSONValue?, _ name: String) -> [String] {
        let entries = array(value, name)
        let strings = entries.compactMap(\.string)
        if strings.count != entries.count { fileError("\(name) holds an entry that is not a string") }
        return strings
    }

    /// Records an error from the file as a whole (a second one is added to the first).
    mutating func fileError(_ message: String) {
        report.fileError = report.fileError.map { $0 + "; " + message } ?? message
    }
}

/// Lower-case hex (through the vector side's own encoder).
func hex(_ bytes: [UInt8]) -> String {
    bytes.isEmpty ? "(empty)" : HexText.string(bytes)
}

import VectorFormats
