// What goes wrong before a token answers: a missing file, a library that is not a PKCS #11
// module, and return values named from the table (unknown ones in hex). Nothing crashes.

import Foundation
import Testing
import PKCS11

@Suite struct CryptokiErrorTests {
    @Test func missingModuleIsATypedError() {
        #expect(throws: PKCS11Error(.moduleNotLoaded, "")) { try PKCS11Module(path: "/nonexistent/libnothing.so") }
    }

    @Test func libcIsNotAPKCS11Module() throws {
        let libc = try #require(["/usr/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib/aarch64-linux-gnu/libc.so.6"]
            .first { FileManager.default.fileExists(atPath: $0) })
        #expect(throws: PKCS11Error(.notAPKCS11Module, "")) { try PKCS11Module(path: libc) }
        // By a name dlopen would look up, it is not even loaded: module paths are absolute.
        #expect(throws: PKCS11Error(.untrustedModule, "")) { try PKCS11Module(path: "libc.so.6") }
    }

    @Test func aFileThatIsNotALibraryIsATypedError() {
        #expect(throws: PKCS11Error(.moduleNotLoaded, "")) { try PKCS11Module(path: "/etc/hostname") }
    }

    @Test func returnValuesAreNamed() {
        #expect(CKReturnValue.pinIncorrect.name == "CKR_PIN_INCORRECT")
        #expect(CKReturnValue(rawValue: 0xE0).name == "CKR_TOKEN_NOT_PRESENT")
        #expect(CKReturnValue(rawValue: 0x101).name == "CKR_USER_NOT_LOGGED_IN")
        #expect(CKReturnValue(rawValue: 0x11).name == "CKR_ATTRIBUTE_SENSITIVE")
        #expect(CKReturnValue(rawValue: 0x191).name == "CKR_CRYPTOKI_ALREADY_INITIALIZED")
        #expect(CKReturnValue(rawValue: 0x3F7).name == "CKR_0x3F7")
        #expect(CKReturnValue(rawValue: 0x8000_0042).name == "CKR_VENDOR_DEFINED+0x42")
        let error = PKCS11Error(.returned(.pinIncorrect), "the module refused", function: "C_Login")
        #expect(error.description == "C_Login: CKR_PIN_INCORRECT (0xa0): the module refused")
        #expect(error.returnValue == .pinIncorrect)
    }

    /// LP64 sizes of the C structures (PKCS #11 v2.40 §3), as a C compiler lays them out.
    @Test func structureLayoutsMatchC() {
        #expect(MemoryLayout<CKAttribute>.size == 24)
        #expect(MemoryLayout<CKMechanism>.size == 24)
        #expect(MemoryLayout<CKInitializeArgs>.size == 48)
        #expect(MemoryLayout<CKInitializeArgs>.offset(of: \.flags) == 32)
        #expect(MemoryLayout<CKTokenInfo>.offset(of: \.flags) == 96)
        #expect(MemoryLayout<CKTokenInfo>.offset(of: \.hardwareVersion) == 184)
        #expect(MemoryLayout<CKTokenInfo>.offset(of: \.utcTime) == 188)
        #expect(MemoryLayout<CKTokenInfo>.stride == 208)
        #expect(CryptokiFunction.allCases.count == 68)
        #expect(CryptokiFunction.getFunctionList.byteOffset == 8 + 3 * 8)
        #expect(CryptokiFunction.sign.cName == "C_Sign")
        #expect(CryptokiFunction.waitForSlotEvent.byteOffset == 8 + 67 * 8)
    }

    @Test func tokenTextIsTrimmedOfPadding() {
        var field = InlineArray<16, UInt8>(repeating: UInt8(ascii: " "))
        for (index, byte) in "SoftHSM v2".utf8.enumerated() { field[index] = byte }
        #expect(PKCS11TokenInfo.text(field) == "SoftHSM v2")
        #expect(PKCS11TokenInfo.text(InlineArray<4, UInt8>(repeating: 0)) == "")
    }
}
