// A record file whose header claims a huge generation (a forged or damaged file: the header is
// not authenticated until the MAC is checked) must not wedge its name: the write that replaces
// it takes its generation from the authenticated state, and reading the forged file is a typed
// refusal, never a trap.

import CryptoPrimitives
import Foundation
import Testing
import ClientTestSupport
import TestSupport
import SecureStore

@Suite struct ForgedGenerationTests {
    func temporaryStore() throws -> (SecureStore, String) {
        let directory = try TemporaryDirectory("forged-generation").path
        return (try SecureStore(directory: directory), directory)
    }

    /// The record file `name` with its header generation set to `generation` (MAC left as is).
    func forge(_ name: String, in directory: String, generation: UInt64) throws {
        let path = directory + "/" + name
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        for index in 0..<8 { bytes[13 + index] = UInt8(truncatingIfNeeded: generation >> (56 - 8 * UInt64(index))) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
    }

    @Test(arguments: [UInt64.max, UInt64.max - 1, 1 << 63])
    func aForgedHugeGenerationDoesNotBlockLaterWrites(generation: UInt64) throws {
        let (store, directory) = try temporaryStore()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try store.write(SecretBytes(Array("one".utf8)), to: "counter")
        try store.write(SecretBytes(Array("two".utf8)), to: "counter")
        try forge("counter", in: directory, generation: generation)

        expectError(kind: .authenticationFailed) { try store.read("counter") }

        // The honest writer replaces the damaged file and the store goes on.
        try store.write(SecretBytes(Array("three".utf8)), to: "counter")
        #expect(try store.read("counter")?.unsafeExposedBytes == Array("three".utf8))
        try store.write(SecretBytes(Array("four".utf8)), to: "counter")
        let reopened = try SecureStore(directory: directory)
        #expect(try reopened.read("counter")?.unsafeExposedBytes == Array("four".utf8))
    }

    @Test func aForgedGenerationDoesNotBlockRemoval() throws {
        let (store, directory) = try temporaryStore()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try store.write(SecretBytes(Array("one".utf8)), to: "token")
        try forge("token", in: directory, generation: UInt64.max)
        try store.remove("token")
        #expect(try store.read("token") == nil)
        try store.write(SecretBytes(Array("again".utf8)), to: "token")
        #expect(try store.read("token")?.unsafeExposedBytes == Array("again".utf8))
    }

    @Test func anOldCopyPutBackIsStillRefusedAfterAForgery() throws {
        let (store, directory) = try temporaryStore()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try store.write(SecretBytes(Array("one".utf8)), to: "counter")
        let old = try Data(contentsOf: URL(fileURLWithPath: directory + "/counter"))
        try store.write(SecretBytes(Array("two".utf8)), to: "counter")
        try forge("counter", in: directory, generation: UInt64.max)
        try store.write(SecretBytes(Array("three".utf8)), to: "counter")
        try old.write(to: URL(fileURLWithPath: directory + "/counter"))
        chmod(directory + "/counter", 0o600)
        expectError(kind: .rolledBack) { try store.read("counter") }
    }

    @Test func aForgedRecordInANewStoreDoesNotMakeItLookRolledBack() throws {
        let temporary = try TemporaryDirectory("forged-new")
        defer { temporary.remove() }
        let directory = temporary.appending("store")
        mkdir(directory, 0o700)
        // "SMFA", version 2, a key id, generation 2^40, a length, then junk where IV, data and MAC go.
        var forged = Array("SMFA".utf8) + [2] + [UInt8](repeating: 0xAB, count: 8)
        forged += (0..<8).map { UInt8(truncatingIfNeeded: (UInt64(1) << 40) >> (56 - 8 * UInt64($0))) } + [0, 0, 0, 1]
        forged += [UInt8](repeating: 0xCD, count: 16 + 1 + 32)
        try Data(forged).write(to: URL(fileURLWithPath: directory + "/planted"))
        chmod(directory + "/planted", 0o600)
        // A record and no key: the open is refused and writes nothing (no key for a record it
        // could never read); once the planted file is gone the store starts, and the forged
        // generation left no trace that would make its own records look rolled back.
        #expect(throws: SecureStoreError(.keyUnavailable, "")) { try SecureStore(directory: directory) }
        #expect(!FileManager.default.fileExists(atPath: directory + "/.key"))
        try FileManager.default.removeItem(atPath: directory + "/planted")
        let store = try SecureStore(directory: directory)
        try store.write(SecretBytes(Array("real".utf8)), to: "planted")
        #expect(try store.read("planted")?.unsafeExposedBytes == Array("real".utf8))
    }
}
