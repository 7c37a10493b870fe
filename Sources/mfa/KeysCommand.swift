// `mfa keys <verb>` (DESIGN.md §3): the key provider of the secure store, a property of the store
// (one `.provider` setting beside the records, StoreSettings), not of a protocol family. `use`
// chooses it for a store without records, `migrate` moves a store with records (StoreMigration),
// `status` says which provider and token open it. Every family opens its store through
// `KeysCommand.open`, so a store keyed in a token opens the same way for all of them.

import CryptoPrimitives
import MFACommandLine
import PKCS11
import SecureStore
import Synchronization

/// An open store, how it was keyed, and where PowerAuth's possession key comes from.
struct OpenedStore {
    let store: SecureStore
    let choice: StoreProviderChoice
    /// Set when the store is keyed in a token: the possession key is derived there too.
    let possessionSource: PKCS11PossessionKeySource?

    /// Whether PowerAuth's possession key is derived in the store's token.
    var bindsPossession: Bool { possessionSource != nil }

    /// The possession unlock key of `instanceID` derived in the token; nil for a store not
    /// keyed in one.
    func possessionKey(instanceID: String) throws -> SymmetricKey? {
        guard let possessionSource else { return nil }
        do { return try possessionSource.derive(instanceID: instanceID) } catch {
            throw KeysCommand.storeError(error, store.directory)
        }
    }
}

enum KeysCommand {
    /// The PIN or passphrase read once per store in this process (a verb may open its store twice).
    private static let secrets = Mutex<[String: SecretBytes]>([:])

    /// The secret `choice` needs for `directory`: a passphrase or a token PIN from the terminal
    /// or standard input (never argv); nil when the URI has a pin-source or nothing is needed.
    static func secret(for choice: StoreProviderChoice, directory: String) throws -> SecretBytes? {
        guard choice.needsSecret else { return nil }
        if let cached = secrets.withLock({ $0[directory] }) { return cached }
        let prompt: String
        switch choice {
        case .pkcs11(let uri): prompt = "PIN for \(TerminalText.singleLine(uri.token ?? "the token")): "
        default: prompt = "Store passphrase: "
        }
        let secret = try SecretInput.read(file: nil, prompt: prompt)
        secrets.withLock { $0[directory] = secret }
        return secret
    }

    /// A PKCS #11 failure as the store error every family maps to exit status 3.
    static func storeError(_ error: PKCS11Error, _ directory: String) -> SecureStoreError {
        SecureStoreError(.keyUnavailable, "PKCS #11: " + error.description, path: directory)
    }

    static func parse(_ text: String) throws -> StoreProviderChoice {
        do { return try StoreProviderChoice(parsing: text) } catch { throw UsageError(description: error.reason) }
    }

    static func recorded(_ directory: String) throws -> StoreProviderChoice {
        do { return try StoreProviderChoice.recorded(in: directory) } catch { throw storeError(error, directory) }
    }

    static func provider(_ choice: StoreProviderChoice, directory: String) throws -> any StoreKeyProvider {
        let secret = try secret(for: choice, directory: directory)
        do { return try choice.keyProvider(secret: secret) } catch { throw storeError(error, directory) }
    }

    /// Opens the store at `directory` with the provider it records.
    static func open(directory: String) throws -> OpenedStore {
        let choice = try recorded(directory)
        let provider = try provider(choice, directory: directory)
        let store = try SecureStore(directory: directory, keyProvider: provider)
        return OpenedStore(store: store, choice: choice, possessionSource: (provider as? PKCS11KeyProvider).map(PKCS11PossessionKeySource.init))
    }

    /// `mfa keys use` and `--key-provider`: records `text` as the provider of a store that has
    /// no records yet; the same provider again changes nothing; a store with records is refused
    /// (its records would no longer open) with the migrate command to run instead.
    static func use(_ text: String, directory: String) throws {
        let choice = try parse(text)
        guard try recorded(directory) != choice else { return }
        guard try !StoreSettings.hasState(in: directory) else {
            throw UsageError(description: "the store \(directory) already holds records under another key provider: mfa keys migrate --to \(choice.setting)")
        }
        try StoreSettings.setProvider(choice.setting, in: directory)
    }

    /// Runs `verb` (the command model has checked its options).
    static func run(_ verb: String, _ options: CommandOptions) async -> Int32 {
        await CommandSupport.run("mfa keys") {
            let directory = try options.storeDirectory()
            switch verb {
            case "use":
                try use(try options.argument(0, "provider"), directory: directory)
                let opened = try open(directory: directory)  // asks the token (and creates its key) now, not on first use
                CommandSupport.output(options, ["store": directory, "provider": opened.choice.setting],
                                      text: "the store \(directory) is opened by \(opened.choice.setting)")
            case "status": try status(options, directory: directory)
            case "migrate":
                let target = try parse(try options.require("--to"))
                let from = try recorded(directory)
                guard target != from else { throw UsageError(description: "the store is already opened by \(target.setting)") }
                let source = try provider(from, directory: directory)
                let destination = try provider(target, directory: directory + ".migrating")
                let count = try StoreMigration.migrate(directory: directory, from: source, to: destination, providerSetting: target.setting)
                CommandSupport.output(options, ["store": directory, "provider": target.setting, "records": count],
                                      text: "moved \(count) records of \(directory) to \(target.setting)")
            default: throw UsageError(description: "unknown verb \(verb) (see mfa keys --help)")
            }
        }
    }

    /// Which provider opens the store and, for a token, which token and whether its key exists.
    static func status(_ options: CommandOptions, directory: String) throws {
        let choice = try recorded(directory)
        var object: [String: Any] = ["store": directory, "provider": choice.setting]
        var text = "store \(directory)\nprovider \(choice.setting)"
        if case .pkcs11 = choice, let provider = try provider(choice, directory: directory) as? PKCS11KeyProvider {
            let status: PKCS11KeyStatus
            do { status = try provider.status() } catch { throw storeError(error, directory) }
            object["token"] = ["label": status.token.label, "manufacturer": status.token.manufacturer, "model": status.token.model,
                               "serial": status.token.serialNumber]
            object["keyLabel"] = status.keyLabel
            object["keyPresent"] = status.keyPresent
            text += "\ntoken \(line(status.token.label)) (\(line(status.token.manufacturer)) \(line(status.token.model)), serial \(line(status.token.serialNumber)))"
            text += "\nkey \(line(status.keyLabel)) " + (status.keyPresent ? "present" : "absent")
        }
        CommandSupport.output(options, object, text: text)
    }
}
