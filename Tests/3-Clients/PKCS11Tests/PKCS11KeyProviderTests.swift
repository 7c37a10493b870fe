// A SecureStore keyed inside a SoftHSM2 token: records round-trip across reopenings, and the
// same store directory on another token (a copied disk) is refused with a typed error, its
// records untouched and no key created on that token.

import CryptoPrimitives
import Foundation
import SecureStore
import Testing
import ClientTestSupport
import TestSupport
import PKCS11

extension SoftHSMSuite {
    @Suite struct PKCS11KeyProviderTests {
        let pin = SecretBytes(Array("1234".utf8))

        func temporaryDirectory() throws -> String {
            try TemporaryDirectory("pkcs11-store").appending("store")
        }

        /// Every file of the store, by name.
        func snapshot(_ directory: String) throws -> [String: Data] {
            var files: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: directory) where name != ".lock" {
                files[name] = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
            }
            return files
        }

        @Test func storeRoundTripsWithAKeyInTheToken() throws {
            let token = try SoftHSMToken()
            token.activate()
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let provider = try PKCS11KeyProvider(uri: token.uri(), pin: pin)

            let store = try SecureStore(directory: directory, keyProvider: provider)
            try store.write(SecretBytes(Array("activation secret".utf8)), to: "activation")
            let reopened = try SecureStore(directory: directory, keyProvider: provider)
            #expect(try reopened.read("activation")?.unsafeExposedBytes == Array("activation secret".utf8))
            #expect(!FileManager.default.fileExists(atPath: directory + "/.key"))  // nothing on disk suffices

            // Another store identifier on the same token is another key: the records do not open.
            let other = try PKCS11KeyProvider(uri: token.uri(), pin: pin, storeIdentifier: PKCS11StoreIdentifier.random())
            #expect(throws: SecureStoreError.self) { try SecureStore(directory: directory, keyProvider: other).read("activation") }
        }

        @Test func storeCopiedToAnotherTokenIsRefused() throws {
            let first = try SoftHSMToken()
            first.activate()
            let directory = try temporaryDirectory()
            let copy = try temporaryDirectory()
            defer {
                try? FileManager.default.removeItem(atPath: directory)
                try? FileManager.default.removeItem(atPath: copy)
            }
            let store = try SecureStore(directory: directory, keyProvider: PKCS11KeyProvider(uri: first.uri(), pin: pin))
            try store.write(SecretBytes(Array("counter=7".utf8)), to: "activation")
            try FileManager.default.copyItem(atPath: directory, toPath: copy)
            let before = try snapshot(copy)

            // A fresh token with the same label and PIN: the same URI, a different key (or none).
            let second = try SoftHSMToken()
            second.activate()
            let provider = try PKCS11KeyProvider(uri: second.uri(), pin: pin)
            let error = expectError(kind: .keyUnavailable) { try SecureStore(directory: copy, keyProvider: provider) }
            #expect(error?.message.contains("no secret key labelled swiftmfa-store-key") == true)
            #expect(try snapshot(copy) == before)

            // No key was generated on the second token.
            let module = try PKCS11Module(path: SoftHSM.modulePath)
            defer { module.finalize() }
            let session = try module.openSession(slot: module.slot(matching: second.uri()))
            try session.login(pin: pin)
            #expect(try session.findObjects([.class(.secretKey)]).isEmpty)
        }

        @Test func createIfMissingFalseNeverCreatesAKey() throws {
            let token = try SoftHSMToken()
            token.activate()
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let provider = try PKCS11KeyProvider(uri: token.uri(), pin: pin, createIfMissing: false)
            expectError(kind: .keyUnavailable) { try SecureStore(directory: directory, keyProvider: provider) }
        }

        @Test func wrongPINFailsTheStoreWithTheReturnValueNamed() throws {
            let token = try SoftHSMToken()
            token.activate()
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let provider = try PKCS11KeyProvider(uri: token.uri(), pin: SecretBytes(Array("9999".utf8)))
            let error = expectError(kind: .keyUnavailable) { try SecureStore(directory: directory, keyProvider: provider) }
            #expect(error?.message.contains("CKR_PIN_INCORRECT") == true)
            #expect(error?.message.contains("9999") == false)  // the PIN never reaches an error
        }

        @Test func pinSourceFileIsRead() throws {
            let token = try SoftHSMToken()
            token.activate()
            let pinFile = try temporaryDirectory() + ".pin"
            defer { try? FileManager.default.removeItem(atPath: pinFile) }
            try "1234\n".write(toFile: pinFile, atomically: true, encoding: .utf8)
            let uri = try PKCS11URI("pkcs11:token=test?module-path=\(SoftHSM.modulePath)&pin-source=file:\(pinFile)&x-swiftmfa-store=\(token.storeIdentifier)")
            // A PIN file others may read is refused, as ssh refuses such a key file.
            chmod(pinFile, 0o644)
            #expect(throws: PKCS11Error(.invalidURI, "")) { try PKCS11KeyProvider(uri: uri).derivedKey(mayCreate: true) }
            chmod(pinFile, 0o600)
            let provider = try PKCS11KeyProvider(uri: uri)
            #expect(try provider.derivedKey(mayCreate: true).count == 32)
            #expect(throws: PKCS11Error(.invalidArgument, "")) { try PKCS11KeyProvider(uri: PKCS11URI("pkcs11:token=test")) }
        }
    }
}
