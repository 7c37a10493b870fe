// Two users of one PKCS #11 module in one process: each `PKCS11Module` instance shares the one
// `C_Initialize` of its path, and `C_Finalize` runs only when the last user lets go, so ending
// one user (a provider finishing its derivation) never breaks another's open session.

import CryptoPrimitives
import Foundation
import SecureStore
import Testing
import PKCS11

extension SoftHSMSuite {
    @Suite struct ModuleRegistryTests {
        let pin = SecretBytes(Array("1234".utf8))

        @Test func finalizingOneUserLeavesTheOtherSigning() throws {
            let token = try SoftHSMToken()
            token.activate()
            let first = try PKCS11Module(path: SoftHSM.modulePath)
            let second = try PKCS11Module(path: SoftHSM.modulePath)
            defer {
                second.finalize()
                first.finalize()
            }
            let session = try second.openSession(slot: second.slot(matching: token.uri()))
            defer { session.close() }
            try session.login(pin: pin)
            let key = try session.generateKey(.genericSecretKeyGeneration, template: [
                .class(.secretKey), .keyType(.genericSecret), .valueLength(32), .bool(.token, false), .bool(.sign, true),
            ])
            first.finalize()  // the first user goes; the module stays initialised for the second
            let mac = try session.sign(Array("still here".utf8), key: key, mechanism: .sha256HMAC)
            #expect(mac.count == 32)
        }

        @Test func aProviderFinishingDoesNotEndAnotherUsersSession() throws {
            let token = try SoftHSMToken()
            token.activate()
            let holder = try PKCS11Module(path: SoftHSM.modulePath)
            defer { holder.finalize() }
            let session = try holder.openSession(slot: holder.slot(matching: token.uri()))
            defer { session.close() }
            try session.login(pin: pin)
            let key = try session.generateKey(.genericSecretKeyGeneration, template: [
                .class(.secretKey), .keyType(.genericSecret), .valueLength(32), .bool(.token, false), .bool(.sign, true),
            ])
            // A provider opens and finalises its own module instance on the same path.
            let provider = try PKCS11KeyProvider(uri: token.uri(), pin: pin)
            #expect(try provider.derivedKey(mayCreate: true).count == 32)
            #expect(try session.sign(Array("after the provider".utf8), key: key, mechanism: .sha256HMAC).count == 32)
        }

        @Test func theModuleIsFinalizedWhenTheLastUserGoes() throws {
            let token = try SoftHSMToken()
            token.activate()
            let first = try PKCS11Module(path: SoftHSM.modulePath)
            let second = try PKCS11Module(path: SoftHSM.modulePath)
            #expect(ModuleRegistry.users(path: SoftHSM.modulePath) == 2)
            first.finalize()
            first.finalize()  // a second finalize of one instance does not count twice
            #expect(ModuleRegistry.users(path: SoftHSM.modulePath) == 1)
            second.finalize()
            #expect(ModuleRegistry.users(path: SoftHSM.modulePath) == 0)
            // A new token is only seen by a fresh C_Initialize (SoftHSM reads SOFTHSM2_CONF there).
            let other = try SoftHSMToken(label: "after-finalize")
            other.activate()
            let module = try PKCS11Module(path: SoftHSM.modulePath)
            defer { module.finalize() }
            #expect(try module.slot(matching: other.uri()) >= 0)
        }
    }
}
