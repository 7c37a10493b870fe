// `mfa keys <verb>` (docs/design.md §3): the key provider of the secure store, a property of the store
// (one `.provider` setting beside the records, StoreSettings), not of a protocol family. `use`
// chooses it for a store without records, `migrate` moves a store with records (StoreMigration),
// `status` says which provider and token open it. Every family opens its store through
// `KeysCommand.open`, so a store keyed in a token opens the same way for all of them.

import AuthNetworking
import CMAuthenticatorSDK
import CryptoPrimitives
package import MFACommandLine
import PKCS11
import SaltEdgeSDK
import SecureStore
import Synchronization

/// An open store, how it was keyed, and where PowerAuth's possession key and the other
/// families' factor keys come from.
struct OpenedStore {
    package let store: SecureStore
    let choice: StoreProviderChoice
    /// Set when the store is keyed in a token: the possession key is derived there too.
    let possessionSource: PKCS11PossessionKeySource?
    /// The token of a store keyed in one (Salt Edge connection key pairs are generated there),
    /// else the software store (keys sealed in their records).
    let deviceKeys: any DeviceKeyStore

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

package enum KeysCommand {
    /// The PINs and passphrases read in this process: a passphrase per store directory, a PIN per
    /// token (module and token attributes), so a verb that opens its store twice, or a migration
    /// between two key objects of one token, asks once.
    private static let secrets = Mutex<[String: SecretBytes]>([:])

    /// The secret `choice` needs for `directory`: a passphrase or a token PIN from the terminal
    /// or standard input (never argv); nil when the URI has a pin-source, when the token does not
    /// require login (`CKF_LOGIN_REQUIRED` clear in its `CK_TOKEN_INFO`), or nothing is needed.
    static func secret(for choice: StoreProviderChoice, directory: String) throws -> SecretBytes? {
        guard choice.needsSecret else { return nil }
        let cacheKey: String
        let prompt: String
        switch choice {
        case .pkcs11(let uri):
            cacheKey = "pkcs11:" + tokenIdentity(uri)
            prompt = "PIN for \(TerminalText.singleLine(uri.token ?? "the token")): "
        default:
            cacheKey = "passphrase:" + directory
            prompt = "Store passphrase: "
        }
        if let cached = secrets.withLock({ $0[cacheKey] }) { return cached }
        if case .pkcs11(let uri) = choice {
            let required: Bool
            do { required = try PKCS11KeyProvider.tokenRequiresLogin(uri: uri) } catch { throw storeError(error, directory) }
            guard required else { return nil }
        }
        let secret = try SecretInput.read(file: nil, prompt: prompt)
        secrets.withLock { $0[cacheKey] = secret }
        return secret
    }

    /// Which token a URI reaches, whatever key object or store it names: the module and the
    /// token attributes (RFC 7512 §2.3), for keying the PIN cache.
    static func tokenIdentity(_ uri: PKCS11URI) -> String {
        let token = uri.path.filter { !["object", "id", "type"].contains($0.name) }   // every attribute that chooses the slot
        return (uri.modulePath ?? "") + "?" + token.map { $0.name + "=" + Hex.encode($0.value) }.joined(separator: ";")
    }

    /// A PKCS #11 failure as the store error every family maps to exit status 3.
    static func storeError(_ error: PKCS11Error, _ directory: String) -> SecureStoreError {
        SecureStoreError(.keyUnavailable, "PKCS #11: " + error.description, path: directory)
    }

    static func parse(_ text: String) throws -> StoreProviderChoice {
        do { return try StoreProviderChoice(parsing: text) } catch { throw UsageError(description: error.message) }
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
        let token = provider as? PKCS11KeyProvider
        return OpenedStore(store: store, choice: choice, possessionSource: token.map(PKCS11PossessionKeySource.init),
                           deviceKeys: token.map { PKCS11DeviceKeyStore(provider: $0) } ?? SoftwareDeviceKeyStore())
    }

    /// `mfa keys use` and `--key-provider`: records `text` as the provider of a store that has
    /// no records yet; the same provider again changes nothing; a store with records is refused
    /// (its records would no longer open) with the migrate command to run instead. A token gets
    /// a fresh store identifier. What was checked is checked again under the store's lock.
    static func use(_ text: String, directory: String) throws {
        let choice = try parse(text)
        let settingBefore = try StoreSettings.provider(in: directory)
        guard try recorded(directory).withoutStoreIdentifier != choice else { return }
        guard try !StoreSettings.hasState(in: directory) else {
            throw UsageError(description: "the store \(directory) already holds records under another key provider: mfa keys migrate \(choice.setting)")
        }
        let assigned: StoreProviderChoice
        do { assigned = try choice.assigningStoreIdentifier() } catch { throw storeError(error, directory) }
        try StoreSettings.replaceProvider(assigned.setting, in: directory, expecting: settingBefore, requiringNoState: true)
    }

    /// `mfa keys migrate PROVIDER`: moves the store's records under `target` (StoreMigration).
    /// Refused, with the instance named, while a PowerAuth activation in a token-keyed store uses
    /// the possession key derived in that token: any other provider (another token, another
    /// store identifier, a file) would silently change that activation's possession factor. A
    /// store moved onto a token keeps the possession keys it stores, so its activations keep
    /// theirs. The provider setting and the activations are checked again under the store's lock.
    static func migrate(to target: StoreProviderChoice, directory: String) throws -> (count: Int, setting: String, portable: [String]) {
        // The name StoreMigration locks under (no trailing slash): the lock is reentrant per name,
        // and a token provider opening the store inside the migration takes it again.
        var directory = directory
        while directory.count > 1, directory.hasSuffix("/") { directory.removeLast() }
        let settingBefore = try StoreSettings.provider(in: directory)
        let from = try recorded(directory)
        guard from.withoutStoreIdentifier != target else { throw UsageError(description: "the store is already opened by \(target.setting)") }
        let source = try provider(from, directory: directory)
        let store = try SecureStore(directory: directory, keyProvider: source)
        if case .pkcs11 = from, let pin = try tokenPins(store).first { throw pin }  // before asking for the destination's secret
        let assigned: StoreProviderChoice
        do { assigned = try target.assigningStoreIdentifier() } catch { throw storeError(error, directory) }
        let destination = try provider(assigned, directory: directory + ".migrating")
        var refusal: StateError?
        var portable: [String] = []
        let count = try store.withExclusiveAccess { () throws(SecureStoreError) -> Int in
            guard try StoreSettings.provider(in: directory) == settingBefore else {
                throw SecureStoreError(.changedConcurrently, "the store's provider changed while the lock was awaited", path: directory)
            }
            if case .pkcs11 = from, let pin = try tokenPins(store).first {
                refusal = pin
                return 0
            }
            // Read under the lock that the move holds: an activation made or removed while the
            // lock was awaited is counted as it is when the records move.
            portable = try portablePossessionInstances(store)
            return try StoreMigration.migrate(directory: directory, from: source, to: destination, providerSetting: assigned.setting)
        }
        if let refusal { throw refusal }
        // The records moved unchanged: the instances are those of the store before the move.
        guard case .pkcs11 = assigned else { return (count, assigned.setting, []) }
        return (count, assigned.setting, portable)
    }

    /// What pins `store` to its token, one refusal each, with how to lift it: a PowerAuth
    /// activation whose possession key is derived in the token (moving the store would change
    /// that factor), a Salt Edge connection's key pair and a CM environment's secret held there
    /// under this store's identifier (moving the store would leave them behind), and an
    /// enrolment whose token key is not named by a record yet (running, or killed: its intent).
    static func tokenPins(_ store: SecureStore) throws(SecureStoreError) -> [StateError] {
        let enrolments = try store.deviceKeyIntentLabels()
        let connections: [String], environments: [String]
        do { connections = try SaltEdgeAuthenticatorClient.connectionsWithHeldKeys(in: store) } catch {
            throw error.storeError ?? SecureStoreError(.corrupt, error.message, path: store.directory)
        }
        do { environments = try CMAuthenticatorClient.environmentsWithHeldKeys(in: store) } catch {
            throw error.storeError ?? SecureStoreError(.corrupt, error.message, path: store.directory)
        }
        let moving = "under this store's identifier; moving the store would leave"
        return try tokenBoundInstances(store).map { instance in
            StateError(description: "the PowerAuth activation of instance \(instance) uses the possession key derived in the store's token; moving the store would change its possession factor: remove the activation (mfa powerauth remove --instance \(instance)) first")
        } + connections.map { connection in
            StateError(description: "the Salt Edge connection \(connection) keeps its key pair in the store's token, \(moving) the key behind: remove the connection first (mfa saltedge remove \(connection); --local for one never completed)")
        } + environments.map { environment in
            StateError(description: "the CM environment \(environment) keeps its secret in the store's token, \(moving) it behind: unlink the environment (mfa cm environment remove \(environment)) first")
        } + enrolments.map { label in
            StateError(description: "an enrolment made the token key \(label) and no record names it yet, \(moving) the key behind: let a running enrolment finish; after one that was killed, the next Salt Edge or CM enrolment deletes its key")
        }
    }

    /// The PowerAuth instances with an activation and a possession key stored in the records:
    /// a key any copy of the store holds, wherever the store is keyed.
    static func portablePossessionInstances(_ store: SecureStore) throws(SecureStoreError) -> [String] {
        portablePossessionInstances(names: try store.names())
    }

    /// ``portablePossessionInstances(_:)`` from the store's record names.
    static func portablePossessionInstances(names list: [String]) -> [String] {
        let names = Set(list)
        return names.compactMap { name -> String? in
            guard name.hasPrefix("powerauth."), name.hasSuffix(".activation"), name.count > "powerauth..activation".count else { return nil }
            let instance = String(name.dropFirst("powerauth.".count).dropLast(".activation".count))
            return names.contains("mfa.powerauth." + instance + ".possession") ? instance : nil
        }.sorted()
    }

    /// The PowerAuth instances of `store` with an activation (the SDK's `powerauth.<instance>.activation`)
    /// and no stored possession key (`mfa.powerauth.<instance>.possession`, PowerAuthCommand):
    /// their possession key is the one derived in the store's token.
    static func tokenBoundInstances(_ store: SecureStore) throws(SecureStoreError) -> [String] {
        let names = Set(try store.names())
        return names.compactMap { name -> String? in
            guard name.hasPrefix("powerauth."), name.hasSuffix(".activation"), name.count > "powerauth..activation".count else { return nil }
            let instance = String(name.dropFirst("powerauth.".count).dropLast(".activation".count))
            return names.contains("mfa.powerauth." + instance + ".possession") ? nil : instance
        }.sorted()
    }

    /// Runs `verb` (the command model has checked its options).
    package static func run(_ verb: String, _ options: CommandOptions) async -> Int32 {
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
                guard try options.storeExists() else { throw StateError(description: "no store at \(directory): there is nothing to migrate (is --store mistyped?)") }
                let moved = try migrate(to: try parse(try options.argument(0, "provider")), directory: directory)
                // The records moved; a copy of the store made before the move did not, and still
                // opens with the old key. PowerAuth instances keep the possession key they were
                // activated with until a new activation derives one in the token.
                var text = "moved \(moved.count) records of \(directory) to \(moved.setting)\n"
                    + "a copy of the store made before this move still opens with the old key and can still sign: delete every such copy"
                for instance in moved.portable {
                    text += "\nPowerAuth instance \(instance) keeps the possession key it was activated with, which such a copy holds too; "
                        + "to bind it to the token: mfa powerauth remove --instance \(instance), then activate again"
                }
                CommandSupport.output(options, ["store": directory, "provider": moved.setting, "records": moved.count,
                                                "portablePossessionKeys": moved.portable], text: text)
            default: throw UsageError(description: "unknown verb \(verb) (see mfa keys --help)")
            }
        }
    }

    /// Which provider opens the store and, for a token, which token and whether its key
    /// exists; then the device keys enrolments made that no record names yet (their intents:
    /// an enrolment running, or one killed, whose key the family's next enrolment deletes).
    static func status(_ options: CommandOptions, directory: String) throws {
        // Like every status: a store that does not exist is reported, not created or described.
        guard try options.storeExists() else {
            return CommandSupport.output(options, ["store": directory, "exists": false],
                                         text: "no store at \(directory) (a configure verb or mfa keys use creates it)")
        }
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
            object["rollbackAnchor"] = ["enabled": status.anchors, "epoch": status.anchoredEpoch.map { Int(clamping: $0) as Any } ?? JSONOutput.null]
            text += "\nrollback anchor " + (!status.anchors ? "off (a restored copy of the whole store directory opens)"
                : status.anchoredEpoch.map { "at epoch \($0) (a restored copy of the store directory is refused)" } ?? "none yet (set when the store next opens)")
            // Instances activated before the store moved onto the token: a copy made before the
            // move holds their possession key too.
            let portable = portablePossessionInstances(names: try SecureStore.recordNames(in: directory))
            object["portablePossessionKeys"] = portable
            for instance in portable {
                text += "\nPowerAuth instance \(line(instance)) keeps a possession key from before the move onto the token "
                    + "(mfa powerauth remove --instance \(line(instance)), then activate again, binds it to the token)"
            }
        }
        // From the directory listing: the store is not opened (no key, no session, no write).
        let pending = try SecureStore.deviceKeyIntentLabels(in: directory)
        object["pendingKeys"] = pending
        for label in pending { text += "\npending key \(line(label)) (made by an enrolment, named by no record yet)" }
        CommandSupport.output(options, object, text: text)
    }
}
