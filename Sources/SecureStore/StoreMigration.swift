// Moving a store from one key provider to another (the key file to a PKCS #11 token, or back)
// without a moment where a crash leaves it unusable: every record is re-encrypted into a new
// sibling directory, made durable, and the two directories are exchanged in one atomic
// `renameat2(RENAME_EXCHANGE)`. Until the exchange the old store is the store, untouched; after
// it the new one is. A kill at any point leaves one of the two, complete.

import CryptoPrimitives
#if canImport(Glibc)
import Glibc
#endif

/// Re-encrypts a store under another key provider, atomically.
///
/// ```swift
/// let count = try StoreMigration.migrate(directory: directory, from: KeyFileProvider(),
///                                        to: tokenProvider, providerSetting: uri.text)
/// ```
public enum StoreMigration {
    /// Re-encrypts every record of the store at `directory` (opened with `source`) under
    /// `destination`, records `providerSetting` (``StoreSettings``) in the new store when given,
    /// and swaps the new store into place. Returns the number of records moved.
    ///
    /// The new store is built in `DIR.migrating-<random>` (same parent, so the swap is a rename
    /// within one file system; `mkdir` is exclusive, mode 0700), each record written durably,
    /// then reopened from disk with a second call to `destination` and every record read back
    /// and compared (``SecureStoreError/Kind/migrationNotVerified`` when one differs or does not
    /// open: the old store stays, the new one is removed); that reopening is the first with the
    /// destination's rollback anchor, which it sets at the new store's epoch. Then both directories are fsynced, then exchanged with `DIR` by `renameat2(RENAME_EXCHANGE)`. The
    /// old store, now at the temporary name, is renamed `DIR.old-<random>` once the exchange is
    /// durable and removed. The store's lock is held throughout, so no writer interleaves.
    /// Leftovers of an earlier interrupted migration (`DIR.migrating-*`, `DIR.old-*`) are
    /// removed first: while `DIR` exists neither is ever the only copy of the store.
    ///
    /// Throws the store's errors (a record that does not open is never skipped), and
    /// ``SecureStoreError/Kind/io`` when the file system cannot exchange directories.
    @discardableResult
    public static func migrate(directory: String, from source: some StoreKeyProvider, to destination: some StoreKeyProvider,
                               providerSetting: String?) throws(SecureStoreError) -> Int {
        var directory = directory
        while directory.count > 1, directory.hasSuffix("/") { directory.removeLast() }
        let old = try SecureStore(directory: directory, keyProvider: source)
        return try old.withExclusiveAccess { () throws(SecureStoreError) -> Int in
            try removeLeftovers(of: directory)
            let names = try old.names()
            let temporary = directory + ".migrating-" + (try randomSuffix())
            guard mkdir(temporary, 0o700) == 0 else {
                throw SecureStoreError(.io, "cannot create the migration directory", errno: errno, path: temporary)
            }
            do throws(SecureStoreError) {
                // Built without the destination's anchor: the verifying reopen anchors the new
                // store once, at its last epoch, instead of every write touching the token (a
                // migration killed before then leaves nothing on it).
                let new = try SecureStore(directory: temporary, keyProvider: Unanchored(base: destination))
                var moved: [(name: String, value: SecretBytes)] = []
                for name in names {
                    guard let value = try old.read(name) else { continue }  // removed meanwhile: nothing to move
                    try new.write(value, to: name)
                    moved.append((name, value))
                }
                if let providerSetting { try StoreSettings.setProvider(providerSetting, in: temporary) }
                try FileSystem.syncDirectory(temporary)
                try verify(temporary, destination: destination, moved: moved, providerSetting: providerSetting)
                try FileSystem.syncDirectory(parent(of: directory))
                try exchange(temporary, directory)
            } catch {
                removeTree(temporary)  // the old store was never touched
                throw error
            }
            // The old store now sits at the temporary name; the swap must be durable before it goes.
            try FileSystem.syncDirectory(parent(of: directory))
            let retired = directory + ".old-" + (try randomSuffix())
            if rename(temporary, retired) == 0 {
                try FileSystem.syncDirectory(parent(of: directory))
                removeTree(retired)
            } else {
                removeTree(temporary)
            }
            return names.count
        }
    }

