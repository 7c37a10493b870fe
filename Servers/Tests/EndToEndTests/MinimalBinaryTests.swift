// The minimal programs of the size figures in docs/static-and-embedded.md really activate and sign:
// `pa-minimal` with its own Glibc socket transport and
// `pa-minimal-urlsession` with URLSessionTransport, each run as a child process against
// mfa-server on 127.0.0.1; the server must have accepted the signature.

import Foundation
import MFAServerCore
import Testing

extension EndToEnd {
    @Suite struct MinimalBinaryTests {
        static func executable(_ name: String) -> String {
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name).path
        }

        @Test(arguments: ["pa-minimal", "pa-minimal-urlsession"]) func activatesAndSigns(program: String) async throws {
            let path = Self.executable(program)
            try #require(FileManager.default.isExecutableFile(atPath: path), "\(program) is built beside the tests")
            try await withMFAServer { url, powerAuth in
                let configuration = try #require(try await integration(url, "integration/powerauth/application")["configurationString"] as? String)
                let code = try #require(try await integration(url, "integration/powerauth/activation/init")["activationCode"] as? String)
                let port = try #require(url.split(separator: ":").last.map(String.init))
                let store = FileManager.default.temporaryDirectory.appendingPathComponent("minimal-\(UUID().uuidString)").path
                defer { try? FileManager.default.removeItem(atPath: store) }
                let child = Process()
                child.executableURL = URL(fileURLWithPath: path)
                child.arguments = [program == "pa-minimal" ? port : url, configuration, code, store]
                let output = Pipe()
                child.standardOutput = output
                child.standardError = FileHandle.nullDevice
                try child.run()
                let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                child.waitUntilExit()
                #expect(child.terminationStatus == 0, "\(printed)")
                #expect(printed.contains("signed request: HTTP 200"), "\(printed)")
                let line = try #require(printed.split(separator: "\n").first { $0.hasPrefix("activated ") }, "\(printed)")
                let id = String(line.dropFirst("activated ".count))
                let server = try #require(await powerAuth.activation(id))
                #expect(server.counterIndex == 1 && server.failedAttempts == 0)
            }
        }
    }
}
