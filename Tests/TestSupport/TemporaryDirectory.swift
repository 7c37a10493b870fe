// Temporary directories on the real file system for tests (docs/design.md §2 habit 16:
// a store is tested where its durability lives, never in memory). Every directory sits under
// one per-process root made with mkdtemp (mode 0700, as SecureStore requires), so a test that
// never reaches its cleanup still leaves nothing behind: the root is removed when the process
// exits.

import Foundation
import Glibc

/// A fresh, empty directory (mode 0700) for one test, removed by ``remove()``.
///
/// ```swift
/// let directory = try TemporaryDirectory("store")
/// defer { directory.remove() }
/// let store = try SecureStore(directory: directory.path + "/records")
/// ```
///
/// The directory is not removed when this value goes away (ARC may release it right after its
/// last use, before the test has finished with the path); call ``remove()``, or use
/// ``withTemporaryDirectory(_:_:)``. Anything left over goes with the per-process root at exit.
public struct TemporaryDirectory: Sendable {
    /// The directory's absolute path.
    public let path: String

    /// Creates a fresh directory whose name starts with `prefix`.
    public init(_ prefix: String = "test") throws {
        path = try TemporaryRoot.makeDirectory(prefix: prefix)
    }

    /// The absolute path of `name` inside the directory (not created).
    public func appending(_ name: String) -> String { path + "/" + name }

    /// Removes the directory and everything in it, first giving back the owner's permissions a
    /// test may have taken away. A failure only leaves the directory for the exit-time cleanup.
    public func remove() {
        TemporaryRoot.removeTree(path)
    }
}

/// Runs `body` with a fresh directory, then removes it (also when `body` throws).
public func withTemporaryDirectory<R>(_ prefix: String = "test", _ body: (TemporaryDirectory) throws -> R) throws -> R {
    let directory = try TemporaryDirectory(prefix)
    defer { directory.remove() }
    return try body(directory)
}

/// Runs `body` with a fresh directory, then removes it (also when `body` throws).
public func withTemporaryDirectory<R>(_ prefix: String = "test", isolation: isolated (any Actor)? = #isolation,
                                      _ body: (TemporaryDirectory) async throws -> R) async throws -> R {
    let directory = try TemporaryDirectory(prefix)
    defer { directory.remove() }
    return try await body(directory)
}

/// Why a temporary directory could not be made.
public struct TemporaryDirectoryError: Error, Sendable, CustomStringConvertible {
    /// What failed, with its errno.
    public let description: String
}

/// The per-process root every temporary directory sits under, removed at exit.
enum TemporaryRoot {
    /// `$TMPDIR/swiftmfa-tests-XXXXXX`, made once per process; the exit handler is registered
    /// with it.
    static let path: Result<String, TemporaryDirectoryError> = {
        let base = FileManager.default.temporaryDirectory.path
        let result = mkdtemp(template: base + "/swiftmfa-tests-")
        if case .success = result { atexit { TemporaryRoot.removeAtExit() } }
        return result
    }()

    /// A fresh directory under the root.
    static func makeDirectory(prefix: String) throws(TemporaryDirectoryError) -> String {
        let root = try path.get()
        return try mkdtemp(template: root + "/" + prefix + "-").get()
    }

    /// `mkdtemp(3)` on `template` + `XXXXXX`: a new directory, mode 0700.
    static func mkdtemp(template: String) -> Result<String, TemporaryDirectoryError> {
        var bytes = Array((template + "XXXXXX").utf8CString)
        let made = bytes.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { Glibc.mkdtemp($0) } != nil }
        guard made else { return .failure(TemporaryDirectoryError(description: "mkdtemp \(template)XXXXXX failed: errno \(errno)")) }
        return .success(String(decoding: bytes.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// Removes `path` and everything below it, restoring the owner's rwx on directories first
    /// (a permission test may leave a 0000 directory behind).
    static func removeTree(_ path: String) {
        if let walker = FileManager.default.enumerator(atPath: path) {
            chmod(path, 0o700)
            while let relative = walker.nextObject() as? String {
                var status = stat()
                let full = path + "/" + relative
                if lstat(full, &status) == 0, status.st_mode & 0o170000 == 0o040000 { chmod(full, 0o700) }
            }
        }
        // A failure here leaves a directory under the root, which the exit handler retries; it
        // never changes what a test observed.
        _ = try? FileManager.default.removeItem(atPath: path)
    }

    /// The exit handler: removes the whole root.
    static func removeAtExit() {
        if case .success(let root) = path { removeTree(root) }
    }
}
