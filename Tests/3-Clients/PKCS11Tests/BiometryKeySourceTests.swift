// The PIN-gated biometry stand-in (PKCS11BiometryKeySource) on two SoftHSM2 tokens in one
// module: the store's token (its PIN stored, as a pin-source would) and a biometry token whose
// PIN only the caller's closure gives. The key needs the typed PIN every time, the login does
// not outlive the call, and a set-up whose stored PIN would open the biometry key is refused.
// The same-token decision is also tested alone, with module failures SoftHSM2 cannot be made
// to give.

import CryptoPrimitives
import Foundation
import SecureStore
import Testing
import TestSupport
import PKCS11

extension SoftHSMSuite {
    @Suite struct BiometryKeySourceTests {
        let storePIN = SecretBytes(Array("1234".utf8))
        let biometryPIN = "917364"

        /// A second token, `biometry`, in `token`'s SoftHSM directory (both visible to the module).
        func addBiometryToken(to token: SoftHSMToken) throws -> PKCS11URI {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: SoftHSM.utility)
            process.arguments = ["--init-token", "--free", "--label", "biometry", "--pin", biometryPIN, "--so-pin", "24681357"]
            process.environment = ProcessInfo.processInfo.environment.merging(["SOFTHSM2_CONF": token.configuration]) { $1 }
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw SoftHSMTokenError(status: process.terminationStatus) }
            return try PKCS11URI("pkcs11:token=biometry?module-path=" + SoftHSM.modulePath)
        }

        func setUp() throws -> (token: SoftHSMToken, possession: PKCS11KeyProvider, source: PKCS11BiometryKeySource) {
            let token = try SoftHSMToken()
            let biometryURI = try addBiometryToken(to: token)
            token.activate()
            let possession = try PKCS11KeyProvider(uri: token.uri(), pin: storePIN, storeIdentifier: token.storeIdentifier)
            _ = try possession.derivedKey(mayCreate: true)
            let source = try PKCS11BiometryKeySource(uri: biometryURI, possession: possession)
            try source.createKey { SecretBytes(Array(biometryPIN.utf8)) }
            return (token, possession, source)
        }

        @Test func theKeyNeedsThePINTypedForEachUse() throws {
            let (token, possession, source) = try setUp()
            defer { withExtendedLifetime(token) {} }  // its directory holds both tokens
            var asked = 0
            let typed = { () -> SecretBytes in
                asked += 1
                return SecretBytes(Array(biometryPIN.utf8))
            }
            let first = try source.biometryUnlockKey(instanceID: "activation-1", pin: typed)
            let second = try source.biometryUnlockKey(instanceID: "activation-1", pin: typed)
            #expect(asked == 2)
            #expect(first == second && first.byteCount == 16)
            #expect(try source.biometryUnlockKey(instanceID: "activation-2", pin: typed) != first)
            // Not the possession key of the same activation.
            #expect(try PKCS11PossessionKeySource(provider: possession).derive(instanceID: "activation-1") != first)
        }

        @Test func aWrongPINOrNoPINGivesNoKey() throws {
            let (token, _, source) = try setUp()
            defer { withExtendedLifetime(token) {} }
            let wrong = #expect(throws: PKCS11Error.self) {
                try source.biometryUnlockKey(instanceID: "activation-1") { SecretBytes(Array("000000".utf8)) }
            }
            #expect(wrong?.returnValue == .pinIncorrect)
            struct Cancelled: Error {}
            let cancelled = #expect(throws: PKCS11Error.self) { try source.biometryUnlockKey(instanceID: "activation-1") { throw Cancelled() } }
            #expect(cancelled?.kind == .invalidArgument)
        }

        @Test func theLoginDoesNotOutliveTheCall() throws {
            let (token, _, source) = try setUp()
            let module = try PKCS11Module(path: SoftHSM.modulePath)  // held: the login state would survive between calls
            defer { module.finalize() }
            let slot = try module.slot(matching: PKCS11URI("pkcs11:token=biometry"))
            let watcher = try module.openSession(slot: slot, readWrite: false)
            defer { watcher.close() }
            // Someone logs in to the biometry token in this process; the derivation still asks.
            try watcher.login(pin: SecretBytes(Array(biometryPIN.utf8)))
            var asked = false
            _ = try source.biometryUnlockKey(instanceID: "activation-1") {
                asked = true
                return SecretBytes(Array(biometryPIN.utf8))
            }
            #expect(asked)
            // Afterwards nobody is logged in: the private key object is invisible.
            #expect(try watcher.findObjects([.class(.secretKey)]).isEmpty)
            withExtendedLifetime(token) {}
        }

        @Test func aStoredOrShareablePINIsRefused() throws {
            let (token, possession, _) = try setUp()
            let withPIN = try PKCS11URI("pkcs11:token=biometry?module-path=\(SoftHSM.modulePath)&pin-value=\(biometryPIN)")
            #expect(throws: PKCS11Error.self) { try PKCS11BiometryKeySource(uri: withPIN, possession: possession) }
            // The store's own token while its PIN is stored: that PIN would open the biometry key.
            let sameToken = try PKCS11BiometryKeySource(uri: token.uri().withoutStoreIdentifier, possession: possession)
            let error = #expect(throws: PKCS11Error.self) {
                try sameToken.biometryUnlockKey(instanceID: "activation-1") { storePIN }
            }
            #expect(error?.kind == .invalidArgument)
            #expect(error?.message.contains("store's token") == true)
        }

        @Test func theStoresTokenThroughAnotherModulePathIsRefused() throws {
            let (token, possession, _) = try setUp()
            // One library under a second path (a symlink, as multiarch directories give): one
            // module, so the store's token is still the store's token.
            let directory = try TemporaryDirectory("biometry-module")
            defer { directory.remove() }
            let alias = directory.appending("libsofthsm2-alias.so")
            try FileManager.default.createSymbolicLink(atPath: alias, withDestinationPath: SoftHSM.modulePath)
            let label = try #require(token.uri().token)
            let viaAlias = try PKCS11URI("pkcs11:token=\(label)?module-path=\(alias)")
            let source = try PKCS11BiometryKeySource(uri: viaAlias, possession: possession)
            let error = #expect(throws: PKCS11Error.self) {
                try source.biometryUnlockKey(instanceID: "activation-1") { storePIN }
            }
            #expect(error?.message.contains("store's token") == true)
        }
    }
}

