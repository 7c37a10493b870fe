// The PowerAuth SDK tests' fixture: a client on a fresh store in front of the shared
// `PowerAuthTestBackEnd` (ClientTestSupport), which records what the server saw.

import AuthNetworking
import CryptoPrimitives
import Foundation
import PowerAuth
@_spi(Internals) import PowerAuthSDK
import PowerAuthServer
import ProtocolSupport
import SecureStore
import Testing
import ClientTestSupport
import TestSupport

/// A client, its store and the back end, ready to activate.
struct SDKFixture {
    let application: PowerAuthServer.Application
    let server: PowerAuthTestBackEnd
    let client: PowerAuthClient
    let store: SecureStore
    let directory: String
    let possession: SymmetricKey
    var random: SeededRandomSource

    /// A fresh store directory and a 3.2 client; `now` is the local clock in milliseconds,
    /// `clientRandom` and `logger` the client's configured random source (the system's unless
    /// given) and logger.
    static func make(seed: UInt64, now: UInt64 = 1_700_000_000_000, clientRandom: (any RandomSource & Sendable)? = nil,
                     logger: Logger? = nil) throws -> SDKFixture {
        var random = SeededRandomSource(seed: seed)
        let application = try PowerAuthServer.Application(using: &random)
        let server = try PowerAuthTestBackEnd(application: application, activationID: "act-rec", seed: 77)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pa-sdk-\(UUID().uuidString)").path
        let store = try SecureStore(directory: directory)
        let configuration = PowerAuthClient.Configuration(instanceID: "app", core: try application.clientConfiguration(baseURL: "https://pa.example.com"),
                                                          version: .v3_2, clock: { Date(timeIntervalSince1970: Double(now) / 1000) },
                                                          random: clientRandom ?? SystemRandomSource(), logger: logger)
        let client = try PowerAuthClient(configuration: configuration, store: store, transport: .single(server))
        let possession = try SymmetricKey(byteCount: 16, using: &random)
        return SDKFixture(application: application, server: server, client: client, store: store, directory: directory,
                          possession: possession, random: random)
    }

    /// A signed activation code issued by the application's master key.
    mutating func issuedCode() throws -> PowerAuth.ActivationCode {
        let (code, signature) = try application.issueActivationCode(using: &random)
        return try PowerAuth.ActivationCode(parsing: code + "#" + signature)
    }

    /// Activates and persists with `password`.
    mutating func activate(password: String = "1234") async throws -> Authentication {
        _ = try await client.createActivation(.code(try issuedCode()))
        let authentication = Authentication(possessionUnlockKey: possession, password: SecretBytes(password.utf8))
        try await client.persistActivation(authentication: authentication)
        return authentication
    }

    /// Advances the stored counter `steps` times without telling the server (signatures that
    /// never arrived).
    func advanceClientCounter(by steps: Int) throws {
        let activations = try ActivationStore(store: store, instanceID: "app")
        var activation = try #require(try activations.activation())
        for _ in 0..<steps { activation = activation.advanced }
        try activations.save(activation)
    }

    func cleanUp() { try? FileManager.default.removeItem(atPath: directory) }
}