    /// Reopens the store built at `temporary` with a fresh key from `destination` and checks the
    /// provider setting and every moved record against what was written. Runs before the
    /// exchange, so a destination that does not give the same key twice never replaces the store.
    private static func verify(_ temporary: String, destination: some StoreKeyProvider, moved: [(name: String, value: SecretBytes)],
                               providerSetting: String?) throws(SecureStoreError) {
        do throws(SecureStoreError) {
            let reopened = try SecureStore(directory: temporary, keyProvider: destination)
            guard try StoreSettings.provider(in: temporary) == providerSetting else {
                throw SecureStoreError(.migrationNotVerified, "the new store's provider setting does not read back", path: temporary)
            }
            guard try reopened.names() == moved.map(\.name).sorted() else {
                throw SecureStoreError(.migrationNotVerified, "the new store does not hold exactly the moved records", path: temporary)
            }
            for (name, value) in moved {
                guard let stored = try reopened.read(name), stored == value else {
                    throw SecureStoreError(.migrationNotVerified, "the record \(name) does not read back from the new store", path: temporary)
                }
            }
        } catch where error.kind != .migrationNotVerified {
            throw SecureStoreError(.migrationNotVerified, "the new store does not reopen: " + error.description, path: temporary)
        }
    }

    /// A provider's key without its anchor.
    private struct Unanchored<Base: StoreKeyProvider>: StoreKeyProvider {
        let base: Base
        func storeKey(directory: String) throws(SecureStoreError) -> StoreKey { try base.storeKey(directory: directory) }
    }

    /// `renameat2(RENAME_EXCHANGE)`: both names exist before and after, so there is no instant
    /// without a store at `directory`.
    private static func exchange(_ temporary: String, _ directory: String) throws(SecureStoreError) {
        // Glibc's module map does not export renameat2 (it is _GNU_SOURCE only): found with dlsym,
        // called with the C convention. RENAME_EXCHANGE is 1 << 1 (renameat2(2)).
        typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UInt32) -> Int32
        guard let symbol = dlsym(nil, "renameat2") else {
            throw SecureStoreError(.io, "this C library has no renameat2; the store was left as it was", errno: ENOSYS, path: directory)
        }
        let renameat2 = unsafeBitCast(symbol, to: RenameAt2.self)
        guard renameat2(AT_FDCWD, temporary, AT_FDCWD, directory, 1 << 1) == 0 else {
            let error = errno
            let reason = error == EINVAL || error == ENOSYS
                ? "the file system cannot exchange two directories atomically; the store was left as it was"
                : "cannot exchange the migrated store with the old one"
            throw SecureStoreError(.io, reason, errno: error, path: directory)
        }
    }

    /// The directory holding `path` ("." for a relative name without a slash).
    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func randomSuffix() throws(SecureStoreError) -> String {
        var random = SystemRandomSource()
        do { return Hex.encode(try random.bytes(count: 16)) } catch { throw SecureStoreError(.io, "the random source failed") }
    }

    /// Removes `DIR.migrating-<32 hex>` and `DIR.old-<32 hex>` directories owned by this user.
    static func removeLeftovers(of directory: String) throws(SecureStoreError) {
        let parent = parent(of: directory)
        let base = directory.lastIndex(of: "/").map { String(directory[directory.index(after: $0)...]) } ?? directory
        guard let stream = opendir(parent) else { throw SecureStoreError(.io, "cannot list the store's parent", errno: errno, path: parent) }
        var leftovers: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            for prefix in [base + ".migrating-", base + ".old-"] where name.hasPrefix(prefix) {
                let suffix = name.dropFirst(prefix.count)
                if suffix.count == 32, suffix.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }) {
                    leftovers.append(parent + "/" + name)
                }
            }
        }
        closedir(stream)
        for path in leftovers {
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == geteuid() else { continue }
            removeTree(path)
        }
    }

    /// Removes the flat directory `path` and its files (a store has no subdirectories).
    /// Best effort: what cannot be removed stays, and a later migration tries again.
    static func removeTree(_ path: String) {
        guard let stream = opendir(path) else { return }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        closedir(stream)
        for name in names { unlink(path + "/" + name) }
        rmdir(path)
    }
}
