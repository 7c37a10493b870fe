// The configuration convention over the five clients (docs/design.md §1 "Configuration"): each
// nested `Configuration` is a `ClientConfiguration` whose four shared members have the shared
// defaults (`ClientDefaults`): https only, the system's clock and random source, no logger. What
// each client does with them (a seeded source reproducing a protocol value, the configured
// clock dating a token, the logger redacting a credential) depends on its protocol and is
// tested beside the client.

import AuthNetworking
import CMAuthenticator
import CMAuthenticatorSDK
import CryptoPrimitives
import Foundation
import MPinSDK
import PowerAuthNetworking
import PowerAuthSDK
import PowerAuthServer
import ProtocolSupport
import SaltEdgeSDK
import Testing

@Suite struct SharedDefaultsTests {
    /// The five configurations made with nothing but what each requires.
    static func defaultConfigurations() throws -> [(String, any ClientConfiguration)] {
        var random = SeededRandomSource(seed: 3)
        let application = try PowerAuthServer.Application(using: &random)
        return [
            ("PowerAuth", PowerAuthClient.Configuration(instanceID: "d", core: try application.clientConfiguration(baseURL: "https://pa.example.com"))),
            ("networking", NetworkingService.Configuration()),
            ("CM", CMAuthenticatorClient.Configuration(device: FiveClients.device)),
            ("Salt Edge", SaltEdgeAuthenticatorClient.Configuration()),
            ("M-Pin", MPinClient.Configuration()),
        ]
    }

    @Test func everyClientHasTheSharedDefaults() throws {
        let before = Date()
        let configurations = try Self.defaultConfigurations()
        #expect(configurations.count == 5)
        for (client, configuration) in configurations {
            #expect(configuration.urlPolicy == .httpsOnly, "\(client)")
            #expect(configuration.logger == nil, "\(client)")
            #expect(configuration.random is SystemRandomSource, "\(client)")
            #expect(abs(configuration.clock().timeIntervalSince(before)) < 60, "\(client)")
        }
    }

    /// The four members can be set through the protocol alike in every client.
    @Test func everyClientTakesTheFourMembersAlike() throws {
        let fixed = Date(timeIntervalSince1970: 1_700_000_000)
        for (client, configuration) in try Self.defaultConfigurations() {
            var changed = configuration
            changed.urlPolicy = .insecureAllowingPlainHTTPToLoopback
            changed.clock = { fixed }
            changed.random = SeededRandomSource(seed: 9)
            changed.logger = .disabled
            #expect(changed.urlPolicy == .insecureAllowingPlainHTTPToLoopback, "\(client)")
            #expect(changed.clock() == fixed, "\(client)")
            #expect(changed.random is SeededRandomSource, "\(client)")
            #expect(changed.logger != nil, "\(client)")
        }
    }
}
