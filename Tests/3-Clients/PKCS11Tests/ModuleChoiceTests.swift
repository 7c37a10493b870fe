// Which module and which token a URI reaches: a relative module-path, a library or directory
// writable by others, and a library another user owns are refused before dlopen; two tokens
// with the same label are ambiguous until serial or slot-id names one; slot-id,
// slot-description, slot-manufacturer and the library attributes all take part in the match.

import Foundation
import Testing
import TestSupport
import PKCS11
#if canImport(Glibc)
import Glibc
#endif

extension SoftHSMSuite {
    @Suite struct ModuleChoiceTests {
        @Test func aModuleOthersCouldReplaceIsNotLoaded() throws {
            let token = try SoftHSMToken()   // the configuration the copy reads when it does load
            token.activate()
            #expect(throws: PKCS11Error(.untrustedModule, "")) { try PKCS11Module(path: "libsofthsm2.so") }
            #expect(throws: PKCS11Error(.untrustedModule, "")) {
                try StoreProviderChoice(parsing: "pkcs11:token=x?module-path=lib/libsofthsm2.so")
            }
            let directory = try TemporaryDirectory("module-copy")
            defer { directory.remove() }
            let folder = directory.appending("lib"), copy = folder + "/libsofthsm2.so"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            // The library itself, not the distribution's link to it.
            try FileManager.default.copyItem(atPath: URL(fileURLWithPath: SoftHSM.modulePath).resolvingSymlinksInPath().path, toPath: copy)
            try #require(chmod(folder, 0o755) == 0 && chmod(copy, 0o666) == 0)
            #expect(throws: PKCS11Error(.untrustedModule, "")) { try PKCS11Module(path: copy) }
            try #require(chmod(copy, 0o644) == 0 && chmod(folder, 0o777) == 0)
            #expect(throws: PKCS11Error(.untrustedModule, "")) { try PKCS11Module(path: copy) }
            // A link in a safe directory to a file in an unsafe one is refused too.
            let link = directory.appending("safe")
            try FileManager.default.createDirectory(atPath: link, withIntermediateDirectories: true)
            try #require(chmod(link, 0o755) == 0 && symlink(copy, link + "/module.so") == 0)
            #expect(throws: PKCS11Error(.untrustedModule, "")) { try PKCS11Module(path: link + "/module.so") }
            try #require(chmod(folder, 0o755) == 0)
            let module = try PKCS11Module(path: link + "/module.so")   // now only root or this user can change it
            module.finalize()
        }

        @Test func twoTokensWithOneLabelAreAmbiguousUntilTheURINamesOne() throws {
            let token = try SoftHSMToken(label: "twin")
            try token.addToken(label: "twin")
            try token.addToken(label: "other")
            token.activate()
            let module = try PKCS11Module(path: SoftHSM.modulePath)
            defer { module.finalize() }
            let slots = try module.slots()
            let twins = try slots.filter { try module.tokenInfo(slot: $0).label == "twin" }
            try #require(twins.count == 2)
            func uri(_ path: String) throws -> PKCS11URI { try PKCS11URI("pkcs11:" + path + "?module-path=" + SoftHSM.modulePath) }

            #expect(throws: PKCS11Error(.ambiguousToken, "")) { try module.slot(matching: uri("token=twin")) }
            #expect(throws: PKCS11Error(.ambiguousToken, "")) { try module.slot(matching: uri("manufacturer=SoftHSM%20project")) }
            let second = try module.tokenInfo(slot: twins[1])
            #expect(try module.slot(matching: uri("token=twin;serial=" + second.serialNumber)) == twins[1])
            #expect(try module.slot(matching: uri("token=twin;slot-id=\(twins[0])")) == twins[0])
            #expect(throws: PKCS11Error(.tokenNotFound, "")) { try module.slot(matching: uri("token=other;slot-id=\(twins[0])")) }
            #expect(try module.slot(matching: uri("token=other")) != twins[0])

            // The slot and library attributes take part: SoftHSM's own values match, others do not.
            let slot = try module.slotInfo(slot: twins[0]), library = try module.libraryInfo()
            let encoded = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text }
            #expect(throws: PKCS11Error(.ambiguousToken, "")) {
                try module.slot(matching: uri("token=twin;slot-manufacturer=\(encoded(slot.manufacturer))"))
            }
            #expect(throws: PKCS11Error(.tokenNotFound, "")) { try module.slot(matching: uri("token=twin;slot-manufacturer=Nobody")) }
            #expect(throws: PKCS11Error(.tokenNotFound, "")) { try module.slot(matching: uri("token=other;slot-description=no%20such%20slot")) }
            let version = "\(library.version.major).\(library.version.minor)"
            #expect(try module.slot(matching: uri("token=twin;slot-id=\(twins[1]);library-manufacturer=\(encoded(library.manufacturer));library-version=\(version)"))
                    == twins[1])
            #expect(throws: PKCS11Error(.tokenNotFound, "")) {
                try module.slot(matching: uri("token=twin;slot-id=\(twins[1]);library-version=\(Int(library.version.major) + 1)"))
            }
            #expect(throws: PKCS11Error(.invalidURI, "")) { try uri("token=twin;library-version=2.x") }
        }
    }
}
