// Against a real token (SoftHSM2): the function table and structures read correctly, typed
// errors for a wrong PIN and a token that is not there, a key that never leaves the token,
// HMAC equal to CryptoPrimitives', and a SecureStore keyed inside the token that a copy on
// another token cannot open. Serialized: SoftHSM's configuration is a process-wide variable.

import CryptoPrimitives
import Foundation
import SecureStore
import Testing
import PKCS11
#if canImport(Glibc)
import Glibc
#endif

/// Every test that loads SoftHSM2, serialized as one group (SOFTHSM2_CONF is process-wide).
@Suite(.serialized, .enabled(if: SoftHSM.isInstalled, "SoftHSM2 is not installed (apt-get install softhsm2)"))
enum SoftHSMSuite {}

extension SoftHSMSuite {
    @Suite struct SoftHSMTests {
        let pin = SecretBytes(Array("1234".utf8))

        /// A module on `token`, a logged-in read-write session on it, and the module finalised after.
        func withSession<R>(_ token: SoftHSMToken, _ body: (PKCS11Module, PKCS11Session) throws -> R) throws -> R {
            token.activate()
            let module = try PKCS11Module(path: SoftHSM.modulePath)
            defer { module.finalize() }
            let session = try module.openSession(slot: module.slot(matching: token.uri()))
            defer { session.close() }
            try session.login(pin: pin)
            return try body(module, session)
        }

        @Test func functionTableMatchesTheModule() throws {
            let token = try SoftHSMToken()
            try withSession(token) { module, _ in
                guard let handle = dlopen(SoftHSM.modulePath, RTLD_NOW | RTLD_NOLOAD) else { Issue.record("not loaded"); return }
                // Every entry of the table is the function the module exports under that name: the
                // order of CryptokiFunction is the order of pkcs11f.h. Except C_GetFunctionList:
                // when libp11-kit is already in the process (Foundation → curl → gnutls → p11-kit),
                // its global C_GetFunctionList wins the ELF lookup for SoftHSM's own table entry,
                // while dlsym on the module's handle finds SoftHSM's (the one this client calls).
                var mismatched: [String] = []
                for function in CryptokiFunction.allCases where function != .getFunctionList {
                    let exported = dlsym(handle, function.cName).map(UnsafeRawPointer.init)
                    if exported != module.functions.entry(function) { mismatched.append(function.cName) }
                }
                #expect(mismatched == [])
                #expect(module.interfaceVersion.major == 2)
            }
        }

        @Test func tokenInfoIsReadThroughTheDeclaredLayout() throws {
            let token = try SoftHSMToken(label: "layout-check")
            try withSession(token) { module, session in
                let info = try module.tokenInfo(slot: module.slot(matching: token.uri()))
                #expect(info.label == "layout-check")
                #expect(info.manufacturer == "SoftHSM project")
                #expect(info.model == "SoftHSM v2")
                #expect(info.serialNumber.count == 16)
                #expect(info.isInitialized)
                #expect(info.requiresLogin)
                #expect(info.pinLengths.lowerBound >= 4)
            }
        }

        @Test func wrongPINAndAbsentTokenAreTypedErrors() throws {
            let token = try SoftHSMToken()
            token.activate()
            let module = try PKCS11Module(path: SoftHSM.modulePath)
            defer { module.finalize() }
            #expect(throws: PKCS11Error(.tokenNotFound, "")) { try module.slot(matching: PKCS11URI("pkcs11:token=absent")) }
            #expect(throws: PKCS11Error(.returned(CKReturnValue(rawValue: 0x3)), "")) { try module.tokenInfo(slot: 0xDEAD_BEEF) }
            let session = try module.openSession(slot: module.slot(matching: token.uri()))
            let error = #expect(throws: PKCS11Error.self) { try session.login(pin: SecretBytes(Array("0000".utf8))) }
            #expect(error?.returnValue == .pinIncorrect)
            #expect(error?.description.contains("C_Login: CKR_PIN_INCORRECT") == true)
            // Private objects are invisible and a sign needs a key: not logged in is typed too.
            #expect(throws: PKCS11Error(.returned(.userNotLoggedIn), "")) {
                try session.generateKey(.genericSecretKeyGeneration, template: [.valueLength(32), .bool(.token, true), .bool(.private, true)])
            }
        }

