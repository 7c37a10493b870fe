// A token-keyed store keeps its generations epoch in the token, outside the directory: the whole
// directory put back from an older copy (records and generations file together, consistent
// with each other) is refused, before it opens and while it is open; an anchor one behind after
// a crash is caught up; an anchored store whose anchor was deleted, or opened without anchoring,
// is refused. Run on a real SoftHSM2 token with anchoring turned on (it is off there by default,
// which the last test checks).

import CryptoPrimitives
import Foundation
import SecureStore
import Testing
import ClientTestSupport
import TestSupport
import PKCS11

extension SoftHSMSuite {
    @Suite struct StoreAnchorTests {
        let pin = SecretBytes(Array("1234".utf8))

        /// A new token, a provider anchoring on it, an empty store directory and a place for a
        /// backup of it; the directories and the token go when the fixture does.
        final class AnchoredStore {
            let token: SoftHSMToken
            let provider: PKCS11KeyProvider
            let directory: String
            var backup: String { directory + ".backup" }

            init(pin: SecretBytes) throws {
                token = try SoftHSMToken()
                token.activate()
                directory = try TemporaryDirectory("anchored-store").appending("store")
                provider = try PKCS11KeyProvider(uri: token.uri(), pin: pin, anchoring: .on)
            }

            /// The store, opened with the anchoring provider.
            func open() throws -> SecureStore { try SecureStore(directory: directory, keyProvider: provider) }

            /// Copies the whole store directory aside.
            func backUp() throws { try FileManager.default.copyItem(atPath: directory, toPath: backup) }

            /// Puts the copy back in place of the whole store directory.
            func restore() throws {
                try FileManager.default.removeItem(atPath: directory)
                try FileManager.default.copyItem(atPath: backup, toPath: directory)
            }

            deinit {
                try? FileManager.default.removeItem(atPath: directory)  // leftovers in a temp dir are harmless
                try? FileManager.default.removeItem(atPath: backup)
            }
        }

        /// The epoch objects of `provider`'s store on the token, read directly.
        func epochObjects(_ token: SoftHSMToken, _ provider: PKCS11KeyProvider) throws -> [(handle: UInt, value: [UInt8])] {
            let module = try PKCS11Module(path: SoftHSM.modulePath)
            defer { module.finalize() }
            let session = try module.openSession(slot: module.slot(matching: token.uri()))
            defer { session.close() }
            try session.login(pin: pin)
            return try session.findObjects([.class(.data), .label("swiftmfa-epoch-" + provider.storeIdentifier.text)]).map {
                ($0, try session.attribute(.value, of: $0).withUnsafeBytes { Array($0) })
            }
        }

        /// After a write, or a removal, that came after the copy was taken.
        @Test(arguments: [false, true])
        func directoryPutBackFromAnOlderCopyIsRefused(removing: Bool) throws {
            let fixture = try AnchoredStore(pin: pin)
            defer { withExtendedLifetime(fixture) {} }
            let (provider, directory) = (fixture.provider, fixture.directory)
            let store = try fixture.open()
            try store.write(SecretBytes(Array("counter=1".utf8)), to: "activation")
            try fixture.backUp()
            if removing { try store.remove("activation") } else { try store.write(SecretBytes(Array("counter=2".utf8)), to: "activation") }
            #expect(try provider.anchoredEpoch(directory: directory) == 2)  // created at 0, then two changes

            try fixture.restore()
            let error = expectError(kind: .rolledBack) { _ = try fixture.open() }
            #expect(error?.message.contains("epoch 1 but its key provider's anchor is at 2") == true, "\(String(describing: error))")
        }

