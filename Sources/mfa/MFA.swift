// mfa: the SwiftMFA command-line tool (docs/design.md §3). Every command line goes through the one
// command model (MFACommandLine/MFACommands.swift) first: help at every level, and a usage
// error naming an unknown option, a missing value or a value that looks like an option, before
// any command runs. Exit statuses and error reports come from CommandErrors.

import AuthNetworking
import Dispatch
import Glibc
import MFACommandLine

/// The tool. `main` is synchronous on purpose: the engine's commands (`vectors`, `bench`,
/// `generate`, `selftest`, `acvp`) run on the main thread with no concurrency runtime in the
/// way — valgrind's callgrind crashed (SIGSEGV inside valgrind) on an async `main`, whose main
/// thread parks in libdispatch, and the instruction-count guard and secret tracking run `mfa`
/// under valgrind. The SDK families are async and run to completion on a task.
@main
package enum MFA {
    static func main() {
        exit(run(Array(CommandLine.arguments.dropFirst())))
    }

    /// Runs `body` on a task and waits for its exit status (the tool is one command, then exit).
    static func blocking(_ body: @escaping @Sendable () async -> Int32) -> Int32 {
        final class Box: @unchecked Sendable { var status: Int32 = 0 }
        let box = Box(), done = DispatchSemaphore(value: 0)
        Task {
            box.status = await body()
            done.signal()
        }
        done.wait()
        return box.status
    }

    /// The command model, answering `--version` with this release.
    static let model = MFACommands.model.withVersion(SwiftMFAVersion.current)

    /// Runs `arguments` (without the tool's name) and returns the exit status.
    package static func run(_ arguments: [String]) -> Int32 {
        // Internal: a child process of `mfa bench --against-processes` (NAME ITERATIONS ROUNDS).
        if arguments.first == "bench", arguments.dropFirst().first == "--child" { return BenchCommand.runChild(Array(arguments.dropFirst())) }
        return CommandErrors.$json.withValue(arguments.contains("--json")) { parseAndRun(arguments) }
    }

    /// ``run(_:)`` once `--json` is bound.
    private static func parseAndRun(_ arguments: [String]) -> Int32 {
        let invocation: Invocation
        do {
            invocation = try model.parse(arguments)
        } catch {
            let tool = ["mfa"] + arguments.prefix(1).filter { name in model.families.contains { $0.name == name } }
            return CommandErrors.report(tool.joined(separator: " "), error)
        }
        switch invocation {
        case .help(let text):
            print(text, terminator: text.hasSuffix("\n") ? "" : "\n")
            return ExitStatus.ok.rawValue
        case .run(let family, let verbs, var options):
            // A nested verb (`token create`, `environment add`) reaches its family as the verb and
            // its first positional argument.
            options.positional = Array(verbs.dropFirst()) + options.positional
            let verb = verbs.first ?? ""
            let checked = options
            // The SDK families, `keys` and `bench --key-provider` read passwords, PINs and keys:
            // no core file may hold them.
            if ["powerauth", "saltedge", "cm", "mpin", "keys", "bench"].contains(family), !ProcessHardening.keepSecretsOutOfCoreDumps() {
                StandardStreams.writeError("mfa: warning: this process could not be made non-dumpable; a core file could hold its secrets\n")
            }
            switch family {
            case "vectors": return VectorsCommand.run(options)
            case "acvp": return ACVPCommand.run(verb, options)
            case "bench": return BenchCommand.run(options)
            case "generate": return GenerateCommand.run(options)
            case "selftest": return SelfTestCommand.run(options)
            case "powerauth": return blocking { await PowerAuthCommand.run(verb, checked) }
            case "saltedge": return blocking { await SaltEdgeCommand.run(verb, checked) }
            case "cm": return blocking { await CMCommand.run(verb, checked) }
            case "mpin": return blocking { await MPinCommand.run(verb, checked) }
            case "keys": return blocking { await KeysCommand.run(verb, checked) }
            default:
                return CommandErrors.report("mfa", message: "\(family) is not available in this build", code: "usage", status: .usage)
            }
        }
    }
}
