// The clients' factor keys in a SoftHSM2 token (PKCS11DeviceKeyStore): an RSA key pair made in
// the token is sensitive and unextractable (read back from the token), signs what our own
// RSA verifies, decrypts what our own RSA encrypts; an imported HMAC key computes our HMAC;
// another token finds nothing (a typed error); a planted, readable key is refused.

import CryptoPrimitives
import Foundation
import SecureStore
import Testing
import PKCS11

extension SoftHSMSuite {
    @Suite struct DeviceKeyStoreTests {
        let pin = SecretBytes(Array("1234".utf8))

        func store(_ token: SoftHSMToken) throws -> PKCS11DeviceKeyStore {
            token.activate()
            return PKCS11DeviceKeyStore(provider: try PKCS11KeyProvider(uri: token.uri(), pin: pin, storeIdentifier: token.storeIdentifier))
        }

        /// Runs `body` on a logged-in session of `token`.
        func withSession<R>(_ token: SoftHSMToken, _ body: (PKCS11Session) throws -> R) throws -> R {
            token.activate()
            let module = try PKCS11Module(path: SoftHSM.modulePath)
            defer { module.finalize() }
            let session = try module.openSession(slot: module.slot(matching: token.uri()))
            defer { session.close() }
            try session.login(pin: pin)
            return try body(session)
        }

        @Test func theRSAKeyIsMadeSensitiveAndUnextractableInTheToken() throws {
            let token = try SoftHSMToken()
            let store = try store(token)
            let key = try store.makeRSAKey(label: "connection-1")
            #expect(key.publicKey.keySizeInBits == 2048)
            #expect(key.publicKey.publicExponent.drop { $0 == 0 } == [1, 0, 1])
            let label = try store.tokenLabel("connection-1")
            try withSession(token) { session in
                let found = try session.findObjects([.class(.privateKey), .label(label)])
                #expect(found.count == 1)
                guard let object = found.first else { return }
                #expect(try session.attribute(.sensitive, of: object).unsafeExposedBytes == [1])
                #expect(try session.attribute(.extractable, of: object).unsafeExposedBytes == [0])
                #expect(try session.attribute(.private, of: object).unsafeExposedBytes == [1])
                #expect(try session.attribute(.token, of: object).unsafeExposedBytes == [1])
                #expect(try session.attribute(.local, of: object).unsafeExposedBytes == [1])
                #expect(try session.attribute(.id, of: object).unsafeExposedBytes == Array(label.utf8))
                // CKA_PRIVATE_EXPONENT (0x123) of a sensitive key never comes out.
                let error = #expect(throws: PKCS11Error.self) { try session.attribute(PKCS11AttributeType(rawValue: 0x123), of: object) }
                #expect(error?.returnValue == .attributeSensitive)
            }
            let again = #expect(throws: DeviceKeyError.self) { try store.makeRSAKey(label: "connection-1") }
            #expect(again?.code == .keyExists)
        }

        @Test func aTokenSignatureVerifiesWithOurRSA() throws {
            let token = try SoftHSMToken()
            let store = try store(token)
            let made = try store.makeRSAKey(label: "signer")
            let message = Array("eyJhbGciOiJSUzI1NiJ9.eyJkYXRhIjp7fX0".utf8)
            let signature = try made.signSHA256PKCS1(message)
            #expect(made.publicKey.isValidSignature(signature, for: message, padding: .pkcs1v1_5))
            #expect(!made.publicKey.isValidSignature(signature, for: message + [0], padding: .pkcs1v1_5))
            // Found again by label (a later process): the same public key, and it signs too.
            let found = try store.rsaKey(label: "signer")
            #expect(found.publicKey.modulus == made.publicKey.modulus)
            #expect(made.publicKey.isValidSignature(try found.signSHA256PKCS1(message), for: message, padding: .pkcs1v1_5))
        }