        @Test func anchorOneBehindAfterACrashIsCaughtUp() throws {
            let fixture = try AnchoredStore(pin: pin)
            defer { withExtendedLifetime(fixture) {} }
            let (token, provider) = (fixture.token, fixture.provider)
            let store = try fixture.open()
            try store.write(SecretBytes(Array("counter=1".utf8)), to: "activation")
            try store.write(SecretBytes(Array("counter=2".utf8)), to: "activation")
            #expect(try epochObjects(token, provider).map(\.value) == [[0, 0, 0, 0, 0, 0, 0, 2]])
            let status = try provider.status()
            #expect(status.anchors && status.anchoredEpoch == 2)

            // A crash after the generations file, before the token: the token holds epoch 1.
            let module = try PKCS11Module(path: SoftHSM.modulePath)
            defer { module.finalize() }
            let session = try module.openSession(slot: module.slot(matching: token.uri()))
            try session.login(pin: pin)
            for (handle, _) in try epochObjects(token, provider) { try session.destroyObject(handle) }
            _ = try session.createObject([.class(.data), .label("swiftmfa-epoch-" + provider.storeIdentifier.text), .bool(.token, true),
                                          .bool(.private, true), PKCS11Attribute(.value, bytes: [0, 0, 0, 0, 0, 0, 0, 1])])
            session.close()

            let reopened = try fixture.open()
            #expect(try reopened.read("activation")?.unsafeExposedBytes == Array("counter=2".utf8))
            #expect(try epochObjects(token, provider).map(\.value) == [[0, 0, 0, 0, 0, 0, 0, 2]])
        }

        @Test func anchoredStoreWhoseAnchorIsGoneIsRefused() throws {
            let fixture = try AnchoredStore(pin: pin)
            defer { withExtendedLifetime(fixture) {} }
            let (token, provider) = (fixture.token, fixture.provider)
            let store = try fixture.open()
            try store.write(SecretBytes(Array("counter=1".utf8)), to: "activation")

            let module = try PKCS11Module(path: SoftHSM.modulePath)
            defer { module.finalize() }
            let session = try module.openSession(slot: module.slot(matching: token.uri()))
            try session.login(pin: pin)
            for (handle, _) in try epochObjects(token, provider) { try session.destroyObject(handle) }
            session.close()

            let error = expectError(kind: .rolledBack) { _ = try fixture.open() }
            #expect(error?.message.contains("which is gone") == true, "\(String(describing: error))")
        }

        @Test func storeWrittenWithoutAnAnchorIsAnchoredWhenOpened() throws {
            let fixture = try AnchoredStore(pin: pin)
            defer { withExtendedLifetime(fixture) {} }
            let (token, provider, directory) = (fixture.token, fixture.provider, fixture.directory)
            // The same key, supplied without the token's anchor: a store as earlier versions wrote it.
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let key = try StoreKey(provider.derivedKey(mayCreate: true))
            let plain = try SecureStore(directory: directory, keyProvider: SuppliedKeyProvider(key: key))
            for value in ["1", "2", "3"] { try plain.write(SecretBytes(Array(value.utf8)), to: "counter") }
            #expect(try epochObjects(token, provider).isEmpty)

            #expect(try fixture.open().read("counter")?.unsafeExposedBytes == Array("3".utf8))
            #expect(try epochObjects(token, provider).map(\.value) == [[0, 0, 0, 0, 0, 0, 0, 3]])
        }

        @Test func anchorNeverGoesBack() throws {
            let fixture = try AnchoredStore(pin: pin)
            defer { withExtendedLifetime(fixture) {} }
            let (token, provider, directory) = (fixture.token, fixture.provider, fixture.directory)
            _ = try fixture.open()
            try provider.advanceAnchor(to: 9, directory: directory)
            try provider.advanceAnchor(to: 4, directory: directory)
            #expect(try epochObjects(token, provider).map(\.value) == [[0, 0, 0, 0, 0, 0, 0, 9]])
            #expect(try provider.anchoredEpoch(directory: directory) == 9)
        }
            @Test func directoryPutBackWhileOpenIsRefusedAtTheNextWrite() throws {
            let fixture = try AnchoredStore(pin: pin)
            defer { withExtendedLifetime(fixture) {} }
            let (directory, backup) = (fixture.directory, fixture.backup)
            let store = try fixture.open()
            try store.write(SecretBytes(Array("counter=1".utf8)), to: "activation")
            try fixture.backUp()
            try store.write(SecretBytes(Array("counter=2".utf8)), to: "activation")
            try store.write(SecretBytes(Array("counter=3".utf8)), to: "activation")
            for name in try FileManager.default.contentsOfDirectory(atPath: backup) where name != ".lock" {
                try FileManager.default.removeItem(atPath: directory + "/" + name)
                try FileManager.default.copyItem(atPath: backup + "/" + name, toPath: directory + "/" + name)
            }
            // Epoch 1 put back under a token at 3: the next write reaches 2, which the token passed.
            let error = expectError(kind: .rolledBack) { try store.write(SecretBytes(Array("counter=2 again".utf8)), to: "activation") }
            #expect(error?.message.contains("reached epoch 2 but its key provider's anchor was already at 3") == true, "\(String(describing: error))")
        }

