// `mfa keys` against SoftHSM2 tokens: two stores keyed in one token get different keys (a
// per-store identifier in the provider setting is bound into both token derivations), a store
// whose PowerAuth activation depends on the token's possession key cannot be moved off the
// token, a store moved onto a token keeps each activation's possession key, and one migration
// asks for a token's PIN once.

import CryptoPrimitives
import Foundation
import SecureStore
import Testing
import TestSupport
import PKCS11

extension SoftHSMSuite {
    @Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: mfaExecutable), "the mfa executable is not built"))
    struct KeysCommandSafetyTests {
        /// Runs `mfa arguments` against `token`, `input` on standard input.
        func mfa(_ arguments: [String], token: SoftHSMToken, input: String = "") throws -> (status: Int32, output: String, error: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: mfaExecutable)
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(["SOFTHSM2_CONF": token.configuration]) { $1 }
            let output = Pipe(), error = Pipe(), standardInput = Pipe()
            process.standardOutput = output
            process.standardError = error
            process.standardInput = standardInput
            try process.run()
            standardInput.fileHandleForWriting.write(Data(input.utf8))
            try standardInput.fileHandleForWriting.close()
            let out = output.fileHandleForReading.readDataToEndOfFile(), err = error.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
        }

        /// A temporary parent directory with a 0600 PIN file in it.
        func workspace() throws -> (parent: String, pinFile: String) {
            let parent = try TemporaryDirectory("mfa-keys-safety").path
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            let pinFile = parent + "/pin"
            try "1234\n".write(toFile: pinFile, atomically: true, encoding: .utf8)
            chmod(pinFile, 0o600)
            return (parent, pinFile)
        }

        /// The provider the store at `directory` records, as a PKCS #11 provider.
        func tokenProvider(_ directory: String) throws -> PKCS11KeyProvider? {
            try StoreProviderChoice.recorded(in: directory).keyProvider(secret: nil) as? PKCS11KeyProvider
        }

        @Test func twoStoresOnOneTokenHaveDifferentKeys() throws {
            let token = try SoftHSMToken()
            let (parent, pinFile) = try workspace()
            defer { try? FileManager.default.removeItem(atPath: parent) }
            let uri = "pkcs11:token=\(token.label)?module-path=\(SoftHSM.modulePath)&pin-source=file:\(pinFile)"
            let first = parent + "/first", second = parent + "/second"
            #expect(try mfa(["keys", "use", uri, "--store", first], token: token).status == 0)
            #expect(try mfa(["keys", "use", uri, "--store", second], token: token).status == 0)
            token.activate()
            let firstProvider = try #require(try tokenProvider(first)), secondProvider = try #require(try tokenProvider(second))
            let firstKey = try firstProvider.storeKey(directory: first), secondKey = try secondProvider.storeKey(directory: second)
            #expect(firstKey.secret != secondKey.secret)
            let firstPossession = try PKCS11PossessionKeySource(provider: firstProvider).derive(instanceID: "default")
            let secondPossession = try PKCS11PossessionKeySource(provider: secondProvider).derive(instanceID: "default")
            #expect(firstPossession.withUnsafeBytes { Array($0) } != secondPossession.withUnsafeBytes { Array($0) })

            // The first store's records under the second store's identifier do not open.
            let store = try SecureStore(directory: first, keyProvider: firstProvider)
            try store.write(SecretBytes(Array("activation".utf8)), to: "powerauth.default.activation")
            try FileManager.default.removeItem(atPath: first + "/.provider")
            try FileManager.default.copyItem(atPath: second + "/.provider", toPath: first + "/.provider")
            let swapped = try #require(try tokenProvider(first))
            let error = #expect(throws: SecureStoreError.self) { try SecureStore(directory: first, keyProvider: swapped).read("powerauth.default.activation") }
            #expect(error?.kind == .foreignKey || error?.kind == .authenticationFailed, "\(String(describing: error))")
        }

        @Test func aStoreWhoseActivationUsesTheTokenPossessionKeyStaysOnTheToken() throws {
            let token = try SoftHSMToken()
            let (parent, pinFile) = try workspace()
            defer { try? FileManager.default.removeItem(atPath: parent) }
            let uri = "pkcs11:token=\(token.label)?module-path=\(SoftHSM.modulePath)&pin-source=file:\(pinFile)"
            let store = parent + "/store"
            let configured = try mfa(["powerauth", "configure", "--store", store, "--instance", "work", "--config-string-file",
                                      try MFAKeysCommandTests.configurationFile(in: parent), "--base-url", "https://pa.example.com", "--key-provider", uri], token: token)
            #expect(configured.status == 0, "\(configured.error)")
            token.activate()
            let provider = try #require(try tokenProvider(store))
            // An activation made with the token-derived possession key (its record's content is the SDK's).
            try SecureStore(directory: store, keyProvider: provider).write(SecretBytes(Array("activation".utf8)), to: "powerauth.work.activation")
            let before = try StoreSettings.provider(in: store)

            for target in ["file", "passphrase", "pkcs11:token=\(token.label);object=other-key?module-path=\(SoftHSM.modulePath)&pin-source=file:\(pinFile)"] {
                let moved = try mfa(["keys", "migrate", target, "--store", store], token: token, input: "a passphrase\n")
                #expect(moved.status == 4, "\(target): \(moved.error)")   // the wrong state, not a usage error
                #expect(moved.error.contains("work"), "\(moved.error)")
                #expect(try StoreSettings.provider(in: store) == before)
            }
        }

        @Test func aStoreMovedOntoATokenKeepsItsPossessionKey() throws {
            let token = try SoftHSMToken()
            let (parent, pinFile) = try workspace()
            defer { try? FileManager.default.removeItem(atPath: parent) }
            let uri = "pkcs11:token=\(token.label)?module-path=\(SoftHSM.modulePath)&pin-source=file:\(pinFile)"
            let store = parent + "/store"
            #expect(try mfa(["powerauth", "configure", "--store", store, "--config-string-file", try MFAKeysCommandTests.configurationFile(in: parent),
                             "--base-url", "https://pa.example.com"], token: token).status == 0)
            let possession = try #require(try SecureStore(directory: store).read("mfa.powerauth.default.possession"))
            try SecureStore(directory: store).write(SecretBytes(Array("activation".utf8)), to: "powerauth.default.activation")
            let moved = try mfa(["keys", "migrate", uri, "--store", store], token: token)
            #expect(moved.status == 0, "\(moved.error)")
            // The move says what it could not move: copies made before it, and the portable key.
            #expect(moved.output.contains("a copy of the store made before this move") && moved.output.contains("PowerAuth instance default keeps"),
                    "\(moved.output)")
            let status = try mfa(["keys", "status", "--store", store, "--json"], token: token)
            let listed = (try JSONSerialization.jsonObject(with: Data(status.output.utf8)) as? [String: Any])?["portablePossessionKeys"] as? [String]
            #expect(status.status == 0 && listed == ["default"], "\(status.output) \(status.error)")
            token.activate()
            let reopened = try SecureStore(directory: store, keyProvider: try #require(try tokenProvider(store)))
            #expect(try reopened.read("mfa.powerauth.default.possession") == possession)
        }

        /// A Salt Edge connection or CM environment whose key lives in the token (its record names
        /// it by label), or an enrolment's key no record names yet (its intent), pins the store to
        /// that token: a migration would leave the key behind.
        @Test(arguments: [("saltedge.connection.333", #"{"id":"333","providerID":"1","providerName":"Bank","scaServiceURL":"https://sca.example.com","providerPublicKeyPEM":"","name":"Bank","isActive":true,"geolocationRequired":false,"keyLabel":"saltedge-00"}"#, "Salt Edge connection 333"),
                          ("cm.environment.7f0c2a52-3d1e-4c4b-9a51-2f1e8d0b6c11", #"{"id":"7f0c2a52-3d1e-4c4b-9a51-2f1e8d0b6c11","name":"Bank","keyLabel":"cm-00"}"#, "CM environment 7f0c2a52"),
                          ("devicekey.intent.saltedge-01", "saltedge-01", "token key saltedge-01")])
        func aKeyHeldInTheTokenPinsTheStoreToIt(record: String, json: String, named: String) throws {
            let token = try SoftHSMToken()
            let (parent, pinFile) = try workspace()
            defer { try? FileManager.default.removeItem(atPath: parent) }
            let uri = "pkcs11:token=\(token.label)?module-path=\(SoftHSM.modulePath)&pin-source=file:\(pinFile)"
            let store = parent + "/store"
            #expect(try mfa(["keys", "use", uri, "--store", store], token: token).status == 0)
            token.activate()
            let opened = try SecureStore(directory: store, keyProvider: try #require(try tokenProvider(store)))
            try opened.write(SecretBytes(Array(json.utf8)), to: record)
            // `keys status` lists the enrolment's key (an intent) as pending, and nothing else.
            let status = try mfa(["keys", "status", "--json", "--store", store], token: token)
            #expect(status.status == 0, "\(status.error)")
            let pending = (try JSONSerialization.jsonObject(with: Data(status.output.utf8)) as? [String: Any])?["pendingKeys"] as? [String]
            #expect(pending == (record.hasPrefix("devicekey.intent.") ? [json] : []), "\(status.output)")
            let before = try StoreSettings.provider(in: store)
            let moved = try mfa(["keys", "migrate", "file", "--store", store], token: token)
            #expect(moved.status == 4 && moved.error.contains(named), "\(moved.status) \(moved.error)")
            #expect(try StoreSettings.provider(in: store) == before)
            #expect(try opened.read(record)?.unsafeExposedBytes == Array(json.utf8))
        }

        @Test func oneMigrationAsksForTheTokenPINOnce() throws {
            let token = try SoftHSMToken()
            let (parent, _) = try workspace()
            defer { try? FileManager.default.removeItem(atPath: parent) }
            let store = parent + "/store"
            try SecureStore(directory: store).write(SecretBytes(Array("record".utf8)), to: "record")
            let onToken = "pkcs11:token=\(token.label);object=first?module-path=\(SoftHSM.modulePath)"
            let first = try mfa(["keys", "migrate", onToken, "--store", store], token: token, input: "1234\n")
            #expect(first.status == 0, "\(first.error)")
            // From one key object to another on the same token: the PIN is read once, for both.
            let other = "pkcs11:token=\(token.label);object=second?module-path=\(SoftHSM.modulePath)"
            let second = try mfa(["keys", "migrate", other, "--store", store + "/"], token: token, input: "1234\n")
            #expect(second.status == 0, "\(second.error)")
            token.activate()
            let provider = try StoreProviderChoice.recorded(in: store).keyProvider(secret: SecretBytes(Array("1234".utf8)))
            #expect(try SecureStore(directory: store, keyProvider: provider).read("record")?.unsafeExposedBytes == Array("record".utf8))
        }
    }
}
