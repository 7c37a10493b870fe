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

        /// A new token, a provider on it and an empty store directory (removed by the caller).
        func makeStore() throws -> (token: SoftHSMToken, provider: PKCS11KeyProvider, directory: String) {
            let token = try SoftHSMToken()
            token.activate()
            let directory = try TemporaryDirectory("anchored-store").appending("store")
            return (token, try PKCS11KeyProvider(uri: token.uri(), pin: pin, anchoring: .on), directory)
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

        @Test func directoryPutBackFromAnOlderCopyIsRefused() throws {
            let (token, provider, directory) = try makeStore()
            let backup = directory + ".backup"
            defer {
                withExtendedLifetime(token) {}  // the token's directory goes with it
                try? FileManager.default.removeItem(atPath: directory)
                try? FileManager.default.removeItem(atPath: backup)
            }
            let store = try SecureStore(directory: directory, keyProvider: provider)
            try store.write(SecretBytes(Array("counter=1".utf8)), to: "activation")
            try FileManager.default.copyItem(atPath: directory, toPath: backup)
            try store.write(SecretBytes(Array("counter=2".utf8)), to: "activation")

            try FileManager.default.removeItem(atPath: directory)
            try FileManager.default.copyItem(atPath: backup, toPath: directory)
            let error = expectError(kind: .rolledBack) { _ = try SecureStore(directory: directory, keyProvider: provider) }
            #expect(error?.message.contains("epoch 1 but its key provider's anchor is at 2") == true, "\(String(describing: error))")
        }

        @Test func removalAdvancesTheAnchorToo() throws {
            let (token, provider, directory) = try makeStore()
            let backup = directory + ".backup"
            defer {
                withExtendedLifetime(token) {}  // the token's directory goes with it
                try? FileManager.default.removeItem(atPath: directory)
                try? FileManager.default.removeItem(atPath: backup)
            }
            let store = try SecureStore(directory: directory, keyProvider: provider)
            try store.write(SecretBytes(Array("enrolled".utf8)), to: "connection")
            try FileManager.default.copyItem(atPath: directory, toPath: backup)
            try store.remove("connection")
            #expect(try provider.anchoredEpoch(directory: directory) == 2)

            try FileManager.default.removeItem(atPath: directory)
            try FileManager.default.copyItem(atPath: backup, toPath: directory)
            expectError(kind: .rolledBack) { _ = try SecureStore(directory: directory, keyProvider: provider) }
        }

        @Test func anchorOneBehindAfterACrashIsCaughtUp() throws {
            let (token, provider, directory) = try makeStore()
            defer {
                try? FileManager.default.removeItem(atPath: directory)
                withExtendedLifetime(token) {}  // the token's directory goes with it
            }
            let store = try SecureStore(directory: directory, keyProvider: provider)
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

            let reopened = try SecureStore(directory: directory, keyProvider: provider)
            #expect(try reopened.read("activation")?.unsafeExposedBytes == Array("counter=2".utf8))
            #expect(try epochObjects(token, provider).map(\.value) == [[0, 0, 0, 0, 0, 0, 0, 2]])
        }

        @Test func anchoredStoreWhoseAnchorIsGoneIsRefused() throws {
            let (token, provider, directory) = try makeStore()
            defer {
                try? FileManager.default.removeItem(atPath: directory)
                withExtendedLifetime(token) {}  // the token's directory goes with it
            }
            let store = try SecureStore(directory: directory, keyProvider: provider)
            try store.write(SecretBytes(Array("counter=1".utf8)), to: "activation")

            let module = try PKCS11Module(path: SoftHSM.modulePath)
            defer { module.finalize() }
            let session = try module.openSession(slot: module.slot(matching: token.uri()))
            try session.login(pin: pin)
            for (handle, _) in try epochObjects(token, provider) { try session.destroyObject(handle) }
            session.close()

            let error = expectError(kind: .rolledBack) { _ = try SecureStore(directory: directory, keyProvider: provider) }
            #expect(error?.message.contains("which is gone") == true, "\(String(describing: error))")
        }

        @Test func storeWrittenWithoutAnAnchorIsAnchoredWhenOpened() throws {
            let (token, provider, directory) = try makeStore()
            defer {
                try? FileManager.default.removeItem(atPath: directory)
                withExtendedLifetime(token) {}  // the token's directory goes with it
            }
            // The same key, supplied without the token's anchor: a store as earlier versions wrote it.
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let key = try StoreKey(provider.derivedKey(mayCreate: true))
            let plain = try SecureStore(directory: directory, keyProvider: SuppliedKeyProvider(key: key))
            for value in ["1", "2", "3"] { try plain.write(SecretBytes(Array(value.utf8)), to: "counter") }
            #expect(try epochObjects(token, provider).isEmpty)

            #expect(try SecureStore(directory: directory, keyProvider: provider).read("counter")?.unsafeExposedBytes == Array("3".utf8))
            #expect(try epochObjects(token, provider).map(\.value) == [[0, 0, 0, 0, 0, 0, 0, 3]])
        }

        @Test func anchorNeverGoesBack() throws {
            let (token, provider, directory) = try makeStore()
            defer {
                try? FileManager.default.removeItem(atPath: directory)
                withExtendedLifetime(token) {}  // the token's directory goes with it
            }
            _ = try SecureStore(directory: directory, keyProvider: provider)
            try provider.advanceAnchor(to: 9, directory: directory)
            try provider.advanceAnchor(to: 4, directory: directory)
            #expect(try epochObjects(token, provider).map(\.value) == [[0, 0, 0, 0, 0, 0, 0, 9]])
            #expect(try provider.anchoredEpoch(directory: directory) == 9)
        }
            @Test func directoryPutBackWhileOpenIsRefusedAtTheNextWrite() throws {
            let (token, provider, directory) = try makeStore()
            let backup = directory + ".backup"
            defer {
                withExtendedLifetime(token) {}
                try? FileManager.default.removeItem(atPath: directory)
                try? FileManager.default.removeItem(atPath: backup)
            }
            let store = try SecureStore(directory: directory, keyProvider: provider)
            try store.write(SecretBytes(Array("counter=1".utf8)), to: "activation")
            try FileManager.default.copyItem(atPath: directory, toPath: backup)
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
            let (token, provider, directory) = try makeStore()
            defer {
                try? FileManager.default.removeItem(atPath: directory)
                withExtendedLifetime(token) {}
            }
            try SecureStore(directory: directory, keyProvider: provider).write(SecretBytes(Array("x".utf8)), to: "record")
            let unanchored = try PKCS11KeyProvider(uri: token.uri(), pin: pin, anchoring: .off)
            let error = expectError(kind: .keyUnavailable) { _ = try SecureStore(directory: directory, keyProvider: unanchored) }
            #expect(error?.message.contains("open it with anchoring") == true, "\(String(describing: error))")
        }

        @Test func aNewStoreOnAnotherStoresAnchorIsRefused() throws {
            let (token, provider, directory) = try makeStore()
            let second = directory + ".second"
            defer {
                withExtendedLifetime(token) {}
                try? FileManager.default.removeItem(atPath: directory)
                try? FileManager.default.removeItem(atPath: second)
            }
            try SecureStore(directory: directory, keyProvider: provider).write(SecretBytes(Array("x".utf8)), to: "record")
            let error = expectError(kind: .rolledBack) { _ = try SecureStore(directory: second, keyProvider: provider) }
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
            let (token, provider, directory) = try makeStore()
            defer {
                try? FileManager.default.removeItem(atPath: directory)
                withExtendedLifetime(token) {}
            }
            let plain = try SecureStore(directory: directory, keyProvider: KeyFileProvider())
            for name in ["a", "b", "c"] { try plain.write(SecretBytes(Array(name.utf8)), to: name) }
            try StoreMigration.migrate(directory: directory, from: KeyFileProvider(), to: provider, providerSetting: nil)
            // Three records written into a new store (epoch 0 → 3), anchored once when verified.
            #expect(try epochObjects(token, provider).map(\.value) == [[0, 0, 0, 0, 0, 0, 0, 3]])
            #expect(try SecureStore(directory: directory, keyProvider: provider).read("b")?.unsafeExposedBytes == Array("b".utf8))
        }
    }
}
