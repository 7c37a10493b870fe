// The store's one plain-text setting: which key provider opens it. Not a secret (a provider's
// name, or a PKCS #11 URI without any PIN), so it is not encrypted — but it decides which key is
// asked for, so it is kept like every other store file: 0600, owned by the effective user, never
// a symbolic link, replaced atomically and durably (FileSystem).

package import CryptoPrimitives
#if canImport(Glibc)
import Glibc
#endif

/// Settings kept beside a store's records, in plain text.
///
/// ```swift
/// try StoreSettings.setProvider("pkcs11:token=SwiftMFA?module-path=/usr/lib/softhsm/libsofthsm2.so", in: directory)
/// let provider = try StoreSettings.provider(in: directory)   // nil: the default key file
/// ```
public enum StoreSettings {
    /// The file that names the store's key provider.
    public static let providerFileName = ".provider"
    /// The longest provider text accepted.
    public static let maximumProviderLength = 4096

    /// The provider text recorded for the store at `directory`, or nil when none is recorded (a
    /// store made before the setting existed, or a new one: the key file). Throws
    /// ``SecureStoreError/Kind/insecurePermissions`` for a file someone else could have planted
    /// and ``SecureStoreError/Kind/corrupt`` for text that is not one printable line.
    public static func provider(in directory: String) throws(SecureStoreError) -> String? {
        guard let bytes = try FileSystem.read(providerFileName, in: directory) else { return nil }
        var line = bytes
        if line.last == 0x0A { line.removeLast() }
        guard let text = String(validating: line, as: UTF8.self), isPrintableLine(line), !line.isEmpty else {
            throw SecureStoreError(.corrupt, "the provider setting is not one printable line", path: directory + "/" + providerFileName)
        }
        return text
    }

    /// Records `text` as the store's provider (creating the directory, 0700, when absent);
    /// durable when this returns. Throws ``SecureStoreError/Kind/invalidName`` for text that is
    /// empty, longer than ``maximumProviderLength`` or not one printable line.
    public static func setProvider(_ text: String, in directory: String) throws(SecureStoreError) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= maximumProviderLength, isPrintableLine(bytes) else {
            throw SecureStoreError(.invalidName, "a provider setting is one printable line of at most \(maximumProviderLength) bytes")
        }
        try FileSystem.ensureDirectory(directory)
        try FileSystem.withExclusiveLock(in: directory) { () throws(SecureStoreError) in
            try FileSystem.replace(providerFileName, in: directory, with: SecretBytes(bytes + [0x0A]))
        }
    }

    /// Records `text` as the store's provider after re-checking, under the store's lock, what the
    /// caller decided on before taking it: that the recorded provider is still `expected` (nil:
    /// none recorded) and, when `requiringNoState`, that the store still holds no records.
    /// Throws ``SecureStoreError/Kind/changedConcurrently`` when either changed meanwhile.
    public static func replaceProvider(_ text: String, in directory: String, expecting expected: String?,
                                       requiringNoState: Bool) throws(SecureStoreError) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= maximumProviderLength, isPrintableLine(bytes) else {
            throw SecureStoreError(.invalidName, "a provider setting is one printable line of at most \(maximumProviderLength) bytes")
        }
        try FileSystem.ensureDirectory(directory)
        try FileSystem.withExclusiveLock(in: directory) { () throws(SecureStoreError) in
            guard try provider(in: directory) == expected else {
                throw SecureStoreError(.changedConcurrently, "the store's provider changed while the lock was awaited", path: directory)
            }
            if requiringNoState, try hasState(in: directory) {
                throw SecureStoreError(.changedConcurrently, "records were written while the lock was awaited", path: directory)
            }
            try FileSystem.replace(providerFileName, in: directory, with: SecretBytes(bytes + [0x0A]))
        }
    }

    /// Whether the store at `directory` holds anything a key opens: its generations file or a
    /// record. A store without either may still choose its provider freely.
    public static func hasState(in directory: String) throws(SecureStoreError) -> Bool {
        if try FileSystem.read(".generations", in: directory) != nil { return true }
        do { return try !FileSystem.names(in: directory).isEmpty } catch where error.errno == ENOENT { return false }
    }

    /// No control characters (a newline would make two settings of one).
    private static func isPrintableLine(_ bytes: [UInt8]) -> Bool {
        bytes.allSatisfy { $0 >= 0x20 && $0 != 0x7F }
    }
}

extension SecureStore {
    /// Runs `body` holding the store's exclusive lock (`<store>/.lock`, reentrant in this
    /// thread): for a key provider that must decide something about the store under its lock.
    package static func withStoreLock<T>(in directory: String, _ body: () throws(SecureStoreError) -> T) throws(SecureStoreError) -> T {
        try FileSystem.withExclusiveLock(in: directory, body)
    }

    /// The content of a private file outside any store (a PKCS #11 PIN file): read with the
    /// store's own rule — not a symbolic link, a regular file of the effective user that group
    /// and others may neither read nor write — and at most `maximumCount` bytes, into wiped storage.
    package static func readPrivateFile(atPath path: String, maximumCount: Int) throws(SecureStoreError) -> SecretBytes {
        guard let slash = path.lastIndex(of: "/"), path.index(after: slash) < path.endIndex else {
            throw SecureStoreError(.io, "not a file path", errno: EINVAL, path: path)
        }
        let directory = slash == path.startIndex ? "/" : String(path[..<slash])
        guard let bytes = try FileSystem.readSecret(String(path[path.index(after: slash)...]), in: directory, maximumCount: maximumCount) else {
            throw SecureStoreError(.io, "no such file", errno: ENOENT, path: path)
        }
        return bytes
    }
}
