// The stored activation on a real file system: signing advances the counter on disk before the
// header exists, and 64 concurrent signers — each with its own store handle, as separate
// processes would have — use 64 distinct consecutive counters that the server accepts in order.

import CryptoPrimitives
import Foundation
import PowerAuth
@_spi(Internals) import PowerAuthSDK
import PowerAuthServer
import ProtocolSupport
import SecureStore
import Testing
import TestSupport

@Suite struct ActivationStoreTests {
    struct Fixture {
        let application: PowerAuthServer.Application
        let configuration: PowerAuth.Configuration
        var server: PowerAuthServer.Activation
        let activation: PowerAuth.ActivationData
        let authentication: Authentication
        let directory: String
    }

    /// An application, an activation by code against `PowerAuthServer` (3.2), persisted in a
    /// fresh store directory.
    static func fixture(seed: UInt64) throws -> Fixture {
        var random = SeededRandomSource(seed: seed)
        let application = try PowerAuthServer.Application(using: &random)
        let configuration = try application.clientConfiguration(baseURL: "https://pa.example.com")
        let (code, signature) = try application.issueActivationCode(using: &random)
        let pending = try PowerAuth.PendingActivation(method: .code(try PowerAuth.ActivationCode(parsing: code + "#" + signature)),
                                                      configuration: configuration,
                                                      encryptionKey: PowerAuth.EncryptionKey(publicKey: application.masterAgreementKey.publicKey),
                                                      version: .v3_2, timestamp: 1, using: &random)
        let (server, _, response) = try PowerAuthServer.Activation.process(pending.request, application: application, version: .v3_2,
                                                                           activationID: "act-\(seed)", timestamp: 2, using: &random)
        let possession = try SymmetricKey(byteCount: 16, using: &random)
        let password = SecretBytes("0000".utf8)
        let activation = try pending.process(response).persist(password: password, possessionUnlockKey: possession, version: .v3_2, using: &random)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pa-store-\(UUID().uuidString)").path
        return Fixture(application: application, configuration: configuration, server: server, activation: activation,
                       authentication: Authentication(possessionUnlockKey: possession, password: password), directory: directory)
    }

    @Test func signingWritesTheNextCounterBeforeReturning() throws {
        var f = try Self.fixture(seed: 1)
        defer { try? FileManager.default.removeItem(atPath: f.directory) }
        let store = try ActivationStore(store: SecureStore(directory: f.directory), instanceID: "app")
        #expect(try store.activation() == nil)
        try store.save(f.activation)
        let body = Array(#"{"amount":1}"#.utf8)
        let header = try store.sign(method: "POST", uriID: "/pay", body: body, factors: .possessionKnowledge,
                                    authentication: f.authentication, configuration: f.configuration)
        // Another handle on the directory already sees the advanced counter.
        let reopened = try ActivationStore(store: SecureStore(directory: f.directory), instanceID: "app")
        #expect(try reopened.activation()?.counter == f.activation.advanced.counter)
        guard case .valid = f.server.verify(header: header.value, method: "POST", uriID: "/pay", body: body,
                                            applicationSecret: f.application.applicationSecret) else {
            Issue.record("the server refused the stored activation's signature")
            return
        }
        // Without a stored activation, and with a store name that cannot be a record.
        try store.remove()
        #expect(throws: PowerAuthSDKError.self) {
            try store.sign(method: "POST", uriID: "/pay", body: body, factors: .possession, authentication: f.authentication, configuration: f.configuration)
        }
        #expect(throws: SecureStoreError(.invalidName, "")) { try ActivationStore(store: SecureStore(directory: f.directory), instanceID: "../x") }
    }

    /// 64 tasks sign at once, each through its own `SecureStore` handle (its own lock file
    /// description, as another process would have). Every counter from 0 to 63 is used exactly
    /// once, and the server accepts all 64 in counter order with no failed attempt.
    @Test func concurrentSignersNeverReuseACounter() async throws {
        var f = try Self.fixture(seed: 2)
        defer { try? FileManager.default.removeItem(atPath: f.directory) }
        try ActivationStore(store: SecureStore(directory: f.directory), instanceID: "app").save(f.activation)
        let (directory, authentication, configuration) = (f.directory, f.authentication, f.configuration)
        let bodies = (0..<64).map { Array("{\"n\":\($0)}".utf8) }
        let headers = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for (index, body) in bodies.enumerated() {
                group.addTask {
                    let store = try ActivationStore(store: SecureStore(directory: directory), instanceID: "app")
                    let header = try store.sign(method: "POST", uriID: "/pay", body: body, factors: .possession,
                                                authentication: authentication, configuration: configuration)
                    return (index, header.value)
                }
            }
            var all: [(Int, String)] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(headers.count == 64)
        // Which counter did each signature use? Recompute against counters 0…63.
        let keys = try f.activation.signatureKeys(for: .possession, possessionUnlockKey: authentication.possessionUnlockKey)
        var counters = [f.activation.counter]
        for _ in 1..<64 { counters.append(counters[counters.count - 1].next) }
        var used: [Int: (index: Int, header: String)] = [:]
        for (index, header) in headers {
            let fields = Dictionary(uniqueKeysWithValues: header.dropFirst("PowerAuth ".count).components(separatedBy: ", ").map { pair -> (String, String) in
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                return (parts[0], parts.count == 2 ? String(parts[1].dropFirst().dropLast()) : "")
            })
            let data = PowerAuth.NormalizedData.make(method: "POST", uriID: "/pay", nonce: fields["pa_nonce"] ?? "", body: bodies[index],
                                                     secret: configuration.applicationSecret)
            let position = try counters.firstIndex { counter in
                try PowerAuth.Signature.compute(data: data, counter: counter, factors: .possession, keys: keys, format: .base64) == fields["pa_signature"]
            }
            let counter = try #require(position, "signature \(index) used no expected counter")
            #expect(used[counter] == nil, "counter \(counter) used twice")
            used[counter] = (index, header)
        }
        #expect(used.count == 64)
        for position in 0..<64 {
            let (index, header) = try #require(used[position])
            guard case .valid = f.server.verify(header: header, method: "POST", uriID: "/pay", body: bodies[index],
                                                applicationSecret: f.application.applicationSecret) else {
                Issue.record("counter \(position) refused")
                continue
            }
        }
        #expect(f.server.failedAttempts == 0)
        let stored = try #require(try ActivationStore(store: SecureStore(directory: directory), instanceID: "app").activation())
        #expect(stored.counter == counters[63].next && stored.counterByte == 64)
    }
}
