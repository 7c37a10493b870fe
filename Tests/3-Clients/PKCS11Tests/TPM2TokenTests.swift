// Against a TPM-backed token (tpm2-pkcs11 on swtpm), when one is set up: the URI comes from
// SWIFTMFA_TPM2_PKCS11_URI (printed by HardwareKeys/swtpm-token create, which also makes the
// HMAC key with tpm2_ptool and sets the TCTI and store variables this process inherits).

import CryptoPrimitives
import Foundation
import SecureStore
import Testing
import TestSupport
import PKCS11

enum TPM2Token {
    /// The URI of the prepared token, when there is one.
    static var uriText: String? { ProcessInfo.processInfo.environment["SWIFTMFA_TPM2_PKCS11_URI"] }
}

@Suite(.serialized, .enabled(if: TPM2Token.uriText != nil, "SWIFTMFA_TPM2_PKCS11_URI is not set (eval \"$(HardwareKeys/swtpm-token create)\")"))
struct TPM2TokenTests {
    func uri() throws -> PKCS11URI { try PKCS11URI(TPM2Token.uriText ?? "") }

    @Test func storeRoundTripsOnTheTPMToken() throws {
        let temporary = try TemporaryDirectory("pkcs11-tpm-store")
        defer { temporary.remove() }
        let directory = temporary.appending("store")
        let provider = try PKCS11KeyProvider(uri: uri(), storeIdentifier: PKCS11StoreIdentifier.random(), createIfMissing: false)
        defer { try? destroyEpochObjects(of: provider) }  // the token outlives the test
        let first = try provider.derivedKey(mayCreate: false)
        #expect(first.count == 32)
        #expect(try provider.derivedKey(mayCreate: false) == first)  // deterministic: nothing stored
        let store = try SecureStore(directory: directory, keyProvider: provider)
        try store.write(SecretBytes(Array("tpm".utf8)), to: "record")
        #expect(try SecureStore(directory: directory, keyProvider: provider).read("record")?.unsafeExposedBytes == Array("tpm".utf8))

        // The TPM token keeps the store's epoch: the directory put back from before the second
        // write (records and generations file together) is refused.
        let backup = temporary.appending("backup")
        try FileManager.default.copyItem(atPath: directory, toPath: backup)
        try store.write(SecretBytes(Array("tpm, later".utf8)), to: "record")
        try FileManager.default.removeItem(atPath: directory)
        try FileManager.default.copyItem(atPath: backup, toPath: directory)
        do {
            _ = try SecureStore(directory: directory, keyProvider: provider)
            Issue.record("a directory put back from an older copy opened")
        } catch {
            #expect(error.kind == .rolledBack, "\(error)")
        }
        #expect(provider.anchoring == .automatic)
        #expect(try provider.anchoredEpoch(directory: directory) == 2)
    }

    /// Destroys the epoch objects `provider`'s store left on the token.
    func destroyEpochObjects(of provider: PKCS11KeyProvider) throws {
        let uri = try uri()
        let module = try PKCS11Module(path: uri.modulePath ?? "")
        defer { module.finalize() }
        let session = try module.openSession(slot: module.slot(matching: uri), readWrite: true)
        defer { session.close() }
        if let pin = uri.pinValue { try session.login(pin: SecretBytes(Array(pin.utf8))) }
        for object in try session.findObjects([.class(.data), .label("swiftmfa-epoch-" + provider.storeIdentifier.text)]) {
            try session.destroyObject(object)
        }
    }

    @Test func theTPMKeyIsSensitive() throws {
        let uri = try uri()
        let module = try PKCS11Module(path: uri.modulePath ?? "")
        defer { module.finalize() }
        let session = try module.openSession(slot: module.slot(matching: uri))
        if let pin = uri.pinValue { try session.login(pin: SecretBytes(Array(pin.utf8))) }
        let key = try PKCS11KeyProvider(uri: uri, storeIdentifier: PKCS11StoreIdentifier.random()).tokenKey(in: session, mayCreate: false)
        // tpm2-pkcs11 answers a sensitive CKA_VALUE with CKR_OK and zero bytes, SoftHSM2 with
        // CKR_ATTRIBUTE_SENSITIVE: either way no key byte comes out.
        do {
            #expect(try session.attribute(.value, of: key).count == 0)
        } catch {
            #expect(error.returnValue == .attributeSensitive)
        }
        #expect(try session.attribute(.sensitive, of: key).unsafeExposedBytes == [1])
        #expect(try session.attribute(.extractable, of: key).unsafeExposedBytes == [0])
        #expect(try session.attribute(.keyType, of: key).unsafeExposedBytes == PKCS11Attribute.keyType(.sha256HMAC).value.unsafeExposedBytes)
    }

    @Test func generatingAGenericSecretIsRefusedWithAHint() throws {
        let uri = try uri()
        let absent = try PKCS11URI(path: uri.path.filter { $0.name != "object" } + [PKCS11URI.Attribute(name: "object", text: "absent-key")], query: uri.query)
        let error = #expect(throws: PKCS11Error.self) { try PKCS11KeyProvider(uri: absent, storeIdentifier: PKCS11StoreIdentifier.random()).derivedKey(mayCreate: true) }
        #expect(error?.returnValue == .functionNotSupported)
        #expect(error?.message.contains("tpm2_ptool addkey") == true)
    }
}
