// The Keychain stand-in of every SDK (issue "PowerAuth on a real wire", point 3; sdk-surfaces.md
// "Keychain → SecureStore"): a directory of named records, each encrypted and authenticated
// (RecordFormat), each replaced atomically and durably (FileSystem), with `flock` to exclude
// other processes that use the same directory.

public import CryptoPrimitives

/// A directory of encrypted records.
///
/// ```swift
/// let store = try SecureStore(directory: home + "/.local/share/swiftmfa/powerauth")
/// try store.write(SecretBytes(activation.serialized), to: "activation")
/// let bytes = try store.read("activation")          // nil when absent
/// ```
///
/// Files are 0600 and the directory 0700. A record that is cut short, altered, moved to another
/// name, written under another key or in an older format throws its own
/// ``SecureStoreError/Kind``; nothing is ever silently reset. Writes go through a temp file, fsync,
/// rename and an fsync of the directory, so after a crash at any point a reader sees the old
/// record or the new one. ``withExclusiveAccess(_:)`` holds an exclusive `flock` for a
/// read-modify-write that other processes must not interleave (a PowerAuth counter).
public final class SecureStore: Sendable {
    /// The directory.
    public let directory: String
    private let format: RecordFormat

    /// Opens (creating when absent, mode 0700) the store at `directory`, keyed by `keyProvider`
    /// (by default a random key in a 0600 key file beside the records).
    ///
    /// Every SDK client keeps its state in a store, so opening one is where the engine's start-up
    /// self-test runs (once per process, cached): a failure fails closed with
    /// ``SecureStoreError/Kind/selfTestFailed`` and no SDK starts.
    public init(directory: String, keyProvider: some StoreKeyProvider = KeyFileProvider()) throws(SecureStoreError) {
        do { try CryptoSelfTest.requirePassed() } catch { throw SecureStoreError(.selfTestFailed, error.description) }
        try FileSystem.ensureDirectory(directory)
        self.directory = directory
        format = try RecordFormat(storeKey: keyProvider.storeKey(directory: directory))
    }

    /// The record `name`, or nil when there is none.
    public func read(_ name: String) throws(SecureStoreError) -> SecretBytes? {
        try Self.check(name)
        guard let bytes = try FileSystem.read(name, in: directory) else { return nil }
        return try format.open(bytes, name: name)
    }

    /// Replaces (or creates) the record `name` with `value`; durable when this returns.
    public func write(_ value: SecretBytes, to name: String) throws(SecureStoreError) {
        try Self.check(name)
        var random = SystemRandomSource()
        let sealed = try format.seal(value, name: name, using: &random)
        let suffix: String
        do { suffix = Hex.encode(try random.bytes(count: 6)) } catch { throw SecureStoreError(.io, "the random source failed") }
        try FileSystem.replace(name, in: directory, with: sealed, uniqueSuffix: suffix)
    }

    /// Removes the record `name` (nothing happens when it is absent); durable when this returns.
    public func remove(_ name: String) throws(SecureStoreError) {
        try Self.check(name)
        try FileSystem.remove(name, in: directory)
    }

    /// The names of the records, sorted.
    public func names() throws(SecureStoreError) -> [String] {
        try FileSystem.names(in: directory).filter { (try? Self.check($0)) != nil }  // foreign files are not records
    }

    /// Runs `body` holding an exclusive lock on the store that other processes (and other
    /// `SecureStore` instances here) also take: the way to read, change and write a record
    /// without interleaving. It blocks while another holder runs.
    public func withExclusiveAccess<T>(_ body: () throws(SecureStoreError) -> T) throws(SecureStoreError) -> T {
        try FileSystem.withExclusiveLock(in: directory, body)
    }

    /// Names are `[A-Za-z0-9._-]{1,128}`, not starting with a dot (those are the store's own).
    static func check(_ name: String) throws(SecureStoreError) {
        let bytes = Array(name.utf8)
        let allowed = bytes.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
        guard (1...128).contains(bytes.count), allowed, bytes.first != UInt8(ascii: ".") else {
            throw SecureStoreError(.invalidName, "record names are 1–128 of [A-Za-z0-9._-], not starting with a dot")
        }
    }
}
