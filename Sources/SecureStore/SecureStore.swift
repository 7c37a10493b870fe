// The Keychain stand-in of every SDK (docs/protocols/sdk-surfaces.md "Keychain → SecureStore"): a directory of
// named records, each encrypted and authenticated (RecordFormat), each replaced atomically and
// durably (FileSystem), numbered against rollback (Generations), with `flock` to exclude other
// processes that use the same directory (StoreLock).

public import CryptoPrimitives
#if canImport(Glibc)
import Glibc
#endif

/// A directory of encrypted records.
///
/// ```swift
/// let store = try SecureStore(directory: home + "/.local/share/swiftmfa/powerauth")
/// try store.write(SecretBytes(pin.utf8), to: "pin")
/// let bytes = try store.read("pin")          // nil when absent
/// ```
///
/// Files are 0600 and the directory 0700. A directory or file not owned by the effective user,
/// writable by group or others, or reached through a symbolic link is refused
/// (``SecureStoreError/Kind/insecurePermissions``). A record that is cut short, altered, moved to another
/// name, written under another key or in an older format throws its own
/// ``SecureStoreError/Kind``; nothing is ever silently reset. Each write of a name carries a
/// higher generation in the record's authenticated header, and an older copy put back in place
/// is refused (``SecureStoreError/Kind/rolledBack``); so is the whole directory put back from an
/// older copy when the key provider keeps an anchor outside it (``StoreRollbackAnchor``, a PKCS #11
/// token). Writes go through a temp file, fsync,
/// rename and an fsync of the directory, so after a crash at any point a reader sees the old
/// record or the new one. ``withExclusiveAccess(_:)`` holds an exclusive `flock` for a
/// read-modify-write that other processes must not interleave (a PowerAuth counter).
public final class SecureStore: Sendable {
    /// The directory.
    public let directory: String
    private let format: RecordFormat
    private let anchor: (any StoreRollbackAnchor)?

