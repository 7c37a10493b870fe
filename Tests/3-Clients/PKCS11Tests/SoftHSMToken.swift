// A throw-away SoftHSM2 token for tests: a temporary token directory, a configuration file
// naming it, `softhsm2-util --init-token`, and `SOFTHSM2_CONF` pointing at it. SoftHSM reads
// its configuration in C_Initialize, and the variable is process-wide, so every test that loads
// the module runs in the one serialized suite.

import Foundation
import PKCS11
import TestSupport

enum SoftHSM {
    static let modulePath = "/usr/lib/softhsm/libsofthsm2.so"
    static let utility = "/usr/bin/softhsm2-util"

    /// Whether SoftHSM2 is installed (`apt-get install softhsm2`).
    static var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: utility) && FileManager.default.fileExists(atPath: modulePath)
    }
}

/// One initialised token in its own directory, removed when released.
final class SoftHSMToken {
    let directory: String
    let configuration: String
    let label: String
    let userPIN = "1234"
    let securityOfficerPIN = "5678"
    /// The identifier of the one store a test keys in this token (``uri(object:)`` carries it).
    let storeIdentifier: PKCS11StoreIdentifier

    init(label: String = "test") throws {
        let base = try TemporaryDirectory("softhsm").appending("store")
        directory = base
        configuration = base + "/softhsm2.conf"
        self.label = label
        storeIdentifier = try PKCS11StoreIdentifier.random()
        try FileManager.default.createDirectory(atPath: base + "/tokens", withIntermediateDirectories: true)
        try "directories.tokendir = \(base)/tokens\nobjectstore.backend = file\nlog.level = ERROR\n"
            .write(toFile: configuration, atomically: true, encoding: .utf8)
        try addToken(label: label)
        activate()
    }

    /// Initialises one more token labelled `label` in the same token directory (the next free slot).
    func addToken(label: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: SoftHSM.utility)
        process.arguments = ["--init-token", "--free", "--label", label, "--pin", userPIN, "--so-pin", securityOfficerPIN]
        process.environment = ProcessInfo.processInfo.environment.merging(["SOFTHSM2_CONF": configuration]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw SoftHSMTokenError(status: process.terminationStatus) }
    }

    /// Points the module at this token's directory (read by the next C_Initialize).
    func activate() {
        setenv("SOFTHSM2_CONF", configuration, 1)
    }

    /// `pkcs11:token=<label>[;object=…]?module-path=…&x-swiftmfa-store=<storeIdentifier>`.
    func uri(object: String? = nil) throws -> PKCS11URI {
        var path = [PKCS11URI.Attribute(name: "token", text: label)]
        if let object { path.append(PKCS11URI.Attribute(name: "object", text: object)) }
        return try PKCS11URI(path: path, query: [PKCS11URI.Attribute(name: "module-path", text: SoftHSM.modulePath),
                                                 PKCS11URI.Attribute(name: PKCS11StoreIdentifier.attributeName, text: storeIdentifier.text)])
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)  // a leftover temp dir is harmless
    }
}

struct SoftHSMTokenError: Error {
    let status: Int32
}
