// Triage of memcheck reports (ConstantTime/run): each report is attributed to its site, the
// innermost frame with a line in the root package's Sources/, and sorted into
//   canary      the deliberate leak in Canary.swift (must be found, or the run proves nothing),
//   declared    the site's line or a frame up to it names a `Vartime` function: a leak the code
//               already declares (house style: what leaks is on the function's doc line),
//   accepted    matched by a rule in ConstantTime/accepted.txt, whose reason is printed,
//   unexplained anything else: the run fails.
import Foundation

struct Report {
    var kind: String
    /// Function name and `(file:line)` of each frame, innermost first, up to the allocation part.
    var frames: [(function: String, file: String?, line: Int)] = []
}

struct AcceptanceRule {
    let file: String
    let fragment: String
    let reason: String
}

enum Triage {
    /// Reads one demangled valgrind log into its reports.
    static func reports(inLog text: String) -> [Report] {
        var reports: [Report] = []
        var current: Report?
        var inOrigin = false
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard rawLine.hasPrefix("==") else { continue }
            let body = rawLine.drop(while: { $0 != " " }).dropFirst()
            if body.isEmpty {
                if let report = current { reports.append(report) }
                current = nil
                inOrigin = false
            } else if !body.hasPrefix(" ") {
                if let report = current { reports.append(report) }
                current = Report(kind: String(body))
                inOrigin = false
            } else if body.hasPrefix(" Uninitialised value was created") {
                inOrigin = true
            } else if !inOrigin, current != nil, let frame = frame(body) {
                current?.frames.append(frame)
            }
        }
        if let report = current { reports.append(report) }
        return reports
    }

    /// `   at 0x…: function (file:line)` → its parts; file is relative to the repository root.
    static func frame(_ body: Substring) -> (function: String, file: String?, line: Int)? {
        let trimmed = body.drop(while: { $0 == " " })
        guard trimmed.hasPrefix("at ") || trimmed.hasPrefix("by "), let colon = trimmed.firstIndex(of: ":") else { return nil }
        var rest = trimmed[trimmed.index(after: colon)...].drop(while: { $0 == " " })
        var file: String?
        var line = 0
        if rest.hasSuffix(")"), let open = rest.lastIndex(of: "(") {
            let location = rest[rest.index(after: open)..<rest.index(before: rest.endIndex)]
            if let separator = location.lastIndex(of: ":"), let number = Int(location[location.index(after: separator)...]) {
                file = String(location[..<separator])
                line = number
            }
            rest = rest[..<open]
        }
        return (String(rest.trimmingCharacters(in: .whitespaces)), file, line)
    }

    static func rules(inFile text: String) -> [AcceptanceRule] {
        text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            let parts = line.split(separator: "|", maxSplits: 2).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 3 else { return nil }
            return AcceptanceRule(file: parts[0], fragment: parts[1], reason: parts[2])
        }
    }

    enum Verdict: Equatable { case canary, declared, accepted(String), unexplained }

    /// The site's description and the verdict for one report.
    static func judge(_ report: Report, rules: [AcceptanceRule], root: String) -> (site: String, verdict: Verdict) {
        if report.frames.contains(where: { $0.file?.hasSuffix("mfa-ctgrind/Canary.swift") == true }) {
            return ("Canary.swift", .canary)
        }
        let siteIndex = report.frames.firstIndex { frame in
            guard let file = frame.file, frame.line > 0 else { return false }
            return file.hasPrefix("Sources/")
        }
        guard let siteIndex, let file = report.frames[siteIndex].file else {
            // No line of ours on the stack (the runtime freeing an array, say): only "*" rules
            // naming a frame's function can explain it.
            let innermost = report.frames.first?.function ?? "no frames"
            let rule = rules.first { rule in rule.file == "*" && report.frames.contains { $0.function.contains(rule.fragment) } }
            return (innermost + " (no line in Sources/)", rule.map { .accepted($0.reason) } ?? .unexplained)
        }
        let line = report.frames[siteIndex].line
        let source = sourceLine(root + "/" + file, line)
        let upToSite = report.frames[...siteIndex]
        var site = "\(file):\(line)  \(source)"
        if siteIndex > 0, let innermost = report.frames.first, innermost.file == nil || innermost.line == 0 {
            site = "\(innermost.function), called from " + site
        }
        if source.contains("Vartime") || upToSite.contains(where: { $0.function.contains("Vartime") }) {
            return (site, .declared)
        }
        for rule in rules where rule.file == "*" || file.hasSuffix(rule.file) {
            if source.contains(rule.fragment) || upToSite.contains(where: { $0.function.contains(rule.fragment) }) {
                return (site, .accepted(rule.reason))
            }
        }
        return (site, .unexplained)
    }

    nonisolated(unsafe) static var sourceCache: [String: [Substring]] = [:]

    static func sourceLine(_ path: String, _ line: Int) -> String {
        if sourceCache[path] == nil {
            do {
                sourceCache[path] = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            } catch {
                sourceCache[path] = []  // an unreadable source matches no rule: the report stays unexplained
            }
        }
        guard let lines = sourceCache[path], line >= 1, line <= lines.count else { return "(source not found)" }
        return lines[line - 1].trimmingCharacters(in: .whitespaces)
    }
}

