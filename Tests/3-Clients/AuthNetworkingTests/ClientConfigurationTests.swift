// The shared pieces of the layer-3 configuration convention (docs/design.md §1): one random stream
// per client however often it is copied, the millisecond conversion PowerAuth uses for its
// clock, and transport factories that refuse pins they cannot honour.

import AuthNetworking
import CryptoPrimitives
import Foundation
import ProtocolSupport
import Testing

@Suite struct ClientConfigurationTests {
    /// Copies of a shared source continue one stream: a copied seeded source would have
    /// replayed its bytes (a repeated nonce).
    @Test func copiesOfASharedSourceDrawOneStream() throws {
        let shared = SharedRandomSource(SeededRandomSource(seed: 7))
        var first = shared, second = shared
        let a = try first.bytes(count: 16), b = try second.bytes(count: 16)
        var reference = SeededRandomSource(seed: 7)
        #expect(a + b == (try reference.bytes(count: 32)))
        #expect(a != b)
    }

    @Test func millisecondsRoundAndClamp() {
        #expect(ClientDefaults.milliseconds(since1970: Date(timeIntervalSince1970: 1_700_000_000.123)) == 1_700_000_000_123)
        #expect(ClientDefaults.milliseconds(since1970: Date(timeIntervalSince1970: Double(1_700_000_000_999) / 1000)) == 1_700_000_000_999)
        #expect(ClientDefaults.milliseconds(since1970: Date(timeIntervalSince1970: -5)) == 0)
        #expect(ClientDefaults.milliseconds(since1970: Date(timeIntervalSince1970: .nan)) == 0)
        #expect(ClientDefaults.milliseconds(since1970: Date(timeIntervalSince1970: 1e300)) == .max)
        #expect(ClientDefaults.milliseconds(since1970: Date(timeIntervalSince1970: .infinity)) == .max)
    }

    /// `.single` and `.perBaseURL` cannot pin, so asked for pins they fail closed.
    @Test func unpinnedFactoriesRefusePins() throws {
        let transport = ReplayTransport([])
        let pins = CertificatePins(certificateSHA256: [[UInt8](repeating: 1, count: 32)])
        for factory in [HTTPTransportFactory.single(transport), .perBaseURL { _ in transport }] {
            _ = try factory.transport(baseURL: "https://a.example")
            #expect(throws: TransportError(.tls)) { try factory.transport(baseURL: "https://a.example", pins: pins) }
        }
    }
}
