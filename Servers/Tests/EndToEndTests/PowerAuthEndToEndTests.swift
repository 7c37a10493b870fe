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
import ServiceLifecycle
import Testing
import URLSessionTransport

/// The application `make` builds (given the callback that learns its URL) running for the
/// duration of `body`, then shut down gracefully (cancelling its task instead drops in-flight
/// NIO writers, which traps). Every stand-in's helper below starts its server through this.
func withRunning<App: Service>(_ make: (@escaping @Sendable (String) async -> Void) throws -> App,
                               _ body: (String) async throws -> Void) async throws {
    let (urls, continuation) = AsyncStream.makeStream(of: String.self)
    let group = ServiceGroup(services: [try make { url in continuation.yield(url) }])
    // A server that stops before it runs (a port taken meanwhile) ends the wait for its URL.
    let server = Task {
        defer { continuation.finish() }
        try await group.run()
    }
    var iterator = urls.makeAsyncIterator()
    do {
        guard let url = await iterator.next() else { throw TransportError(.unreachable, underlying: "the server did not start") }
        try await body(url)
    } catch {
        await group.triggerGracefulShutdown()
        try await server.value
        throw error
    }
    await group.triggerGracefulShutdown()
    try await server.value
}

/// mfa-server with its PowerAuth stand-in running for the duration of `body` (over TLS with
/// `tls`'s chain when given).
func withMFAServer(_ standIn: PowerAuthStandIn? = nil, tls: TestTLSIdentity? = nil,
                   _ body: (String, PowerAuthStandIn) async throws -> Void) async throws {
    let powerAuth = try standIn ?? PowerAuthStandIn()
    try await withRunning({ try MFAServer.application(powerAuth: powerAuth, tls: tls, onRunning: $0) }) { url in
        try await body(url, powerAuth)
    }
}

/// POSTs JSON to the integration API and returns the answer object.
func integration(_ url: String, _ path: String, _ object: [String: Any] = [:]) async throws -> [String: Any] {
    let transport = TestTrust.transport(url)
    let body = try JSONSerialization.data(withJSONObject: object)
    let response = try await transport.send(ProtocolSupport.HTTPRequest(method: .post, path: path, headers: [HTTPHeader("Content-Type", "application/json")],
                                                        body: Array(body)))
    return try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any] ?? [:]
}

/// A client activated by code against the stand-in at `url` and persisted in a fresh store.
struct ActivatedClient {
    let client: PowerAuthClient
    let store: SecureStore
    let core: PowerAuth.Configuration
    let configurationString: String
    let activationID: String
    let activationCode: (code: String, signature: String)
    let possessionBytes: [UInt8]
    var possession: SymmetricKey { SymmetricKey(data: possessionBytes) }
    var authentication: Authentication { Authentication(possessionUnlockKey: possession, password: SecretBytes("1234".utf8)) }

    /// Activates through a transport to `url` (quiet unless `transport` says otherwise;
    /// `sending`, when given, replaces URLSessionTransport altogether).
    init(url: String, instanceID: String, version: PowerAuth.ProtocolVersion = .v3_3,
         transport: URLSessionTransport.Configuration? = nil, sending: (any HTTPTransport)? = nil) async throws {
        let application = try await integration(url, "integration/powerauth/application")
        configurationString = try #require(application["configurationString"] as? String)
        core = try PowerAuth.Configuration(configurationString: configurationString, baseURL: url)
        store = try SecureStore(directory: FileManager.default.temporaryDirectory.appendingPathComponent("e2e-\(UUID().uuidString)").path)
        client = try PowerAuthClient(configuration: .init(instanceID: instanceID, core: core, version: version, urlPolicy: .insecureAllowingPlainHTTPToLoopback),
                                     store: store,
                                     transport: .single(sending ?? URLSessionTransport(configuration: transport ?? Self.quiet(url))))
        let issued = try await integration(url, "integration/powerauth/activation/init")
        let code = try #require(issued["activationCode"] as? String), signature = try #require(issued["activationSignature"] as? String)
        activationCode = (code, signature)
        let result = try await client.createActivation(.code(try PowerAuth.ActivationCode(parsing: code + "#" + signature)))
        #expect(result.fingerprint.count == 8)
        activationID = result.activationID
        var random = SystemRandomSource()
        possessionBytes = try random.bytes(count: 16)
        try await client.persistActivation(authentication: Authentication(possessionUnlockKey: SymmetricKey(data: possessionBytes),
                                                                          password: SecretBytes("1234".utf8)))
    }

    /// A transport configuration for `url` that logs nothing.
    static func quiet(_ url: String) -> URLSessionTransport.Configuration {
        var configuration = URLSessionTransport.Configuration(baseURL: url)
        configuration.logger = .disabled
        return configuration
    }

    /// Removes the store directory.
    func discard() { try? FileManager.default.removeItem(atPath: store.directory) }
}

