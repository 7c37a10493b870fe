// The C layout of every PKCS #11 structure this client passes across dlopen, and of the
// function table it reads, from a C compiler and a real header: a probe compiled against
// p11-kit's `pkcs11.h` (Debian's libp11-kit-dev) prints sizeof and offsetof, and each must equal
// the Swift declaration's MemoryLayout. Then OpenSC's module — the smart-card module the
// documentation recommends, which writes the whole CK_TOKEN_INFO — is loaded and asked for its
// slots and tokens.

import Foundation
import Testing
import TestSupport
import PKCS11

@Suite struct CryptokiLayoutTests {
    static let header = "/usr/include/p11-kit-1/p11-kit/pkcs11.h"
    static let openSC = "/usr/lib/x86_64-linux-gnu/opensc-pkcs11.so"

    /// What the probe prints for `struct.member` (offsetof) or `struct` (sizeof), compiled and run.
    static func probe(_ lines: [String]) throws -> [String: Int] {
        let directory = try TemporaryDirectory("cryptoki-probe")
        defer { directory.remove() }
        let source = directory.appending("probe.c"), binary = directory.appending("probe")
        let program = """
            #include <stdio.h>
            #include <stddef.h>
            #define CRYPTOKI_GNU 1   /* p11-kit's own lowercase names, kept after the header */
            #include <p11-kit/pkcs11.h>
            #define SIZE(s) printf(#s " %zu\\n", sizeof(struct s));
            #define OFFSET(s, m) printf(#s "." #m " %zu\\n", offsetof(struct s, m));
            int main(void) {
            \(lines.joined(separator: "\n"))
                return 0;
            }
            """
        try program.write(toFile: source, atomically: true, encoding: .utf8)
        let compile = try Self.run("/usr/bin/cc", ["-I/usr/include/p11-kit-1", "-o", binary, source])
        try #require(compile.status == 0, "the probe did not compile: \(compile.output)")
        let output = try Self.run(binary, [])
        var values: [String: Int] = [:]
        for line in output.output.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let value = Int(parts[1]) { values[String(parts[0])] = value }
        }
        return values
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process(), pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: header) && FileManager.default.isExecutableFile(atPath: "/usr/bin/cc"),
                   "needs cc and libp11-kit-dev"))
    func everyStructureAndTheFunctionTableHaveTheHeadersLayout() throws {
        let tokenInfo: [(String, Int)] = [
            ("label", MemoryLayout<CKTokenInfo>.offset(of: \.label) ?? -1),
            ("manufacturer_id", MemoryLayout<CKTokenInfo>.offset(of: \.manufacturerID) ?? -1),
            ("model", MemoryLayout<CKTokenInfo>.offset(of: \.model) ?? -1),
            ("serial_number", MemoryLayout<CKTokenInfo>.offset(of: \.serialNumber) ?? -1),
            ("flags", MemoryLayout<CKTokenInfo>.offset(of: \.flags) ?? -1),
            ("max_session_count", MemoryLayout<CKTokenInfo>.offset(of: \.maxSessionCount) ?? -1),
            ("session_count", MemoryLayout<CKTokenInfo>.offset(of: \.sessionCount) ?? -1),
            ("max_rw_session_count", MemoryLayout<CKTokenInfo>.offset(of: \.maxReadWriteSessionCount) ?? -1),
            ("rw_session_count", MemoryLayout<CKTokenInfo>.offset(of: \.readWriteSessionCount) ?? -1),
            ("max_pin_len", MemoryLayout<CKTokenInfo>.offset(of: \.maxPINLength) ?? -1),
            ("min_pin_len", MemoryLayout<CKTokenInfo>.offset(of: \.minPINLength) ?? -1),
            ("total_public_memory", MemoryLayout<CKTokenInfo>.offset(of: \.totalPublicMemory) ?? -1),
            ("free_public_memory", MemoryLayout<CKTokenInfo>.offset(of: \.freePublicMemory) ?? -1),
            ("total_private_memory", MemoryLayout<CKTokenInfo>.offset(of: \.totalPrivateMemory) ?? -1),
            ("free_private_memory", MemoryLayout<CKTokenInfo>.offset(of: \.freePrivateMemory) ?? -1),
            ("hardware_version", MemoryLayout<CKTokenInfo>.offset(of: \.hardwareVersion) ?? -1),
            ("firmware_version", MemoryLayout<CKTokenInfo>.offset(of: \.firmwareVersion) ?? -1),
            ("utc_time", MemoryLayout<CKTokenInfo>.offset(of: \.utcTime) ?? -1),
        ]
        var expected: [(String, Int)] = [
            ("ck_version", MemoryLayout<CKVersion>.size),
            ("ck_attribute", MemoryLayout<CKAttribute>.stride),
            ("ck_attribute.value", MemoryLayout<CKAttribute>.offset(of: \.value) ?? -1),
            ("ck_attribute.value_len", MemoryLayout<CKAttribute>.offset(of: \.valueLength) ?? -1),
            ("ck_mechanism", MemoryLayout<CKMechanism>.stride),
            ("ck_mechanism.parameter", MemoryLayout<CKMechanism>.offset(of: \.parameter) ?? -1),
            ("ck_mechanism.parameter_len", MemoryLayout<CKMechanism>.offset(of: \.parameterLength) ?? -1),
            ("ck_c_initialize_args", MemoryLayout<CKInitializeArgs>.stride),
            ("ck_c_initialize_args.flags", MemoryLayout<CKInitializeArgs>.offset(of: \.flags) ?? -1),
            ("ck_c_initialize_args.reserved", MemoryLayout<CKInitializeArgs>.offset(of: \.reserved) ?? -1),
            ("ck_token_info", MemoryLayout<CKTokenInfo>.stride),
            ("ck_slot_info", MemoryLayout<CKSlotInfo>.stride),
            ("ck_slot_info.manufacturer_id", MemoryLayout<CKSlotInfo>.offset(of: \.manufacturerID) ?? -1),
            ("ck_slot_info.flags", MemoryLayout<CKSlotInfo>.offset(of: \.flags) ?? -1),
            ("ck_slot_info.hardware_version", MemoryLayout<CKSlotInfo>.offset(of: \.hardwareVersion) ?? -1),
            ("ck_slot_info.firmware_version", MemoryLayout<CKSlotInfo>.offset(of: \.firmwareVersion) ?? -1),
            ("ck_info", MemoryLayout<CKInfo>.stride),
            ("ck_info.manufacturer_id", MemoryLayout<CKInfo>.offset(of: \.manufacturerID) ?? -1),
            ("ck_info.flags", MemoryLayout<CKInfo>.offset(of: \.flags) ?? -1),
            ("ck_info.library_description", MemoryLayout<CKInfo>.offset(of: \.libraryDescription) ?? -1),
            ("ck_info.library_version", MemoryLayout<CKInfo>.offset(of: \.libraryVersion) ?? -1),
        ] + tokenInfo.map { ("ck_token_info." + $0.0, $0.1) }
        // Every entry of the function table at the index the client reads it from.
        expected += CryptokiFunction.allCases.map { ("ck_function_list." + $0.cName, $0.byteOffset) }
        expected.append(("ck_function_list", CryptokiFunction.initialize.byteOffset + CryptokiFunction.allCases.count * MemoryLayout<UnsafeRawPointer>.size))
        let lines = expected.map { name, _ in
            let parts = name.split(separator: ".")
            return parts.count == 2 ? "OFFSET(\(parts[0]), \(parts[1]))" : "SIZE(\(name))"
        }
        let measured = try Self.probe(lines)
        #expect(measured.count == expected.count, "the probe printed \(measured.count) of \(expected.count) values")
        for (name, swift) in expected {
            #expect(measured[name] == swift, "\(name): C says \(measured[name].map(String.init) ?? "nothing"), Swift \(swift)")
        }
    }

    /// OpenSC's module loads, says 2.x, lists its slots and reads every token's whole
    /// CK_TOKEN_INFO into our 208 bytes (no reader here: none, which is still a real answer).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: openSC), "needs opensc-pkcs11"))
    func openSCsModuleAnswersThroughTheseLayouts() throws {
        let module = try PKCS11Module(path: Self.openSC)
        defer { module.finalize() }
        #expect(module.interfaceVersion.major == 2 || module.interfaceVersion.major == 3)
        let slots = try module.slots(withTokenPresent: false)
        for slot in try module.slots(withTokenPresent: true) {
            let info = try module.tokenInfo(slot: slot)
            #expect(info.pinLengths.lowerBound <= info.pinLengths.upperBound)
        }
        #expect(slots.count < 64)
    }
}
