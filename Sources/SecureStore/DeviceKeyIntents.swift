// Write-ahead for device keys. An enrolment makes its key in a token before the record that
// names the key can be written (Salt Edge: the connection id comes from the server; CM: the
// environment is stored once the server accepts it), and a process killed in between would
// leave a key in the token that no record names — forever, in a token whose objects are few.
//
// So the maker first writes an intent record naming the label, and holds an exclusive `flock`
// on the intent's lock file (`.intent-<label>`, a store file) for as long as it runs. Once the
// naming record is written, or the key deleted again, it removes the intent. A maker that dies
// leaves the intent behind, and the kernel releases its lock with the process: a later sweep
// takes the lock without waiting, knows the maker is gone, lets the caller delete the key
// unless a record names it after all, and removes the intent. Begin and sweep both run under
// the store's lock, so a sweep never sees an intent whose lock is not taken yet.

import CryptoPrimitives
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A key about to be made in a device key store for a record not written yet: named in the
/// store, and held by this process until ``finish()``. Dropped without `finish()` (or left by a
/// process that died), it is an abandoned intent for
/// ``SecureStore/sweepAbandonedDeviceKeyIntents(prefix:isNamed:delete:)``.
public final class DeviceKeyIntent: Sendable {
    /// The key's label in the device key store.
    public let label: String
    private let store: SecureStore
    /// The locked descriptor of the intent's lock file; nil once finished.
    private let lock: Mutex<Int32?>

    init(label: String, store: SecureStore, descriptor: Int32) {
        self.label = label
        self.store = store
        lock = Mutex(descriptor)
    }

    deinit {
        // Not finished: the lock goes, the intent stays for a sweep (as when the process dies).
        lock.withLock { descriptor in if let descriptor { close(descriptor) } }
    }

    /// Ends the intent once a record names the key or the key is deleted: removes the intent
    /// record and its lock file. Idempotent. A failure leaves the intent for a sweep, which
    /// finds the key named (or gone) and only removes it.
    public func finish() throws(SecureStoreError) {
        try store.withExclusiveAccess { () throws(SecureStoreError) in
            guard let descriptor = lock.withLock({ $0 }) else { return }
            try store.remove(SecureStore.intentRecordName(label))
            FileSystem.removeIntentLock(label, in: store.directory)
            lock.withLock { $0 = nil }
            close(descriptor)
        }
    }

    /// Ends the enrolment this intent noted: `saved` (a record names the key now), else the key
    /// is deleted with `delete` — unless `isNamed` finds a record naming it after all (a write
    /// that threw once the record was in place) or cannot tell, when the intent is left for the
    /// next sweep to decide. The intent ends once the key is accounted for; a key `delete`
    /// could not remove keeps its intent, so the next sweep retries.
    public func settle(saved: Bool, isNamed: () throws -> Bool, delete: () -> Bool) {
        if !saved {
            let named: Bool
            do { named = try isNamed() } catch { return }
            guard !named, delete() else { return }
        }
        do { try finish() } catch {
            // Left to the next sweep, which finds the key named (or gone) and removes only the intent.
        }
    }
}

extension SecureStore {
    /// The record that names an intent's label.
    static func intentRecordName(_ label: String) -> String { "devicekey.intent." + label }

    /// Names `label` as a key about to be made, held by this process until the returned
    /// intent's ``DeviceKeyIntent/finish()``. Call it before making the key; `label` must fit a
    /// record name (`[A-Za-z0-9._-]`, at most 111 characters).
    public func beginDeviceKeyIntent(label: String) throws(SecureStoreError) -> DeviceKeyIntent {
        let name = Self.intentRecordName(label)
        try Self.check(name)
        return try withExclusiveAccess { () throws(SecureStoreError) -> DeviceKeyIntent in
            guard let descriptor = try FileSystem.lockIntent(label, in: directory, waiting: true) else {
                throw SecureStoreError(.io, "the intent's lock cannot be taken", path: directory)
            }
            do throws(SecureStoreError) { try write(SecretBytes(Array(label.utf8)), to: name) } catch {
                FileSystem.removeIntentLock(label, in: directory)
                close(descriptor)
                throw error
            }
            return DeviceKeyIntent(label: label, store: self, descriptor: descriptor)
        }
    }

    /// The labels of the store's device-key intents: keys being made, or made by an enrolment
    /// that was killed, that no record names yet.
    public func deviceKeyIntentLabels() throws(SecureStoreError) -> [String] {
        try Self.deviceKeyIntentLabels(in: directory)
    }

    /// The labels of the device-key intents of the store at `directory`, sorted, from its
    /// listing alone: no key is needed and nothing is written (for a status report); none when
    /// the directory does not exist.
    public static func deviceKeyIntentLabels(in directory: String) throws(SecureStoreError) -> [String] {
        let prefix = intentRecordName("")
        let names: [String]
        do { names = try Self.names(in: directory) } catch where error.errno == ENOENT { return [] }
        return names.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }

    /// Finds the intents for labels starting with `prefix` whose maker is gone (its lock is
    /// free); for each label, unless `isNamed` finds a record naming it, deletes the key with
    /// `delete`; then removes the intent. Runs under the store's lock. Each intent is swept on
    /// its own: one whose lock file cannot be opened (refused as a store file), whose check or
    /// delete throws, or whose removal fails stays for the next sweep, and the others are still swept.
    /// Throws only when the store cannot be listed. Returns the labels swept.
    @discardableResult
    public func sweepAbandonedDeviceKeyIntents(prefix: String, isNamed: (String) throws -> Bool,
                                               delete: (String) throws -> Void) throws(SecureStoreError) -> [String] {
        try withExclusiveAccess { () throws(SecureStoreError) -> [String] in
            var swept: [String] = []
            for label in try deviceKeyIntentLabels() where label.hasPrefix(prefix) {
                // A lock still held: the maker is running. Taken: the maker is gone.
                let locked: Int32?
                do { locked = try FileSystem.lockIntent(label, in: directory, waiting: false) } catch { continue }
                guard let descriptor = locked else { continue }
                defer { close(descriptor) }
                do {
                    if try !isNamed(label) { try delete(label) }
                    try remove(Self.intentRecordName(label))
                } catch {
                    continue  // kept: the next sweep tries again
                }
                FileSystem.removeIntentLock(label, in: directory)
                swept.append(label)
            }
            return swept
        }
    }
}

extension FileSystem {
    /// Opens (creating it, mode 0600, never through a symbolic link) and locks `.intent-<label>`:
    /// waiting for the lock, or, with `waiting` false, nil when another descriptor holds it.
    static func lockIntent(_ label: String, in directory: String, waiting: Bool) throws(SecureStoreError) -> Int32? {
        let path = directory + "/.intent-" + label
        let (fd, _) = try openLockFile(path, what: "an intent lock file")
        while flock(fd, waiting ? LOCK_EX : LOCK_EX | LOCK_NB) != 0 {
            let error = Glibc.errno
            if error == EINTR { continue }
            close(fd)
            if error == EWOULDBLOCK { return nil }
            throw SecureStoreError(.io, "cannot lock an intent lock file", errno: error, path: path)
        }
        return fd
    }

    /// Unlinks `.intent-<label>`; best effort (a leftover lock file names no key and is reused
    /// by nothing: labels are random).
    static func removeIntentLock(_ label: String, in directory: String) {
        _ = unlink(directory + "/.intent-" + label)
    }
}
