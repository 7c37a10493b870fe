// The argument parser of `mfa`'s SDK command families (docs/design.md §3): `--name value` options,
// known flags and positional arguments. A library of its own so the fuzz package can reach it;
// it never traps on any argument list. Options whose value is a secret are refused on the
// command line, where every local user can read them in `/proc/<pid>/cmdline` (docs/design.md §3).

/// A command line that cannot be used (exit status 2).
public struct UsageError: Error, CustomStringConvertible {
    /// What is wrong, for the one error line.
    public let description: String

    /// An error saying `description`.
    public init(description: String) { self.description = description }
}

/// A command that is well formed but cannot run in the current local state: nothing configured,
/// no activation, no such connection, user or request (exit status 4).
public struct StateError: Error, CustomStringConvertible {
    /// What is missing or in the way, and the command that would change it.
    public let description: String

    /// An error saying `description`.
    public init(description: String) { self.description = description }
}

/// Where a secret option's value comes from (docs/design.md §3: never from an argument).
public enum SecretSource: Sendable, Equatable {
    /// The file `--…-file PATH` names (refused when group or others may read it).
    case file(String)
    /// Standard input: the terminal without echo, else its next line (`--name -`).
    case standardInput
}

/// The `--name value` options, flags and positional arguments of one command line, as the
/// command model (``CommandModel/parse(_:)``) read and checked them: the only parser.
public struct CommandOptions: Sendable {
    /// `--name value` pairs (the last one wins).
    public var values: [String: String] = [:]
    /// Every value of each option, in order (for options that may repeat).
    public var repeated: [String: [String]] = [:]
    /// The flags present.
    public var flags: Set<String> = []
    /// Arguments that are neither, in order.
    public var positional: [String] = []

    /// No options, flags or arguments (the command model fills them in).
    public init() {}

    static func secretOnCommandLine(_ name: String) -> UsageError {
        UsageError(description: "\(name) is a secret and every local user can read the command line: "
                   + "use \(name)-file PATH (mode 0600) or \(name) - to read it from standard input")
    }

    /// The value of `name`, required.
    public func require(_ name: String) throws(UsageError) -> String {
        guard let value = values[name] else { throw UsageError(description: "\(name) is required") }
        return value
    }

    /// The positional argument at `index`, named `name` in the error.
    public func argument(_ index: Int, _ name: String) throws(UsageError) -> String {
        guard index >= 0, positional.count > index else { throw UsageError(description: "\(name) is required") }
        return positional[index]
    }

    /// Where the secret `name` comes from: `NAME-file PATH`, or standard input when `name -`
    /// was given; nil when neither was.
    public func secretSource(_ name: String) -> SecretSource? {
        if let path = values[name + "-file"] { return .file(path) }
        return values[name] == "-" ? .standardInput : nil
    }

    /// Whether `--json` was given.
    public var json: Bool { flags.contains("--json") }
}
