// Help at every level, written from the command model: `mfa --help` (what each command is
// for), `mfa <family> --help` (its verbs and shared options), `mfa <family> <verb> --help` (the
// verb's arguments and options). The CLI reference in docs/cli-reference.md is the same text
// (`mfa help --reference`), checked against the binary in CI.

extension CommandModel {
    /// `mfa --help`.
    public func help() -> String {
        var lines = ["\(tool) — \(summary)", "", "usage: \(tool) <command> [options]   (\(tool) <command> --help for each)", "", "commands:"]
        let width = families.map(\.name.count).max() ?? 0
        for family in families { lines.append("  " + Self.padded(family.name, width) + "  " + family.summary) }
        lines += ["", "\(tool) help COMMAND and \(tool) COMMAND --help describe a command; \(tool) --version prints the release."]
        return lines.joined(separator: "\n")
    }

    /// Help for `family`, or for the verb at the end of `path`.
    public func help(family: FamilySpec, path: [VerbSpec]) -> String {
        let words = [tool, family.name] + (family.command == nil ? path.map(\.name) : [])
        let prefix = words.joined(separator: " ")
        guard let verb = family.command ?? path.last else {
            // The family: its verbs, then its shared options and notes.
            var lines = ["usage: \(prefix) <verb> [options]   (\(prefix) <verb> --help for each)", family.summary, "", "verbs:"]
            lines += Self.verbLines(family.verbs, indent: "  ")
            if !family.sharedOptions.isEmpty {
                lines += ["", "options of every verb:"] + Self.optionLines(family.sharedOptions)
            }
            if !family.notes.isEmpty { lines += [""] + family.notes }
            return lines.joined(separator: "\n")
        }
        if !verb.verbs.isEmpty {
            var lines = ["usage: \(prefix) <verb> [options]", verb.summary, "", "verbs:"]
            lines += Self.verbLines(verb.verbs, indent: "  ")
            return lines.joined(separator: "\n")
        }
        let arguments = verb.arguments.map { $0.hasPrefix("[") ? $0 : "<\($0)>" }
        let required = (verb.options + family.sharedOptions).filter(\.isRequired).map(\.synopsis)
        var lines = ["usage: " + ([prefix] + required + ["[options]"] + arguments).joined(separator: " "), verb.summary]
        if !verb.options.isEmpty { lines += ["", "options:"] + Self.optionLines(verb.options) }
        if !family.sharedOptions.isEmpty { lines += ["", "options of every \(family.name) verb:"] + Self.optionLines(family.sharedOptions) }
        if !family.notes.isEmpty { lines += [""] + family.notes }
        return lines.joined(separator: "\n")
    }

    /// Every help text of the model, in order: the reference page of docs/cli-reference.md.
    public func reference() -> String {
        var sections = ["# `\(tool)` command reference", "", "Generated from the command model (`\(tool) help --reference`); CI checks it against the binary.",
                        "", "```", help(), "```"]
        for family in families {
            sections += ["", "## `\(tool) \(family.name)`", "", "```", help(family: family, path: []), "```"]
            for verb in family.verbs {
                sections += ["", "### `\(tool) \(family.name) \(verb.name)`", "", "```", help(family: family, path: [verb]), "```"]
                for inner in verb.verbs {
                    sections += ["", "### `\(tool) \(family.name) \(verb.name) \(inner.name)`", "", "```",
                                 help(family: family, path: [verb, inner]), "```"]
                }
            }
        }
        return sections.joined(separator: "\n") + "\n"
    }

    static func verbLines(_ verbs: [VerbSpec], indent: String) -> [String] {
        let width = verbs.map(\.name.count).max() ?? 0
        return verbs.map { indent + padded($0.name, width) + "  " + $0.summary }
    }

    static func optionLines(_ options: [OptionSpec]) -> [String] {
        let width = min(options.map(\.synopsis.count).max() ?? 0, 34)
        return options.map { option in
            let synopsis = option.synopsis + (option.isRepeatable ? " (repeatable)" : "")
            return synopsis.count > width ? "  \(synopsis)\n  " + padded("", width) + "  " + option.help
                                          : "  " + padded(synopsis, width) + "  " + option.help
        }
    }

    static func padded(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
