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

    @Test(arguments: ["--code", "--with-code", "--activation-code", "--password", "--pin"])
    func secretOptionOnTheCommandLineIsAUsageError(name: String) {
        #expect(throws: UsageError.self) { try CommandOptions(["--user", "alice", name, "531806"]) }
        #expect(throws: UsageError.self) { try CommandOptions(["--user", "alice", name + "=531806"]) }
        let error = #expect(throws: UsageError.self) { try CommandOptions([name, "e8c44b45408b5ab1534ed11e7d3c9ad0"]) }
        #expect(error?.description.contains("\(name)-file") == true && error?.description.contains("e8c44b45") == false, "\(String(describing: error))")
    }

    @Test func dashReadsStandardInputAndFileOptionNamesAFile() throws {
        let stdin = try CommandOptions(["--with-code", "-"])
        #expect(stdin.secretSource("--with-code") == .standardInput)
        let file = try CommandOptions(["--code-file", "/run/user/1000/code"])
        #expect(file.secretSource("--code") == .file("/run/user/1000/code"))
        #expect(try CommandOptions(["--user", "alice"]).secretSource("--code") == nil)
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
