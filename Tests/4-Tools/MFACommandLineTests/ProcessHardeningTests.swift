// The hardening every SDK command applies before it reads a secret, observed from outside in a
// real `mfa` process waiting for a secret on its standard input: the kernel's account of its
// limits (/proc/<pid>/limits) shows a core file size of zero, soft and hard; and, when the test
// does not run as root, its /proc entry belongs to root, which is how the kernel shows a
// process made non-dumpable (proc(5)).

import Foundation
import Testing
import TestSupport

@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: BuiltProducts.executable("mfa")), "the mfa executable is not built"))
struct ProcessHardeningTests {
    @Test func aCommandWaitingForASecretIsNonDumpableAndWritesNoCoreFile() throws {
        let directory = try TemporaryDirectory("hardening")
        defer { directory.remove() }
        let process = Process(), input = Pipe()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.executable("mfa"))
        process.arguments = ["powerauth", "configure", "--store", directory.appending("store"), "--base-url", "https://pa.example.com",
                             "--config-string", "-"]
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            try? input.fileHandleForWriting.close()
            process.terminate()
            process.waitUntilExit()
        }
        // The configuration string is read from standard input, which stays open: the process waits there.
        var core: Substring?
        for _ in 0..<200 where core == nil {
            Thread.sleep(forTimeInterval: 0.05)
            let limits = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/limits", encoding: .utf8)) ?? ""
            core = limits.split(separator: "\n").first { line in
                let fields = line.split(separator: " ")
                return line.hasPrefix("Max core file size") && fields.count >= 6 && fields[4] == "0"
            }
        }
        let line = try #require(core, "the core limit of the waiting process never became 0")
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        #expect(fields.count >= 6 && fields[4] == "0" && fields[5] == "0", "\(line)")
        if geteuid() != 0 {
            let owner = try FileManager.default.attributesOfItem(atPath: "/proc/\(process.processIdentifier)")[.ownerAccountID] as? Int
            #expect(owner == 0, "a dumpable process's /proc entry belongs to its user")
        }
    }
}
