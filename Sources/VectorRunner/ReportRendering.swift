// The text and JSON forms of a run report (docs/design.md §3).

import FoundationEssentials

extension RunReport {
    /// The text report: the roots read, one line per file, up to 20 note lines and up to 20
    /// failure lines per file (and skip reasons when `verbose`), then the totals alone on the
    /// last line.
    public func text(verbose: Bool) -> String {
        var lines = ["roots: " + roots.joined(separator: ", ")]
        for file in files {
            if !file.recognized {
                lines.append("SKIP \(file.path): unrecognized")
                continue
            }
            lines.append("\(file.status) \(file.path): \(file.passed) passed, \(file.failed) failed, \(file.skipped) skipped")
            if let error = file.fileError {
                lines.append("  \(file.path): \(error)")
            }
            for note in file.notes.prefix(20) {
                lines.append("  note: \(file.path) \(note.id): \(note.text)")
            }
            for failure in file.failures.prefix(20) {
                let comment = failure.comment.isEmpty ? "" : " " + failure.comment
                lines.append("  \(file.path) \(failure.id)\(comment): expected \(Self.clip(failure.expected)), got \(Self.clip(failure.got))")
            }
            if verbose {
                for skip in file.skips {
                    lines.append("  \(file.path) \(skip.id): skipped: \(skip.reason)")
                }
            }
        }
        lines.append("\(passed) passed, \(failed) failed, \(skipped) skipped")
        return lines.joined(separator: "\n")
    }

    /// The same report as one JSON document (keys sorted; `error` only for a file that failed
    /// to load).
    public func json() -> String {
        let document = JSONDocument(
            roots: roots, passed: passed, failed: failed, skipped: skipped,
            files: files.map { file in
                JSONDocument.File(path: file.path, status: file.status, recognized: file.recognized, passed: file.passed,
                                  failed: file.failed, skipped: file.skipped,
                                  failures: file.failures.map { .init(id: $0.id, comment: $0.comment, expected: $0.expected, got: $0.got) },
                                  skips: file.skips.map { .init(id: $0.id, reason: $0.reason) },
                                  notes: file.notes.map { .init(id: $0.id, text: $0.text) }, error: file.fileError,
                                  cases: file.passedIDs.map { .init(id: $0, result: "passed", detail: nil) }
                                      + file.failures.map { .init(id: $0.id, result: "failed", detail: "expected \($0.expected), got \($0.got)") }
                                      + file.skips.map { .init(id: $0.id, result: "skipped", detail: $0.reason) })
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return String(decoding: try encoder.encode(document), as: UTF8.self)
        } catch {
            // Strings and integers always encode; should that ever change, say so in the output.
            return #"{"error":"the report could not be encoded as JSON"}"#
        }
    }

    /// The JSON shape of a run (docs/design.md §3).
    private struct JSONDocument: Encodable {
        struct Failure: Encodable { let id, comment, expected, got: String }
        struct Skip: Encodable { let id, reason: String }
        struct Note: Encodable { let id, text: String }
        /// One case: `passed`, `failed` (with what was expected and got) or `skipped` (with why).
        struct Case: Encodable { let id, result: String; let detail: String? }
        struct File: Encodable {
            let path, status: String
            let recognized: Bool
            let passed, failed, skipped: Int
            let failures: [Failure]
            let skips: [Skip]
            let notes: [Note]
            let error: String?
            let cases: [Case]
        }
        let roots: [String]
        let passed, failed, skipped: Int
        let files: [File]
    }

    private static func clip(_ text: String) -> String {
        text.count > 96 ? String(text.prefix(96)) + "…" : text
    }
}
