// The argument parser of `mfa`'s SDK command families (DESIGN.md §3): `--name value` options,
// known flags and positional arguments. A library of its own so the fuzz package can reach it
// (issue "Proven, not promised", point 1: the `mfa` argument parser); it never traps on any
// argument list.

/// A command line that cannot be used (exit status 2).
public struct UsageError: Error, CustomStringConvertible {
    /// What is wrong, for the one error line.
    public let description: String

    /// An error saying `description`.
    public init(description: String) { self.description = description }
}

/// Parsed `--name value` options, flags and positional arguments.
public struct CommandOptions: Sendable {
    /// `--name value` pairs (the last one wins).
    public var values: [String: String] = [:]
    /// The flags present.
    public var flags: Set<String> = []
    /// Arguments that are neither, in order.
    public var positional: [String] = []
    /// The names that take no value.
    public static let flagNames: Set<String> = ["--json", "--local", "--help", "-h", "--watch", "--allow-http-loopback", "--no-pinning", "--otp",
                                                "--registration-code", "--all"]

    /// Parses `arguments` (everything after the verb). An option without its value is a usage error.
    public init(_ arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if Self.flagNames.contains(argument) {
                flags.insert(argument)
            } else if argument.hasPrefix("--") {
                guard let value = rest.popFirst() else { throw UsageError(description: "\(argument) needs a value") }
                values[argument] = value
            } else {
                positional.append(argument)
            }
        }
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

    /// Whether `--json` was given.
    public var json: Bool { flags.contains("--json") }
}