        @Test func anchoredStoreOpenedWithoutAnchoringIsRefused() throws {
            let fixture = try AnchoredStore(pin: pin)
            defer { withExtendedLifetime(fixture) {} }
            let (token, directory) = (fixture.token, fixture.directory)
            try fixture.open().write(SecretBytes(Array("x".utf8)), to: "record")
            let unanchored = try PKCS11KeyProvider(uri: token.uri(), pin: pin, anchoring: .off)
            let error = expectError(kind: .keyUnavailable) { _ = try SecureStore(directory: directory, keyProvider: unanchored) }
            #expect(error?.message.contains("open it with anchoring") == true, "\(String(describing: error))")
        }

        @Test func aNewStoreOnAnotherStoresAnchorIsRefused() throws {
            let fixture = try AnchoredStore(pin: pin)
            defer { withExtendedLifetime(fixture) {} }
            try SecureStore(directory: fixture.directory, keyProvider: fixture.provider).write(SecretBytes(Array("x".utf8)), to: "record")
            // A second directory where the backup would go: a new, empty store on the same anchor.
            let error = expectError(kind: .rolledBack) { _ = try SecureStore(directory: fixture.backup, keyProvider: fixture.provider) }
            #expect(error?.message.contains("belongs to another store") == true, "\(String(describing: error))")
        }

        @Test func anchoringIsReadFromTheURIAndOffOnSoftHSMByDefault() throws {
            let token = try SoftHSMToken()
            token.activate()
            let directory = try TemporaryDirectory("anchored-store").appending("store")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let automatic = try PKCS11KeyProvider(uri: token.uri(), pin: pin)
            #expect(automatic.anchoring == .automatic)
            #expect(try automatic.rollbackAnchor(directory: directory) == nil)  // SoftHSM2: see Anchoring.automatic
            try SecureStore(directory: directory, keyProvider: automatic).write(SecretBytes(Array("x".utf8)), to: "record")
            #expect(try epochObjects(token, automatic).isEmpty)

            let uri = try PKCS11URI(token.uri().text + "&x-swiftmfa-anchor=on")
            #expect(try PKCS11KeyProvider(uri: uri, pin: pin).anchoring == .on)
            let invalid = try PKCS11URI(token.uri().text + "&x-swiftmfa-anchor=yes")
            #expect(throws: PKCS11Error.self) { try PKCS11KeyProvider(uri: invalid, pin: pin) }
        }
            @Test func migrationOntoATokenAnchorsTheNewStoreOnceAtItsEpoch() throws {
            let fixture = try AnchoredStore(pin: pin)
            defer { withExtendedLifetime(fixture) {} }
            let (token, provider, directory) = (fixture.token, fixture.provider, fixture.directory)
            let plain = try SecureStore(directory: directory, keyProvider: KeyFileProvider())
            for name in ["a", "b", "c"] { try plain.write(SecretBytes(Array(name.utf8)), to: name) }
            try StoreMigration.migrate(directory: directory, from: KeyFileProvider(), to: provider, providerSetting: nil)
            // Three records written into a new store (epoch 0 → 3), anchored once when verified.
            #expect(try epochObjects(token, provider).map(\.value) == [[0, 0, 0, 0, 0, 0, 0, 3]])
            #expect(try fixture.open().read("b")?.unsafeExposedBytes == Array("b".utf8))
        }
    }
}
