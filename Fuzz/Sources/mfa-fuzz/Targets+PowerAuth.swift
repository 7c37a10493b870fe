// The PowerAuth targets and the fixed PowerAuth world they run in.
import CryptoPrimitives
import PowerAuth
import PowerAuthServer
import ProtocolSupport

// Every PowerAuth server-data parser: activation and recovery codes, the configuration
// string, ECIES envelopes (both directions, with an encrypt → decrypt round trip on the fuzzed
// plaintext), error envelopes, the status blob and status answer, the keystore answer, the
// decrypted token / vault / recovery answers and the stored `ActivationData` record.

extension FuzzTarget {
    static let powerAuth: [FuzzTarget] = [
        FuzzTarget("powerauth-codes", seeds: [.jsonStrings(under: "powerauth/activation-code-cases.json", keys: ["code", "activationCode", "recoveryCode", "input", "typed", "puk"], decodeHex: false)]) { input in
            let text = text(input)
            _ = try? PowerAuth.ActivationCode(parsing: text)
            _ = try? PowerAuth.recoveryCode(parsing: text)
            _ = PowerAuth.isValidPUK(text)
            _ = PowerAuth.isValidCode(text)
            for character in text.prefix(64) { _ = PowerAuth.correctedCodeCharacter(character) }
        },
        FuzzTarget("powerauth-configuration", seeds: [.jsonStrings(under: "powerauth/url-encoding-and-config.json", keys: ["sdkConfigurationString", "config"], decodeHex: false)]) { input in
            _ = try? PowerAuth.Configuration(configurationString: text(input), baseURL: "https://pa.example.com/enrollment-server")
        },
        FuzzTarget("powerauth-ecies", seeds: [.jsonObjects(under: "powerauth/ecies-v3.2-v3.3.json", keys: ["request", "response"])]) { input in
            _ = try? PowerAuth.ECIES.Response(jsonBytes: input)
            if let request = try? PowerAuth.ECIES.Request(jsonBytes: input) {
                _ = try? PowerAuthFixtures.decryptor.decrypt(request)
            }
        },
        FuzzTarget("powerauth-ecies-roundtrip") { input in
            var random = SeededRandomSource(seed: input)
            guard let (request, _) = try? PowerAuthFixtures.encryptor.encryptRequest(input, timestamp: 1_700_000_000_000, using: &random),
                  let (plaintext, _) = try? PowerAuthFixtures.decryptor.decrypt(request), plaintext == input else {
                violated("ECIES request round trip", input)
            }
        },
        FuzzTarget("powerauth-responses", seeds: [.files(["powerauth/README.md"])]) { input in
            let response = response(input)
            _ = PowerAuth.ErrorResponse(response)
            _ = try? PowerAuth.requireSuccess(response)
            _ = try? PowerAuthFixtures.pendingStatus.process(response, transportKey: PowerAuthFixtures.transportKey)
            _ = try? PowerAuthFixtures.pendingKeystore.process(response, serverKey: PowerAuthFixtures.masterPublicKey)
            let body = Array(input.dropFirst())
            _ = try? PowerAuth.token(from: body)
            _ = try? PowerAuth.vaultKey(from: body, transportKey: PowerAuthFixtures.transportKey)
            _ = try? PowerAuth.alreadyConfirmed(from: body)
        },
        FuzzTarget("json-secret-member") { input in
            // Never a trap; and where both JSONDecoder and the scan read the member, the same bytes.
            // (A \u escape is left out: an escaped name is not compared by the scan, by design.)
            struct Model: Decodable { let s: String? }
            let scanned = Result { () throws(ProtocolError) in try JSONSecretMember.value(at: ["s"], in: input, what: "fuzz") }
            _ = try? JSONSecretMember.value(at: ["r", "puk"], in: input, what: "fuzz")
            if case .success(let found?) = scanned, !input.indices.dropLast().contains(where: { input[$0] == 0x5C && input[$0 + 1] == 0x75 }),
               let model = try? JSONResponse.decode(Model.self, from: input, what: "fuzz"), let text = model.s,
               found.unsafeExposedBytes != Array(text.utf8) {
                violated("JSONSecretMember disagrees with JSONDecoder", input)
            }
        },
        FuzzTarget("powerauth-activation", seeds: [.generated(PowerAuthFixtures.activationAnswerSeeds)]) { input in
            _ = try? PowerAuthFixtures.world.pendingActivation.process(response(input))
        },
        FuzzTarget("powerauth-status-blob", seeds: [.jsonStrings(under: "powerauth/activation-status-blob-data.json", keys: ["encryptedStatusBlob"], decodeHex: false)]) { input in
            let blob = Array(input.prefix(32))
            _ = try? PowerAuth.StatusBlob.decrypt(blob, transportKey: PowerAuthFixtures.transportKey, challenge: PowerAuthFixtures.challenge, nonce: PowerAuthFixtures.challenge)
        },
        FuzzTarget("powerauth-activation-data", seeds: [.generated(PowerAuthFixtures.serializedActivationSeeds)]) { input in
            guard let data = try? PowerAuth.ActivationData(serialized: input) else { return }
            guard let again = try? PowerAuth.ActivationData(serialized: data.serialized), again.serialized == data.serialized else {
                violated("ActivationData round trip", input)
            }
        },
    ]
}

