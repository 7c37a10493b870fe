// What every SDK command of `mfa` shares (DESIGN.md §3): `--name value` options and flags, the
// exit statuses, running an async verb to completion, text or `--json` output, the default
// secure store, and the one error line on standard error.

import Dispatch
import FoundationEssentials
import MFACommandLine
import SecureStore

/// The exit statuses of DESIGN.md §3.
enum ExitStatus: Int32 { case ok = 0, refused = 1, usage = 2, transportOrStore = 3 }

extension CommandOptions {
    /// `--store DIR`, else `$XDG_DATA_HOME/swiftmfa` or `~/.local/share/swiftmfa` (never the
    /// current directory: with neither variable set, an error asks for `--store`).
    func store() throws -> SecureStore {
        let directory = try values["--store"] ?? SecureStore.defaultDirectory()
        return try SecureStore(directory: directory)
    }
}

enum CommandSupport {
    final class ResultBox: @unchecked Sendable { var status: Int32 = 0 }

    /// Parses `arguments` after the verb and runs `dispatch` on a task until it finishes (the
    /// tool is one command, then exit). `--help` prints `usage`.
    static func run(_ arguments: [String], tool: String, usage: String,
                    dispatch: @escaping @Sendable (String, CommandOptions) async -> Int32) -> Int32 {
        guard let verb = arguments.first, verb != "--help", verb != "-h", verb != "help" else {
            print(usage)
            return arguments.isEmpty ? ExitStatus.usage.rawValue : ExitStatus.ok.rawValue
        }
        let options: CommandOptions
        do { options = try CommandOptions(Array(arguments.dropFirst())) } catch {
            return fail(tool, "\(error)", .usage)
        }
        if options.flags.contains("--help") || options.flags.contains("-h") {
            print(usage)
            return ExitStatus.ok.rawValue
        }
        let box = ResultBox()
        let semaphore = DispatchSemaphore(value: 0)
        Task {
            box.status = await dispatch(verb, options)
            semaphore.signal()
        }
        semaphore.wait()
        return box.status
    }

    /// The one error line on standard error; server text in `message` is made safe for a terminal.
    static func fail(_ tool: String, _ message: String, _ status: ExitStatus) -> Int32 {
        StandardStreams.writeError(TerminalText.sanitized("\(tool): \(message)") + "\n")
        return status.rawValue
    }

    /// Prints `object` as one line of JSON with `--json`, else `text`; flushed at once, so a
    /// `--watch` consumer sees each update as it happens. Text output carries server-supplied
    /// names and titles, so control characters and escape sequences are stripped from it.
    static func output(_ options: CommandOptions, _ object: Any, text: String) {
        StandardStreams.writeOutput((options.json ? JSONOutput.render(object) : TerminalText.sanitized(text)) + "\n")
    }
}