/// The same-token decision alone, for the failures a SoftHSM2 token cannot be made to give: a
/// module whose slot list or token information fails must refuse, not count as "another token".
@Suite struct BiometrySameTokenDecisionTests {
    @Test func anotherTokenOrNoneInTheModuleIsAllowed() throws {
        try PKCS11BiometryKeySource.refuseStoresToken(3) { () throws(PKCS11Error) in 4 }
        try PKCS11BiometryKeySource.refuseStoresToken(3) { () throws(PKCS11Error) in throw PKCS11Error(.tokenNotFound, "no token matches") }
    }

    @Test func theStoresOwnTokenIsRefused() {
        let error = #expect(throws: PKCS11Error.self) {
            try PKCS11BiometryKeySource.refuseStoresToken(3) { () throws(PKCS11Error) in 3 }
        }
        #expect(error?.kind == .invalidArgument && error?.message.contains("store's token") == true)
    }

    @Test(arguments: [PKCS11Error(.returned(CKReturnValue(rawValue: 0x30)), "CKR_DEVICE_ERROR", function: "C_GetSlotList"),
                      PKCS11Error(.returned(.cryptokiNotInitialized), "not initialised", function: "C_GetTokenInfo"),
                      PKCS11Error(.unexpectedOutput, "the module reports 5000 slots", function: "C_GetSlotList")])
    func aModuleThatCannotTellRefusesWithItsError(_ failure: PKCS11Error) {
        let error = #expect(throws: PKCS11Error.self) {
            try PKCS11BiometryKeySource.refuseStoresToken(3) { () throws(PKCS11Error) in throw failure }
        }
        #expect(error == failure)
    }
}
