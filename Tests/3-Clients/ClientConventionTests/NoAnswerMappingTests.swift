// The one mapping of transport and policy failures, run over the five clients (docs/design.md
// "Transport and policy failures"): a URL the policy refuses is `urlRefused` in every client,
// its refusal reachable through the cause and nothing sent; a cancelled send is `cancelled`; any
// other failure without an answer is `transport` (the networking layer's finer WPN codes
// stand in for the last).

import AuthNetworking
import CMAuthenticator
import CMAuthenticatorSDK
import CryptoPrimitives
import Foundation
import MPinSDK
import PowerAuth
import PowerAuthNetworking
import PowerAuthSDK
import PowerAuthServer
import ProtocolSupport
import SaltEdgeSDK
import SecureStore
import Testing
import TestSupport

/// Counts the requests it is given and fails each with `kind` (never an answer).
final class FailingTransport: HTTPTransport, @unchecked Sendable {
    let kind: TransportError.Kind
    private let lock = NSLock()
    private var count = 0
    init(_ kind: TransportError.Kind) { self.kind = kind }
    var requests: Int { lock.withLock { count } }
    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        lock.withLock { count += 1 }
        throw TransportError(kind, underlying: "test")
    }
}

/// One client of each of the five, each made with `baseURL` under `policy` and sending through
/// `transport`: each closure makes its client and performs one call that sends, returning the
/// client error it fails with (nil when it did not fail).
struct FiveClients {
    let directory: String

    init() throws { directory = try TemporaryDirectory("client-convention").path }

    func store(_ name: String) throws -> SecureStore { try SecureStore(directory: directory + "/" + name) }

    static let device = CMAuthenticator.DeviceDescription(manufacturer: "Test", osVersion: "1", appVersion: "1", appID: "test", languageCode: "en",
                                                          model: "Test", modelID: "test", platform: "Linux", appKey: "key")

    /// Each client's failure for one call to `baseURL` (the client's own base URL where it has
    /// one, else the URL the call names).
    func failures(baseURL: String, policy: URLPolicy = .httpsOnly, transport: FailingTransport) async throws -> [(String, any ClientError)] {
        var random = SeededRandomSource(seed: 47)
        let application = try PowerAuthServer.Application(using: &random)
        var failures: [(String, any ClientError)] = []
        func attempt(_ client: String, _ call: () async throws -> Void) async {
            do { try await call() } catch let error as any ClientError { failures.append((client, error)) } catch {
                Issue.record("\(client) failed with an error that is not a client error: \(error)")
            }
        }
        let stores = try ["powerauth", "networking", "cm", "saltedge", "mpin"].map(store)
        func powerAuth(_ url: String, _ policy: URLPolicy, _ store: SecureStore) throws -> PowerAuthClient {
            let core = try application.clientConfiguration(baseURL: url)
            return try PowerAuthClient(configuration: .init(instanceID: "u", core: core, version: .v3_2, urlPolicy: policy),
                                       store: store, transport: .single(transport))
        }
        await attempt("PowerAuth") { _ = try await powerAuth(baseURL, policy, stores[0]).serverTime(version: .v3_2) }
        let networkingClient = try powerAuth("https://pa.example.com", .httpsOnly, stores[1])
        await attempt("networking") {
            let service = try NetworkingService(configuration: .init(baseURL: baseURL, urlPolicy: policy), client: networkingClient, transport: .single(transport))
            _ = try await service.post(EmptyObject(), to: Endpoint<EmptyObject, EmptyObject>.basic("api/ping"))
        }
        await attempt("CM") {
            let client = try CMAuthenticatorClient(configuration: .init(baseURL: baseURL, device: Self.device, pinning: .disabledTransportCannotPin, urlPolicy: policy),
                                                   store: stores[2], transport: .single(transport))
            _ = try await client.register(phoneNumber: "+31612345678")
        }
        await attempt("Salt Edge") {
            let client = SaltEdgeAuthenticatorClient(configuration: .init(urlPolicy: policy), store: stores[3], transport: .single(transport))
            _ = try await client.providerConfiguration(at: baseURL)
        }
        await attempt("M-Pin") {
            let client = MPinClient(configuration: .init(urlPolicy: policy), store: stores[4], transport: .single(transport))
            try await client.setBackend(baseURL)
        }
        return failures
    }

