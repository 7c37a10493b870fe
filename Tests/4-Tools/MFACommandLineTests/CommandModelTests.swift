// The one command model (docs/design.md §3): a typo in an option is a usage error naming it, a missing
// value or a value that looks like an option too; `--help` answers at every level; and the CLI
// reference in docs/ is exactly what the model prints (so the document cannot drift).

import FoundationEssentials
import MFACommandLine
import Testing

@Suite struct CommandModelTests {
    let model = MFACommands.model

    func usageError(_ arguments: [String]) -> String? {
        do {
            _ = try model.parse(arguments)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func aMisspelledOptionIsAUsageErrorNamingIt() {
        // `--protocl 3.2` used to configure protocol 3.3 and exit 0.
        let error = usageError(["powerauth", "configure", "--config-string-file", "S", "--base-url", "https://pa.example.com", "--protocl", "3.2"])
        #expect(error == "unknown option --protocl")
        #expect(usageError(["saltedge", "connections", "--bogus"]) == "unknown option --bogus")
        #expect(usageError(["cm", "status", "--bogus", "--json"]) == "unknown option --bogus")
        #expect(usageError(["vectors", "--verbos"]) == "unknown option --verbos")
        #expect(usageError(["bench", "--filtr", "p256"]) == "unknown option --filtr")
    }

    @Test func anOptionOfAnotherVerbIsUnknownHere() {
        // --hash belongs to `mpin sign`, not to `mpin verify`.
        #expect(usageError(["mpin", "verify", "a@example.com", "--hash", "00"]) == "unknown option --hash")
    }

    @Test func missingValuesAndValuesThatLookLikeOptions() {
        #expect(usageError(["powerauth", "sign", "--method"]) == "--method needs a value")
        #expect(usageError(["powerauth", "sign", "--method", "--uri-id", "/x"]) == "--method needs a value, not the option --uri-id")
        #expect(usageError(["powerauth", "status", "--json=yes"]) == "--json takes no value")
        #expect(usageError(["powerauth", "status", "--instance", "a", "--instance", "b"]) == "--instance is given twice")
    }

    @Test func secretsAreRefusedAsArgumentsButReadFromStandardInputOrAFile() throws {
        #expect(usageError(["powerauth", "activate", "--code", "ABCDE-FGHIJ-KLMNO-PQRST"])?.contains("every local user can read") == true)
        #expect(usageError(["cm", "register", "--code=12345"])?.contains("every local user can read") == true)
        guard case .run(_, _, let options) = try model.parse(["mpin", "register", "a@example.com", "--with-code-file", "/tmp/t"]) else {
            Issue.record("not a run")
            return
        }
        #expect(options.secretSource("--with-code") == .file("/tmp/t"))
    }

    @Test func aSecretIsNeverEchoedAndNeverGivenTwoWays() {
        let error = usageError(["powerauth", "activate", "--code=--SECRET-CODE"])
        #expect(error?.contains("SECRET-CODE") == false && error?.contains("every local user can read") == true)
        #expect(usageError(["mpin", "confirm", "a@example.com", "--code", "-", "--code-file", "/tmp/c"])?.contains("given twice") == true)
    }

    @Test func argumentsAreCounted() {
        #expect(usageError(["saltedge", "rename", "1"]) == "name is required")
        #expect(usageError(["saltedge", "connections", "extra"]) == "unexpected argument extra")
        #expect(usageError(["cm", "environment", "remove"]) == "environment-id is required")
    }

    @Test func aWordThatMayBeASecretIsNeverRepeated() {
        // A CM QR text (id,secret) where the verb goes, or as an extra argument of a verb that
        // reads secrets: counted or described, never echoed.
        for arguments in [["cm", "environment", "5cbb6194,s3cr3t-value"], ["cm", "environment", "add", "5cbb6194,s3cr3t-value"],
                          ["s3cr3t,value"]] {
            let error = usageError(arguments)
            #expect(error != nil && error?.contains("s3cr3t") == false, "\(arguments): \(String(describing: error))")
        }
    }

    @Test func unknownCommandsAndVerbsNameThemselves() {
        #expect(usageError(["powrauth"])?.hasPrefix("unknown command powrauth") == true)
        #expect(usageError(["powerauth", "sing"])?.hasPrefix("unknown verb sing") == true)
        #expect(usageError(["powerauth"])?.hasPrefix("a verb is required") == true)
        #expect(usageError(["cm", "environment"])?.hasPrefix("a verb is required") == true)
        #expect(usageError(["powerauth", "--password-file", "F", "sign"])?.contains("a verb's options follow the verb") == true)
    }

    @Test func theVerbAndItsOptionsReachTheCommand() throws {
        let parsed = try model.parse(["powerauth", "--store", "/tmp/s", "token", "create", "t1", "--json"])
        guard case .run(let family, let verbs, let options) = parsed else {
            Issue.record("not a run")
            return
        }
        #expect(family == "powerauth" && verbs == ["token", "create"])
        #expect(options.values["--store"] == "/tmp/s" && options.positional == ["t1"] && options.json)
        guard case .run(_, let none, let vectorOptions) = try model.parse(["vectors", "--junit", "/tmp/r.xml", "a", "b"]) else {
            Issue.record("not a run")
            return
        }
        #expect(none.isEmpty && vectorOptions.positional == ["a", "b"] && vectorOptions.values["--junit"] == "/tmp/r.xml")
    }

    @Test(arguments: [["--help"], ["help"], ["powerauth", "--help"], ["powerauth", "sign", "--help"], ["cm", "environment", "--help"],
                      ["cm", "environment", "add", "-h"], ["vectors", "--help"], ["bench", "--help"], ["acvp", "respond", "--help"],
                      ["mpin", "help"]])
    func helpAnswersAtEveryLevel(arguments: [String]) throws {
        guard case .help(let text) = try model.parse(arguments) else {
            Issue.record("\(arguments) did not ask for help")
            return
        }
        #expect(text.contains("usage:") || text.hasPrefix("mfa —"))
    }

    @Test func everyVerbHasItsOwnHelp() throws {
        for family in model.families {
            for verb in family.verbs {
                guard case .help(let text) = try model.parse([family.name, verb.name, "--help"]) else {
                    Issue.record("\(family.name) \(verb.name)")
                    continue
                }
                #expect(text.contains(verb.summary), "\(family.name) \(verb.name)")
            }
        }
    }

    @Test func theTopLevelHelpSaysWhatEachCommandIsFor() throws {
        guard case .help(let text) = try model.parse(["--help"]) else { return }
        for family in model.families { #expect(text.contains(family.name + " ") && text.contains(family.summary)) }
    }

    /// docs/cli-reference.md is the model's reference text; regenerate with `mfa help --reference`.
    @Test func theReferenceDocumentIsWhatTheModelPrints() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/cli-reference.md").path
        let document = try String(contentsOfFile: path, encoding: .utf8)
        #expect(document == model.reference(), "docs/cli-reference.md is stale: mfa help --reference > docs/cli-reference.md")
    }
}
