// The networking service's tests' fixture: a PowerAuth client on a fresh store in front of the
// shared `PowerAuthTestBackEnd` (ClientTestSupport), whose `api/hello` (token) and `api/pay`
// (signed, uriID `/api/pay`, its first arrival held back on request so that a later request
// would overtake it) stand for an application's endpoints.

import AuthNetworking
import ClientTestSupport
import CryptoPrimitives
import Foundation
import PowerAuth
import PowerAuthNetworking
import PowerAuthSDK
import PowerAuthServer
import ProtocolSupport
import SecureStore
import Testing

/// A PowerAuth client on a fresh store in front of the back end, ready to activate.
struct NetworkingFixture {
    let application: PowerAuthServer.Application
    let server: PowerAuthTestBackEnd
    let client: PowerAuthClient
    let directory: String
    let possession: SymmetricKey
    var random: SeededRandomSource

    /// A 3.2 client for `https://pa.example.com`, its clock fixed at 2023-11-14; the client's
    /// requests to `failing` fail with `failure` instead of reaching the back end.
    static func make(seed: UInt64, failing: String? = nil, with failure: TransportError.Kind = .cancelled) throws -> NetworkingFixture {
        var random = SeededRandomSource(seed: seed)
        let application = try PowerAuthServer.Application(using: &random)
        let server = try PowerAuthTestBackEnd(application: application, activationID: "act-net", seed: 78)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pa-net-\(UUID().uuidString)").path
        let store = try SecureStore(directory: directory)
        let configuration = PowerAuthClient.Configuration(instanceID: "app", core: try application.clientConfiguration(baseURL: "https://pa.example.com"),
                                                          version: .v3_2, clock: { Date(timeIntervalSince1970: 1_700_000_000) })
        let transport: any HTTPTransport = failing.map { PathFailingTransport(server: server, path: $0, failure: failure) } ?? server
        let client = try PowerAuthClient(configuration: configuration, store: store, transport: .single(transport))
        let possession = try SymmetricKey(byteCount: 16, using: &random)
        return NetworkingFixture(application: application, server: server, client: client, directory: directory,
                                 possession: possession, random: random)
    }

    /// Activates with a code the application issued and persists with `password`.
    mutating func activate(password: String = "1234") async throws -> Authentication {
        let (code, signature) = try application.issueActivationCode(using: &random)
        _ = try await client.createActivation(.code(try PowerAuth.ActivationCode(parsing: code + "#" + signature)))
        let authentication = Authentication(possessionUnlockKey: possession, password: SecretBytes(password.utf8))
        try await client.persistActivation(authentication: authentication)
        return authentication
    }

    /// A service on the back end, configured with `configuration`.
    func service(_ configuration: NetworkingService.Configuration = NetworkingService.Configuration()) throws -> NetworkingService {
        try NetworkingService(configuration: configuration, client: client, transport: .single(server))
    }

    func cleanUp() { try? FileManager.default.removeItem(atPath: directory) }
}

/// The back end, except that requests to one path fail with a transport error of one kind.
struct PathFailingTransport: HTTPTransport {
    let server: PowerAuthTestBackEnd
    let path: String
    let failure: TransportError.Kind

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        guard request.path != path else { throw TransportError(failure, underlying: "test") }
        return try await server.send(request)
    }
}
