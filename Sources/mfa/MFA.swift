// mfa: the SwiftMFA command-line tool (DESIGN.md §3). Every command line goes through the one
// command model (MFACommandLine/MFACommands.swift) first: help at every level, and a usage
// error naming an unknown option, a missing value or a value that looks like an option, before
// any command runs. Exit statuses and error reports come from CommandErrors.

import Glibc
import MFACommandLine

@main
enum MFA {
    static func main() async {
        exit(await run(Array(CommandLine.arguments.dropFirst())))
    }

    /// Runs `arguments` (without the tool's name) and returns the exit status.
    static func run(_ arguments: [String]) async -> Int32 {
        // Internal: a child process of `mfa bench --against-processes` (NAME ITERATIONS ROUNDS).
        if arguments.first == "bench", arguments.dropFirst().first == "--child" { return BenchCommand.run(Array(arguments.dropFirst())) }
        CommandErrors.json = arguments.contains("--json")
        let invocation: Invocation
        do {
            invocation = try MFACommands.model.parse(arguments)
        } catch {
            let tool = ["mfa"] + arguments.prefix(1).filter { name in MFACommands.model.families.contains { $0.name == name } }
            return CommandErrors.report(tool.joined(separator: " "), error)
        }
        switch invocation {
        case .help(let text):
            print(text, terminator: text.hasSuffix("\n") ? "" : "\n")
            return ExitStatus.ok.rawValue
        case .run(let family, let verbs, var options):
            let rest = Array(arguments.dropFirst())
            // A nested verb (`token create`, `environment add`) reaches its family as the verb and
            // its first positional argument.
            options.positional = Array(verbs.dropFirst()) + options.positional
            let verb = verbs.first ?? ""
            switch family {
            case "vectors": return VectorsCommand.run(rest)
            case "acvp": return ACVPCommand.run(verb, options)
            case "bench": return BenchCommand.run(rest)
            case "generate": return GenerateCommand.run(rest)
            case "selftest": return SelfTestCommand.run(rest)
            case "powerauth": return await PowerAuthCommand.run(verb, options)
            case "saltedge": return await SaltEdgeCommand.run(verb, options)
            case "cm": return await CMCommand.run(verb, options)
            case "mpin": return await MPinCommand.run(verb, options)
            default:
                return CommandErrors.report("mfa", message: "\(family) is not available in this build", code: "usage", status: .usage)
            }
        }
    }
}