    /// The URL policy's refusal behind `error`, through its causes.
    static func refusal(in error: any Error) -> URLPolicy.Refusal? {
        switch error {
        case let error as TransportError: error.urlRefusal
        case let error as ProtocolError: error.urlRefusal
        case let error as any ClientError: error.cause.flatMap(refusal(in:))
        default: nil
        }
    }
}

@Suite struct NoAnswerMappingTests {
    /// Plain http to this machine under the default policy: refused before anything is sent,
    /// with one code, the refusal in the cause saying the loopback opt-out would accept it.
    @Test func aRefusedURLIsURLRefusedInEveryClient() async throws {
        let clients = try FiveClients()
        let transport = FailingTransport(.unreachable)
        let failures = try await clients.failures(baseURL: "http://127.0.0.1:9/api", transport: transport)
        #expect(failures.map(\.0) == ["PowerAuth", "networking", "CM", "Salt Edge", "M-Pin"])
        for (client, error) in failures {
            #expect("\(error.code)" == "urlRefused", "\(client): \(error)")
            let refusal = FiveClients.refusal(in: error)
            #expect(refusal?.reason == .insecure && refusal?.loopbackOptOutWouldAccept == true, "\(client): \(error)")
            #expect(error.message.contains("http://127.0.0.1:9"), "\(client): \(error.message)")
        }
        #expect(transport.requests == 0)
    }

    /// A password in the URL is refused under every policy, the opt-out would not help, and the
    /// message does not repeat it.
    @Test func aURLWithAPasswordIsURLRefusedAndNotRepeated() async throws {
        let clients = try FiveClients()
        let transport = FailingTransport(.unreachable)
        let failures = try await clients.failures(baseURL: "https://u:s3cret@api.example.com/x", policy: .insecureAllowingPlainHTTPToLoopback,
                                                  transport: transport)
        #expect(failures.count == 5)
        for (client, error) in failures {
            #expect("\(error.code)" == "urlRefused", "\(client): \(error)")
            let refusal = FiveClients.refusal(in: error)
            #expect(refusal?.reason == .userInformation && refusal?.loopbackOptOutWouldAccept == false, "\(client): \(error)")
            #expect(!"\(error)".contains("s3cret"), "\(client): \(error)")
        }
        #expect(transport.requests == 0)
    }

    /// A send whose task was cancelled is `cancelled` in every client.
    @Test func aCancelledSendIsCancelledInEveryClient() async throws {
        let clients = try FiveClients()
        let transport = FailingTransport(.cancelled)
        let failures = try await clients.failures(baseURL: "https://api.example.com/x", transport: transport)
        #expect(failures.count == 5)
        for (client, error) in failures { #expect("\(error.code)" == "cancelled", "\(client): \(error)") }
        #expect(transport.requests == 5)
    }

    /// Any other failure without an answer is `transport`; the networking layer names it with
    /// `WPNErrorReason`'s code instead (`network_noInternetConnection` for an unreachable host).
    @Test func anUnreachableServerIsTransportInEveryClient() async throws {
        let clients = try FiveClients()
        let transport = FailingTransport(.unreachable)
        let failures = try await clients.failures(baseURL: "https://api.example.com/x", transport: transport)
        #expect(failures.count == 5)
        for (client, error) in failures {
            #expect("\(error.code)" == (client == "networking" ? "network_noInternetConnection" : "transport"), "\(client): \(error)")
            #expect(error.transportError?.kind == .unreachable, "\(client): \(error)")
        }
    }
}