        @Test func aSecondInitializationIsTolerated() throws {
            let token = try SoftHSMToken()
            token.activate()
            let first = try PKCS11Module(path: SoftHSM.modulePath)
            let second = try PKCS11Module(path: SoftHSM.modulePath)  // shares the first's C_Initialize
            second.finalize()  // one user leaves; the module stays initialised for `first`
            #expect(try first.tokenInfo(slot: first.slot(matching: token.uri())).label == "test")
            first.finalize()
        }

        @Test func theTokenKeyIsSensitiveAndNotExtractable() throws {
            let token = try SoftHSMToken()
            let provider = try PKCS11KeyProvider(uri: token.uri(), pin: pin)
            try withSession(token) { _, session in
                let key = try provider.tokenKey(in: session, mayCreate: true)
                let error = #expect(throws: PKCS11Error.self) { try session.attribute(.value, of: key) }
                #expect(error?.returnValue == .attributeSensitive)
                #expect(try session.attribute(.sensitive, of: key).unsafeExposedBytes == [1])
                #expect(try session.attribute(.extractable, of: key).unsafeExposedBytes == [0])
                #expect(try session.attribute(.token, of: key).unsafeExposedBytes == [1])
                #expect(try session.attribute(.keyType, of: key).unsafeExposedBytes == PKCS11Attribute.keyType(.genericSecret).value.unsafeExposedBytes)
                // Found again, not created twice.
                #expect(try provider.tokenKey(in: session, mayCreate: true) == key)
                #expect(try session.findObjects([.class(.secretKey)]).count == 1)
            }
        }

        @Test func tokenHMACMatchesCryptoPrimitives() throws {
            let token = try SoftHSMToken()
            let keyBytes = (0..<32).map { UInt8($0 &* 7 &+ 1) }
            let message = Array("SwiftMFA store key v1default".utf8)
            try withSession(token) { _, session in
                let key = try session.createObject([
                    .class(.secretKey), .keyType(.genericSecret), .bool(.token, false), .bool(.sign, true),
                    .bool(.sensitive, false), .bool(.extractable, true), PKCS11Attribute(.value, secret: SecretBytes(keyBytes)),
                ])
                defer { try? session.destroyObject(key) }  // a session object; the finalize removes it anyway
                #expect(try session.attribute(.value, of: key).unsafeExposedBytes == keyBytes)
                let tokenMAC = try session.sign(message, key: key, mechanism: .sha256HMAC)
                let expected = HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: keyBytes))
                #expect(tokenMAC.unsafeExposedBytes == Array(expected))
                try session.destroyObject(key)
                #expect(throws: PKCS11Error(.returned(CKReturnValue(rawValue: 0x82)), "")) { try session.attribute(.value, of: key) }
            }
        }

        /// The store key is HMAC-SHA256 over "SwiftMFA store key v2" ‖ the store identifier, made
        /// by the token's key: the message is built here from the documentation, the HMAC by
        /// SoftHSM2's own C_Sign (the provider's key may not be imported, so its value is unknown).
        @Test func theProviderDerivesTheDocumentedHMAC() throws {
            let token = try SoftHSMToken()
            let wallet = try PKCS11StoreIdentifier(bytes: Array(0..<16))
            let provider = try PKCS11KeyProvider(uri: token.uri(), pin: pin, storeIdentifier: wallet)
            let derived = try provider.derivedKey(mayCreate: true)
            let message = Array("SwiftMFA store key v2".utf8) + Array(0..<16)
            try withSession(token) { _, session in
                let key = try #require(session.findObjects([.class(.secretKey), .label(PKCS11KeyProvider.defaultKeyLabel)]).first)
                let expected = try session.sign(message, key: key, mechanism: .sha256HMAC)
                #expect(derived.unsafeExposedBytes == expected.unsafeExposedBytes)
            }
        }
    }
}
