// RecordStore on the real file system: concurrent read-modify-write loses nothing, a record put
// back from an older copy is refused (rolledBack), records written before generations existed
// (format version 1) still read and migrate on their next write.

import CryptoPrimitives
import Foundation
import SecureStore
import Testing
import ClientTestSupport
import TestSupport

@Suite struct RecordStoreTests {
    struct Counter: Codable, Equatable {
        var count: Int
        var note: String?
    }

    static func withDirectory(_ body: (String) throws -> Void) throws {
        try withTemporaryDirectory("records") { try body($0.appending("store")) }
    }

    /// Two updaters, each with its own store instance (its own lock description, as another
    /// process would have), increment one counter 100 times each, concurrently: 200 at the end.
    @Test func concurrentUpdatersLoseNothing() async throws {
        let temporary = try TemporaryDirectory("records")
        defer { temporary.remove() }
        let path = temporary.appending("store")
        _ = try SecureStore(directory: path)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<2 {
                group.addTask {
                    let records = try RecordStore<Counter>(store: SecureStore(directory: path), name: "counter")
                    for _ in 0..<100 {
                        try records.update({ (value: inout Counter?) throws(SecureStoreError) in
                            value = Counter(count: (value?.count ?? 0) + 1, note: value?.note)
                        }, storeError: { $0 })
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try RecordStore<Counter>(store: SecureStore(directory: path), name: "counter").read()?.count == 200)
    }

    @Test func updateSeesTheFreshestCopyAndCanRemove() throws {
        try Self.withDirectory { path in
            let store = try SecureStore(directory: path)
            let records = try RecordStore<Counter>(store: store, name: "c")
            let stale = try records.read()                                           // nil, taken early
            try records.write(Counter(count: 1, note: "kept"))
            let seen = try records.update({ (value: inout Counter?) throws(SecureStoreError) -> Counter? in
                let before = value
                value?.count += 1
                return before
            }, storeError: { $0 })
            #expect(stale == nil && seen == Counter(count: 1, note: "kept"))
            #expect(try records.read() == Counter(count: 2, note: "kept"))
            // A throwing body writes nothing.
            struct Refused: Error {}
            #expect(throws: Refused.self) {
                try records.update({ (value: inout Counter?) throws(Refused) in value = nil; throw Refused() }, storeError: { _ in Refused() })
            }
            #expect(try records.read()?.count == 2)
            try records.update({ (value: inout Counter?) throws(SecureStoreError) in value = nil }, storeError: { $0 })
            #expect(try records.read() == nil && store.names().isEmpty)
            // Something that authenticates but is not a Counter is corrupt, not nil.
            try store.write(SecretBytes("not json".utf8), to: "c")
            expectError(kind: .corrupt) { _ = try records.read() }
        }
    }

    @Test func aRestoredOlderCopyIsRolledBack() throws {
        try Self.withDirectory { path in
            let store = try SecureStore(directory: path)
            let records = try RecordStore<Counter>(store: store, name: "c")
            try records.write(Counter(count: 1))
            let old = try Data(contentsOf: URL(fileURLWithPath: path + "/c"))
            try records.write(Counter(count: 2))
            try old.write(to: URL(fileURLWithPath: path + "/c"))                    // the backup put back
            expectError(kind: .rolledBack) { _ = try records.read() }
            expectError(kind: .rolledBack) { _ = try SecureStore(directory: path).read("c") }   // another process too
            // Writing moves on from the newest generation; the old copy stays refused after that.
            try records.write(Counter(count: 3))
            #expect(try records.read() == Counter(count: 3))
            try old.write(to: URL(fileURLWithPath: path + "/c"))
            expectError(kind: .rolledBack) { _ = try records.read() }
            // A removed record cannot be resurrected from a copy either.
            try records.write(Counter(count: 4))
            let last = try Data(contentsOf: URL(fileURLWithPath: path + "/c"))
            try records.remove()
            try last.write(to: URL(fileURLWithPath: path + "/c"))
            expectError(kind: .rolledBack) { _ = try records.read() }
            // Deleting the marks to make the old copy pass is noticed too, by this instance and
            // by the next store opened on the directory.
            try records.remove()
            try old.write(to: URL(fileURLWithPath: path + "/c"))
            try FileManager.default.removeItem(atPath: path + "/.generations")
            expectError(kind: .rolledBack) { _ = try records.read() }
            expectError(kind: .rolledBack) { _ = try SecureStore(directory: path) }
        }
    }

    /// A record in format version 1 (no generation), as every store held before generations:
    /// built here from the store's key exactly as the old code sealed it.
    @Test func versionOneRecordsStillReadAndMigrate() throws {
        try Self.withDirectory { path in
            let store = try SecureStore(directory: path)
            let key = SymmetricKey(data: try Data(contentsOf: URL(fileURLWithPath: path + "/.key")))
            let enc = try HKDF<SHA256>.deriveKey(inputKeyMaterial: key, salt: [UInt8](), info: Array("swiftmfa store enc v1".utf8), outputByteCount: 32)
            let mac = try HKDF<SHA256>.deriveKey(inputKeyMaterial: key, salt: [UInt8](), info: Array("swiftmfa store mac v1".utf8), outputByteCount: 32)
            let keyID = Array(HMAC<SHA256>.authenticationCode(for: Array("swiftmfa store key id".utf8), using: key).bytes.prefix(8))
            let plaintext = Array(#"{"count":41}"#.utf8)
            let iv = [UInt8](repeating: 9, count: 16)
            let header = Array("SMFA".utf8) + [1] + keyID + [0, 0, 0, UInt8(plaintext.count)]
            let body = header + iv + (try AES.UnauthenticatedCTR.encrypt(plaintext, using: enc, counterBlock: iv))
            let name = Array("c".utf8)
            let tag = HMAC<SHA256>.authenticationCode(for: [0, UInt8(name.count)] + name + body, using: mac).bytes
            try Data(body + tag).write(to: URL(fileURLWithPath: path + "/c"))
            let records = try RecordStore<Counter>(store: store, name: "c")
            #expect(try records.read() == Counter(count: 41))
            try records.update({ (value: inout Counter?) throws(SecureStoreError) in value?.count += 1 }, storeError: { $0 })
            #expect(try records.read() == Counter(count: 42))
            let migrated = try Data(contentsOf: URL(fileURLWithPath: path + "/c"))
            #expect(migrated[4] == 2)
            try Data(body + tag).write(to: URL(fileURLWithPath: path + "/c"))       // the old v1 copy put back
            expectError(kind: .rolledBack) { _ = try records.read() }
        }
    }
}
