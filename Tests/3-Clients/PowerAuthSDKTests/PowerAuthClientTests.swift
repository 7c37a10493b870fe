// The client object against the server half through a transport that hands each request to
// `PowerAuthServer` in process (a stand-in until `mfa-server` serves the same over loopback):
// activation, persistence, status, signatures, a restored older record recovered by the §6.4
// adoption, server refusals as typed errors, and local removal.

import AuthNetworking
import CryptoPrimitives
import Foundation
import PowerAuth
import PowerAuthSDK
import PowerAuthServer
import ProtocolSupport
import SecureStore
import Testing
import TestSupport

/// Routes the standard endpoints to `PowerAuthServer`; `failNext` answers with a §14.2 envelope.
actor InProcessPowerAuthServer: HTTPTransport {
    let application: PowerAuthServer.Application
    var activation: PowerAuthServer.Activation?
    var random = SeededRandomSource(seed: 99)
    var failNext: (status: Int, code: String)?

    init(application: PowerAuthServer.Application) {
        self.application = application
    }

    func failNextRequest(status: Int, code: String) { failNext = (status, code) }

    func verify(_ header: HTTPHeader, body: [UInt8], uriID: String) -> Bool {
        guard case .valid = activation?.verify(header: header.value, method: "POST", uriID: uriID, body: body,
                                                applicationSecret: application.applicationSecret) else { return false }
        return true
    }

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        if let (status, code) = failNext {
            failNext = nil
            return HTTPResponse(status: status, body: Array(#"{"status":"ERROR","responseObject":{"code":"\#(code)","message":"refused"}}"#.utf8))
        }
        do {
            switch request.path {
            case "pa/v3/activation/create":
                let (created, _, response) = try PowerAuthServer.Activation.process(request, application: application, version: .v3_2,
                                                                                    activationID: "act-1", timestamp: 2, using: &random)
                activation = created
                return response
            case "pa/v3/status":
                return HTTPResponse(status: 200, body: Array(#"{"status":"OK","responseObject":{"serverTime":1700000000000}}"#.utf8))
            case "pa/v3/activation/status":
                guard let activation else { return HTTPResponse(status: 400) }
                return try activation.status(request, using: &random)
            default:
                return HTTPResponse(status: 404)
            }
        } catch {
            return HTTPResponse(status: 400, body: Array(#"{"status":"ERROR","responseObject":{"code":"ERR_GENERIC","message":"\#(error.code)"}}"#.utf8))
        }
    }
}

@Suite struct PowerAuthClientTests {
    @Test func activateSignStatusRecoverAndRemove() async throws {
        var random = SeededRandomSource(seed: 5)
        let application = try PowerAuthServer.Application(using: &random)
        let server = InProcessPowerAuthServer(application: application)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pa-client-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SecureStore(directory: directory)
        let configuration = PowerAuthClient.Configuration(instanceID: "app", core: try application.clientConfiguration(baseURL: "https://pa.example.com"),
                                                          version: .v3_2, clock: { Date(timeIntervalSince1970: 1_700_000_000) })
        let client = try PowerAuthClient(configuration: configuration, store: store, transport: .single(server))
        let (canStart, hasValid) = (try await client.canStartActivation(), try await client.hasValidActivation())
        #expect(canStart && !hasValid)

        // A refused activation is a typed server error with the §14.2 code, and nothing is kept.
        let (code, signature) = try application.issueActivationCode(using: &random)
        let activationCode = try PowerAuth.ActivationCode(parsing: code + "#" + signature)
        await server.failNextRequest(status: 400, code: "ERR_ACTIVATION")
        do {
            _ = try await client.createActivation(.code(activationCode))
            Issue.record("a refused activation succeeded")
        } catch {
            #expect(error.reason == .server && error.protocolError?.code.rawValue == "ERR_ACTIVATION" && error.httpStatus == 400)
        }
        #expect(try await client.canStartActivation())

        let result = try await client.createActivation(.code(activationCode))
        let isPending = await client.hasPendingActivation()
        #expect(result.fingerprint.count == 8 && isPending)
        let possession = try SymmetricKey(byteCount: 16, using: &random)
        let authentication = Authentication(possessionUnlockKey: possession, password: SecretBytes("1234".utf8))
        try await client.persistActivation(authentication: authentication)
        let (valid, stillPending) = (try await client.hasValidActivation(), await client.hasPendingActivation())
        #expect(valid && !stillPending)
        let status = try await client.fetchActivationStatus(possessionUnlockKey: possession)
        #expect(status.state == .active)

        // Keep the record as it is now, then sign three times (the server sees all three).
        let saved = try #require(try store.read("powerauth.app.activation"))
        for n in 0..<3 {
            let body = Array("{\"n\":\(n)}".utf8)
            let header = try await client.requestSignature(method: "POST", uriID: "/pay", body: body, factors: .possessionKnowledge,
                                                           authentication: authentication)
            #expect(await server.verify(header, body: body, uriID: "/pay"))
        }
        // A crash that lost the last writes: the older record comes back. The status check finds
        // the server three steps ahead and adopts its counter, and the next signature is accepted.
        try store.write(saved, to: "powerauth.app.activation")
        _ = try await client.fetchActivationStatus(possessionUnlockKey: possession)
        let body = Array(#"{"after":"recovery"}"#.utf8)
        let header = try await client.requestSignature(method: "POST", uriID: "/pay", body: body, factors: .possession, authentication: authentication)
        #expect(await server.verify(header, body: body, uriID: "/pay"))

        try await client.removeActivationLocal()
        let (validAfter, canStartAfter) = (try await client.hasValidActivation(), try await client.canStartActivation())
        #expect(!validAfter && canStartAfter)
        await #expect(throws: PowerAuthSDKError.self) { try await client.fetchActivationStatus(possessionUnlockKey: possession) }
    }
}
