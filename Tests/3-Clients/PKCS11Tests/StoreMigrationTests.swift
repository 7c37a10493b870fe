// A store moved into a token (StoreMigration, StoreSettings, StoreProviderChoice): every record
// intact after the move, the provider recorded without a PIN, nothing left beside the store, the
// old key no longer opening it, a copy on another token refused with a typed error, the status a
// user sees, and the PowerAuth possession key derived in the token as documented.

import CryptoPrimitives
import Foundation
import SecureStore
import Testing
import ClientTestSupport
import TestSupport
import PKCS11

extension SoftHSMSuite {
    @Suite struct StoreMigrationTests {
        let pin = SecretBytes(Array("1234".utf8))

        func temporaryDirectory() throws -> String {
            try TemporaryDirectory("migrate").appending("store")
        }

        /// `count` records with distinct contents, written under `provider`.
        func fill(_ directory: String, _ provider: some StoreKeyProvider, count: Int) throws -> [String: [UInt8]] {
            let store = try SecureStore(directory: directory, keyProvider: provider)
            var records: [String: [UInt8]] = [:]
            for index in 0..<count {
                let value = Array("record \(index) ".utf8) + [UInt8](repeating: UInt8(index & 0xFF), count: index)
                try store.write(SecretBytes(value), to: "record-\(index)")
                records["record-\(index)"] = value
            }
            try store.write(SecretBytes(Array("second write".utf8)), to: "record-0")  // a generation above 1
            records["record-0"] = Array("second write".utf8)
            return records
        }

        func contents(_ directory: String, _ provider: some StoreKeyProvider) throws -> [String: [UInt8]] {
            let store = try SecureStore(directory: directory, keyProvider: provider)
            var records: [String: [UInt8]] = [:]
            for name in try store.names() { records[name] = try store.read(name)?.unsafeExposedBytes }
            return records
        }

        @Test func migrateFromTheKeyFileToATokenKeepsEveryRecord() throws {
            let token = try SoftHSMToken()
            token.activate()
            let directory = try temporaryDirectory()
            let parent = (directory as NSString).deletingLastPathComponent
            defer { try? FileManager.default.removeItem(atPath: parent) }
            let records = try fill(directory, KeyFileProvider(), count: 12)
            let choice = StoreProviderChoice.pkcs11(try token.uri())
            let provider = try PKCS11KeyProvider(uri: token.uri(), pin: pin)

            let moved = try StoreMigration.migrate(directory: directory, from: KeyFileProvider(), to: provider, providerSetting: choice.setting)

            #expect(moved == 12)
            #expect(try StoreProviderChoice.recorded(in: directory) == choice)
            #expect(try contents(directory, provider) == records)
            #expect(!FileManager.default.fileExists(atPath: directory + "/.key"))  // the file key went with the old store
            #expect(try FileManager.default.contentsOfDirectory(atPath: parent) == ["store"])  // no temporary or old directory left
            let mode = try FileManager.default.attributesOfItem(atPath: directory + "/.provider")[.posixPermissions] as? Int
            #expect(mode == 0o600)
            // The key file no longer opens it: refused before a new .key is written.
            #expect(throws: SecureStoreError(.keyUnavailable, "")) { try SecureStore(directory: directory, keyProvider: KeyFileProvider()).read("record-1") }
            #expect(!FileManager.default.fileExists(atPath: directory + "/.key"))

            // And back to the key file: the records survive a second move.
            try StoreMigration.migrate(directory: directory, from: provider, to: KeyFileProvider(), providerSetting: "file")
            #expect(try StoreProviderChoice.recorded(in: directory) == .keyFile)
            #expect(try contents(directory, KeyFileProvider()) == records)
        }

