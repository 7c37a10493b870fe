// The few POSIX calls the store needs (DESIGN.md §2, habit 16): an atomic replace (temp file,
// fsync, rename, fsync of the directory), whole-file reads, listing, and `flock` for exclusion
// across processes. Glibc only; no Foundation.

#if canImport(Glibc)
import Glibc
#endif

/// File operations on one directory, each returning a typed error with its errno.
enum FileSystem {
    /// Creates `path` as a directory with mode 0700 if it does not exist, and refuses a path
    /// that exists as something else.
    static func ensureDirectory(_ path: String) throws(SecureStoreError) {
        if mkdir(path, 0o700) == 0 { return }
        let error = Glibc.errno
        guard error == EEXIST else { throw SecureStoreError(.io, "cannot create the store directory", errno: error) }
        var info = stat()
        guard stat(path, &info) == 0 else { throw SecureStoreError(.io, "cannot stat the store directory", errno: Glibc.errno) }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw SecureStoreError(.io, "the store path is not a directory", errno: ENOTDIR) }
    }

    /// Writes `bytes` to `directory/name` so that a reader sees either the old file or the new
    /// one, whatever crashes when: a 0600 temp file written in full and fsynced, renamed over
    /// the name, then the directory fsynced so the rename itself is durable.
    /// `uniqueSuffix` keeps concurrent writers of one name apart.
    static func replace(_ name: String, in directory: String, with bytes: [UInt8], uniqueSuffix: String) throws(SecureStoreError) {
        let temporary = directory + "/.tmp-" + name + "-" + String(getpid()) + "-" + uniqueSuffix
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SecureStoreError(.io, "cannot create a temporary record", errno: Glibc.errno) }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { raw in
                write(fd, raw.baseAddress.map { $0 + written }, raw.count - written)
            }
            guard result > 0 else {
                let error = Glibc.errno
                if result < 0 && error == EINTR { continue }
                close(fd)
                unlink(temporary)
                throw SecureStoreError(.io, "cannot write a temporary record", errno: error)
            }
            written += result
        }
        guard fsync(fd) == 0 else {
            let error = Glibc.errno
            close(fd)
            unlink(temporary)
            throw SecureStoreError(.io, "cannot fsync a temporary record", errno: error)
        }
        close(fd)
        guard rename(temporary, directory + "/" + name) == 0 else {
            let error = Glibc.errno
            unlink(temporary)
            throw SecureStoreError(.io, "cannot rename a record into place", errno: error)
        }
        try syncDirectory(directory)
    }

    /// The whole content of `directory/name`, or nil when it does not exist.
    static func read(_ name: String, in directory: String) throws(SecureStoreError) -> [UInt8]? {
        let fd = open(directory + "/" + name, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let error = Glibc.errno
            if error == ENOENT { return nil }
            throw SecureStoreError(.io, "cannot open a record", errno: error)
        }
        defer { close(fd) }
        var bytes = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            guard count > 0 else {
                if Glibc.errno == EINTR { continue }
                throw SecureStoreError(.io, "cannot read a record", errno: Glibc.errno)
            }
            bytes += chunk[0..<count]
            guard bytes.count <= 16 << 20 else { throw SecureStoreError(.corrupt, "a record over 16 MiB") }
        }
    }

    /// Removes `directory/name` (nothing to do when it is absent) and makes the removal durable.
    static func remove(_ name: String, in directory: String) throws(SecureStoreError) {
        guard unlink(directory + "/" + name) == 0 || Glibc.errno == ENOENT else {
            throw SecureStoreError(.io, "cannot remove a record", errno: Glibc.errno)
        }
        try syncDirectory(directory)
    }

    /// The names in `directory`, without dot files.
    static func names(in directory: String) throws(SecureStoreError) -> [String] {
        guard let handle = opendir(directory) else { throw SecureStoreError(.io, "cannot list the store", errno: Glibc.errno) }
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

    /// The permission bits of `path` (for checks and tests).
    static func mode(_ path: String) throws(SecureStoreError) -> UInt32 {
        var info = stat()
        guard stat(path, &info) == 0 else { throw SecureStoreError(.io, "cannot stat", errno: Glibc.errno) }
        return UInt32(info.st_mode) & 0o7777
    }

    /// fsync of the directory itself, so that a rename or unlink survives a power cut.
    static func syncDirectory(_ directory: String) throws(SecureStoreError) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw SecureStoreError(.io, "cannot open the store directory", errno: Glibc.errno) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw SecureStoreError(.io, "cannot fsync the store directory", errno: Glibc.errno) }
    }

    /// Runs `body` holding an exclusive `flock` on `directory/.lock`, which excludes other
    /// processes and other open descriptions in this one; released when `body` returns.
    static func withExclusiveLock<T>(in directory: String, _ body: () throws(SecureStoreError) -> T) throws(SecureStoreError) -> T {
        let fd = open(directory + "/.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SecureStoreError(.io, "cannot open the lock file", errno: Glibc.errno) }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard Glibc.errno == EINTR else { throw SecureStoreError(.io, "cannot lock the store", errno: Glibc.errno) }
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }
}
