// The few POSIX calls the store needs (docs/design.md §2, habit 16): an atomic replace (temp file,
// fsync, rename, fsync of the directory), whole-file reads, listing, and `flock` for exclusion
// across processes. Glibc only; no Foundation.
//
// Nothing in the directory is trusted blindly (OpenSSH's StrictModes rule): the directory must
// be a real directory (never a symbolic link), owned by the effective user and not writable by
// group or others; every file is opened with O_NOFOLLOW and checked the same way on its open
// descriptor (fstat, so there is no window between check and use); temporary files are created
// with O_EXCL under a name with 128 random bits from the system RNG.
//
// The store's exclusive lock is `flock` on `<store>/.lock`; it is reentrant on the thread that
// holds it, so a write (which takes the lock to advance its generation) may run inside a
// caller's read-modify-write section without deadlocking against itself.

import CryptoPrimitives
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The holder of each store directory's lock in this process, by thread.
private let lockHolders = Mutex<[String: pthread_t]>([:])

/// File operations on one directory, each returning a typed error with its errno and path.
enum FileSystem {
    /// Creates `path` as a directory with mode 0700 if it does not exist (and any missing
    /// parents, 0700 too), then checks it: not a symbolic link (a symlinked store is refused,
    /// whatever its target), a directory, owned by the effective user, not group/world-writable.
    static func ensureDirectory(_ path: String) throws(SecureStoreError) {
        let path = trimmingTrailingSlashes(path)
        guard !path.isEmpty else { throw SecureStoreError(.io, "the store directory is an empty path", errno: ENOENT) }
        if mkdir(path, 0o700) != 0 {
            var error = Glibc.errno
            if error == ENOENT {
                try createParents(of: path)
                error = mkdir(path, 0o700) == 0 ? 0 : Glibc.errno
            }
            guard error == 0 || error == EEXIST else {
                throw SecureStoreError(.io, "cannot create the store directory", errno: error, path: path)
            }
        }
        var info = stat()
        guard lstat(path, &info) == 0 else { throw SecureStoreError(.io, "cannot stat the store directory", errno: Glibc.errno, path: path) }
        guard info.st_mode & S_IFMT != S_IFLNK else {
            throw SecureStoreError(.insecurePermissions, "the store directory is a symbolic link", path: path)
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw SecureStoreError(.io, "the store path is not a directory", errno: ENOTDIR, path: path) }
        try checkOwnership(info, path: path, what: "the store directory")
        try checkAncestors(of: path)
    }

    /// StrictModes for every directory above the store (after resolving symbolic links, which
    /// systems use for /home or /var/run): each must belong to root or to the effective user,
    /// and one that group or others may write must be sticky (as /tmp is) — otherwise another
    /// user could rename the checked store away and put their own in its place.
    private static func checkAncestors(of path: String) throws(SecureStoreError) {
        guard let resolved = realpath(path, nil) else {
            throw SecureStoreError(.io, "cannot resolve the store directory", errno: Glibc.errno, path: path)
        }
        defer { free(resolved) }
        var ancestor = String(cString: resolved)
        while let slash = ancestor.lastIndex(of: "/") {
            ancestor = slash == ancestor.startIndex ? "/" : String(ancestor[..<slash])
            var info = stat()
            guard stat(ancestor, &info) == 0 else { throw SecureStoreError(.io, "cannot stat a parent of the store", errno: Glibc.errno, path: ancestor) }
            let mode = UInt32(info.st_mode) & 0o7777
            guard info.st_uid == 0 || info.st_uid == geteuid() else {
                throw SecureStoreError(.insecurePermissions, "a parent of the store is owned by uid \(info.st_uid)", path: ancestor)
            }
            guard mode & 0o022 == 0 || mode & 0o1000 != 0 else {
                throw SecureStoreError(.insecurePermissions, "a parent of the store is writable by group or others and not sticky (mode \(String(mode, radix: 8)))", path: ancestor)
            }
            if ancestor == "/" { break }
        }
    }

    /// Every missing ancestor of `path`, created 0700 (the ones that exist are left as they are).
    private static func createParents(of path: String) throws(SecureStoreError) {
        var components = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        components.removeLast()
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in components {
            prefix += "/" + component
            guard mkdir(prefix, 0o700) == 0 || Glibc.errno == EEXIST else {
                throw SecureStoreError(.io, "cannot create a parent of the store directory", errno: Glibc.errno, path: prefix)
            }
        }
    }

    private static func trimmingTrailingSlashes(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        return String(path)
    }

