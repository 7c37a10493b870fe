// Where the store's 32-byte key comes from: a random
// key in a 0600 key file made on first use (the default), a passphrase stretched with PBKDF2
// over a stored salt, or a key the caller supplies (a TPM or secure element unwrapped it).

public import CryptoPrimitives

/// A 32-byte key for a store, in wiped storage.
public struct StoreKey: Sendable {
    /// The key bytes.
    public let secret: SecretBytes

    /// Wraps 32 bytes; throws ``SecureStoreError/Kind/keyUnavailable`` for another length.
    public init(_ secret: SecretBytes) throws(SecureStoreError) {
        guard secret.count == 32 else { throw SecureStoreError(.keyUnavailable, "a store key is 32 bytes") }
        self.secret = secret
    }
}

/// Gives a store its key. Called once when the store opens.
public protocol StoreKeyProvider: Sendable {
    /// The key for the store at `directory` (which exists, mode 0700).
    func storeKey(directory: String) throws(SecureStoreError) -> StoreKey

    /// State outside `directory` that the store keeps its rollback epoch in, or nil (the
    /// default) when the provider has none. Asked once, when the store opens.
    func rollbackAnchor(directory: String) throws(SecureStoreError) -> (any StoreRollbackAnchor)?
}

/// The default: 32 random bytes in `<store>/.key` (mode 0600), written atomically on first use
/// and read afterwards. A key file that is a symbolic link, not owned by the effective user, or
/// readable or writable by group or others is refused (``SecureStoreError/Kind/insecurePermissions``):
/// someone else may have read it, or planted it. Protects against other users of the machine and against a record copied
/// elsewhere without its key file; not against root or a stolen disk (use a passphrase or a
/// caller-supplied key for that).
public struct KeyFileProvider: StoreKeyProvider {
    /// The provider.
    public init() {}

    /// Reads the key file, creating it under the store's lock when absent.
    public func storeKey(directory: String) throws(SecureStoreError) -> StoreKey {
        try FileSystem.withExclusiveLock(in: directory) { () throws(SecureStoreError) in
            // One wiped read buffer; the returned SecretBytes is the only copy of the key.
            if let existing = try FileSystem.readSecret(".key", in: directory, maximumCount: 32) {
                guard existing.count == 32 else { throw SecureStoreError(.keyUnavailable, "the key file is not 32 bytes", path: directory + "/.key") }
                return try StoreKey(existing)
            }
            // A store with records but no key file was keyed by another provider (its setting
            // rewritten or deleted) or lost its key: a new key would open none of it. Refused
            // with nothing written, so the store is left exactly as it was found.
            guard try !StoreSettings.hasState(in: directory) else {
                throw SecureStoreError(.keyUnavailable, "the store holds records but no key file: it is keyed by another provider, or its key is lost; nothing was written",
                                       path: directory + "/.key")
            }
            var random = SystemRandomSource()
            let key: SecretBytes
            do { key = try random.secretBytes(count: 32) } catch {
                throw SecureStoreError(.keyUnavailable, "the random source failed")
            }
            try FileSystem.replace(".key", in: directory, with: key)  // written from the wiped storage, no other copy
            return try StoreKey(key)
        }
    }
}

/// A key stretched from a passphrase: PBKDF2-HMAC-SHA256 over a random 16-byte salt kept in
/// `<store>/.salt`, with a fixed iteration count (capped, so a tampered value cannot hang the
/// device: the count is the provider's, not the store's).
public struct PassphraseKeyProvider: StoreKeyProvider {
    /// PBKDF2 rounds (OWASP's 2023 figure for HMAC-SHA256 is 600 000).
    public let iterations: Int
    private let passphrase: SecretBytes

    /// The largest count accepted (about 2 s on a small board is the sensible ceiling).
    public static let maximumIterations = 5_000_000

    /// A provider for `passphrase`; throws ``SecureStoreError/Kind/keyUnavailable`` for an empty
    /// passphrase or a count outside 1 000…``maximumIterations``.
    public init(passphrase: SecretBytes, iterations: Int = 600_000) throws(SecureStoreError) {
        guard passphrase.count > 0, (1_000...Self.maximumIterations).contains(iterations) else {
            throw SecureStoreError(.keyUnavailable, "an empty passphrase or an iteration count outside 1000…5000000")
        }
        self.passphrase = passphrase
        self.iterations = iterations
    }

    /// Derives the key, creating the salt on first use.
    public func storeKey(directory: String) throws(SecureStoreError) -> StoreKey {
        let salt = try FileSystem.withExclusiveLock(in: directory) { () throws(SecureStoreError) -> [UInt8] in
            if let existing = try FileSystem.read(".salt", in: directory) {
                guard existing.count == 16 else { throw SecureStoreError(.keyUnavailable, "the salt file is not 16 bytes") }
                return existing
            }
            guard try !StoreSettings.hasState(in: directory) else {
                throw SecureStoreError(.keyUnavailable, "the store holds records but no salt file: it is keyed by another provider, or its salt is lost; nothing was written",
                                       path: directory + "/.salt")
            }
            var random = SystemRandomSource()
            let salt: [UInt8]
            do { salt = try random.bytes(count: 16) } catch { throw SecureStoreError(.keyUnavailable, "the random source failed") }
            try FileSystem.replace(".salt", in: directory, with: SecretBytes(salt))
            return salt
        }
        do {
            let key = try PBKDF2<SHA256>.deriveKey(from: passphrase, salt: salt, rounds: iterations, outputByteCount: 32)
            return try StoreKey(key.withUnsafeBytes { SecretBytes($0) })
        } catch let error as SecureStoreError {
            throw error
        } catch {
            throw SecureStoreError(.keyUnavailable, "PBKDF2 failed")
        }
    }
}

/// A key the caller already holds (unsealed by a TPM, a secure element, or an operator).
public struct SuppliedKeyProvider: StoreKeyProvider {
    private let key: StoreKey

    /// Wraps the key.
    public init(key: StoreKey) {
        self.key = key
    }

    /// The supplied key.
    public func storeKey(directory: String) throws(SecureStoreError) -> StoreKey { key }
}
