// The store's lock is a file inside the store directory. A process that opened `<store>/.lock`
// and then waited for the lock may get it after the directory was exchanged (a migration
// swapped a new store into place): it then holds the lock of the *old* directory. After taking
// the lock the store checks that the locked file is still `<store>/.lock`, and locks again if not.

import CryptoPrimitives
import Foundation
import Testing
import TestSupport
import SecureStore

@Suite struct LockRecheckTests {
    @Test func aWaiterThatLockedASwappedOutDirectoryLocksTheCurrentOne() throws {
        let temporary = try TemporaryDirectory("lock-recheck")
        defer { temporary.remove() }
        let parent = temporary.appending("store")
        let directory = parent + "/store"
        let holder = try SecureStore(directory: directory)
        let waiter = try SecureStore(directory: directory)
        let waiterHoldsCurrentLock = LockedFlag()
        let waiterStarted = DispatchSemaphore(value: 0), waiterDone = DispatchSemaphore(value: 0)

        try holder.withExclusiveAccess { () throws(SecureStoreError) in
            let thread = Thread {
                waiterStarted.signal()
                try? waiter.withExclusiveAccess { () throws(SecureStoreError) in
                    // Holding the lock of `<store>/.lock` means nobody else can take it now.
                    let probe = open(directory + "/.lock", O_RDWR | O_CLOEXEC)
                    defer { close(probe) }
                    waiterHoldsCurrentLock.set(probe >= 0 && flock(probe, LOCK_EX | LOCK_NB) != 0)
                }
                waiterDone.signal()
            }
            thread.start()
            waiterStarted.wait()
            usleep(300_000)  // the waiter has opened the old .lock and blocks in flock
            // A migration's exchange: the old directory moves aside, a new store takes its name.
            rename(directory, parent + "/store.old")
            mkdir(directory, 0o700)
        }
        waiterDone.wait()
        #expect(waiterHoldsCurrentLock.value, "the waiter held the lock of the swapped-out directory")
    }
}

/// A Bool shared between threads.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = false
    var value: Bool { lock.withLock { stored } }
    func set(_ value: Bool) { lock.withLock { stored = value } }
}
