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

/// Parsed `--name value` options, flags and positional arguments.
public struct CommandOptions: Sendable {
    /// `--name value` pairs (the last one wins).
    public var values: [String: String] = [:]
    /// Every value of each option, in order (for options that may repeat).
    public var repeated: [String: [String]] = [:]
    /// The flags present.
    public var flags: Set<String> = []
    /// Arguments that are neither, in order.
    public var positional: [String] = []
    /// The names that take no value.
    public static let flagNames: Set<String> = ["--json", "--local", "--help", "-h", "--watch", "--allow-http-loopback", "--no-pinning", "--otp",
                                                "--registration-code", "--all"]
    /// Options whose value is a secret (SMS and e-mail codes, activation tokens and codes,
    /// passwords, PINs): the only value accepted on the command line is `-`, standard input;
    /// `NAME-file PATH` names a file (docs/design.md §3).
    public static let secretOptionNames: Set<String> = ["--code", "--with-code", "--activation-code", "--password", "--new-password",
                                                        "--pin", "--signing-pin", "--secret", "--qr-secret"]

    /// No options, flags or arguments (the command model fills them in).
    public init() {}

    /// Parses `arguments` (everything after the verb). An option without its value, and a
    /// secret option with a value other than `-`, are usage errors.
    public init(_ arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if Self.flagNames.contains(argument) {
                flags.insert(argument)
            } else if argument.hasPrefix("--") {
                if let equals = argument.firstIndex(of: "="), Self.secretOptionNames.contains(String(argument[..<equals])) {
                    throw Self.secretOnCommandLine(String(argument[..<equals]))
                }
                guard let value = rest.popFirst() else { throw UsageError(description: "\(argument) needs a value") }
                if Self.secretOptionNames.contains(argument), value != "-" { throw Self.secretOnCommandLine(argument) }
                values[argument] = value
            } else {
                positional.append(argument)
            }
        }
    }

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
