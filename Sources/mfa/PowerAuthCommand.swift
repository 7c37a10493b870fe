// `mfa powerauth <verb>` (docs/design.md §3):
// PowerAuthSDK from a shell. This file: the options every verb shares, the per-instance
// configuration kept in the secure store, exit codes and output. The verbs are in
// PowerAuthCommand+Verbs.swift, PowerAuthCommand+Call.swift and PowerAuthCommand+Vault.swift.

package import MFACommandLine
import AuthNetworking
package import CryptoPrimitives
import FoundationEssentials
import PowerAuth
import PowerAuthNetworking
package import PowerAuthSDK
import ProtocolSupport
package import SecureStore

package enum PowerAuthCommand {

    typealias Status = ExitStatus
    package typealias Options = CommandOptions

    /// Runs `verb` (the command model has checked its options).
    package static func run(_ verb: String, _ options: Options) async -> Int32 {
        await CommandSupport.run("mfa powerauth", creatingStore: verb == "configure") {
            try checkInstanceName(options)
            if verb == "configure" { return try configure(options) }
            // Every other verb may sign: one at a time per instance, across processes.
            try await InstanceSendLock.holding(directory: try options.storeDirectory(), instance: instance(options)) {
                try await dispatch(verb, options)
            }
        }
    }

    /// Runs a verb other than `configure`.
    static func dispatch(_ verb: String, _ options: Options) async throws {
            switch verb {
            case "activate": try await activate(options)
            case "status": try await status(options)
            case "sign": try await sign(options)
            case "call": try await call(options)
            case "token": try await token(options)
            case "change-password": try await changePassword(options)
            case "fetch-encryption-key": try await fetchEncryptionKey(options)
            case "sign-with-device-key": try await signWithDeviceKey(options)
            case "offline-signature": try await offlineSignature(options)
            case "biometry": try await biometry(options)
            case "recovery": try await recovery(options)
            case "remove": try await remove(options)
            default: throw UsageError(description: "unknown verb \(verb) (see mfa powerauth --help)")
            }
    }

    static func output(_ options: Options, _ object: [String: Any], text: String) {
        CommandSupport.output(options, object, text: text)
    }

    // MARK: The instance's stored configuration

    struct Stored: Codable {
        let configurationString: String
        let baseURL: String
        let version: String
        /// Whether `configure` was given `--allow-http-loopback` (absent in older records).
        var allowHTTPLoopback: Bool?
    }

    /// https only, unless `configure` was given `--allow-http-loopback` (stored with the
    /// configuration: no later verb asks again).
    static func urlPolicy(allowingLoopback: Bool) -> URLPolicy {
        allowingLoopback ? .insecureAllowingPlainHTTPToLoopback : .httpsOnly
    }

    /// The instance's stored configuration, nil when it was never configured.
    static func storedConfiguration(_ options: Options, _ store: SecureStore) throws -> Stored? {
        guard let bytes = try store.read(configRecord(options)) else { return nil }
        return try JSONDecoder().decode(Stored.self, from: Data(bytes.withUnsafeBytes { Array($0) }))
    }

    package static func store(_ options: Options) throws -> SecureStore { try options.store() }

    static func instance(_ options: Options) -> String { options.values["--instance"] ?? "default" }

    /// Refuses an `--instance` that is not 1–64 letters, digits, `-` or `_` (it names records
    /// in the store: `../../etc` is a usage error, not a store failure).
    static func checkInstanceName(_ options: Options) throws(UsageError) {
        guard let name = options.values["--instance"] else { return }
        let allowed = name.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x2D || $0 == 0x5F }
        guard (1...64).contains(name.utf8.count), allowed else {
            throw UsageError(description: "--instance is 1–64 letters, digits, '-' or '_'")
        }
    }

    static func configRecord(_ options: Options) -> String { "mfa.powerauth." + instance(options) + ".config" }
    static func possessionRecord(_ options: Options) -> String { "mfa.powerauth." + instance(options) + ".possession" }

    /// The client of the configured instance, its possession key and its base URL.
    static func client(_ options: Options) throws -> (PowerAuthClient, SymmetricKey, any HTTPTransport) {
        let configured = try configuredClient(options)
        return (configured.client, configured.possession, configured.transport)
    }

    /// The client of the configured instance with everything it was made from.
    package struct Configured {
        package let client: PowerAuthClient
        package let possession: SymmetricKey
        let transport: any HTTPTransport
        let stored: Stored
    }

    /// The client of the configured instance, its possession key, transport and stored configuration.
    package static func configuredClient(_ options: Options) throws -> Configured {
        let opened = try options.openStore()
        guard let stored = try storedConfiguration(options, opened.store) else {
            throw StateError(description: "instance \(instance(options)) is not configured (mfa powerauth configure)")
        }
        return try configuredClient(options, opened, stored)
    }

    /// The client of the configuration `stored` that was read from the store `opened`.
    static func configuredClient(_ options: Options, _ opened: OpenedStore, _ stored: Stored) throws -> Configured {
        let store = opened.store
        let key = try possessionKey(options, opened)
        guard let version = PowerAuth.ProtocolVersion(rawValue: stored.version) else { throw UsageError(description: "stored protocol \(stored.version)") }
        let transport = try CommandTransport.make(baseURL: stored.baseURL, options)
        let configuration = try PowerAuthClient.Configuration(instanceID: instance(options), configurationString: stored.configurationString,
                                                             baseURL: stored.baseURL, version: version,
                                                             urlPolicy: urlPolicy(allowingLoopback: stored.allowHTTPLoopback == true))
        return Configured(client: try PowerAuthClient(configuration: configuration, store: store, transport: .single(transport)), possession: key,
                          transport: transport, stored: stored)
    }

    /// The possession unlock key: the stored random key of an instance configured before its
    /// store moved to a token (its activation was made with it), else the key derived in the
    /// store's token (PossessionKeySource), so a copied store directory cannot sign.
    static func possessionKey(_ options: Options, _ opened: OpenedStore) throws -> SymmetricKey {
        if let stored = try opened.store.read(possessionRecord(options)) { return SymmetricKey(secret: stored) }
        guard let derived = try opened.possessionKey(instanceID: instance(options)) else {
            throw StateError(description: "instance \(instance(options)) is not configured (mfa powerauth configure)")
        }
        return derived
    }

    /// Possession plus what `--factors` asks for (the password read when knowledge is in it).
    static func authentication(_ options: Options, possession: SymmetricKey, defaultFactors: PowerAuth.SignatureFactors) throws -> Authentication {
        let factors = try options.values["--factors"].map { text in
            guard let factors = PowerAuth.SignatureFactors(rawValue: text), factors == .possession || factors == .possessionKnowledge else {
                throw UsageError(description: "--factors is possession or possession_knowledge")
            }
            return factors
        } ?? defaultFactors
        guard factors == .possessionKnowledge else {
            // A password given for a signature that does not use it would be silently ignored.
            if options.secretSource("--password") != nil {
                throw UsageError(description: "--password is not used with --factors possession")
            }
            return Authentication(possessionUnlockKey: possession)
        }
        return Authentication(possessionUnlockKey: possession, password: try SecretInput.required(options, "--password", prompt: "Password: "))
    }
}
