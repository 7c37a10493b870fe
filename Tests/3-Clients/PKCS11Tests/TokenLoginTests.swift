// The PIN is used (and asked for) only when the token says it requires login
// (`CKF_LOGIN_REQUIRED` in `CK_TOKEN_INFO.flags`). SoftHSM2 always requires it, so here the
// check is that a provider without a PIN on such a token fails with the typed "not logged in"
// error before looking for the key, not with a misleading "no key on this token".

import CryptoPrimitives
import Foundation
import SecureStore
import Testing
import PKCS11

extension SoftHSMSuite {
    @Suite struct TokenLoginTests {
        let pin = SecretBytes(Array("1234".utf8))

        @Test func softHSMRequiresLogin() throws {
            let token = try SoftHSMToken()
            token.activate()
            let module = try PKCS11Module(path: SoftHSM.modulePath)
            defer { module.finalize() }
            #expect(try module.tokenInfo(slot: module.slot(matching: token.uri())).requiresLogin)
        }

        @Test func aTokenThatRequiresLoginWithoutAPINIsATypedError() throws {
            let token = try SoftHSMToken()
            token.activate()
            let withPIN = try PKCS11KeyProvider(uri: token.uri(), pin: pin, storeIdentifier: token.storeIdentifier)
            _ = try withPIN.derivedKey(mayCreate: true)  // the key exists now
            let withoutPIN = try PKCS11KeyProvider(uri: token.uri(), pin: nil, storeIdentifier: token.storeIdentifier)
            let error = #expect(throws: PKCS11Error.self) { try withoutPIN.derivedKey(mayCreate: false) }
            #expect(error?.returnValue == .userNotLoggedIn, "\(String(describing: error))")
            let statusError = #expect(throws: PKCS11Error.self) { try withoutPIN.status() }
            #expect(statusError?.returnValue == .userNotLoggedIn)
        }
    }
}
