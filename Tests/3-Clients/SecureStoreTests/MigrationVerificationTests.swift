// StoreMigration keeps the old store until the new one has been reopened from disk with its
// provider and every record read back equal: a destination provider that does not give the
// same key twice (a token answering with another key, a flaky unwrap) fails the migration with
// the old store untouched, instead of leaving a store nothing opens.

import CryptoPrimitives
import Foundation
import Synchronization
import Testing
import ClientTestSupport
import TestSupport
import SecureStore

/// A provider that gives a fresh random key on every call.
final class ForgetfulKeyProvider: StoreKeyProvider {
    let calls = Atomic<Int>(0)

    func storeKey(directory: String) throws(SecureStoreError) -> StoreKey {
        calls.add(1, ordering: .relaxed)
        var random = SystemRandomSource()
        do { return try StoreKey(random.secretBytes(count: 32)) } catch { throw SecureStoreError(.keyUnavailable, "random") }
    }
}

@Suite struct MigrationVerificationTests {
    @Test func aDestinationThatDoesNotReopenLeavesTheOldStore() throws {
        let temporary = try TemporaryDirectory("migration-verify")
        defer { temporary.remove() }
        let parent = temporary.appending("store")
        let directory = parent + "/store"
        let store = try SecureStore(directory: directory)
        for index in 0..<5 { try store.write(SecretBytes(Array("record \(index)".utf8)), to: "record-\(index)") }

        let destination = ForgetfulKeyProvider()
        expectError(kind: .migrationNotVerified) {
            try StoreMigration.migrate(directory: directory, from: KeyFileProvider(), to: destination, providerSetting: "passphrase")
        }
        #expect(destination.calls.load(ordering: .relaxed) >= 2)  // reopened, not trusted from the first open

        // The old store is the store, every record intact, nothing left beside it.
        let reopened = try SecureStore(directory: directory)
        for index in 0..<5 { #expect(try reopened.read("record-\(index)")?.unsafeExposedBytes == Array("record \(index)".utf8)) }
        #expect(try StoreSettings.provider(in: directory) == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent) == ["store"])
    }

    @Test func aVerifiedMigrationMovesEveryRecord() throws {
        let temporary = try TemporaryDirectory("migration-verify")
        defer { temporary.remove() }
        let parent = temporary.appending("store")
        let directory = parent + "/store"
        let store = try SecureStore(directory: directory)
        for index in 0..<5 { try store.write(SecretBytes(Array("record \(index)".utf8)), to: "record-\(index)") }
        let destination = try PassphraseKeyProvider(passphrase: SecretBytes(Array("correct horse".utf8)), iterations: 1_000)
        #expect(try StoreMigration.migrate(directory: directory, from: KeyFileProvider(), to: destination, providerSetting: "passphrase") == 5)
        let reopened = try SecureStore(directory: directory, keyProvider: destination)
        for index in 0..<5 { #expect(try reopened.read("record-\(index)")?.unsafeExposedBytes == Array("record \(index)".utf8)) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent) == ["store"])
    }
}
