// Faults of the Salt Edge and CM clients over real HTTP on 127.0.0.1:
// garbage bodies and 503s are
// typed errors, a server that goes down mid-poll makes the polling stream back off and recover
// when it returns on the same port (with the same state), and the stores stay intact.

import AuthNetworking
import CMAuthenticator
import CMAuthenticatorSDK
import Foundation
import MFAServerCore
import ProtocolSupport
import SaltEdge
import SaltEdgeSDK
import SecureStore
import ServiceLifecycle
import Testing
import URLSessionTransport

/// Runs mfa-server with `saltEdge` on `port` until `stop` is called; returns the URL.
final class RestartableServer: @unchecked Sendable {
    private var group: ServiceGroup?
    private var task: Task<Void, any Error>?

    func start(port: Int, saltEdge: SaltEdgeStandIn, cm: CMStandIn? = nil, tls: TestTLSIdentity? = nil) async throws -> String {
        let (urls, continuation) = AsyncStream.makeStream(of: String.self)
        let app = try MFAServer.application(port: port, powerAuth: try PowerAuthStandIn(), saltEdge: saltEdge, cm: cm,
                                            tls: tls) { continuation.yield($0) }
        let group = ServiceGroup(services: [app])
        self.group = group
        task = Task {
            defer { continuation.finish() }   // a server that stops before it runs ends the wait for its URL
            try await group.run()
        }
        var iterator = urls.makeAsyncIterator()
        guard let url = await iterator.next() else { throw TransportError(.unreachable, underlying: "the server did not start") }
        return url
    }

    func stop() async throws {
        await group?.triggerGracefulShutdown()
        try await task?.value
    }
}

extension EndToEnd {
    @Suite(.serialized) struct AuthenticatorFaultTests {
        @Test func saltEdgePollingSurvivesAServerThatGoesDownAndGarbage() async throws {
            let saltEdge = try SaltEdgeStandIn(providerKey: TestKeys.saltEdgeProvider)
            let server = RestartableServer()
            let url = try await server.start(port: 0, saltEdge: saltEdge)
            let port = try #require(url.split(separator: ":").last.flatMap { Int($0) })
            let store = try SecureStore(directory: FileManager.default.temporaryDirectory.appendingPathComponent("sef-\(UUID().uuidString)").path)
            defer { try? FileManager.default.removeItem(atPath: store.directory) }
            let client = SaltEdgeEndToEndTests.client(store)
            let connection = try await SaltEdgeEndToEndTests.connect(client, url: url)
            var updates = client.authorizationUpdates(connectionID: connection.id, every: .milliseconds(100)).makeAsyncIterator()
            #expect(try await updates.next()?.isEmpty == true)

            // Garbage: a typed error from the one-shot call; the stream keeps going.
            _ = try await SaltEdgeEndToEndTests.admin(url, "fault", ["garbage": true])
            do {
                _ = try await client.authorizations(connectionID: connection.id)
                Issue.record("garbage was accepted")
            } catch {
                #expect(error.code == .invalidResponse, "\(error)")
            }
            _ = try await SaltEdgeEndToEndTests.admin(url, "fault", ["garbage": false])

            // Down: the one-shot call is a transport error; the stream backs off, then sees what was
            // created while the server was away once it is back on the same port.
            try await server.stop()
            do {
                _ = try await client.authorizations(connectionID: connection.id)
                Issue.record("a stopped server answered")
            } catch {
                #expect(error.code == .transport, "\(error)")
            }
            let created = await saltEdge.handle(HTTPRequest(method: .post, path: "integration/saltedge/authorization",
                                                            body: Array(#"{"connection_id":\#(connection.id),"title":"While you were away"}"#.utf8)))
            #expect(created?.status == 200)
            try await Task.sleep(for: .milliseconds(700))  // several failed polls: the delay has doubled
            _ = try await server.start(port: port, saltEdge: saltEdge)
            var seen: [SaltEdge.Authorization] = []
            while seen.isEmpty { seen = try #require(try await updates.next()) }
            #expect(seen.map(\.title) == ["While you were away"])
            #expect(try await client.connection(id: connection.id)?.isActive == true)
            try await server.stop()
        }

        @Test func cmFaultsAreTypedAndTheStoreStaysIntact() async throws {
            let cm = try CMStandIn(listKey: TestKeys.cmList)
            let server = RestartableServer()
            let url = try await server.start(port: 0, saltEdge: try SaltEdgeStandIn(providerKey: TestKeys.saltEdgeProvider), cm: cm)
            let store = try CMEndToEndTests.store()
            defer { try? FileManager.default.removeItem(atPath: store.directory) }
            // Plain HTTP on loopback: URLSessionTransport cannot pin, and says so in the policy's name.
            let client = try CMAuthenticatorClient(configuration: .init(baseURL: url + "/cm", device: CMEndToEndTests.device,
                                                                        pinning: .disabledTransportCannotPin, urlPolicy: .insecureAllowingPlainHTTPToLoopback),
                                                   store: store,
                                                   transport: HTTPTransportFactory { base, _ in URLSessionTransport(configuration: ActivatedClient.quiet(base)) })
            #expect(try await client.register(phoneNumber: "+31601234567") == .pending)
            let environment = try await CMEndToEndTests.admin(url, "environment")
            _ = try await client.addEnvironment(qrCode: try #require(environment["qr_code"] as? String))
            let environmentID = try #require(environment["environment_id"] as? String)

            _ = try await CMEndToEndTests.admin(url, "fault", ["kind": "garbage"])
            await #expect { try await client.pendingRequests() } throws: { ($0 as? CMClientError)?.code == .invalidResponse }
            _ = try await CMEndToEndTests.admin(url, "fault", ["kind": "unavailable"])
            await #expect { try await client.pendingRequests() } throws: {
                ($0 as? CMClientError)?.code == .server && ($0 as? CMClientError)?.httpStatus == 503
            }
            _ = try await CMEndToEndTests.admin(url, "fault", [:])
            try await server.stop()
            await #expect { try await client.deviceStatus() } throws: { ($0 as? CMClientError)?.code == .transport }
            #expect(try await client.environments().map(\.id) == [environmentID])
            #expect(try await client.deviceID != nil)

            // An http:// URL is refused unless the loopback test policy allows it.
            #expect(throws: CMClientError.self) {
                _ = try CMAuthenticatorClient(configuration: .init(baseURL: url + "/cm", device: CMEndToEndTests.device), store: store,
                                              transport: HTTPTransportFactory { base, _ in URLSessionTransport(configuration: .init(baseURL: base)) })
            }
        }
    }
}