extension EndToEnd {
    @Suite struct PowerAuthEndToEndTests {
        @Test func activateStatusAndSignOverLoopback() async throws {
            try await withMFAServer { url, _ in
                let activated = try await ActivatedClient(url: url, instanceID: "e2e")
                defer { activated.discard() }
                let (client, authentication, possession) = (activated.client, activated.authentication, activated.possession)
                #expect(try await client.fetchActivationStatus(possessionUnlockKey: possession).state == .active)

                for (factors, name) in [(PowerAuth.SignatureFactors.possession, "1FA"), (.possessionKnowledge, "2FA")] {
                    let body = Array(#"{"payment":"\#(name)"}"#.utf8)
                    let header = try await client.requestSignature(method: "POST", uriID: "/payment", body: body, factors: factors,
                                                                   authentication: authentication)
                    let verdict = try await integration(url, "integration/powerauth/signature/verify", [
                        "activationId": activated.activationID, "method": "POST", "uriId": "/payment",
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
                let activated = try await ActivatedClient(url: url, instanceID: "e2e")
                stored = (activated.store, url, activated.possession, activated.core)
            }
            let (store, url, possession, core) = try #require(stored)
            defer { try? FileManager.default.removeItem(atPath: store.directory) }
            let before = try #require(try store.read("powerauth.e2e.activation"))
            var configuration = URLSessionTransport.Configuration(baseURL: url)
            configuration.logger = .disabled
            configuration.timeout = 2
            let client = try PowerAuthClient(configuration: .init(instanceID: "e2e", core: core, urlPolicy: .insecureAllowingPlainHTTPToLoopback,
                                                                  clock: { Date(timeIntervalSince1970: 0) }), store: store,
                                             transport: .single(URLSessionTransport(configuration: configuration)))
            do {
                _ = try await client.fetchActivationStatus(possessionUnlockKey: possession)
                Issue.record("a status arrived from a stopped server")
            } catch {
                #expect(error.code == .transport && [.unreachable, .timedOut].contains(error.transportError?.kind))
            }
            #expect(try store.read("powerauth.e2e.activation") == before)
        }

        /// Faults through the SDK: a 500 with an HTML page, a 401 with a §14.2 envelope, a body cut
        /// in half — each a typed error, the stored activation byte-identical — then a blocked
        /// activation: the status says so and the server refuses the signature.
        @Test func faultsAreTypedAndTheStoreStaysIntact() async throws {
            try await withMFAServer { url, _ in
                let activated = try await ActivatedClient(url: url, instanceID: "faults")
                defer { activated.discard() }
                let before = try #require(try activated.store.read("powerauth.faults.activation"))
                let expectations: [(String, PowerAuthSDKError.Code, Int, String?)] = [
                    ("garbage500", .server, 500, nil), ("envelope401", .authenticationFailed, 401, "ERR_AUTHENTICATION"), ("cut", .invalidResponse, 200, nil),
                ]
                for (fault, reason, status, code) in expectations {
                    _ = try await integration(url, "integration/powerauth/fault", ["fault": fault])
                    do {
                        _ = try await activated.client.fetchActivationStatus(possessionUnlockKey: activated.possession)
                        Issue.record("\(fault): a status was accepted")
                    } catch let error as PowerAuthSDKError {
                        #expect(error.code == reason && error.httpStatus == status, "\(fault): \(error)")
                        if let code { #expect(error.protocolError?.code.rawValue == code, "\(fault): \(error)") }
                    } catch {
                        Issue.record("\(fault): not a PowerAuthSDKError: \(error)")
                    }
                    #expect(try activated.store.read("powerauth.faults.activation") == before, "\(fault) changed the store")
                }
                // The faults cost nothing: the next status is fine.
                #expect(try await activated.client.fetchActivationStatus(possessionUnlockKey: activated.possession).state == .active)

                _ = try await integration(url, "integration/powerauth/activation/block", ["activationId": activated.activationID])
                #expect(try await activated.client.fetchActivationStatus(possessionUnlockKey: activated.possession).state == .blocked)
                let body = Array(#"{"blocked":true}"#.utf8)
                let header = try await activated.client.requestSignature(method: "POST", uriID: "/payment", body: body, factors: .possession,
                                                                         authentication: activated.authentication)
                let verdict = try await integration(url, "integration/powerauth/signature/verify", [
                    "activationId": activated.activationID, "method": "POST", "uriId": "/payment",
                    "body": Data(body).base64EncodedString(), "header": header.value,
                ])
                #expect(verdict["valid"] as? Bool == false)
            }
        }
    }
}

/// mfa-server with its Salt Edge provider running for the duration of `body`.
func withSaltEdgeServer(_ body: (String, SaltEdgeStandIn) async throws -> Void) async throws {
    let saltEdge = try SaltEdgeStandIn(providerKey: TestKeys.saltEdgeProvider)
    let (urls, continuation) = AsyncStream.makeStream(of: String.self)
    let app = try MFAServer.application(powerAuth: try PowerAuthStandIn(), saltEdge: saltEdge) { url in continuation.yield(url) }
    let group = ServiceGroup(services: [app])
    let server = Task { try await group.run() }
    var iterator = urls.makeAsyncIterator()
    do {
        guard let url = await iterator.next() else { throw TransportError(.unreachable, underlying: "the server did not start") }
        try await body(url, saltEdge)
    } catch {
        await group.triggerGracefulShutdown()
        try await server.value
        throw error
    }
    await group.triggerGracefulShutdown()
    try await server.value
}
