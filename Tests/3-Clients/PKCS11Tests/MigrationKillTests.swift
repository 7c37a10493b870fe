// `mfa keys migrate` killed with SIGKILL at random points: after every kill the store opens with
// the provider it records (the old one or the new one) and every record reads back intact.
// The child is the debug `mfa` built beside this test bundle; the kills are timed from the
// moment the migration directory appears, so they land while records are re-encrypted, at the
// swap, and during the clean-up after it.

import CryptoPrimitives
import Foundation
import SecureStore
import Testing
import TestSupport
import PKCS11

/// The `mfa` executable of this build (beside the test bundle: debug or release alike).
let mfaExecutable = BuiltProducts.executable("mfa")

extension SoftHSMSuite {
    @Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: mfaExecutable), "the mfa executable is not built"))
    struct MigrationKillTests {
        let recordCount = 120

        /// Starts `mfa keys migrate target --store directory`.
        func startMigration(to target: String, directory: String, token: SoftHSMToken, standardError: Pipe? = nil) throws -> Process {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: mfaExecutable)
            process.arguments = ["keys", "migrate", target, "--store", directory]
            process.environment = ProcessInfo.processInfo.environment.merging(["SOFTHSM2_CONF": token.configuration]) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = standardError ?? FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            try process.run()
            return process
        }

        /// The `store.migrating-*` siblings now.
        func migrationDirectories(_ parent: String) -> Set<String> {
            Set(((try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []).filter { $0.hasPrefix("store.migrating-") })
        }

        /// Waits until a `store.migrating-*` sibling other than `earlier` (a killed round's
        /// leftover) exists, or the process ended.
        func waitForMigrationDirectory(_ parent: String, _ process: Process, earlier: Set<String> = []) -> Bool {
            while process.isRunning {
                if !migrationDirectories(parent).subtracting(earlier).isEmpty { return true }
                usleep(500)
            }
            return false
        }

        /// The store's records, opened with the provider it records.
        func contents(_ directory: String) throws -> [String: [UInt8]] {
            let choice = try StoreProviderChoice.recorded(in: directory)
            let store = try SecureStore(directory: directory, keyProvider: choice.keyProvider(secret: nil))
            var records: [String: [UInt8]] = [:]
            for name in try store.names() { records[name] = try store.read(name)?.unsafeExposedBytes }
            return records
        }

        @Test func aMigrationKilledAnywhereLeavesTheOldStoreOrTheNewOne() throws {
            let token = try SoftHSMToken()
            token.activate()
            let temporary = try TemporaryDirectory("kill")
            defer { temporary.remove() }
            let parent = temporary.appending("store")
            let directory = parent + "/store"
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            let pinFile = parent + "/pin"
            try "1234\n".write(toFile: pinFile, atomically: true, encoding: .utf8)
            chmod(pinFile, 0o600)
            let tokenProvider = "pkcs11:token=\(token.label)?module-path=\(SoftHSM.modulePath)&pin-source=file:\(pinFile)"

            let store = try SecureStore(directory: directory, keyProvider: KeyFileProvider())
            var records: [String: [UInt8]] = [:]
            for index in 0..<recordCount {
                let value = Array("record \(index)".utf8) + [UInt8](repeating: UInt8(index & 0xFF), count: 64)
                try store.write(SecretBytes(value), to: "record-\(index)")
                records["record-\(index)"] = value
            }

            // One migration to the end: how long it runs once its directory exists.
            let full = try startMigration(to: tokenProvider, directory: directory, token: token)
            #expect(waitForMigrationDirectory(parent, full))
            let started = Date()
            full.waitUntilExit()
            let window = max(Date().timeIntervalSince(started), 0.05)
            #expect(full.terminationStatus == 0)
            #expect(try StoreProviderChoice.recorded(in: directory).withoutStoreIdentifier.setting == tokenProvider)
            #expect(try contents(directory) == records)

            var generator = SystemRandomNumberGenerator()
            var outcomes: [String: Int] = [:]
            for round in 0..<10 {
                let from = try StoreProviderChoice.recorded(in: directory)
                let target = from == .keyFile ? tokenProvider : "file"
                let earlier = migrationDirectories(parent)
                let child = try startMigration(to: target, directory: directory, token: token)
                // Kills timed from the migration directory's appearance: anywhere while records
                // are re-encrypted, or near the end of the window (the swap and the clean-up);
                // one in five while the child is still starting.
                if round % 5 != 4 { _ = waitForMigrationDirectory(parent, child, earlier: earlier) }
                let range = round % 2 == 0 ? 0...window : (window * 0.85)...(window * 1.1)
                usleep(UInt32(Double.random(in: range, using: &generator) * 1_000_000))
                if !child.isRunning { outcomes["finished before the kill", default: 0] += 1 }
                kill(child.processIdentifier, SIGKILL)
                child.waitUntilExit()
                let after = try StoreProviderChoice.recorded(in: directory)
                outcomes[after == from ? "old" : "new", default: 0] += 1
                let leftovers = try FileManager.default.contentsOfDirectory(atPath: parent).filter { $0.hasPrefix("store.") }
                if !leftovers.isEmpty { outcomes["leftover directory", default: 0] += 1 }  // removed by the next migration
                #expect(try contents(directory) == records, "round \(round): killed migrating \(from.setting) → \(target)")
            }
            print("kill -9 outcomes over 10 rounds:", outcomes, "window \(window) s")

            // A migration run to the end removes what the killed ones left beside the store.
            let errors = Pipe()
            let last = try startMigration(to: try StoreProviderChoice.recorded(in: directory) == .keyFile ? tokenProvider : "file",
                                          directory: directory, token: token, standardError: errors)
            let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            last.waitUntilExit()
            #expect(last.terminationStatus == 0, "mfa keys migrate said: \(said)")
            #expect(try contents(directory) == records)
            #expect(try FileManager.default.contentsOfDirectory(atPath: parent).sorted() == ["pin", "store"])
        }
    }
}
