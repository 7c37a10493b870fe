// `StoreSettings.replaceProvider` re-checks under the store's lock what its caller decided on
// before taking it (`mfa keys use`): the recorded provider and, for a store that must be empty,
// that no record appeared. Either change is ``SecureStoreError/Kind/changedConcurrently``, and
// the setting is left as the other process wrote it.

import CryptoPrimitives
import Foundation
import Testing
import ClientTestSupport
import TestSupport
import SecureStore

@Suite struct ProviderSettingRecheckTests {
    func temporaryDirectory() throws -> String {
        try TemporaryDirectory("provider-recheck").path
    }

    @Test func aProviderChangedSinceItWasReadIsNotOverwritten() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let before = try StoreSettings.provider(in: directory)  // nil: nothing recorded yet
        try StoreSettings.setProvider("passphrase", in: directory)  // another process, meanwhile
        expectError(kind: .changedConcurrently) {
            try StoreSettings.replaceProvider("file", in: directory, expecting: before, requiringNoState: true)
        }
        #expect(try StoreSettings.provider(in: directory) == "passphrase")
    }

    @Test func recordsWrittenSinceTheCheckRefuseTheChange() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try !StoreSettings.hasState(in: directory))
        try SecureStore(directory: directory).write(SecretBytes(Array("record".utf8)), to: "record")  // meanwhile
        expectError(kind: .changedConcurrently) {
            try StoreSettings.replaceProvider("passphrase", in: directory, expecting: nil, requiringNoState: true)
        }
        #expect(try StoreSettings.provider(in: directory) == nil)
    }

    @Test func anUnchangedStoreTakesTheNewProvider() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try StoreSettings.replaceProvider("passphrase", in: directory, expecting: nil, requiringNoState: true)
        #expect(try StoreSettings.provider(in: directory) == "passphrase")
    }
}
