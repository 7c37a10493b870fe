// Secrets never come from `mfa`'s command line (docs/design.md §3): secret options are refused there
// (only `-`, standard input, is accepted), and a secret file that group or others may read is
// refused the way ssh refuses such a key file. Files are real files in a temporary directory.

import Glibc
import MFACommandLine
import Testing
import TestSupport

@Suite struct SecretInputTests {
    /// A fresh directory (mode 0700), removed by the caller.
    static func temporaryDirectory() throws -> String {
        try TemporaryDirectory("mfa-secret").path
    }

    static func write(_ text: String, to path: String, mode: mode_t) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw UsageError(description: "cannot create \(path)") }
        _ = Array(text.utf8).withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        chmod(path, mode)
    }

    /// Every secret option of every verb of the command model, with the words that reach it.
    static func secretOptions() -> [(words: [String], name: String)] {
        var found: [(words: [String], name: String)] = []
        func visit(_ verb: VerbSpec, _ words: [String], shared: [OptionSpec]) {
            let path = words + [verb.name]
            if verb.verbs.isEmpty {
                for option in verb.options + shared where option.kind == .secret { found.append((path, option.name)) }
            }
            for inner in verb.verbs { visit(inner, path, shared: shared) }
        }
        for family in MFACommands.model.families {
            if let command = family.command { visit(command, [], shared: family.sharedOptions) }
            for verb in family.verbs { visit(verb, [family.name], shared: family.sharedOptions) }
        }
        return found
    }

    @Test func everySecretOptionOfEveryVerbIsRefusedOnTheCommandLine() {
        let secrets = Self.secretOptions()
        // PowerAuth's configuration string, activation and recovery codes and biometry key; CM's
        // SMS code; M-Pin's e-mailed code and activation token, at least.
        #expect(secrets.count >= 7, "\(secrets)")
        for (words, name) in secrets {
            for arguments in [words + [name, "531806"], words + [name + "=531806"]] {
                do {
                    _ = try MFACommands.model.parse(arguments)
                    Issue.record("\(arguments) was accepted")
                } catch {
                    #expect(error.description.contains("\(name)-file") && !error.description.contains("531806"), "\(arguments): \(error)")
                }
            }
            // `-` (standard input) is accepted and read as such.
            do {
                if case .run(_, _, let options) = try MFACommands.model.parse(words + [name, "-"]) {
                    #expect(options.secretSource(name) == .standardInput, "\(words) \(name)")
                }
            } catch {
                // Only a missing required argument may stop it: the secret itself was accepted.
                #expect(error.description.hasSuffix("is required"), "\(words) \(name) -: \(error)")
            }
        }
    }

    @Test func dashReadsStandardInputAndFileOptionNamesAFile() {
        var stdin = CommandOptions()
        stdin.values["--with-code"] = "-"
        #expect(stdin.secretSource("--with-code") == .standardInput)
        var file = CommandOptions()
        file.values["--code-file"] = "/run/user/1000/code"
        #expect(file.secretSource("--code") == .file("/run/user/1000/code"))
        var none = CommandOptions()
        none.values["--user"] = "alice"
        #expect(none.secretSource("--code") == nil)
    }

    @Test func fileReadableByOthersIsRefusedAndPrivateFileAccepted() throws {
        let directory = try Self.temporaryDirectory()
        defer { _ = try? FileSystemCleanup.remove(directory) }
        let path = directory + "/code"
        for mode: mode_t in [0o644, 0o640, 0o604, 0o660, 0o602] {
            try Self.write("531806\n", to: path, mode: mode)
            #expect(throws: UsageError.self, "mode \(String(mode, radix: 8))") { try SecretFile.read(path) }
        }
        try Self.write("531806\r\n", to: path, mode: 0o600)
        #expect(try SecretFile.read(path) == Array("531806".utf8))
        try Self.write("531806", to: path, mode: 0o400)
        #expect(try SecretFile.read(path) == Array("531806".utf8))
    }

    @Test func emptyMissingAndDirectoryAreRefused() throws {
        let directory = try Self.temporaryDirectory()
        defer { _ = try? FileSystemCleanup.remove(directory) }
        try Self.write("\n", to: directory + "/empty", mode: 0o600)
        #expect(throws: UsageError.self) { try SecretFile.read(directory + "/empty") }
        #expect(throws: UsageError.self) { try SecretFile.read(directory + "/missing") }
        chmod(directory, 0o700)
        #expect(throws: UsageError.self) { try SecretFile.read(directory) }
    }
}

/// Removing a test directory and its files (no Foundation in this target).
enum FileSystemCleanup {
    static func remove(_ directory: String) throws {
        for name in ["code", "empty"] { unlink(directory + "/" + name) }
        rmdir(directory)
    }
}
