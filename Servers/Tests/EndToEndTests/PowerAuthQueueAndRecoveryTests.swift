// The SDK's serial queue and recovery over HTTP on 127.0.0.1: 64 concurrent
// signed calls from tasks of one process through the SDK's serial queue (all accepted, no
// failed attempt, counters in sync), a timeout as a typed error with the store intact, and
// activation by recovery code — a wrong PUK answered with the postcard's PUK index, the right
// one replacing the old activation.

import CryptoPrimitives
import Foundation
import MFAServerCore
import PowerAuth
@_spi(Internals) import PowerAuthSDK
import ProtocolSupport
import SecureStore
import Testing
import URLSessionTransport

extension EndToEnd {
    @Suite struct PowerAuthQueueAndRecoveryTests {
        @Test func sixtyFourConcurrentSignedCallsAreAllAccepted() async throws {
            try await withMFAServer { url, powerAuth in
                let activated = try await ActivatedClient(url: url, instanceID: "queue")
                defer { activated.discard() }
                let (client, authentication) = (activated.client, activated.authentication)
                let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                    for index in 0..<64 {
                        group.addTask {
                            let request = HTTPRequest(method: .post, path: "pa/v3/signature/validate",
                                                      headers: [HTTPHeader("Content-Type", "application/json")],
                                                      body: Array(#"{"requestObject":{"n":\#(index)}}"#.utf8))
                            let factors: PowerAuth.SignatureFactors = index.isMultiple(of: 2) ? .possession : .possessionKnowledge
                            return try await client.sendSignedRequest(request, uriID: "/pa/signature/validate", factors: factors,
                                                                      authentication: authentication).status
                        }
                    }
                    return try await group.reduce(into: [Int]()) { $0.append($1) }
                }
                #expect(statuses.count == 64 && statuses.allSatisfy { $0 == 200 }, "\(statuses.filter { $0 != 200 })")
                let server = try #require(await powerAuth.activation(activated.activationID))
                #expect(server.failedAttempts == 0 && server.counterIndex == 64)
                let status = try await client.fetchActivationStatus(possessionUnlockKey: activated.possession)
                let local = try #require(try ActivationStore(store: activated.store, instanceID: "queue").activation())
                #expect(status.failedAttempts == 0 && status.status.counterByte == local.counterByte)
                print("64 concurrent signed calls: \(statuses.filter { $0 == 200 }.count) accepted, server counter \(server.counterIndex), failed attempts \(server.failedAttempts)")
            }
        }

        @Test func aTimeoutIsTypedAndTheStoreStaysIntact() async throws {
            try await withMFAServer { url, _ in
                var configuration = ActivatedClient.quiet(url)
                configuration.timeout = 1
                let activated = try await ActivatedClient(url: url, instanceID: "slow", transport: configuration)
                defer { activated.discard() }
                let before = try #require(try activated.store.read("powerauth.slow.activation"))
                _ = try await integration(url, "integration/powerauth/fault", ["fault": "slow"])
                do {
                    _ = try await activated.client.fetchActivationStatus(possessionUnlockKey: activated.possession)
                    Issue.record("an 8 s answer arrived within a 1 s timeout")
                } catch let error as PowerAuthSDKError {
                    #expect(error.code == .transport && error.transportError?.kind == .timedOut, "\(error)")
                } catch {
                    Issue.record("not a PowerAuthSDKError: \(error)")
                }
                #expect(try activated.store.read("powerauth.slow.activation") == before)
                #expect(try await activated.client.fetchActivationStatus(possessionUnlockKey: activated.possession).state == .active)
            }
        }

        @Test func activationByRecoveryCode() async throws {
            try await withMFAServer { url, powerAuth in
                let first = try await ActivatedClient(url: url, instanceID: "first")
                defer { first.discard() }
                let recovery = try #require(try await first.client.activationRecoveryData(authentication: first.authentication))

                let store = try SecureStore(directory: FileManager.default.temporaryDirectory.appendingPathComponent("e2e-\(UUID().uuidString)").path)
                defer { try? FileManager.default.removeItem(atPath: store.directory) }
                let second = try PowerAuthClient(configuration: .init(instanceID: "second", core: first.core, urlPolicy: .insecureAllowingPlainHTTPToLoopback), store: store,
                                                 transport: .single(URLSessionTransport(configuration: ActivatedClient.quiet(url))))
                // A wrong PUK: ERR_RECOVERY with the index of the PUK to use (the first, still).
                let wrong = SecretBytes(Array((recovery.puk.unsafeExposedBytes.first == UInt8(ascii: "0") ? "1111111111" : "0000000000").utf8))
                do {
                    _ = try await second.createActivation(.recovery(code: recovery.recoveryCode, puk: wrong))
                    Issue.record("a wrong PUK was accepted")
                } catch let error as PowerAuthSDKError {
                    #expect(error.code == .server && error.protocolError?.code.rawValue == "ERR_RECOVERY" && error.currentRecoveryPukIndex == 1,
                            "\(error)")
                } catch {
                    Issue.record("not a PowerAuthSDKError: \(error)")
                }
                #expect(try await second.canStartActivation())
                let result = try await second.createActivation(.recovery(code: "R:" + recovery.recoveryCode, puk: recovery.puk))
                try await second.persistActivation(authentication: Authentication(possessionUnlockKey: first.possession, password: SecretBytes("1234".utf8)))
                #expect(await powerAuth.activation(result.activationID)?.state == .active)
                #expect(await powerAuth.activation(first.activationID)?.state == .removed)
                #expect(try await second.fetchActivationStatus(possessionUnlockKey: first.possession).state == .active)
                #expect(try await first.client.fetchActivationStatus(possessionUnlockKey: first.possession).state == .removed)
            }
        }
    }
}
