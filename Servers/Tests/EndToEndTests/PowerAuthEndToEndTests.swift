// PowerAuthClient over real HTTP on 127.0.0.1 (URLSessionTransport) against mfa-server started
// in process on a random free port: the integration API issues a code, the client activates,
// persists, checks its status and signs, and the server's back-end API verifies the signatures.
// Faults: the server gone (a typed transport error, the stored activation intact).

import AuthNetworking
import CryptoPrimitives
import Foundation
import MFAServerCore
import PowerAuth
import PowerAuthSDK
import ProtocolSupport
import SecureStore
import Testing
import URLSessionTransport

/// mfa-server running for the duration of `body`.
func withMFAServer(_ body: (String, PowerAuthStandIn) async throws -> Void) async throws {
    let powerAuth = try PowerAuthStandIn()
    let (urls, continuation) = AsyncStream.makeStream(of: String.self)
    let app = MFAServer.application(powerAuth: powerAuth) { url in continuation.yield(url) }
    let server = Task { try await app.runService(gracefulShutdownSignals: []) }
    defer { server.cancel() }
    var iterator = urls.makeAsyncIterator()
    guard let url = await iterator.next() else { throw TransportError(.unreachable, underlying: "the server did not start") }
    try await body(url, powerAuth)
}

/// POSTs JSON to the integration API and returns the answer object.
func integration(_ url: String, _ path: String, _ object: [String: Any] = [:]) async throws -> [String: Any] {
    let transport = URLSessionTransport(configuration: .init(baseURL: url))
    let body = try JSONSerialization.data(withJSONObject: object)
    let response = try await transport.send(ProtocolSupport.HTTPRequest(method: .post, path: path, headers: [HTTPHeader("Content-Type", "application/json")],
                                                        body: Array(body)))
    return try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any] ?? [:]
}

@Suite struct PowerAuthEndToEndTests {
    @Test func activateStatusAndSignOverLoopback() async throws {
        try await withMFAServer { url, _ in
            let application = try await integration(url, "integration/powerauth/application")
            let configurationString = try #require(application["configurationString"] as? String)
            let core = try PowerAuth.Configuration(configurationString: configurationString, baseURL: url)
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("e2e-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let store = try SecureStore(directory: directory)
            var transportConfiguration = URLSessionTransport.Configuration(baseURL: url)
            transportConfiguration.logger = .disabled
            let client = try PowerAuthClient(configuration: .init(instanceID: "e2e", core: core), store: store,
                                             transport: URLSessionTransport(configuration: transportConfiguration),
                                             now: { UInt64(Date().timeIntervalSince1970 * 1000) })

            let issued = try await integration(url, "integration/powerauth/activation/init")
            let code = try #require(issued["activationCode"] as? String), signature = try #require(issued["activationSignature"] as? String)
            let result = try await client.createActivation(.code(try PowerAuth.ActivationCode(parsing: code + "#" + signature)))
            #expect(result.fingerprint.count == 8)
            var random = SystemRandomSource()
            let possession = try SymmetricKey(byteCount: 16, using: &random)
            let authentication = Authentication(possessionUnlockKey: possession, password: SecretBytes("1234".utf8))
            try await client.persistActivation(authentication: authentication)
            #expect(try await client.fetchActivationStatus(possessionUnlockKey: possession).state == .active)

            for (factors, name) in [(PowerAuth.SignatureFactors.possession, "1FA"), (.possessionKnowledge, "2FA")] {
                let body = Array(#"{"payment":"\#(name)"}"#.utf8)
                let header = try await client.requestSignature(method: "POST", uriID: "/payment", body: body, factors: factors,
                                                               authentication: authentication)
                let verdict = try await integration(url, "integration/powerauth/signature/verify", [
                    "activationId": result.activationID, "method": "POST", "uriId": "/payment",
                    "body": Data(body).base64EncodedString(), "header": header.value,
                ])
                #expect(verdict["valid"] as? Bool == true, "\(name): \(verdict)")
            }
            #expect(try await client.fetchActivationStatus(possessionUnlockKey: possession).failedAttempts == 0)
        }
    }

    @Test func serverDownIsATypedErrorAndTheStoreStaysIntact() async throws {
        var stored: (SecureStore, String, SymmetricKey, PowerAuth.Configuration)?
        try await withMFAServer { url, _ in
            let application = try await integration(url, "integration/powerauth/application")
            let core = try PowerAuth.Configuration(configurationString: try #require(application["configurationString"] as? String), baseURL: url)
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("e2e-\(UUID().uuidString)").path
            let store = try SecureStore(directory: directory)
            let client = try PowerAuthClient(configuration: .init(instanceID: "e2e", core: core), store: store,
                                             transport: URLSessionTransport(configuration: .init(baseURL: url)), now: { 0 })
            let issued = try await integration(url, "integration/powerauth/activation/init")
            let code = try #require(issued["activationCode"] as? String)
            _ = try await client.createActivation(.code(try PowerAuth.ActivationCode(parsing: code)))
            var random = SystemRandomSource()
            let possession = try SymmetricKey(byteCount: 16, using: &random)
            try await client.persistActivation(authentication: Authentication(possessionUnlockKey: possession, password: SecretBytes("1234".utf8)))
            stored = (store, url, possession, core)
        }
        let (store, url, possession, core) = try #require(stored)
        defer { try? FileManager.default.removeItem(atPath: store.directory) }
        let before = try #require(try store.read("powerauth.e2e.activation"))
        var configuration = URLSessionTransport.Configuration(baseURL: url)
        configuration.logger = .disabled
        configuration.timeout = 2
        let client = try PowerAuthClient(configuration: .init(instanceID: "e2e", core: core), store: store,
                                         transport: URLSessionTransport(configuration: configuration), now: { 0 })
        do {
            _ = try await client.fetchActivationStatus(possessionUnlockKey: possession)
            Issue.record("a status arrived from a stopped server")
        } catch {
            #expect(error.reason == .transport && [.unreachable, .timedOut].contains(error.transportError?.kind))
        }
        #expect(try store.read("powerauth.e2e.activation") == before)
    }
}
