// The networking service's errors in the shared shape (docs/design.md §1 "Layer 3 has one shape";
// docs/protocols/powerauth.md §14.2, §16 "Errors"), read from real HTTP answers on 127.0.0.1: a server's error
// envelope gives the code, the HTTP status and the server's code; a non-JSON 500 gives the
// status alone; a transport failure keeps the transport's error as the cause; an SDK refusal
// keeps the SDK's. Errors are equal by code.

import ClientTestSupport
import AuthNetworking
import CryptoPrimitives
import Foundation
import PlainHTTPTransport
import PowerAuth
import PowerAuthNetworking
import PowerAuthSDK
import PowerAuthServer
import ProtocolSupport
import SecureStore
import Testing
import TestSupport

@Suite struct NetworkingErrorTests {
    static let order = Endpoint<EmptyObject, EmptyObject>.basic("api/order")

    /// A PowerAuth client and a networking service for `server`, over plain HTTP to loopback.
    struct Loopback {
        let service: NetworkingService
        let directory: String

        init(_ server: LoopbackServer) throws {
            var random = SeededRandomSource(seed: 61)
            let application = try PowerAuthServer.Application(using: &random)
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("pa-net-\(UUID().uuidString)").path
            let transport = HTTPTransportFactory.perBaseURL { PlainHTTPTransport(configuration: .init(baseURL: $0)) }
            let client = try PowerAuthClient(configuration: .init(instanceID: "app", core: try application.clientConfiguration(baseURL: server.baseURL),
                                                                  version: .v3_2, urlPolicy: .insecureAllowingPlainHTTPToLoopback),
                                             store: try SecureStore(directory: directory), transport: transport)
            service = try NetworkingService(client: client, transport: transport)
        }

        func cleanUp() { try? FileManager.default.removeItem(atPath: directory) }

        /// The error `post` throws to `endpoint`.
        func failure(_ endpoint: Endpoint<EmptyObject, EmptyObject> = NetworkingErrorTests.order) async throws -> NetworkingError {
            do {
                _ = try await service.post(EmptyObject(), to: endpoint)
            } catch {
                return error
            }
            Issue.record("the call succeeded")
            throw NetworkingError(.unknown, "no error")
        }
    }

    @Test func serverErrorEnvelopeGivesCodeStatusAndServerCode() async throws {
        let body = #"{"status":"ERROR","responseObject":{"code":"ERR_ORDER_CLOSED","message":"the order is closed"}}"#
        let server = try LoopbackServer { _ in LoopbackServer.response(status: 400, reason: "Bad Request", body: Array(body.utf8)) }
        defer { server.stop() }
        let loopback = try Loopback(server)
        defer { loopback.cleanUp() }
        let error = try await loopback.failure()
        #expect(error.code == .errorStatusCode)
        #expect(error.httpStatus == 400)
        #expect(error.serverCode == "ERR_ORDER_CLOSED")
        #expect(error.restAPIError == NetworkingRESTAPIError(code: "ERR_ORDER_CLOSED", message: "the order is closed"))
        #expect(error.description.contains("[ERR_ORDER_CLOSED]"))
        // Through the protocol every client error shares, too.
        let shared: any ClientError = error
        #expect(shared.serverCode == "ERR_ORDER_CLOSED" && shared.httpStatus == 400)
    }

    /// An `ERROR` envelope in a 200 answer is an error all the same.
    @Test func errorEnvelopeInA200IsAnError() async throws {
        let body = #"{"status":"ERROR","responseObject":{"code":"ERR_LIMIT","message":"over the limit"}}"#
        let server = try LoopbackServer { _ in LoopbackServer.response(status: 200, body: Array(body.utf8)) }
        defer { server.stop() }
        let loopback = try Loopback(server)
        defer { loopback.cleanUp() }
        let error = try await loopback.failure()
        #expect(error.code == .errorStatusCode && error.httpStatus == 200 && error.serverCode == "ERR_LIMIT")
    }

    @Test func nonJSON500GivesTheHTTPStatusAlone() async throws {
        let server = try LoopbackServer { _ in
            LoopbackServer.response(status: 500, reason: "Internal Server Error", headers: [("Content-Type", "text/html")],
                                    body: Array("<html>oops</html>".utf8))
        }
        defer { server.stop() }
        let loopback = try Loopback(server)
        defer { loopback.cleanUp() }
        let error = try await loopback.failure()
        #expect(error.code == .errorStatusCode)
        #expect(error.httpStatus == 500)
        #expect(error.serverCode == nil && error.restAPIError == nil)
    }