        @Test func ourPKCS1CiphertextDecryptsInTheToken() throws {
            let token = try SoftHSMToken()
            let store = try store(token)
            let key = try store.makeRSAKey(label: "decrypter")
            let secret = Array(0..<32).map { UInt8($0) }
            let ciphertext = try RSA.Encryption.PublicKey(sameKeyAs: key.publicKey).encrypt(secret, padding: .insecurePKCS1v1_5)
            #expect(try key.decryptPKCS1v15(ciphertext, messageByteCount: 32).unsafeExposedBytes == secret)
            // Bad padding, a short block and a message of another length are the one error, its
            // cause not kept.
            var raw = [UInt8](repeating: 0x5A, count: ciphertext.count)
            raw[0] = 0x01
            let bad = #expect(throws: DeviceKeyError.self) { try key.decryptPKCS1v15(raw, messageByteCount: 32) }
            #expect(bad?.code == .operationFailed)
            #expect(bad?.cause == nil)
            let short = #expect(throws: DeviceKeyError.self) { try key.decryptPKCS1v15(Array(ciphertext.dropLast()), messageByteCount: 32) }
            #expect(short?.code == .operationFailed)
            let otherLength = #expect(throws: DeviceKeyError.self) { try key.decryptPKCS1v15(ciphertext, messageByteCount: 16) }
            #expect(otherLength?.code == .operationFailed)
        }

        @Test func anotherTokenFindsNoKey() throws {
            let first = try SoftHSMToken()
            _ = try store(first).makeRSAKey(label: "connection-2")
            _ = try store(first).makeHMACKey(label: "environment", secret: SecretBytes(Array(repeating: 7, count: 32)))
            let second = try SoftHSMToken()
            // The same store identifier on another token: the label matches nothing there.
            second.activate()
            let other = PKCS11DeviceKeyStore(provider: try PKCS11KeyProvider(uri: second.uri(), pin: pin, storeIdentifier: first.storeIdentifier))
            let rsa = #expect(throws: DeviceKeyError.self) { try other.rsaKey(label: "connection-2") }
            #expect(rsa?.code == .keyNotFound)
            let hmac = #expect(throws: DeviceKeyError.self) { try other.hmacKey(label: "environment") }
            #expect(hmac?.code == .keyNotFound)
            // And another store on the first token does not see them either.
            let otherStore = PKCS11DeviceKeyStore(provider: try PKCS11KeyProvider(uri: first.uri(), pin: pin, storeIdentifier: PKCS11StoreIdentifier.random()))
            first.activate()
            #expect(throws: DeviceKeyError.self) { try otherStore.rsaKey(label: "connection-2") }
        }

        @Test func deletedKeysAreGone() throws {
            let token = try SoftHSMToken()
            let store = try store(token)
            _ = try store.makeRSAKey(label: "gone")
            try store.deleteRSAKey(label: "gone")
            let error = #expect(throws: DeviceKeyError.self) { try store.rsaKey(label: "gone") }
            #expect(error?.code == .keyNotFound)
            try store.deleteRSAKey(label: "gone")  // nothing there: not an error
            let label = try store.tokenLabel("gone")
            #expect(try withSession(token) { session in try session.findObjects([.label(label)]) }.isEmpty)
        }

