// The store's side of a rollback anchor, with anchors kept in memory: a token that cannot hold an
// epoch leaves a never-anchored store opening without one (and an anchored store refused), and a
// removal writes the anchor only when there was a record to remove. The token side runs on real
// tokens (StoreAnchorTests, TPM2TokenTests); a token that refuses data objects cannot run here.

import CryptoPrimitives
import Synchronization
import Testing
import ClientTestSupport
import TestSupport
import SecureStore

@Suite struct RollbackAnchorTests {
    /// An anchor in memory that counts its advances; `refuses` makes it a token that holds none.
    final class MemoryAnchor: StoreRollbackAnchor {
        let state = Mutex<(epoch: UInt64?, advances: Int)>((nil, 0))
        let refuses: Bool
        init(refuses: Bool = false) { self.refuses = refuses }
        var advances: Int { state.withLock { $0.advances } }

        func anchoredEpoch(directory: String) throws(SecureStoreError) -> UInt64? { state.withLock { $0.epoch } }

        func advanceAnchor(to epoch: UInt64, directory: String) throws(SecureStoreError) -> UInt64? {
            if refuses { throw SecureStoreError(.anchorUnsupported, "this anchor holds nothing") }
            return state.withLock { value in
                let previous = value.epoch
                value.advances += 1
                if previous.map({ $0 < epoch }) ?? true { value.epoch = epoch }
                return previous
            }
        }
    }

    /// A fixed key with `anchor` as its rollback anchor.
    struct AnchoredProvider: StoreKeyProvider {
        let anchor: MemoryAnchor?
        func storeKey(directory: String) throws(SecureStoreError) -> StoreKey { try StoreKey(SecretBytes(Array(repeating: 7, count: 32))) }
        func rollbackAnchor(directory: String) throws(SecureStoreError) -> (any StoreRollbackAnchor)? { anchor }
    }

    @Test func aNeverAnchoredStoreOpensWithoutAnAnchorTheTokenCannotHold() throws {
        let directory = try TemporaryDirectory("anchor-refused").path
        let refusing = AnchoredProvider(anchor: MemoryAnchor(refuses: true))
        let store = try SecureStore(directory: directory, keyProvider: refusing)
        try store.write(SecretBytes(Array("v".utf8)), to: "record")
        #expect(try SecureStore(directory: directory, keyProvider: refusing).read("record")?.unsafeExposedBytes == Array("v".utf8))
    }

    @Test func anAnchoredStoreIsRefusedWhenItsAnchorHoldsNothing() throws {
        let directory = try TemporaryDirectory("anchor-lost").path
        let anchor = MemoryAnchor()
        try SecureStore(directory: directory, keyProvider: AnchoredProvider(anchor: anchor)).write(SecretBytes(Array("v".utf8)), to: "record")
        #expect(anchor.state.withLock { $0.epoch } == 1)
        let error = expectError(kind: .rolledBack) { _ = try SecureStore(directory: directory, keyProvider: AnchoredProvider(anchor: MemoryAnchor(refuses: true))) }
        #expect(error?.message.contains("which is gone") == true, "\(String(describing: error))")
        expectError(kind: .keyUnavailable) { _ = try SecureStore(directory: directory, keyProvider: AnchoredProvider(anchor: nil)) }
    }

    @Test func removingAnAbsentRecordLeavesTheAnchorAlone() throws {
        let directory = try TemporaryDirectory("anchor-remove").path
        let anchor = MemoryAnchor()
        let store = try SecureStore(directory: directory, keyProvider: AnchoredProvider(anchor: anchor))
        try store.write(SecretBytes(Array("v".utf8)), to: "record")
        try store.remove("record")
        let advances = anchor.advances
        #expect(anchor.state.withLock { $0.epoch } == 2)  // created at 0, written (1), removed (2)
        try store.remove("record")
        try store.remove("never-written")
        #expect(anchor.advances == advances)
        #expect(anchor.state.withLock { $0.epoch } == 2)
    }
}