    /// A connection closed without an answer: the transport's error is the cause, kept whole.
    @Test func transportFailureKeepsTheCause() async throws {
        let server = try LoopbackServer { _ in nil }
        defer { server.stop() }
        let loopback = try Loopback(server)
        defer { loopback.cleanUp() }
        let error = try await loopback.failure()
        let cause = try #require(error.cause as? TransportError)
        #expect(error.transportError == cause)
        #expect(error.code == .badServerResponse || error.code == .networkGeneric || error.code == .noConnection)
        #expect(error.httpStatus == nil && error.serverCode == nil)
    }

    /// Nothing listening: the code says the server cannot be reached, the cause says why.
    @Test func refusedConnectionIsNoConnection() async throws {
        let server = try LoopbackServer.refusing()  // held, so no other test's server can take the port
        defer { server.stop() }
        let loopback = try Loopback(server)
        defer { loopback.cleanUp() }
        let error = try await loopback.failure()
        #expect(error.code == .noConnection)
        #expect(error.networkIsNotReachable)
        #expect((error.cause as? TransportError)?.kind == .unreachable)
    }

    /// A token that cannot be made because the call was cancelled, or its URL refused, keeps the
    /// shared code (docs/design.md "Transport and policy failures"); any other failure to make
    /// it is `tokenError`.
    @Test(arguments: [(TransportError.Kind.cancelled, "cancelled"), (.urlRefused, "urlRefused"), (.unreachable, "network_tokenError")])
    func aTokenThatCannotBeMadeKeepsTheSharedCodes(failure: TransportError.Kind, expected: String) async throws {
        var fixture = try NetworkingFixture.make(seed: 63, failing: "pa/v3/token/create", with: failure)
        defer { fixture.cleanUp() }
        let authentication = try await fixture.activate()
        let endpoint = Endpoint<EmptyObject, EmptyObject>.signedWithToken("api/hello", tokenName: "hello")
        let service = try fixture.service()
        do {
            _ = try await service.post(EmptyObject(), to: endpoint, authentication: authentication)
            Issue.record("the call succeeded without a token")
        } catch {
            #expect(error.code.rawValue == expected, "\(error)")
            #expect(error.powerAuthError?.transportError?.kind == failure, "\(error)")
        }
        #expect(!fixture.server.paths.contains("api/hello"))
    }

    /// A signed endpoint without an activation is refused by the PowerAuth SDK before anything is
    /// sent; its error is the cause.
    @Test func sdkRefusalKeepsThePowerAuthError() async throws {
        let server = try LoopbackServer { _ in LoopbackServer.response(status: 200, body: Array(#"{"status":"OK"}"#.utf8)) }
        defer { server.stop() }
        let loopback = try Loopback(server)
        defer { loopback.cleanUp() }
        var random = SeededRandomSource(seed: 62)
        let authentication = Authentication(possessionUnlockKey: try SymmetricKey(byteCount: 16, using: &random))
        do {
            _ = try await loopback.service.post(EmptyObject(), to: Endpoint<EmptyObject, EmptyObject>.signed("api/order", uriID: "/api/order"),
                                                authentication: authentication)
            Issue.record("a signed call without an activation succeeded")
        } catch {
            #expect(error.code == .missingActivation)
            #expect(error.powerAuthError?.code == .missingActivation)
            #expect(error.cause is PowerAuthSDKError)
        }
        #expect(server.requests.isEmpty)
    }

    @Test func errorsAreEqualByCode() {
        let refused = NetworkingError(.errorStatusCode, "refused", restAPIError: NetworkingRESTAPIError(code: "ERR_A", message: nil), httpStatus: 400)
        #expect(refused == NetworkingError(.errorStatusCode, "another message", httpStatus: 503))
        #expect(refused != NetworkingError(.timeout, "refused", httpStatus: 400))
        #expect(NetworkingError.Code(rawValue: "network_timeOut") == .timeout)
        #expect(NetworkingError.Code.cancelled.rawValue == "cancelled")
    }
}