    /// The StrictModes rule: owned by the effective user and not writable by group or others;
    /// with `privateRead`, not readable by them either (the key file).
    static func checkOwnership(_ info: stat, path: String, what: String, privateRead: Bool = false) throws(SecureStoreError) {
        guard info.st_uid == geteuid() else {
            throw SecureStoreError(.insecurePermissions, "\(what) is owned by uid \(info.st_uid), not by the effective user \(geteuid())", path: path)
        }
        let mode = UInt32(info.st_mode) & 0o7777
        guard mode & 0o022 == 0 else {
            throw SecureStoreError(.insecurePermissions, "\(what) is writable by group or others (mode \(String(mode, radix: 8)))", path: path)
        }
        guard !privateRead || mode & 0o077 == 0 else {
            throw SecureStoreError(.insecurePermissions, "\(what) is readable by group or others (mode \(String(mode, radix: 8)))", path: path)
        }
    }

    /// Writes `bytes` to `directory/name` so that a reader sees either the old file or the new
    /// one, whatever crashes when: a 0600 temp file (O_EXCL, a random name) written in full and
    /// fsynced, renamed over the name, then the directory fsynced so the rename itself is durable.
    static func replace(_ name: String, in directory: String, with bytes: SecretBytes) throws(SecureStoreError) {
        var random = SystemRandomSource()
        let suffix: String
        do { suffix = Hex.encode(try random.bytes(count: 16)) } catch { throw SecureStoreError(.io, "the random source failed") }
        let temporary = directory + "/.tmp-" + name + "-" + suffix
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SecureStoreError(.io, "cannot create a temporary record", errno: Glibc.errno, path: temporary) }
        let failure: SecureStoreError? = bytes.withUnsafeBytes { raw -> SecureStoreError? in
            var written = 0
            while written < raw.count {
                let result = write(fd, raw.baseAddress.map { $0 + written }, raw.count - written)
                guard result > 0 else {
                    let error = Glibc.errno
                    if result < 0 && error == EINTR { continue }
                    return SecureStoreError(.io, "cannot write a temporary record", errno: error, path: temporary)
                }
                written += result
            }
            return fsync(fd) == 0 ? nil : SecureStoreError(.io, "cannot fsync a temporary record", errno: Glibc.errno, path: temporary)
        }
        close(fd)
        if let failure {
            unlink(temporary)
            throw failure
        }
        guard rename(temporary, directory + "/" + name) == 0 else {
            let error = Glibc.errno
            unlink(temporary)
            throw SecureStoreError(.io, "cannot rename a record into place", errno: error, path: directory + "/" + name)
        }
        try syncDirectory(directory)
    }

    /// Opens `directory/name` for reading without following a symbolic link and checks the open
    /// file: a regular file, StrictModes ownership. Nil when it does not exist.
    private static func openChecked(_ name: String, in directory: String, privateRead: Bool) throws(SecureStoreError) -> Int32? {
        let path = directory + "/" + name
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)   // a FIFO must not block the open
        guard fd >= 0 else {
            let error = Glibc.errno
            if error == ENOENT { return nil }
            if error == ELOOP { throw SecureStoreError(.insecurePermissions, "a store file is a symbolic link", errno: error, path: path) }
            throw SecureStoreError(.io, "cannot open a store file", errno: error, path: path)
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let error = Glibc.errno
            close(fd)
            throw SecureStoreError(.io, "cannot stat a store file", errno: error, path: path)
        }
        do throws(SecureStoreError) {
            guard info.st_mode & S_IFMT == S_IFREG else { throw SecureStoreError(.insecurePermissions, "a store file is not a regular file", path: path) }
            try checkOwnership(info, path: path, what: name == ".key" ? "the key file" : "a store file", privateRead: privateRead)
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// The whole content of `directory/name`, or nil when it does not exist.
    static func read(_ name: String, in directory: String) throws(SecureStoreError) -> [UInt8]? {
        guard let fd = try openChecked(name, in: directory, privateRead: false) else { return nil }
        defer { close(fd) }
        var bytes = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            guard count > 0 else {
                if Glibc.errno == EINTR { continue }
                throw SecureStoreError(.io, "cannot read a record", errno: Glibc.errno, path: directory + "/" + name)
            }
            bytes += chunk[0..<count]
            guard bytes.count <= 16 << 20 else { throw SecureStoreError(.corrupt, "a record over 16 MiB", path: directory + "/" + name) }
        }
    }

    /// A small secret file (the key): at most `maximumCount` bytes, read into one buffer that is
    /// wiped afterwards, so the only copy left is the returned ``SecretBytes``. The file must
    /// also be unreadable by group and others.
    static func readSecret(_ name: String, in directory: String, maximumCount: Int) throws(SecureStoreError) -> SecretBytes? {
        guard let fd = try openChecked(name, in: directory, privateRead: true) else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: maximumCount + 1)
        defer { SecretBytes.wipe(&buffer) }
        var filled = 0
        while filled < buffer.count {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress.map { $0 + filled }, $0.count - filled) }
            if count == 0 { break }
            guard count > 0 else {
                if Glibc.errno == EINTR { continue }
                throw SecureStoreError(.io, "cannot read a secret file", errno: Glibc.errno, path: directory + "/" + name)
            }
            filled += count
        }
        guard filled <= maximumCount else { throw SecureStoreError(.keyUnavailable, "the file is too long", path: directory + "/" + name) }
        return SecretBytes(buffer[0..<filled])
    }

    /// Removes `directory/name` (nothing to do when it is absent) and makes the removal durable.
    static func remove(_ name: String, in directory: String) throws(SecureStoreError) {
        guard unlink(directory + "/" + name) == 0 || Glibc.errno == ENOENT else {
            throw SecureStoreError(.io, "cannot remove a record", errno: Glibc.errno, path: directory + "/" + name)
        }
        try syncDirectory(directory)
    }

    /// The names in `directory`, without dot files.
    static func names(in directory: String) throws(SecureStoreError) -> [String] {
        guard let handle = opendir(directory) else { throw SecureStoreError(.io, "cannot list the store", errno: Glibc.errno, path: directory) }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted()
    }

    /// fsync of the directory itself, so that a rename or unlink survives a power cut.
    static func syncDirectory(_ directory: String) throws(SecureStoreError) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw SecureStoreError(.io, "cannot open the store directory", errno: Glibc.errno, path: directory) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw SecureStoreError(.io, "cannot fsync the store directory", errno: Glibc.errno, path: directory) }
    }

    /// Opens (creating it, mode 0600, never through a symbolic link) a lock file at `path` and
    /// checks it like every store file (StrictModes ownership), on its open descriptor.
    static func openLockFile(_ path: String, what: String) throws(SecureStoreError) -> (descriptor: Int32, info: stat) {
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let error = Glibc.errno
            if error == ELOOP { throw SecureStoreError(.insecurePermissions, "\(what) is a symbolic link", errno: error, path: path) }
            throw SecureStoreError(.io, "cannot open \(what)", errno: error, path: path)
        }
        var info = stat()
        do throws(SecureStoreError) {
            guard fstat(fd, &info) == 0 else { throw SecureStoreError(.io, "cannot stat \(what)", errno: Glibc.errno, path: path) }
            guard info.st_mode & S_IFMT == S_IFREG else { throw SecureStoreError(.insecurePermissions, "\(what) is not a regular file", path: path) }
            try checkOwnership(info, path: path, what: what)
        } catch {
            close(fd)
            throw error
        }
        return (fd, info)
    }

    /// Runs `body` holding an exclusive `flock` on `directory/.lock` (opened with O_NOFOLLOW and
    /// checked like every store file); released when `body` returns. A nested call on the thread
    /// that already holds the lock for `directory` runs `body` directly.
    static func withExclusiveLock<T>(in directory: String, _ body: () throws(SecureStoreError) -> T) throws(SecureStoreError) -> T {
        let me = pthread_self()
        let reentrant = lockHolders.withLock { holders in holders[directory].map { pthread_equal($0, me) != 0 } ?? false }
        if reentrant { return try body() }
        let path = directory + "/.lock"
        let (fd, info) = try openLockFile(path, what: "the lock file")
        while flock(fd, LOCK_EX) != 0 {
            guard Glibc.errno == EINTR else {
                let error = Glibc.errno
                close(fd)
                throw SecureStoreError(.io, "cannot lock the store", errno: error, path: path)
            }
        }
        // The re-check after the wait: while this process waited, the directory may have been
        // exchanged (a migration), and the file locked is then the old store's lock. Lock the
        // file that is at the path now instead.
        var current = stat()
        if lstat(path, &current) != 0 || current.st_dev != info.st_dev || current.st_ino != info.st_ino {
            flock(fd, LOCK_UN)
            close(fd)
            return try withExclusiveLock(in: directory, body)
        }
        defer { close(fd) }
        lockHolders.withLock { $0[directory] = me }
        defer {
            // Forget the holder before unlocking, so the next holder never sees a stale entry.
            _ = lockHolders.withLock { $0.removeValue(forKey: directory) }
            flock(fd, LOCK_UN)
        }
        return try body()
    }
}
