// Temporary stores on the real file system for tests (docs/design.md §2 habit 16: a store is tested
// where its durability lives, never in memory), each on a fresh `TemporaryDirectory`.

public import SecureStore
import TestSupport

/// A `SecureStore` on a fresh directory with the default key provider (a random key in a key
/// file beside the records). The directory is removed when the test process exits; use
/// ``withTemporaryStore(_:_:)`` to remove it as soon as the test is done.
public func makeTemporaryStore(_ prefix: String = "store") throws -> SecureStore {
    try SecureStore(directory: TemporaryDirectory(prefix).path)
}

/// Runs `body` with a `SecureStore` on a fresh directory (default key provider), then removes
/// the directory (also when `body` throws).
public func withTemporaryStore<R>(_ prefix: String = "store", _ body: (SecureStore) throws -> R) throws -> R {
    try withTemporaryDirectory(prefix) { directory in
        try body(SecureStore(directory: directory.path))
    }
}

/// Runs `body` with a `SecureStore` on a fresh directory (default key provider), then removes
/// the directory (also when `body` throws).
public func withTemporaryStore<R>(_ prefix: String = "store", isolation: isolated (any Actor)? = #isolation,
                                  _ body: (SecureStore) async throws -> R) async throws -> R {
    let directory = try TemporaryDirectory(prefix)
    defer { directory.remove() }
    return try await body(SecureStore(directory: directory.path))
}