        @Test func anImportedHMACKeyComputesOurHMACAndStaysInside() throws {
            let token = try SoftHSMToken()
            let store = try store(token)
            let secret = SecretBytes(Array("a CM environment secret: 32 bytes".utf8).prefix(32))
            let key = try store.makeHMACKey(label: "cm-environment", secret: secret)
            let message = Array("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0".utf8)
            let expected = Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(secret: secret)))
            #expect(try key.authenticationCode(for: message).unsafeExposedBytes == expected)
            #expect(try store.hmacKey(label: "cm-environment").authenticationCode(for: message).unsafeExposedBytes == expected)
            let label = try store.tokenLabel("cm-environment")
            try withSession(token) { session in
                guard let object = try session.findObjects([.class(.secretKey), .label(label)]).first else { Issue.record("no key"); return }
                #expect(try session.attribute(.extractable, of: object).unsafeExposedBytes == [0])
                let error = #expect(throws: PKCS11Error.self) { try session.attribute(.value, of: object) }
                #expect(error?.returnValue == .attributeSensitive)
            }
            let again = #expect(throws: DeviceKeyError.self) { try store.makeHMACKey(label: "cm-environment", secret: secret) }
            #expect(again?.code == .keyExists)
        }

        @Test func shortAndLongSecretsGiveTheirOwnHMAC() throws {
            let token = try SoftHSMToken()
            let store = try store(token)
            let message = Array("a request body".utf8)
            for (index, count) in [1, 20, 31, 32, 64, 65, 200].enumerated() {
                let secret = SecretBytes(Array(repeating: UInt8(0x41 + index), count: count))
                let key = try store.makeHMACKey(label: "secret-\(count)", secret: secret)
                let expected = Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(secret: secret)))
                #expect(try key.authenticationCode(for: message).unsafeExposedBytes == expected, "\(count)-byte secret")
            }
        }

        @Test func aPlantedReadableKeyUnderTheLabelIsRefused() throws {
            let token = try SoftHSMToken()
            let store = try store(token)
            let label = try store.tokenLabel("planted")
            try withSession(token) { session in
                _ = try session.createObject([.class(.secretKey), .keyType(.genericSecret), .label(label), .bool(.token, true),
                                              .bool(.private, true), .bool(.sensitive, false), .bool(.extractable, true), .bool(.sign, true),
                                              PKCS11Attribute(.value, secret: SecretBytes(Array(repeating: 1, count: 32)))])
            }
            let error = #expect(throws: DeviceKeyError.self) { try store.hmacKey(label: "planted") }
            #expect(error?.code == .keyNotProtected)
        }

        @Test func labelsAreChecked() throws {
            let token = try SoftHSMToken()
            let store = try store(token)
            #expect(throws: DeviceKeyError.self) { try store.makeRSAKey(label: "") }
            #expect(throws: DeviceKeyError.self) { try store.makeRSAKey(label: "a\nb") }
            #expect(SoftwareDeviceKeyStore().holdsKeys == false && store.holdsKeys)
        }
    }
}

/// The software store, every client's default: keys made in memory for the caller's record.
@Suite struct SoftwareDeviceKeyStoreTests {
    @Test func softwareKeysSignDecryptAndAuthenticateButAreNotFoundByLabel() throws {
        let store = SoftwareDeviceKeyStore()
        #expect(!store.holdsKeys)
        let key = try store.makeRSAKey(label: "connection")
        let message = Array("signing input".utf8)
        #expect(key.publicKey.isValidSignature(try key.signSHA256PKCS1(message), for: message, padding: .pkcs1v1_5))
        let ciphertext = try RSA.Encryption.PublicKey(sameKeyAs: key.publicKey).encrypt([1, 2, 3], padding: .insecurePKCS1v1_5)
        #expect(try key.decryptPKCS1v15(ciphertext, messageByteCount: 3).unsafeExposedBytes == [1, 2, 3])
        // Implicit rejection: a block that is not a 3-byte message gives 3 pseudo-random bytes,
        // the same ones each time, and no error a caller could tell apart.
        var forged = ciphertext
        forged[forged.count - 1] ^= 1
        let rejected = try key.decryptPKCS1v15(forged, messageByteCount: 3)
        #expect(rejected.count == 3)
        #expect(rejected.unsafeExposedBytes != [1, 2, 3])
        #expect(try key.decryptPKCS1v15(forged, messageByteCount: 3).unsafeExposedBytes == rejected.unsafeExposedBytes)
        let error = #expect(throws: DeviceKeyError.self) { try store.rsaKey(label: "connection") }
        #expect(error?.code == .unsupported)
        let secret = SecretBytes(Array("short".utf8))
        let mac = try store.makeHMACKey(label: "environment", secret: secret).authenticationCode(for: message)
        #expect(mac.unsafeExposedBytes == Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(secret: secret))))
        #expect("\(key)".contains("redacted"))
    }

    /// A label names a key in some token; the software store holds none, so deleting one is
    /// refused rather than reported done (a record removed on that word would orphan the key).
    @Test func deletingByLabelIsRefused() {
        let store = SoftwareDeviceKeyStore()
        #expect((#expect(throws: DeviceKeyError.self) { try store.deleteRSAKey(label: "saltedge-00") })?.code == .unsupported)
        #expect((#expect(throws: DeviceKeyError.self) { try store.deleteHMACKey(label: "cm-00") })?.code == .unsupported)
    }
}