        @Test func aMigratedStoreCopiedToAnotherTokenIsRefused() throws {
            let first = try SoftHSMToken()
            first.activate()
            let directory = try temporaryDirectory()
            let copy = try temporaryDirectory()
            defer {
                try? FileManager.default.removeItem(atPath: (directory as NSString).deletingLastPathComponent)
                try? FileManager.default.removeItem(atPath: (copy as NSString).deletingLastPathComponent)
            }
            _ = try fill(directory, KeyFileProvider(), count: 3)
            try StoreMigration.migrate(directory: directory, from: KeyFileProvider(), to: PKCS11KeyProvider(uri: first.uri(), pin: pin),
                                       providerSetting: StoreProviderChoice.pkcs11(try first.uri()).setting)
            let possession = try PKCS11PossessionKeySource(provider: PKCS11KeyProvider(uri: first.uri(), pin: pin)).derive(instanceID: "default")
            try FileManager.default.createDirectory(atPath: (copy as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: directory, toPath: copy)

            let second = try SoftHSMToken()  // same label, same PIN, another device
            second.activate()
            let recorded = try StoreProviderChoice.recorded(in: copy)
            guard case .pkcs11(let uri) = recorded else { Issue.record("not a pkcs11 store"); return }
            let provider = try PKCS11KeyProvider(uri: uri, pin: pin)
            expectError(kind: .keyUnavailable) { try SecureStore(directory: copy, keyProvider: provider) }
            let possessionError = #expect(throws: PKCS11Error.self) { try PKCS11PossessionKeySource(provider: provider).derive(instanceID: "default") }
            #expect(possessionError?.kind == .objectNotFound)
            #expect(possession.byteCount == 16)
        }

        @Test func statusNamesTheTokenAndWhetherTheKeyIsThere() throws {
            let token = try SoftHSMToken(label: "status-test")
            token.activate()
            let provider = try PKCS11KeyProvider(uri: token.uri(), pin: pin)
            let before = try provider.status()
            #expect(before.token.label == "status-test")
            #expect(before.token.manufacturer == "SoftHSM project")
            #expect(!before.token.serialNumber.isEmpty)
            #expect(before.keyLabel == PKCS11KeyProvider.defaultKeyLabel)
            #expect(!before.keyPresent)
            #expect(!(try provider.status().keyPresent))  // asking never creates the key

            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: (directory as NSString).deletingLastPathComponent) }
            _ = try SecureStore(directory: directory, keyProvider: provider)
            #expect(try provider.status().keyPresent)
        }

        /// The possession key is the first 16 bytes of HMAC-SHA256 over "PowerAuth possession v2"
        /// ‖ the store identifier ‖ the instance, by the token's key: the message is built here
        /// from the documentation, the HMAC by SoftHSM2's own C_Sign.
        @Test func thePossessionKeyIsTheDocumentedHMAC() throws {
            let token = try SoftHSMToken()
            token.activate()
            let provider = try PKCS11KeyProvider(uri: token.uri(), pin: pin)
            _ = try provider.derivedKey(mayCreate: true)
            let source = PKCS11PossessionKeySource(provider: provider)
            let key = try source.derive(instanceID: "bank")
            let message = Array("PowerAuth possession v2".utf8) + token.storeIdentifier.bytes + Array("bank".utf8)
            let module = try PKCS11Module(path: SoftHSM.modulePath)
            defer { module.finalize() }
            let session = try module.openSession(slot: module.slot(matching: token.uri()))
            defer { session.close() }
            try session.login(pin: pin)
            let tokenKey = try #require(session.findObjects([.class(.secretKey), .label(PKCS11KeyProvider.defaultKeyLabel)]).first)
            let expected = try session.sign(message, key: tokenKey, mechanism: .sha256HMAC)
            #expect(key == SymmetricKey(data: expected.unsafeExposedBytes.prefix(16)))
            #expect(try source.derive(instanceID: "bank") == key)
            #expect(try source.derive(instanceID: "other") != key)
        }
    }
}

@Suite struct StoreProviderChoiceTests {
    @Test func parsesTheThreeProvidersAndRefusesAPINValue() throws {
        #expect(try StoreProviderChoice(parsing: "file") == .keyFile)
        #expect(try StoreProviderChoice(parsing: "passphrase") == .passphrase)
        let error = #expect(throws: PKCS11Error.self) { try StoreProviderChoice(parsing: "pkcs11:token=a?module-path=/m.so&pin-value=1234") }
        #expect(error?.kind == .invalidURI)
        #expect(error?.message.contains("1234") == false)
        #expect(throws: PKCS11Error.self) { try StoreProviderChoice(parsing: "pkcs11:token=a") }  // no module-path
        #expect(throws: PKCS11Error.self) { try StoreProviderChoice(parsing: "tpm") }
        let allowed = try StoreProviderChoice(parsing: "pkcs11:token=a?module-path=/m.so&pin-value=1234", allowingPINValue: true)
        #expect(allowed.setting == "pkcs11:token=a?module-path=/m.so")  // the recorded text never holds the PIN
    }

    @Test func theSettingFileRefusesAnythingButOnePrintableLine() throws {
        let temporary = try TemporaryDirectory("settings")
        defer { temporary.remove() }
        let directory = temporary.appending("store")
        #expect(try StoreSettings.provider(in: directory) == nil)
        #expect(try StoreProviderChoice.recorded(in: directory) == .keyFile)
        #expect(throws: SecureStoreError.self) { try StoreSettings.setProvider("file\npkcs11:", in: directory) }
        try StoreSettings.setProvider("file", in: directory)
        #expect(try StoreSettings.provider(in: directory) == "file")
        chmod(directory + "/.provider", 0o666)
        expectError(kind: .insecurePermissions) { try StoreSettings.provider(in: directory) }
    }
}
