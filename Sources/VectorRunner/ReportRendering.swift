// The text and JSON forms of a run report (DESIGN.md §3).

import Foundation

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

    /// The same report as one JSON document.
    public func json() -> String {
        let fileObjects: [[String: Any]] = files.map { file in
            var object: [String: Any] = [
                "path": file.path, "status": file.status, "recognized": file.recognized,
                "passed": file.passed, "failed": file.failed, "skipped": file.skipped,
                "failures": file.failures.map { ["id": $0.id, "comment": $0.comment, "expected": $0.expected, "got": $0.got] },
                "skips": file.skips.map { ["id": $0.id, "reason": $0.reason] },
                "notes": file.notes.map { ["id": $0.id, "text": $0.text] },
            ]
            if let error = file.fileError { object["error"] = error }
            return object
        }
        let document: [String: Any] = ["roots": roots, "files": fileObjects, "passed": passed, "failed": failed, "skipped": skipped]
        guard let data = try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    private static func clip(_ text: String) -> String {
        text.count > 96 ? String(text.prefix(96)) + "…" : text
    }
}
