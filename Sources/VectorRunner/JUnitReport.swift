// The JUnit XML form of a run report (`mfa vectors --junit FILE`), for CI systems that show
// test results: one testsuite per file, one testcase per case.

extension RunReport {
    /// The report as JUnit XML: a `testsuites` root with the totals; per file a `testsuite`
    /// named by its path with `tests`, `failures` and `skipped` counts; per case a `testcase`
    /// named by its id, holding `<failure message=…>` or `<skipped message=…>` when it did not
    /// pass. A file-level error is one failed testcase named `(file)`; an unrecognised file is
    /// an empty testsuite whose `system-out` says so. Every text is XML-escaped.
    public func junitXML() -> String {
        var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#,
                     #"<testsuites name="mfa vectors" tests="\#(passed + failed + skipped)" failures="\#(failed)" skipped="\#(skipped)">"#]
        for file in files {
            let name = Self.xmlEscaped(file.path)
            guard file.recognized else {
                lines.append(#"  <testsuite name="\#(name)" tests="0" failures="0" skipped="0">"#)
                lines.append("    <system-out>unrecognized</system-out>")
                lines.append("  </testsuite>")
                continue
            }
            lines.append(#"  <testsuite name="\#(name)" tests="\#(file.passed + file.failed + file.skipped)" failures="\#(file.failed)" skipped="\#(file.skipped)">"#)
            func testcase(_ id: String, _ body: String? = nil) {
                let open = #"    <testcase name="\#(Self.xmlEscaped(id))" classname="\#(name)""#
                lines.append(body.map { "\(open)>\($0)</testcase>" } ?? "\(open)/>")
            }
            for id in file.passedIDs { testcase(id) }
            // Checkers that count a pass without naming it still get one testcase each.
            for index in 0..<max(0, file.passed - file.passedIDs.count) { testcase("passed case \(index + 1)") }
            if let error = file.fileError {
                testcase("(file)", #"<failure message="\#(Self.xmlEscaped(error))"/>"#)
            }
            for failure in file.failures {
                let comment = failure.comment.isEmpty ? "" : failure.comment + ": "
                let message = "\(comment)expected \(failure.expected), got \(failure.got)"
                testcase(failure.id, #"<failure message="\#(Self.xmlEscaped(message))"/>"#)
            }
            for skip in file.skips {
                testcase(skip.id, #"<skipped message="\#(Self.xmlEscaped(skip.reason))"/>"#)
            }
            lines.append("  </testsuite>")
        }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Text made safe for XML content and attribute values: the five markup characters as
    /// entities, tab/newline/return as character references (so attributes keep them), and
    /// every other character XML 1.0 forbids (§2.2 Char) as U+FFFD.
    static func xmlEscaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t": out += "&#9;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
