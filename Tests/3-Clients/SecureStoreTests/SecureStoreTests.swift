// The store on a real file system: round trips, permissions, every way a record can be
// untrustworthy (each its own typed error, the record left in place), the three key providers,
// and exclusion against another process holding the lock (util-linux `flock`).

import CryptoPrimitives
import Foundation
import SecureStore
import Testing
import ClientTestSupport
import TestSupport

@Suite struct SecureStoreTests {
    /// A fresh directory under the system temp folder, removed afterwards.
    static func withDirectory(_ body: (String) throws -> Void) throws {
        try withTemporaryDirectory("store") { try body($0.appending("store")) }
    }

    static func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func recordsRoundTripAndAreProtectedOnDisk() throws {
        try Self.withDirectory { path in
            let store = try SecureStore(directory: path)
            #expect(try store.read("activation") == nil)
            try store.write(SecretBytes("counter 42".utf8), to: "activation")
            try store.write(SecretBytes([UInt8]()), to: "empty")
            #expect(try store.read("activation")?.unsafeExposedBytes == Array("counter 42".utf8))
            #expect(try store.read("empty")?.count == 0)
            try store.write(SecretBytes("counter 43".utf8), to: "activation")
            #expect(try store.read("activation")?.unsafeExposedBytes == Array("counter 43".utf8))
            #expect(try store.names() == ["activation", "empty"])
            // 0700 directory, 0600 records and key file; the plaintext is nowhere on disk.
            #expect(try Self.mode(path) == 0o700)
            #expect(try Self.mode(path + "/activation") == 0o600 && Self.mode(path + "/.key") == 0o600)
            let raw = try Data(contentsOf: URL(fileURLWithPath: path + "/activation"))
            #expect(raw.range(of: Data("counter".utf8)) == nil && raw.prefix(4) == Data("SMFA".utf8))
            // A second instance (another process would be the same) reads with the same key file.
            #expect(try SecureStore(directory: path).read("activation")?.unsafeExposedBytes == Array("counter 43".utf8))
            try store.remove("activation")
            #expect(try store.read("activation") == nil && store.names() == ["empty"])
            // No temp files are left behind.
            #expect(try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasPrefix(".tmp") }.isEmpty)
        }
    }

    @Test func untrustworthyRecordsAreTypedErrorsNeverResets() throws {
        try Self.withDirectory { path in
            let store = try SecureStore(directory: path)
            try store.write(SecretBytes("the real value".utf8), to: "a")
            let original = try Data(contentsOf: URL(fileURLWithPath: path + "/a"))
            func plant(_ bytes: Data, as name: String = "a") throws {
                try bytes.write(to: URL(fileURLWithPath: path + "/" + name))
            }
            var flipped = original
            flipped[flipped.count - 40] ^= 0x01                                     // a ciphertext bit
            try plant(flipped)
            expectError(kind: .authenticationFailed) { try store.read("a") }
            try plant(original.prefix(original.count - 1))                          // cut short
            expectError(kind: .corrupt) { try store.read("a") }
            try plant(original.prefix(10))
            expectError(kind: .corrupt) { try store.read("a") }
            var older = original
            older[4] = 0                                                            // format version 0
            try plant(older)
            expectError(kind: .downgraded) { try store.read("a") }
            try plant(original, as: "b")                                            // moved to another name
            expectError(kind: .authenticationFailed) { try store.read("b") }
            // Written under another key: the other store's record copied here.
            try Self.withDirectory { otherPath in
                let other = try SecureStore(directory: otherPath)
                try other.write(SecretBytes("x".utf8), to: "a")
                try plant(try Data(contentsOf: URL(fileURLWithPath: otherPath + "/a")))
            }
            expectError(kind: .foreignKey) { try store.read("a") }
            // The damaged record is still there (not reset), and a rewrite recovers it.
            #expect(FileManager.default.fileExists(atPath: path + "/a"))
            try store.write(SecretBytes("the real value".utf8), to: "a")
            #expect(try store.read("a")?.unsafeExposedBytes == Array("the real value".utf8))
        }
    }

    @Test func namesAreChecked() throws {
        try Self.withDirectory { path in
            let store = try SecureStore(directory: path)
            for bad in ["", ".key", "../escape", "a/b", "with space", String(repeating: "x", count: 129), "é"] {
                #expect(throws: SecureStoreError(.invalidName, "")) { try store.write(SecretBytes([1]), to: bad) }
                #expect(throws: SecureStoreError(.invalidName, "")) { try store.read(bad) }
            }
        }
    }

    @Test func passphraseAndSuppliedKeys() throws {
        try Self.withDirectory { path in
            let right = try PassphraseKeyProvider(passphrase: SecretBytes("correct horse".utf8), iterations: 1_000)
            try SecureStore(directory: path, keyProvider: right).write(SecretBytes("v".utf8), to: "r")
            #expect(try SecureStore(directory: path, keyProvider: right).read("r")?.unsafeExposedBytes == Array("v".utf8))
            let wrong = try PassphraseKeyProvider(passphrase: SecretBytes("battery staple".utf8), iterations: 1_000)
            #expect(throws: SecureStoreError(.foreignKey, "")) { try SecureStore(directory: path, keyProvider: wrong).read("r") }
            #expect(throws: SecureStoreError(.keyUnavailable, "")) { try PassphraseKeyProvider(passphrase: SecretBytes("p".utf8), iterations: 10_000_000) }
            #expect(throws: SecureStoreError(.keyUnavailable, "")) { try PassphraseKeyProvider(passphrase: SecretBytes([UInt8]())) }
        }
        try Self.withDirectory { path in
            let key = try StoreKey(SecretBytes([UInt8](repeating: 7, count: 32)))
            try SecureStore(directory: path, keyProvider: SuppliedKeyProvider(key: key)).write(SecretBytes("w".utf8), to: "r")
            #expect(!FileManager.default.fileExists(atPath: path + "/.key"))
            #expect(try SecureStore(directory: path, keyProvider: SuppliedKeyProvider(key: key)).read("r")?.count == 1)
            #expect(throws: SecureStoreError(.keyUnavailable, "")) { try StoreKey(SecretBytes([UInt8](repeating: 7, count: 31))) }
        }
        try Self.withDirectory { path in
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            FileManager.default.createFile(atPath: path + "/.key", contents: Data([1, 2, 3]),   // a damaged key file
                                           attributes: [.posixPermissions: 0o600])
            #expect(throws: SecureStoreError(.keyUnavailable, "")) { try SecureStore(directory: path) }
        }
    }

    /// Another process holds the lock (util-linux `flock` on the same file): our exclusive
    /// section starts only after it let go, which the marker it wrote before releasing proves.
    @Test func exclusiveAccessWaitsForAnotherProcess() throws {
        try Self.withDirectory { path in
            let store = try SecureStore(directory: path)
            let holder = Process()
            holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
            holder.arguments = ["-x", path + "/.lock", "sh", "-c", "touch \(path)/started; sleep 0.3; touch \(path)/released"]
            try holder.run()
            while !FileManager.default.fileExists(atPath: path + "/started") { usleep(1_000) }
            let sawRelease = try store.withExclusiveAccess { () throws(SecureStoreError) -> Bool in
                FileManager.default.fileExists(atPath: path + "/released")
            }
            holder.waitUntilExit()
            #expect(sawRelease)
        }
    }
}
