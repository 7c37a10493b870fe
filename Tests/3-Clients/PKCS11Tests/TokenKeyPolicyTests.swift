// The token key must be one that never leaves the token: a secret key under the expected label
// that is extractable, not sensitive, of another key type or not allowed to sign is refused
// with a typed error, never used to key a store.

import CryptoPrimitives
import Foundation
import SecureStore
import Testing
import TestSupport
import PKCS11

extension SoftHSMSuite {
    @Suite struct TokenKeyPolicyTests {
        let pin = SecretBytes(Array("1234".utf8))

        /// Creates a secret key labelled like the store key, with the given flags (C_CreateObject).
        func plantKey(on token: SoftHSMToken, keyType: PKCS11KeyType = .genericSecret, sensitive: Bool, extractable: Bool, sign: Bool = true) throws {
            token.activate()
            let module = try PKCS11Module(path: SoftHSM.modulePath)
            defer { module.finalize() }
            let session = try module.openSession(slot: module.slot(matching: token.uri()))
            defer { session.close() }
            try session.login(pin: pin)
            _ = try session.createObject([
                .class(.secretKey), .keyType(keyType), .label(PKCS11KeyProvider.defaultKeyLabel), .bool(.token, true),
                .bool(.private, true), .bool(.sensitive, sensitive), .bool(.extractable, extractable), .bool(.sign, sign),
                PKCS11Attribute(.value, secret: SecretBytes([UInt8](repeating: 0x42, count: 32))),
            ])
        }

        @Test(arguments: [(false, true), (true, true), (false, false)])
        func anExtractableOrNonSensitiveKeyIsRefused(sensitive: Bool, extractable: Bool) throws {
            let token = try SoftHSMToken()
            try plantKey(on: token, sensitive: sensitive, extractable: extractable)
            let provider = try PKCS11KeyProvider(uri: token.uri(), pin: pin)
            let error = #expect(throws: PKCS11Error.self) { try provider.derivedKey(mayCreate: false) }
            #expect(error?.kind == .keyNotProtected, "\(String(describing: error))")
            let temporary = try TemporaryDirectory("policy")
            defer { temporary.remove() }
            let directory = temporary.appending("store")
            #expect(throws: SecureStoreError.self) { try SecureStore(directory: directory, keyProvider: provider) }
        }

        @Test func aKeyThatMayNotSignIsRefused() throws {
            let token = try SoftHSMToken()
            try plantKey(on: token, sensitive: true, extractable: false, sign: false)
            let provider = try PKCS11KeyProvider(uri: token.uri(), pin: pin)
            let error = #expect(throws: PKCS11Error.self) { try provider.derivedKey(mayCreate: false) }
            #expect(error?.kind == .keyNotProtected, "\(String(describing: error))")
        }

        @Test func aWrongKeyTypeIsRefused() throws {
            let token = try SoftHSMToken()
            try plantKey(on: token, keyType: .aes, sensitive: true, extractable: false)
            let provider = try PKCS11KeyProvider(uri: token.uri(), pin: pin)
            let error = #expect(throws: PKCS11Error.self) { try provider.derivedKey(mayCreate: false) }
            #expect(error?.kind == .keyNotProtected, "\(String(describing: error))")
        }

        /// A key imported with a value someone chose is refused even when it is sensitive and
        /// unextractable now: CKA_LOCAL, CKA_ALWAYS_SENSITIVE and CKA_NEVER_EXTRACTABLE tell.
        @Test func anImportedKeyIsRefusedEvenWhenSensitive() throws {
            let token = try SoftHSMToken()
            try plantKey(on: token, sensitive: true, extractable: false)
            let provider = try PKCS11KeyProvider(uri: token.uri(), pin: pin)
            let error = #expect(throws: PKCS11Error.self) { try provider.derivedKey(mayCreate: false) }
            #expect(error?.kind == .keyNotProtected && String(describing: error).contains("CKA_LOCAL"), "\(String(describing: error))")
        }

        /// A key generated on the token but public (CKA_PRIVATE false) signs without the PIN.
        @Test func aPublicGeneratedKeyIsRefused() throws {
            let token = try SoftHSMToken()
            token.activate()
            do {
                let module = try PKCS11Module(path: SoftHSM.modulePath)
                defer { module.finalize() }
                let session = try module.openSession(slot: module.slot(matching: token.uri()))
                defer { session.close() }
                try session.login(pin: pin)
                _ = try session.generateKey(.genericSecretKeyGeneration, template: [
                    .class(.secretKey), .label(PKCS11KeyProvider.defaultKeyLabel), .keyType(.genericSecret), .valueLength(32),
                    .bool(.token, true), .bool(.private, false), .bool(.sensitive, true), .bool(.extractable, false), .bool(.sign, true),
                ])
            }
            let provider = try PKCS11KeyProvider(uri: token.uri(), pin: pin)
            let error = #expect(throws: PKCS11Error.self) { try provider.derivedKey(mayCreate: false) }
            #expect(error?.kind == .keyNotProtected && String(describing: error).contains("CKA_PRIVATE"), "\(String(describing: error))")
        }

        /// The key the provider generates itself passes its own checks.
        @Test func theProvidersOwnKeyIsUsed() throws {
            let token = try SoftHSMToken()
            #expect(try PKCS11KeyProvider(uri: token.uri(), pin: pin).derivedKey(mayCreate: true).count == 32)
        }
    }
}
