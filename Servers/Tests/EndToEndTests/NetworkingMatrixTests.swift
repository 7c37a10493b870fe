// The networking layer end to end over loopback:
// every endpoint kind (basic, signed, token) × every encryption (none, application
// scope, activation scope) against mfa-server's demo endpoints, for protocol 3.2 and 3.3; then
// the error cases — a wrong password (401, ERR_AUTHENTICATION), a token the server forgot
// (created again once, transparently), an application error envelope in plain and in encrypted
// form — and 24 concurrent signed calls under the default strategy, all accepted.

import CryptoPrimitives
import Foundation
import MFAServerCore
import PowerAuth
import PowerAuthNetworking
import PowerAuthSDK
import ProtocolSupport
import Testing
import URLSessionTransport

struct Greeting: Codable, Sendable, Equatable {
    var text: String
    var sent: Date
    var fail: Bool?
}

struct Echo: Decodable, Sendable {
    let echo: Greeting
    let activationId: String
    let kind: String
}

extension EndToEnd {
    @Suite struct NetworkingMatrixTests {
        static func service(_ activated: ActivatedClient, url: String) throws -> NetworkingService {
            try NetworkingService(configuration: .init(serviceName: "matrix"), client: activated.client,
                                  transport: .single(URLSessionTransport(configuration: ActivatedClient.quiet(url))))
        }

        static func endpoint(_ kind: String, _ encryption: EndToEndEncryption) -> Endpoint<Greeting, Echo> {
            let scope = switch encryption { case .notEncrypted: "plain"; case .applicationScope: "application"; case .activationScope: "activation" }
            return switch kind {
            case "signed": .signed("/app/signed/\(scope)", uriID: "/app/signed", encryption: encryption)
            case "token": .signedWithToken("/app/token/\(scope)", tokenName: "matrix", encryption: encryption)
            default: .basic("/app/basic/\(scope)", encryption: encryption)
            }
        }

        @Test(arguments: [PowerAuth.ProtocolVersion.v3_2, .v3_3]) func everyKindTimesEveryEncryption(version: PowerAuth.ProtocolVersion) async throws {
            try await withMFAServer { url, powerAuth in
                let activated = try await ActivatedClient(url: url, instanceID: "matrix", version: version)
                defer { activated.discard() }
                let service = try Self.service(activated, url: url)
                var passed = 0
                for kind in ["basic", "signed", "token"] {
                    for encryption in [EndToEndEncryption.notEncrypted, .applicationScope, .activationScope] {
                        let greeting = Greeting(text: "\(kind) \(encryption)", sent: Date(timeIntervalSince1970: 1_700_000_000))
                        let echo = try await service.post(greeting, to: Self.endpoint(kind, encryption), authentication: activated.authentication)
                        let answer = try #require(echo, "\(kind) \(encryption)")
                        #expect(answer.echo == greeting, "\(kind) \(encryption)")
                        // The server names the activation whenever it learned it from a signature, a token or the activation scope.
                        #expect((kind == "basic" && encryption != .activationScope) || answer.activationId == activated.activationID)
                        passed += 1
                    }
                }
                let server = try #require(await powerAuth.activation(activated.activationID))
                #expect(server.failedAttempts == 0)
                print("networking matrix \(version): \(passed)/9 kind × encryption combinations answered and echoed")
            }
        }

        @Test func errorCasesAreTyped() async throws {
            try await withMFAServer { url, powerAuth in
                let activated = try await ActivatedClient(url: url, instanceID: "errors")
                defer { activated.discard() }
                let service = try Self.service(activated, url: url)
                let greeting = Greeting(text: "hello", sent: Date(timeIntervalSince1970: 0))

                // A wrong password: the server refuses the signature.
                let wrong = Authentication(possessionUnlockKey: activated.possession, password: SecretBytes("0000".utf8))
                do {
                    _ = try await service.post(greeting, to: Self.endpoint("signed", .activationScope), authentication: wrong)
                    Issue.record("a wrong password was accepted")
                } catch let error as NetworkingError {
                    #expect(error.code == .errorStatusCode && error.httpStatus == 401 && error.restAPIError?.code == "ERR_AUTHENTICATION", "\(error)")
                } catch {
                    Issue.record("not a NetworkingError: \(error)")
                }

                // A token the server forgot is created again once, without the caller noticing.
                let tokenEndpoint = Self.endpoint("token", .notEncrypted)
                _ = try await service.post(greeting, to: tokenEndpoint, authentication: activated.authentication)
                let first = try #require(try await activated.client.localToken(named: "matrix")).id
                _ = try await integration(url, "integration/powerauth/token/expire", ["activationId": activated.activationID])
                #expect(try await service.post(greeting, to: tokenEndpoint, authentication: activated.authentication)?.echo == greeting)
                #expect(try await activated.client.localToken(named: "matrix")?.id != first)

                // An application error envelope, plain and end-to-end encrypted.
                var failing = greeting
                failing.fail = true
                for encryption in [EndToEndEncryption.notEncrypted, .applicationScope, .activationScope] {
                    do {
                        _ = try await service.post(failing, to: Self.endpoint("signed", encryption), authentication: activated.authentication)
                        Issue.record("\(encryption): a refusal came back as success")
                    } catch let error as NetworkingError {
                        #expect(error.code == .errorStatusCode && error.httpStatus == 400 && error.restAPIError?.code == "APP_REFUSED",
                                "\(encryption): \(error)")
                    } catch {
                        Issue.record("not a NetworkingError: \(error)")
                    }
                }

                // A signed endpoint without authentication is refused before anything is sent.
                await #expect(throws: NetworkingError.self) { _ = try await service.post(greeting, to: Self.endpoint("signed", .notEncrypted)) }
                // The wrong password cost one failed attempt; the successes since reset it.
                #expect(await powerAuth.activation(activated.activationID)?.failedAttempts == 0)
            }
        }

        @Test func concurrentSignedCallsShareTheClientsQueue() async throws {
            try await withMFAServer { url, powerAuth in
                let activated = try await ActivatedClient(url: url, instanceID: "networking-queue")
                defer { activated.discard() }
                let service = try Self.service(activated, url: url)
                let authentication = activated.authentication
                let statuses = try await withThrowingTaskGroup(of: Bool.self) { group in
                    for index in 0..<24 {
                        group.addTask {
                            let greeting = Greeting(text: "call \(index)", sent: Date(timeIntervalSince1970: Double(index)))
                            // Half through the networking service, half the SDK's own signed calls: one queue for both.
                            if index.isMultiple(of: 2) {
                                return try await service.post(greeting, to: Self.endpoint("signed", .activationScope), authentication: authentication)?.echo == greeting
                            }
                            try await activated.client.validatePassword(SecretBytes("1234".utf8), possessionUnlockKey: activated.possession)
                            return true
                        }
                    }
                    return try await group.reduce(into: [Bool]()) { $0.append($1) }
                }
                #expect(statuses.count == 24 && statuses.allSatisfy { $0 })
                let server = try #require(await powerAuth.activation(activated.activationID))
                #expect(server.failedAttempts == 0 && server.counterIndex == 24)
            }
        }
    }
}