    /// Opens (creating it and any missing parents when absent, mode 0700) the store at
    /// `directory`, keyed by `keyProvider`
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
        anchor = try Generations.reconcile(with: keyProvider.rollbackAnchor(directory: directory), in: directory, format: format)
    }

    /// The default store directory for `application`: `$XDG_DATA_HOME/<application>` when that
    /// is an absolute path (XDG Base Directory spec), else `$HOME/.local/share/<application>`.
    /// Never the current directory: with neither set this throws
    /// ``SecureStoreError/Kind/noDefaultDirectory``.
    public static func defaultDirectory(application: String = "swiftmfa", environment: [String: String]? = nil) throws(SecureStoreError) -> String {
        func value(_ name: String) -> String? {
            if let environment { return environment[name] }
            return getenv(name).map { String(cString: $0) }
        }
        if let data = value("XDG_DATA_HOME"), data.hasPrefix("/") { return data + "/" + application }
        if let home = value("HOME"), home.hasPrefix("/") { return home + "/.local/share/" + application }
        throw SecureStoreError(.noDefaultDirectory, "neither XDG_DATA_HOME nor HOME is an absolute path: give the store directory explicitly")
    }

    /// The record `name`, or nil when there is none. Throws ``SecureStoreError/Kind/rolledBack``
    /// for a record older than the newest this store wrote under that name.
    public func read(_ name: String) throws(SecureStoreError) -> SecretBytes? {
        try Self.check(name)
        // The marks first, the record second: marks only grow and a record is always written
        // before its mark, so a concurrent writer can never make a fresh record look old.
        let marks = try Generations.load(in: directory, format: format)
        guard let bytes = try FileSystem.read(name, in: directory) else { return nil }
        let (plaintext, generation) = try format.open(bytes, name: name)
        guard generation >= marks.mark(of: name) else {
            throw SecureStoreError(.rolledBack, "record generation \(generation) is older than \(marks.mark(of: name))", path: directory + "/" + name)
        }
        return plaintext
    }

    /// Replaces (or creates) the record `name` with `value`; durable when this returns. Takes
    /// the store's lock (reentrant inside ``withExclusiveAccess(_:)``) to advance the generation.
    public func write(_ value: SecretBytes, to name: String) throws(SecureStoreError) {
        try Self.check(name)
        try FileSystem.withExclusiveLock(in: directory) { () throws(SecureStoreError) in
            let marks = try Generations.load(in: directory, format: format)
            let current = try max(marks.mark(of: name), existingGeneration(of: FileSystem.read(name, in: directory), name: name))
            guard current < UInt64.max else { throw SecureStoreError(.corrupt, "the generation is exhausted", path: directory + "/" + name) }
            let next = try marks.advancing(name, to: current + 1)
            var random = SystemRandomSource()
            let sealed = try format.seal(value, name: name, generation: current + 1, using: &random)
            // The record before its mark: a crash between the two leaves a record newer than
            // its mark, which reads; the reverse would make an honest record look rolled back.
            try FileSystem.replace(name, in: directory, with: SecretBytes(sealed))
            try save(next)
        }
    }

    /// Removes the record `name` (nothing happens when it is absent); durable when this returns.
    /// The name's mark moves past the removed record, so putting a copy back is refused too.
    public func remove(_ name: String) throws(SecureStoreError) {
        try Self.check(name)
        try FileSystem.withExclusiveLock(in: directory) { () throws(SecureStoreError) in
            let marks = try Generations.load(in: directory, format: format)
            let bytes = try FileSystem.read(name, in: directory)
            let current = try max(marks.mark(of: name), existingGeneration(of: bytes, name: name))
            // The mark moves only past a file that is there (one that does not open included):
            // an absent record's mark is already past every copy of it, and advancing it again
            // would only write the anchor.
            let next = bytes != nil && current < UInt64.max ? try marks.advancing(name, to: current + 1) : nil
            try FileSystem.remove(name, in: directory)
            if let next { try save(next) }
        }
    }

    /// Replaces the generations file with `marks`, then advances the anchor to their epoch (the
    /// caller holds the lock). An anchor that cannot be advanced throws: the record is written,
    /// but a copy of the directory taken now would not yet be refused. An anchor already at
    /// that epoch or beyond means the directory was put back while this store was open.
    private func save(_ marks: Generations) throws(SecureStoreError) {
        try marks.save(in: directory, format: format)
        guard let anchor, let previous = try anchor.advanceAnchor(to: marks.epoch, directory: directory), previous >= marks.epoch else { return }
        throw SecureStoreError(.rolledBack, "the store reached epoch \(marks.epoch) but its key provider's anchor was already at \(previous): the directory was put back from an older copy while open",
                               path: directory + "/" + Generations.recordName)
    }

    /// The authenticated generation of `bytes`, the file now at `name`: 0 when absent, version
    /// 1, or not a record this store can open (cut short, altered, written under another key). The
    /// header is trusted only once the MAC verifies, so a forged header claiming a huge
    /// generation cannot push the name to the end of its range and refuse every later write;
    /// a damaged file is simply replaced by the next write.
    private func existingGeneration(of bytes: [UInt8]?, name: String) throws(SecureStoreError) -> UInt64 {
        guard let bytes else { return 0 }
        return try format.authenticatedGeneration(of: bytes, name: name) ?? 0
    }

    /// The names of the records, sorted.
    public func names() throws(SecureStoreError) -> [String] {
        try Self.names(in: directory)
    }

    /// The names of the records of the store at `directory`, sorted, from its listing alone:
    /// no key is needed and nothing is written (for a status report).
    public static func recordNames(in directory: String) throws(SecureStoreError) -> [String] {
        try names(in: directory)
    }

    /// The names of the records in `directory`, sorted, from its listing alone (no key is
    /// needed, nothing is written).
    static func names(in directory: String) throws(SecureStoreError) -> [String] {
        try FileSystem.names(in: directory).filter { (try? check($0)) != nil }  // foreign files are not records
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
