// Parsing a command line against the model (CommandModel.swift): the verb path first (the first
// words that are not options), then every option checked against what that verb, its family and
// the model accept. It never traps on any argument list (the fuzz package feeds it garbage).

/// Every family of a tool, and the parser and help that come from them.
public struct CommandModel: Sendable {
    /// The tool's name (`mfa`).
    public let tool: String
    /// One line under the tool's name in `mfa --help`.
    public let summary: String
    /// The families and single commands, in help order.
    public let families: [FamilySpec]
    /// The release `--version` prints; without one, `--version` is an unknown command.
    public let version: String?

    /// A model.
    public init(tool: String, summary: String, families: [FamilySpec], version: String? = nil) {
        self.tool = tool
        self.summary = summary
        self.families = families
        self.version = version
    }

    /// This model, answering `--version` with `version`.
    public func withVersion(_ version: String) -> CommandModel {
        CommandModel(tool: tool, summary: summary, families: families, version: version)
    }

    static let helpWords: Set<String> = ["--help", "-h", "help"]

    /// What `arguments` (after the tool's name) ask for: help, or a verb to run with its
    /// options. Throws a ``UsageError`` naming the first thing that is wrong.
    public func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        guard let first = arguments.first else { throw UsageError(description: "a command is required (\(tool) --help lists them)") }
        if first == "help", arguments.dropFirst().first == "--reference" { return .help(reference()) }
        if first == "help", arguments.count > 1 { return .help(try help(for: Array(arguments.dropFirst()))) }
        if Self.helpWords.contains(first) { return .help(help()) }
        if first == "--version", let version {
            guard arguments.count == 1 else { throw UsageError(description: "--version takes no arguments") }
            return .help("\(tool) \(version)")
        }
        guard let family = families.first(where: { $0.name == first }) else {
            throw UsageError(description: "unknown command \(Self.shown(first)) (\(tool) --help lists them)")
        }
        var rest = Array(arguments.dropFirst())
        var path: [VerbSpec] = []
        if let command = family.command {
            path = [command]
        } else {
            // The verb path: the first words that are not options or their values.
            var level = family.verbs
            while !level.isEmpty {
                guard let (index, word) = try firstWord(in: rest, family: family, path: path) else {
                    if rest.contains(where: { $0 == "--help" || $0 == "-h" }) { return .help(help(family: family, path: path)) }
                    let prefix = ([tool, family.name] + path.map(\.name)).joined(separator: " ")
                    throw UsageError(description: "a verb is required (\(prefix) --help lists them)")
                }
                if path.isEmpty, word == "help" { return .help(help(family: family, path: path)) }
                guard let verb = level.first(where: { $0.name == word }) else {
                    let prefix = ([tool, family.name] + path.map(\.name)).joined(separator: " ")
                    throw UsageError(description: "unknown verb \(Self.shown(word)) (\(prefix) --help lists them)")
                }
                rest.remove(at: index)
                path.append(verb)
                level = verb.verbs
            }
        }
        guard let verb = path.last else { throw UsageError(description: "a verb is required") }
        if rest.contains(where: { $0 == "--help" || $0 == "-h" }) { return .help(help(family: family, path: path)) }
        let options = try parseOptions(rest, accepted: family.sharedOptions + verb.options, verb: verb)
        return .run(family: family.name, verbs: family.command == nil ? path.map(\.name) : [], options: options)
    }

    /// `help COMMAND [VERB...]`: the help `COMMAND [VERB...] --help` prints.
    private func help(for words: [String]) throws(UsageError) -> String {
        guard let family = families.first(where: { $0.name == words[0] }) else {
            throw UsageError(description: "unknown command \(Self.shown(words[0])) (\(tool) --help lists them)")
        }
        var path: [VerbSpec] = [], level = family.verbs
        for word in words.dropFirst() {
            guard let verb = level.first(where: { $0.name == word }) else {
                let prefix = ([tool, family.name] + path.map(\.name)).joined(separator: " ")
                throw UsageError(description: "unknown verb \(Self.shown(word)) (\(prefix) --help lists them)")
            }
            path.append(verb)
            level = verb.verbs
        }
        return help(family: family, path: path)
    }

    /// The index and text of the first argument that is neither an option nor an option's value.
    private func firstWord(in arguments: [String], family: FamilySpec, path: [VerbSpec]) throws(UsageError) -> (Int, String)? {
        let accepted = family.sharedOptions + (path.last?.options ?? [])
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            guard argument.hasPrefix("-"), argument != "-" else { return (index, argument) }
            if argument == "--help" || argument == "-h" { index += 1; continue }
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            // Before the verb only the family's own options can be told apart (whether an option
            // takes a value depends on the verb), so a verb's option must follow its verb.
            guard let spec = Self.lookup(name, in: accepted) else {
                throw UsageError(description: "\(name) is not an option of \(([tool, family.name] + path.map(\.name)).joined(separator: " ")); "
                                 + "a verb's options follow the verb")
            }
            index += (spec.takesValue && !argument.contains("=")) ? 2 : 1
        }
        return nil
    }

    /// A word that was taken for a command or verb, as an error may repeat it: a word shaped like
    /// one (a lowercase letter, then letters, digits and hyphens) as it is; any other word — a
    /// code or a QR text put where a verb goes — is not repeated, since it may be a secret.
    static func shown(_ word: String) -> String {
        let bytes = Array(word.utf8)
        let shaped = (1...40).contains(bytes.count) && (0x61...0x7A).contains(bytes[0])
            && bytes.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }
        return shaped ? word : "(not repeated: it may be a secret)"
    }

    /// The spec `name` stands for: an option itself, or `NAME-file` of a secret option.
    static func lookup(_ name: String, in accepted: [OptionSpec]) -> OptionSpec? {
        if let spec = accepted.first(where: { $0.name == name }) { return spec }
        if name.hasSuffix("-file"), let secret = accepted.first(where: { $0.kind == .secret && $0.name + "-file" == name }) {
            return .value(name, "F", "a file holding \(secret.name)'s value (mode 0600)")
        }
        return nil
    }

    /// Options and positional arguments after the verb path, each checked against `accepted`.
    private func parseOptions(_ arguments: [String], accepted: [OptionSpec], verb: VerbSpec) throws(UsageError) -> CommandOptions {
        var options = CommandOptions()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("-"), argument != "-" else {
                options.positional.append(argument)
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let spec = Self.lookup(name, in: accepted) else { throw UsageError(description: "unknown option \(name)") }
            switch spec.kind {
            case .flag:
                guard inlineValue == nil else { throw UsageError(description: "\(name) takes no value") }
                options.flags.insert(name)
            case .value, .secret:
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else { throw UsageError(description: "\(name) needs a value") }
                    value = arguments[index]
                    index += 1
                }
                // A secret's value is never echoed, not even in an error.
                if spec.kind == .secret, value != "-" { throw CommandOptions.secretOnCommandLine(name) }
                if value.hasPrefix("--") { throw UsageError(description: "\(name) needs a value, not the option \(value)") }
                if !spec.isRepeatable, options.values[name] != nil { throw UsageError(description: "\(name) is given twice") }
                options.values[name] = value
                options.repeated[name, default: []].append(value)
            }
        }
        for spec in accepted where spec.kind == .secret && options.values[spec.name] != nil && options.values[spec.name + "-file"] != nil {
            throw UsageError(description: "\(spec.name) is given twice: as \(spec.name) - and as \(spec.name)-file")
        }
        for spec in accepted where spec.isRequired && options.values[spec.name] == nil {
            throw UsageError(description: "\(spec.name) is required")
        }
        let count = options.positional.count
        if count < verb.requiredArguments {
            throw UsageError(description: "\(verb.arguments[count]) is required")
        }
        if !verb.isVariadic, count > verb.arguments.count {
            // A verb that reads a secret may be handed it as an argument by mistake (a QR text, a
            // code): such an argument is counted, never repeated.
            guard !accepted.contains(where: { $0.kind == .secret }) else {
                throw UsageError(description: "unexpected argument \(verb.arguments.count + 1) (not repeated: it may be a secret, "
                                 + "which is read from NAME-file F or standard input, never from the command line)")
            }
            throw UsageError(description: "unexpected argument \(options.positional[verb.arguments.count])")
        }
        return options
    }
}

extension OptionSpec {
    /// Whether the option is followed by a value.
    var takesValue: Bool { kind != .flag }
}
