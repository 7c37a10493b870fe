// The one command model of `mfa` (docs/design.md §3): every family, verb and option is declared once
// (MFACommands.swift), and the parser, the help at every level and the usage errors all come
// from those declarations. An unknown option, a missing value or a value that looks like an
// option is a usage error naming it — a typo is never silently ignored.

/// One option of a verb or of a whole family.
public struct OptionSpec: Sendable, Equatable {
    /// What an option takes.
    public enum Kind: Sendable, Equatable {
        /// Present or absent (`--json`).
        case flag
        /// One value (`--base-url URL`); `placeholder` names it in help.
        case value(placeholder: String)
        /// A secret: only `-` (standard input) on the command line, or `NAME-file PATH`
        /// (docs/design.md §3: never an argument, which `ps` shows).
        case secret
    }

    /// `--name`.
    public let name: String
    /// What it takes.
    public let kind: Kind
    /// One line of help.
    public let help: String
    /// Whether it may be given more than once (every value is kept).
    public let isRepeatable: Bool
    /// Whether the verb cannot run without it: the parser refuses a command line that lacks it,
    /// and the verb's synopsis names it before `[options]`.
    public let isRequired: Bool

    /// A flag.
    public static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, kind: .flag, help: help, isRepeatable: false, isRequired: false)
    }

    /// An option with a value.
    public static func value(_ name: String, _ placeholder: String, _ help: String, repeatable: Bool = false) -> OptionSpec {
        OptionSpec(name: name, kind: .value(placeholder: placeholder), help: help, isRepeatable: repeatable, isRequired: false)
    }

    /// An option with a value that the verb requires.
    public static func required(_ name: String, _ placeholder: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, kind: .value(placeholder: placeholder), help: help, isRepeatable: false, isRequired: true)
    }

    /// A secret option: `name -` reads standard input (or the terminal), `name-file PATH` a file.
    public static func secret(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, kind: .secret, help: help, isRepeatable: false, isRequired: false)
    }

    /// How the option reads in a synopsis.
    var synopsis: String {
        switch kind {
        case .flag: name
        case .value(let placeholder): "\(name) \(placeholder)"
        case .secret: "\(name) - | \(name)-file F"
        }
    }
}

/// One verb (`mfa powerauth sign`), possibly with verbs of its own (`mfa cm environment add`).
public struct VerbSpec: Sendable {
    /// The verb's name.
    public let name: String
    /// One line: what it does.
    public let summary: String
    /// Positional arguments, in order, for help (`<connection-id>`); a trailing `...` repeats.
    public let arguments: [String]
    /// How many positional arguments at least (the rest of ``arguments`` is optional).
    public let requiredArguments: Int
    /// Its own options (the family's shared ones apply too).
    public let options: [OptionSpec]
    /// Verbs below this one; when non-empty, the next word chooses one.
    public let verbs: [VerbSpec]

    /// A verb.
    public init(_ name: String, _ summary: String, arguments: [String] = [], requiredArguments: Int? = nil,
                options: [OptionSpec] = [], verbs: [VerbSpec] = []) {
        self.name = name
        self.summary = summary
        self.arguments = arguments
        self.requiredArguments = requiredArguments ?? arguments.filter { !$0.hasPrefix("[") }.count
        self.options = options
        self.verbs = verbs
    }

    /// Whether the last argument repeats without bound.
    var isVariadic: Bool { arguments.last?.contains("...") == true }
}

/// A family of verbs (`mfa powerauth`), or a single command without verbs (`mfa vectors`).
public struct FamilySpec: Sendable {
    /// The family's name.
    public let name: String
    /// One line for `mfa --help`.
    public let summary: String
    /// Options every verb of the family takes.
    public let sharedOptions: [OptionSpec]
    /// The verbs; empty for a single command, whose arguments and options are ``command``'s.
    public let verbs: [VerbSpec]
    /// For a single command: its arguments and options.
    public let command: VerbSpec?
    /// Lines printed after the verbs in `mfa <family> --help` (secrets, exit statuses).
    public let notes: [String]

    /// A family of verbs.
    public init(_ name: String, _ summary: String, sharedOptions: [OptionSpec] = [], verbs: [VerbSpec], notes: [String] = []) {
        self.name = name
        self.summary = summary
        self.sharedOptions = sharedOptions
        self.verbs = verbs
        self.command = nil
        self.notes = notes
    }

    /// A single command.
    public init(command: VerbSpec, notes: [String] = []) {
        self.name = command.name
        self.summary = command.summary
        self.sharedOptions = []
        self.verbs = []
        self.command = command
        self.notes = notes
    }
}

/// What a command line asks for.
public enum Invocation: Sendable {
    /// Print `text` (help) and exit 0.
    case help(String)
    /// Run `family`'s `verbs` (the verb path, `["environment", "add"]`) with `options`.
    case run(family: String, verbs: [String], options: CommandOptions)
}