// A fixed PowerAuth world for the targets: an application made by PowerAuthServer from a
// seeded source, one activation prepared against it and the server's real answer (the seed of
// the activation target), and the keys the ECIES, status and keystore parsers need.

enum PowerAuthFixtures {
    struct World: @unchecked Sendable {
        let configuration: PowerAuth.Configuration
        let masterPrivateKey: P256.KeyAgreement.PrivateKey
        let pendingActivation: PowerAuth.PendingActivation
        let activationAnswer: HTTPResponse
        let pendingStatus: PowerAuth.PendingStatus
        let pendingKeystore: PowerAuth.PendingKeystore
        let serializedActivation: [UInt8]
    }

    static let world: World = {
        do {
            var seeded = SeededRandomSource(seed: 17)
            let application = try PowerAuthServer.Application(using: &seeded)
            let configuration = try application.clientConfiguration(baseURL: "https://pa.example.com")
            let temporary = try P256.KeyAgreement.PrivateKey(using: &seeded)
            let code = try PowerAuth.ActivationCode(parsing: "VVVVV-VVVVV-VVVVV-VTFVA")
            let target = PowerAuth.EncryptionKey(publicKey: temporary.publicKey, temporaryKeyID: "tmp")
            let prepared = try PowerAuth.PendingActivation(method: .code(code), configuration: configuration, encryptionKey: target,
                                                           timestamp: 1_700_000_000_000, using: &seeded)
            let answer = try PowerAuthServer.Activation.process(prepared.request, application: application, version: .v3_3, encryptionKey: temporary,
                                                                temporaryKeyID: "tmp", activationID: "4a5e0fbe-6f9e-4a53-9ad1-1c1d2e3f4a5b",
                                                                timestamp: 1_700_000_000_100, using: &seeded)
            let result = try prepared.process(answer.response)
            let activation = try result.persist(password: SecretBytes(Array("1234".utf8)), possessionUnlockKey: SymmetricKey(data: [UInt8](repeating: 7, count: 16)),
                                                using: &seeded)
            return World(configuration: configuration, masterPrivateKey: try P256.KeyAgreement.PrivateKey(using: &seeded),
                         pendingActivation: prepared, activationAnswer: answer.response,
                         pendingStatus: try PowerAuth.PendingStatus(activationID: "4a5e0fbe-6f9e-4a53-9ad1-1c1d2e3f4a5b", using: &seeded),
                         pendingKeystore: try PowerAuth.PendingKeystore(configuration: configuration, using: &seeded),
                         serializedActivation: activation.serialized)
        } catch {
            fatalError("the PowerAuth fixture world does not build: \(error)")
        }
    }()

    static let transportKey = SymmetricKey(data: (0..<16).map { UInt8($0) })
    static let challenge = [UInt8](repeating: 0x5C, count: 16)
    static var masterPublicKey: P256.Signing.PublicKey { world.configuration.masterServerPublicKey }

    static var parameters: PowerAuth.ECIES.Parameters {
        .applicationScope(.applicationScopeGeneric, version: .v3_3, applicationKey: world.configuration.applicationKey,
                          applicationSecret: world.configuration.applicationSecret)
    }
    static var encryptor: PowerAuth.ECIES.Encryptor {
        PowerAuth.ECIES.Encryptor(publicKey: world.masterPrivateKey.publicKey, parameters: parameters)
    }
    static var decryptor: PowerAuth.ECIES.RequestDecryptor {
        PowerAuth.ECIES.RequestDecryptor(privateKey: world.masterPrivateKey, parameters: parameters)
    }
    static var pendingStatus: PowerAuth.PendingStatus { world.pendingStatus }
    static var pendingKeystore: PowerAuth.PendingKeystore { world.pendingKeystore }

    /// Seeds: a real stored activation and a real activation answer body.
    static func serializedActivationSeeds() -> [[UInt8]] { [world.serializedActivation] }
    static func activationAnswerSeeds() -> [[UInt8]] { [[0] + world.activationAnswer.body] }
}
