// Which key provider opens a store, as a user writes it (`file`, `passphrase`,
// `pkcs11:<URI>`) and as the store records it (StoreSettings: the same text, a URI without any
// PIN). The PIN itself never comes from this text on a command line: argv is readable by every
// user of the machine.

public import CryptoPrimitives
public import SecureStore

/// The key provider of a store.
///
/// ```swift
/// let choice = try StoreProviderChoice(parsing: "pkcs11:token=SwiftMFA?module-path=/usr/lib/softhsm/libsofthsm2.so")
/// try StoreSettings.setProvider(choice.setting, in: directory)
/// let recorded = try StoreProviderChoice.recorded(in: directory)   // .pkcs11(…)
/// ```
public enum StoreProviderChoice: Sendable, Equatable {
    /// A random key in the store's `.key` file (`KeyFileProvider`, the default).
    case keyFile
    /// A key stretched from a passphrase over the store's `.salt` (`PassphraseKeyProvider`).
    case passphrase
    /// A key derived inside a PKCS #11 token (``PKCS11KeyProvider``).
    case pkcs11(PKCS11URI)

    /// Parses `file`, `passphrase` or a `pkcs11:` URI. A URI carrying a `pin-value` is refused
    /// unless `allowingPINValue` (a URI from argv or from a file on disk must not hold the PIN:
    /// use `pin-source`, or let the PIN be asked for), and so is one carrying a store identifier
    /// (`x-swiftmfa-store`: the store makes its own, see ``assigningStoreIdentifier()``).
    /// Throws ``PKCS11Error/Kind/invalidURI``.
    public init(parsing text: String, allowingPINValue: Bool = false) throws(PKCS11Error) {
        try self.init(parsing: text, allowingPINValue: allowingPINValue, recorded: false)
    }

    /// ``init(parsing:allowingPINValue:)``; a `recorded` setting may (and, for a token, must)
    /// carry the store identifier.
    private init(parsing text: String, allowingPINValue: Bool, recorded: Bool) throws(PKCS11Error) {
        switch text {
        case "file": self = .keyFile
        case "passphrase": self = .passphrase
        default:
            guard text.lowercased().hasPrefix("pkcs11:") else {
                throw PKCS11Error(.invalidURI, "a key provider is file, passphrase or pkcs11:<URI>")
            }
            let uri = try PKCS11URI(text)
            guard allowingPINValue || uri.pinValue == nil else {
                throw PKCS11Error(.invalidURI, "a pin-value in the URI is readable by every user (argv, the store's files): use pin-source=file:/path, or enter the PIN when asked")
            }
            guard uri.modulePath?.isEmpty == false else {
                throw PKCS11Error(.invalidURI, "the URI names no module-path (module-name lookup is not supported)")
            }
            // Stored and loaded again by every later run, from whatever directory it runs in.
            guard uri.modulePath?.hasPrefix("/") == true else {
                throw PKCS11Error(.untrustedModule, recorded
                    ? "the store's provider setting names a relative module-path, which each run would resolve against its own working directory: write the module's absolute path into the store's .provider file"
                    : "module-path must be absolute: a relative one is resolved against each run's working directory")
            }
            let identifier = try uri.storeIdentifier()
            if recorded {
                guard identifier != nil else {
                    throw PKCS11Error(.storeIdentifierMissing,
                                      "the store was keyed in a token by an earlier, unreleased format without a store identifier (\(PKCS11StoreIdentifier.attributeName)); this version does not open it")
                }
            } else if identifier != nil {
                throw PKCS11Error(.invalidURI, "\(PKCS11StoreIdentifier.attributeName) is chosen by the store, not on the command line")
            }
            self = .pkcs11(uri)
        }
    }

    /// The provider recorded for the store at `directory` (`StoreSettings`); ``keyFile`` when
    /// none is. A recorded URI with a `pin-value` is refused like one on a command line; a
    /// recorded token URI without a store identifier (the first, unreleased format) throws
    /// ``PKCS11Error/Kind/storeIdentifierMissing``.
    public static func recorded(in directory: String) throws(PKCS11Error) -> StoreProviderChoice {
        let text: String?
        do { text = try StoreSettings.provider(in: directory) } catch {
            throw PKCS11Error(.invalidArgument, "the store's provider setting: " + error.description)
        }
        guard let text else { return .keyFile }
        return try StoreProviderChoice(parsing: text, allowingPINValue: false, recorded: true)
    }

    /// The choice with a fresh store identifier when it is a token URI without one (a store that
    /// chooses a token for the first time, or moves onto one); the choice itself otherwise.
    public func assigningStoreIdentifier() throws(PKCS11Error) -> StoreProviderChoice {
        guard case .pkcs11(let uri) = self, try uri.storeIdentifier() == nil else { return self }
        return .pkcs11(try uri.settingStoreIdentifier(PKCS11StoreIdentifier.random()))
    }

    /// The choice without its store identifier: which provider, token and key, for comparing
    /// with a choice a user wrote.
    public var withoutStoreIdentifier: StoreProviderChoice {
        guard case .pkcs11(let uri) = self else { return self }
        return .pkcs11(uri.withoutStoreIdentifier)
    }

    /// The text recorded in the store: `file`, `passphrase`, or the URI without any `pin-value`.
    public var setting: String {
        switch self {
        case .keyFile: return "file"
        case .passphrase: return "passphrase"
        case .pkcs11(let uri):
            do { return try PKCS11URI(path: uri.path, query: uri.query.filter { $0.name.lowercased() != "pin-value" }).text } catch {
                // Dropping an attribute keeps a valid URI valid; were it not, the redacted form
                // still never holds the PIN.
                return uri.description
            }
        }
    }

    /// Whether the choice needs a secret from the user before the store opens: a passphrase,
    /// or a PIN for a URI without `pin-source`.
    public var needsSecret: Bool {
        switch self {
        case .keyFile: return false
        case .passphrase: return true
        case .pkcs11(let uri): return uri.pinSource == nil
        }
    }

    /// The provider. `secret` is the passphrase, or the token PIN (when nil, a URI's
    /// `pin-source` is read, else no login is made). A token provider needs the store identifier
    /// in its URI (``PKCS11Error/Kind/storeIdentifierMissing`` otherwise). Throws ``PKCS11Error/Kind/invalidArgument``
    /// for a passphrase choice without a passphrase.
    public func keyProvider(secret: SecretBytes?) throws(PKCS11Error) -> any StoreKeyProvider {
        switch self {
        case .keyFile:
            return KeyFileProvider()
        case .passphrase:
            guard let secret else { throw PKCS11Error(.invalidArgument, "the passphrase provider needs a passphrase") }
            do { return try PassphraseKeyProvider(passphrase: secret) } catch {
                throw PKCS11Error(.invalidArgument, error.description)
            }
        case .pkcs11(let uri):
            return try PKCS11KeyProvider(uri: uri, pin: secret)
        }
    }
}
