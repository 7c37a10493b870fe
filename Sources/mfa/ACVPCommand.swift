// `mfa acvp respond PROMPT [--output FILE | -o FILE]` and
// `mfa acvp check RESPONSE EXPECTED [--prompt PROMPT] [--json]`: a lab's ACVP workflow over the
// engine (docs/design.md §3-4).

import FoundationEssentials
import MFACommandLine
import VectorRunner

enum ACVPCommand {
    /// Runs a verb; exit 0 all cases answered / agreeing, 1 any case unanswered or differing,
    /// 2 usage error or an unreadable or unwritable file.
    static func run(_ verb: String, _ options: CommandOptions) -> Int32 {
        do {
            switch verb {
            case "respond": return try respond(options)
            case "check": return try check(options)
            default: return CommandErrors.report("mfa acvp", message: "unknown verb \(verb)", code: "usage", status: .usage)
            }
        } catch let error as UsageError {
            return CommandErrors.report("mfa acvp \(verb)", error)
        } catch {
            return CommandErrors.report("mfa acvp \(verb)", message: FileErrorText.describe(error), code: "file", status: .usage)
        }
    }

    /// Writes the engine's response; the cases it leaves unanswered go to standard error.
    private static func respond(_ options: CommandOptions) throws -> Int32 {
        if options.values["--output"] != nil, options.values["-o"] != nil { throw UsageError(description: "--output is given twice (also as -o)") }
        let response = try ACVPLab.respond(promptPath: try options.argument(0, "PROMPT"))
        if let output = options.values["--output"] ?? options.values["-o"] {
            try Data(response.json.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        } else {
            StandardStreams.writeOutput(response.json)
        }
        for line in response.unanswered.prefix(20) { StandardStreams.writeError("unanswered \(line)\n") }
        StandardStreams.writeError("\(response.answered) answered, \(response.unanswered.count) unanswered\n")
        return response.unanswered.isEmpty && response.answered > 0 ? 0 : 1
    }

    /// Compares a response with expected results and prints the report like `mfa vectors`; the
    /// IUT's random answers are validated against the prompt (`--prompt`, else the prompt.json
    /// beside the expected results).
    private static func check(_ options: CommandOptions) throws -> Int32 {
        let responsePath = try options.argument(0, "RESPONSE"), expectedPath = try options.argument(1, "EXPECTED")
        let file = try ACVPLab.check(responsePath: responsePath, expectedPath: expectedPath, promptPath: options.values["--prompt"])
        let report = RunReport(checked: [file])
        print(options.json ? report.json() : report.text(verbose: false))
        return report.exitCode
    }
}
