// The PowerAuth pair of the differential targets: one application and one activation made by
// the real flow (PowerAuth.PendingActivation against PowerAuthServer.Activation.process), the
// client's unlocked keys, and the server's record of the same activation in each protocol
// version. Built once per process; each input starts from copies of these values.
import CryptoPrimitives
import PowerAuth
import PowerAuthServer
import ProtocolSupport

enum PowerAuthPair {
    struct World: @unchecked Sendable {
        let application: PowerAuthServer.Application
        let configuration: PowerAuth.Configuration
        /// The server's record, indexed like ``PowerAuthPair/versions`` (the version selects the
        /// activation-scope ECIES parameters; the keys and counter are the same).
        let servers: [PowerAuthServer.Activation]
        let client: PowerAuth.ActivationData
        /// Every factor key, unlocked with the right password and unlock keys.
        let keys: PowerAuth.SignatureKeys
        /// The same with the knowledge key from a wrong password (which unlocks silently, §4.2).
        let wrongPasswordKeys: PowerAuth.SignatureKeys
        /// KEY_TRANSPORT as the client unlocks it.
        let transportKey: SymmetricKey
        /// A 3.3 temporary key the server holds (§10).
        let temporaryKey: P256.KeyAgreement.PrivateKey
        let temporaryKeyID: String
    }

    static let versions: [PowerAuth.ProtocolVersion] = [.v3_0, .v3_1, .v3_2, .v3_3]
    static let factors: [PowerAuth.SignatureFactors] = [.possession, .knowledge, .biometry, .possessionKnowledge, .possessionBiometry,
                                                        .possessionKnowledgeBiometry]

    static let world: World = {
        do {
            var seeded = SeededRandomSource(seed: 29)
            let application = try PowerAuthServer.Application(using: &seeded)
            let configuration = try application.clientConfiguration(baseURL: "https://pa.example.com")
            let creationKey = try P256.KeyAgreement.PrivateKey(using: &seeded)
            let code = try PowerAuth.ActivationCode(parsing: "VVVVV-VVVVV-VVVVV-VTFVA")
            let pending = try PowerAuth.PendingActivation(method: .code(code), configuration: configuration,
                                                          encryptionKey: PowerAuth.EncryptionKey(publicKey: creationKey.publicKey, temporaryKeyID: "creation"),
                                                          timestamp: 1_700_000_000_000, using: &seeded)
            let created = try PowerAuthServer.Activation.process(pending.request, application: application, version: .v3_3, encryptionKey: creationKey,
                                                                 temporaryKeyID: "creation", activationID: "0f5e1c2d-7a3b-4c8d-9e0f-1a2b3c4d5e6f",
                                                                 timestamp: 1_700_000_000_100, using: &seeded)
            let result = try pending.process(created.response)
            let password = SecretBytes(Array("1234".utf8))
            let possessionUnlock = SymmetricKey(data: [UInt8](repeating: 7, count: 16))
            let biometryUnlock = SymmetricKey(data: [UInt8](repeating: 9, count: 16))
            let client = try result.persist(password: password, possessionUnlockKey: possessionUnlock, biometryUnlockKey: biometryUnlock, using: &seeded)
            let keys = try client.signatureKeys(for: .possessionKnowledgeBiometry, possessionUnlockKey: possessionUnlock, password: password,
                                                biometryUnlockKey: biometryUnlock)
            var wrong = keys
            wrong.knowledge = try client.signatureKeys(for: .knowledge, possessionUnlockKey: possessionUnlock,
                                                       password: SecretBytes(Array("1243".utf8))).knowledge
            var servers: [PowerAuthServer.Activation] = []
            for version in versions {
                var snapshot = created.activation.snapshot
                snapshot.version = version.rawValue
                servers.append(try PowerAuthServer.Activation(snapshot: snapshot))
            }
            guard servers[3].counter == client.counter else { fatalError("the PowerAuth pair starts with different counters") }
            return World(application: application, configuration: configuration, servers: servers, client: client, keys: keys,
                         wrongPasswordKeys: wrong, transportKey: try client.transportKey(possessionUnlockKey: possessionUnlock),
                         temporaryKey: try P256.KeyAgreement.PrivateKey(using: &seeded), temporaryKeyID: "a9c3e7f1-temporary")
        } catch {
            fatalError("the PowerAuth pair does not build: \(error)")
        }
    }()

    /// The client's activation `steps` signatures later.
    static func client(after steps: Int) -> PowerAuth.ActivationData {
        var activation = world.client
        for _ in 0..<steps { activation = activation.advanced }
        return activation
    }

    /// The server's record with a look-ahead window of `window` (1…64).
    static func server(window: Int, version: Int = 3) -> PowerAuthServer.Activation {
        var server = world.servers[version]
        do {
            try server.setLookAheadWindow(window)
        } catch {
            fatalError("window \(window) refused: \(error)")
        }
        return server
    }

    /// An activation-id-shaped text from 16 bytes (token ids are UUIDs, docs/protocols/powerauth.md §11.3).
    static func uuid(_ bytes: [UInt8]) -> String {
        let hex = Hex.encode(bytes)
        let cuts = [8, 4, 4, 4, 12]
        var parts: [String] = []
        var rest = Substring(hex)
        for cut in cuts {
            parts.append(String(rest.prefix(cut)))
            rest = rest.dropFirst(cut)
        }
        return parts.joined(separator: "-")
    }
}
