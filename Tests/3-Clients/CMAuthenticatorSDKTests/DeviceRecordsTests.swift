// The CM device record on a real secure store (docs/protocols/cm-authenticator.md §6, §8): a command that read
// the device record before `send` refreshed the certificate pins must not write its stale copy
// back over them, or every command fetches `GET /certificate` again.

import CMAuthenticator
import CMAuthenticatorSDK
import CryptoPrimitives
import Foundation
import SecureStore
import Testing
import TestSupport

@Suite struct DeviceRecordsTests {
    static func withRecords(_ body: (DeviceRecords, String) throws -> Void) throws {
        let temporary = try TemporaryDirectory("cm-records")
        defer { temporary.remove() }
        let path = temporary.appending("store")
        try body(DeviceRecords(store: SecureStore(directory: path)), path)
    }

    /// The shape of `deviceStatus()`: the record is read first, `send` then refreshes and saves
    /// the pins, and the status update comes last.
    @Test func pinsSavedByOneUpdateSurviveAnotherUpdate() throws {
        try Self.withRecords { records, _ in
            try records.updateDevice { $0.deviceID = "device-1" }
            let early = try records.device()                                          // what the command read first
            #expect(early.pinsFetchedAt == nil)
            try records.updateDevice { record in                                      // the refresh inside `send`
                record.pinCertificateHex = ["ab" + String(repeating: "0", count: 62)]
                record.pinSPKIBase64 = ["spki="]
                record.pinsFetchedAt = 1_700_000_000
            }
            try records.updateDevice { $0.registrationStatus = "verified" }           // the command's own change
            let device = try records.device()
            #expect(device.deviceID == "device-1" && device.registrationStatus == "verified")
            #expect(device.pinsFetchedAt == 1_700_000_000 && device.pinSPKIBase64 == ["spki="] && device.pinCertificateHex.count == 1)
            // And the reverse: a pin refresh keeps the registration fields.
            try records.updateDevice { $0.pinsFetchedAt = 1_700_003_600 }
            #expect(try records.device().registrationStatus == "verified")
        }
    }

    /// Two stores on one directory (two processes): a pin refresher and a status updater, each
    /// 50 times, interleaved; every change of both survives.
    @Test func concurrentDeviceUpdatesKeepBothFields() async throws {
        let temporary = try TemporaryDirectory("cm-records")
        defer { temporary.remove() }
        let path = temporary.appending("store")
        _ = try SecureStore(directory: path)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                let records = DeviceRecords(store: try SecureStore(directory: path))
                for i in 1...50 { try records.updateDevice { $0.pinsFetchedAt = Int64(i) } }
            }
            group.addTask {
                let records = DeviceRecords(store: try SecureStore(directory: path))
                for i in 1...50 { try records.updateDevice { $0.registrationStatus = "s\(i)" } }
            }
            try await group.waitForAll()
        }
        let device = try DeviceRecords(store: SecureStore(directory: path)).device()
        #expect(device.pinsFetchedAt == 50 && device.registrationStatus == "s50")
    }

    @Test func environmentSecretsRoundTrip() throws {
        try Self.withRecords { records, _ in
            let id = "7f0c2a52-3d1e-4c4b-9a51-2f1e8d0b6c11"
            let environment = CMAuthenticator.Environment(id: id, secret: .init(rawRepresentation: SecretBytes("secret, with a comma".utf8)))
            try records.save(StoredEnvironment(environment: environment, name: "Bank", iconURL: nil))
            let stored = try #require(try records.environment(id: id))
            #expect(stored.name == "Bank" && stored.environment.secret.softwareSecret == environment.secret.softwareSecret)
            #expect(try records.environments().map(\.id) == [id])
        }
    }
}
