// The debug `mfa` against SoftHSM2 tokens, no server: `powerauth configure --key-provider` keys a
// new store in the token and stores no possession key (it is derived in the token), `keys
// status` names the token and the key object, and the same store directory copied beside another
// token (same label, same PIN) does not open: `keys status` finds no key (and still lists an
// enrolment's pending key, from the directory) and `powerauth status` fails with the store's exit
// status.

import CryptoPrimitives
import Foundation
import SecureStore
import Testing
import TestSupport
import PKCS11

extension SoftHSMSuite {
    @Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: mfaExecutable), "the mfa executable is not built"))
    struct MFAKeysCommandTests {
        /// A configuration string with the P-256 generator as master key (docs/protocols/powerauth.md §2 layout).
        static let configurationString: String = {
            let gx: [UInt8] = [0x6B, 0x17, 0xD1, 0xF2, 0xE1, 0x2C, 0x42, 0x47, 0xF8, 0xBC, 0xE6, 0xE5, 0x63, 0xA4, 0x40, 0xF2,
                               0x77, 0x03, 0x7D, 0x81, 0x2D, 0xEB, 0x33, 0xA0, 0xF4, 0xA1, 0x39, 0x45, 0xD8, 0x98, 0xC2, 0x96]
            let gy: [UInt8] = [0x4F, 0xE3, 0x42, 0xE2, 0xFE, 0x1A, 0x7F, 0x9B, 0x8E, 0xE7, 0xEB, 0x4A, 0x7C, 0x0F, 0x9E, 0x16,
                               0x2B, 0xCE, 0x33, 0x57, 0x6B, 0x31, 0x5E, 0xCE, 0xCB, 0xB6, 0x40, 0x68, 0x37, 0xBF, 0x51, 0xF5]
            let bytes: [UInt8] = [0x01, 16] + [UInt8](repeating: 0x11, count: 16) + [16] + [UInt8](repeating: 0x22, count: 16)
                + [1, 0x01, 65, 0x04] + gx + gy
            return Data(bytes).base64EncodedString()
        }()

        /// ``configurationString`` in a file of mode 0600 in `directory`: the option holds the
        /// application secret, so `mfa` reads it like every secret, never from an argument.
        static func configurationFile(in directory: String) throws -> String {
            let path = directory + "/configuration"
            guard FileManager.default.createFile(atPath: path, contents: Data(configurationString.utf8), attributes: [.posixPermissions: 0o600]) else {
                throw POSIXError(.EIO)
            }
            return path
        }

        /// Runs `mfa arguments` with `token`'s configuration; exit status, standard output and error.
        func mfa(_ arguments: [String], token: SoftHSMToken) throws -> (Int32, String, String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: mfaExecutable)
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(["SOFTHSM2_CONF": token.configuration]) { $1 }
            let output = Pipe(), error = Pipe()
            process.standardOutput = output
            process.standardError = error
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let out = output.fileHandleForReading.readDataToEndOfFile(), err = error.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
        }

        @Test func aTokenKeyedPowerAuthStoreDoesNotOpenBesideAnotherToken() throws {
            let first = try SoftHSMToken()
            first.activate()
            let temporary = try TemporaryDirectory("mfa-keys")
            defer { temporary.remove() }
            let parent = temporary.appending("store")
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            let pinFile = parent + "/pin"
            try "1234\n".write(toFile: pinFile, atomically: true, encoding: .utf8)
            chmod(pinFile, 0o600)
            let uri = "pkcs11:token=\(first.label)?module-path=\(SoftHSM.modulePath)&pin-source=file:\(pinFile)"
            let store = parent + "/store"

            // A pin-value on the command line is refused before anything is written.
            let refused = try mfa(["powerauth", "configure", "--store", store, "--config-string-file", try Self.configurationFile(in: parent),
                                   "--base-url", "https://pa.example.com", "--key-provider", "pkcs11:token=test?module-path=/m.so&pin-value=1234"], token: first)
            #expect(refused.0 == 2)
            #expect(!refused.2.contains("1234"))
            #expect(!FileManager.default.fileExists(atPath: store + "/.provider"))

            let configured = try mfa(["powerauth", "configure", "--store", store, "--config-string-file", try Self.configurationFile(in: parent),
                                      "--base-url", "https://pa.example.com", "--key-provider", uri], token: first)
            #expect(configured.0 == 0, "\(configured.2)")
            let opened = try SecureStore(directory: store, keyProvider: StoreProviderChoice.recorded(in: store).keyProvider(secret: nil))
            #expect(try opened.read("mfa.powerauth.default.config") != nil)
            #expect(try opened.read("mfa.powerauth.default.possession") == nil)  // derived in the token, never stored

            let status = try mfa(["keys", "status", "--json", "--store", store], token: first)
            #expect(status.0 == 0)
            let json = try JSONSerialization.jsonObject(with: Data(status.1.utf8)) as? [String: Any]
            #expect(json?["keyPresent"] as? Bool == true)
            #expect((json?["token"] as? [String: Any])?["manufacturer"] as? String == "SoftHSM project")
            // SoftHSM2 keeps no rollback epoch by default (PKCS11KeyProvider.Anchoring.automatic).
            #expect((json?["rollbackAnchor"] as? [String: Any])?["enabled"] as? Bool == false, "\(status.1)")

            // The directory copied to another device: same label, same PIN, another token.
            try FileManager.default.copyItem(atPath: store, toPath: parent + "/copy")
            let second = try SoftHSMToken()
            // An enrolment's intent in the copy: listed from the directory, though its key is absent.
            #expect(FileManager.default.createFile(atPath: parent + "/copy/devicekey.intent.saltedge-07", contents: Data()))
            let copyStatus = try mfa(["keys", "status", "--json", "--store", parent + "/copy"], token: second)
            #expect(copyStatus.0 == 0)
            let copyJSON = try JSONSerialization.jsonObject(with: Data(copyStatus.1.utf8)) as? [String: Any]
            #expect(copyJSON?["keyPresent"] as? Bool == false)
            #expect(copyJSON?["pendingKeys"] as? [String] == ["saltedge-07"], "\(copyStatus.1)")
            let copyUse = try mfa(["powerauth", "status", "--store", parent + "/copy"], token: second)
            #expect(copyUse.0 == 3)
            #expect(copyUse.2.contains("keyUnavailable"), "\(copyUse.2)")

            // A store on the key file keeps the random possession key it always had.
            let plain = parent + "/plain"
            #expect(try mfa(["powerauth", "configure", "--store", plain, "--config-string-file", try Self.configurationFile(in: parent),
                             "--base-url", "https://pa.example.com"], token: first).0 == 0)
            #expect(try SecureStore(directory: plain).read("mfa.powerauth.default.possession")?.unsafeExposedBytes.count == 16)
        }
    }
}