extension Triage {
    /// `mfa-ctgrind triage ROOT ACCEPTED LOG...`: one line per check, every unexplained report in
    /// full, and the exit status: 0 only if the canary was caught and nothing is unexplained.
    static func run(root: String, acceptedPath: String, logs: [String]) -> Int32 {
        let rules: [AcceptanceRule]
        do {
            rules = Self.rules(inFile: try String(contentsOfFile: acceptedPath, encoding: .utf8))
        } catch {
            print("triage: cannot read \(acceptedPath): \(error)")
            return 2
        }
        var canaries = 0, unexplained = 0
        var reasons: [String: Int] = [:]
        print("check                      reports  declared  accepted  unexplained")
        for log in logs {
            let name = ((log as NSString).lastPathComponent as NSString).deletingPathExtension
            let text: String
            do { text = try String(contentsOfFile: log, encoding: .utf8) } catch {
                print("triage: cannot read \(log): \(error)")
                return 2
            }
            // valgrind's --fullpath-after strips the root from most frames but not from every
            // inlined one, whose DWARF names the absolute path: strip it here too, wherever the
            // checkout lives (a CI clone is not where the developer's tree is).
            let relative = text.replacingOccurrences(of: root.hasSuffix("/") ? root : root + "/", with: "")
            let judged = reports(inLog: relative).map { judge($0, rules: rules, root: root) }
            var declared = 0, accepted = 0, open: [String] = []
            for (site, verdict) in judged {
                switch verdict {
                case .canary: canaries += 1
                case .declared: declared += 1
                case .accepted(let reason): accepted += 1; reasons[reason, default: 0] += 1
                case .unexplained: open.append(site)
                }
            }
            unexplained += open.count
            let columns = [judged.count, declared, accepted, open.count].map { String($0).leftPadded(to: 9) }.joined(separator: " ")
            print(name + String(repeating: " ", count: max(1, 26 - name.count)) + columns)
            for site in Set(open).sorted() { print("    UNEXPLAINED \(site)") }
        }
        print("accepted in writing (ConstantTime/accepted.txt):")
        for (reason, count) in reasons.sorted(by: { $0.key < $1.key }) { print("  \(String(count).leftPadded(to: 4))  \(reason)") }
        print("canary reports: \(canaries) (the deliberate leak must be caught)")
        if canaries == 0 { print("FAIL: the canary leak was not reported, so memcheck saw no secret") }
        if unexplained > 0 { print("FAIL: \(unexplained) unexplained reports") }
        return canaries > 0 && unexplained == 0 ? 0 : 1
    }
}

extension String {
    func leftPadded(to width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
