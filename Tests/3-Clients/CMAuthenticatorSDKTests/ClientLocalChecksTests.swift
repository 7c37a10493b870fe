// The CM client's checks of what it holds before it sends (docs/protocols/cm-authenticator.md §2, §6): a stored
// pin-list time is data and never traps in arithmetic, and an SMS code that cannot be one is
// refused before it uses up a verification attempt. Real stores on disk; the transport records.

import AuthNetworking
import CMAuthenticator
import CMAuthenticatorSDK
import CryptoPrimitives
import Foundation
import ProtocolSupport
import SecureStore
import Testing
import ClientTestSupport
import TestSupport

@Suite struct ClientLocalChecksTests {
    static let device = CMAuthenticator.DeviceDescription(manufacturer: "Test", osVersion: "1", appVersion: "1", appID: "test", languageCode: "en",
                                                          model: "Test", modelID: "test", platform: "Linux", appKey: "key")

    static func client(_ transport: InProcessTransport, pinning: CMAuthenticatorClient.Pinning,
                       now: @escaping @Sendable () -> Date = { Date() }) throws -> (CMAuthenticatorClient, DeviceRecords, String) {
        let path = try TemporaryDirectory("cm-checks").path
        let store = try SecureStore(directory: path)
        let client = try CMAuthenticatorClient(configuration: .init(baseURL: "https://cm.example/authenticator/v1.0", device: device, pinning: pinning,
                                                                    clock: now),
                                               store: store, transport: HTTPTransportFactory { _, _ in transport })
        return (client, DeviceRecords(store: store), path)
    }

    /// §6: the stored fetch time of the pins is subtracted from the clock; Int64.min (or a
    /// clock near Int64.max) overflowed that subtraction. Now such a list is merely stale: the
    /// refresh is tried, fails here, and the cached pins stay in force.
    @Test(arguments: [Int64.min, Int64.max, -1, 1 << 62])
    func anAbsurdStoredPinTimeIsStaleNotATrap(fetchedAt: Int64) async throws {
        let transport = InProcessTransport()
        let (client, records, path) = try Self.client(transport, pinning: .enforced(listKey: nil))
        defer { try? FileManager.default.removeItem(atPath: path) }
        try records.updateDevice { record in
            record.pinCertificateHex = [String(repeating: "ab", count: 32)]
            record.pinsFetchedAt = fetchedAt
        }
        let pins = try #require(try await client.certificatePins())
        #expect(pins.certificateSHA256 == [[UInt8](repeating: 0xab, count: 32)])
        #expect(await transport.sent.count == 1)   // the refresh was tried
    }

    /// §6: with no pin cached, a list that cannot be fetched fails closed as `pinning`, and the
    /// error keeps what went wrong as its cause rather than as words in its message.
    @Test func aFailedFirstFetchFailsClosedWithItsCause() async throws {
        let transport = InProcessTransport()
        let (client, _, path) = try Self.client(transport, pinning: .enforced(listKey: nil))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = await expectError(CMClientError.self, code: .pinning) { _ = try await client.certificatePins() }
        #expect(error?.transportError != nil || error?.protocolError != nil, "\(String(describing: error))")
    }

    /// A broken clock (NaN, ±infinity, 1e300 s) trapped in `Int64(_:)`; it is clamped now.
    @Test(arguments: [Double.nan, .infinity, -.infinity, 1e300, -1e300])
    func aBrokenClockIsClamped(seconds: Double) async throws {
        let transport = InProcessTransport()
        let (client, records, path) = try Self.client(transport, pinning: .enforced(listKey: nil), now: { Date(timeIntervalSince1970: seconds) })
        defer { try? FileManager.default.removeItem(atPath: path) }
        try records.updateDevice { record in
            record.pinCertificateHex = [String(repeating: "ab", count: 32)]
            record.pinsFetchedAt = 1_700_000_000
        }
        #expect(try await client.certificatePins() != nil)
    }

    /// §2: the SMS code is refused before anything is sent when it is not 4–10 digits.
    @Test func aMalformedSMSCodeIsRefusedBeforeSending() async throws {
        let transport = InProcessTransport()
        let (client, records, path) = try Self.client(transport, pinning: .disabledTransportCannotPin)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try records.updateDevice { $0.deviceID = "device-1" }
        for code in ["", "123", "12a45", " 12345", "12345\n", "12345678901", "١٢٣٤٥"] {
            await expectError(CMClientError.self, code: .invalidInput, "\(code.debugDescription)") { try await client.verify(code: code) }
        }
        #expect(await transport.sent.isEmpty)
        await expectError(CMClientError.self, code: .transport) { try await client.verify(code: "12345") }
        #expect(await transport.sent.count == 1)
    }

    /// One rule for every client's lookups: a record that is not stored is nil, and only an
    /// operation that needs it fails, with `unknownEnvironment`, before anything is sent.
    @Test func aMissingEnvironmentIsNilToALookupAndUnknownToAnOperation() async throws {
        let transport = InProcessTransport()
        let (client, records, path) = try Self.client(transport, pinning: .disabledTransportCannotPin)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try records.updateDevice { $0.deviceID = "device-1" }
        #expect(try await client.environment(id: "env-1") == nil)
        await expectError(CMClientError.self, code: .unknownEnvironment) { try await client.unregisterEnvironment(id: "env-1") }
        await expectError(CMClientError.self, code: .unknownEnvironment) { _ = try await client.pendingRequest(environmentID: "env-1") }
        #expect(await transport.sent.isEmpty)
    }
}
