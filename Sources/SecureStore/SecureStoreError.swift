// The one error type of the secure store: a kind a caller can switch on, the errno of a failed
// system call, and a message for logs. A record that cannot be trusted is never silently reset.

/// Why the secure store refused an operation.
public struct SecureStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// A record name outside `[A-Za-z0-9._-]{1,128}` (or starting with a dot).
        case invalidName
        /// A system call failed; ``SecureStoreError/errno`` says why.
        case io
        /// The file is too short, or its header is not a record's.
        case corrupt
        /// The record was written under another key (its key id differs).
        case foreignKey
        /// The record's format version is older than this store accepts.
        case downgraded
        /// The record's MAC does not verify: it was altered, or moved from another name.
        case authenticationFailed
        /// The key provider could not give a key (a missing or malformed key file, a wrong size).
        case keyUnavailable
        /// The engine's start-up self-test failed (`CryptoSelfTest`): nothing is read or written.
        case selfTestFailed
        /// The store directory or one of its files is not owned by the effective user, is
        /// writable by group or others, is a symbolic link, or (the key file) is readable by group
        /// or others: OpenSSH's StrictModes rule. ``SecureStoreError/path`` names it.
        case insecurePermissions
        /// The record's generation is older than the newest this store has seen for its name:
        /// an earlier copy (a restored backup) was put back in place of the current one. Also
        /// the whole directory put back from an older copy, when the key provider keeps the
        /// store's epoch outside it (``StoreRollbackAnchor``), or that epoch deleted.
        case rolledBack
        /// No store directory was given and neither `XDG_DATA_HOME` nor `HOME` names one.
        case noDefaultDirectory
        /// A migrated store, reopened from disk with its new provider, did not read back every
        /// record as written: the old store was kept and the new one discarded.
        case migrationNotVerified
        /// What was read before taking the store's lock (its provider, its records) changed
        /// before the lock was held: another process got there first. Nothing was changed.
        case changedConcurrently
        /// The key provider's token cannot keep the store's epoch (it refuses the object that
        /// would hold it): a store never anchored opens without an anchor, as with a key file.
        case anchorUnsupported
    }

    /// What went wrong.
    public let kind: Kind
    /// The `errno` of a failed system call, 0 otherwise.
    public let errno: Int32
    /// A human-readable explanation (never record contents).
    public let message: String
    /// The file or directory the failure concerns, when there is one.
    public let path: String?

    /// Creates an error.
    public init(_ kind: Kind, _ message: String, errno: Int32 = 0, path: String? = nil) {
        self.kind = kind
        self.message = message
        self.errno = errno
        self.path = path
    }

    /// `kind: message: path (errno N)`.
    public var description: String {
        "\(kind): \(message)" + (path.map { ": " + $0 } ?? "") + (errno == 0 ? "" : " (errno \(errno))")
    }

    /// Errors are equal when their kinds and errnos are.
    public static func == (a: SecureStoreError, b: SecureStoreError) -> Bool { a.kind == b.kind && a.errno == b.errno }
}
