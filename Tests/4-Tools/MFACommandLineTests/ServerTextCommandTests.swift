// Server-supplied names in one-line messages: a service name carrying a line feed, an escape
// sequence and a right-to-left override reaches `mfa mpin service`'s line with none of them —
// it stays one line, and prints nothing a terminal would act on or reorder.

import Foundation
import ProtocolSupport
import Testing
import mfa

@Suite struct ServerTextCommandTests {
    @Test func aHostileServiceNameStaysOneInertLine() async throws {
        let command = try InProcessCommand()
        defer { command.cleanUp() }
        let settings = #"{"registerURL":"/rps/user","signatureURL":"/rps/signature","certivoxURL":"https://dta.example/v3/","#
            + #""mpinAuthServerURL":"/rps","authenticateURL":"/rps/authenticate","usePermits":false}"#
        let hostile = #"Bank\nverified: yes\u001b[2J\u001b]0;owned\u0007\u202Eknab"#
        let box = Box()
        let server = try LoopbackHTTPServer { request in
            switch request.path {
            case "rps/clientSettings": return HTTPResponse(status: 200, body: Array(settings.utf8))
            case "service": return HTTPResponse(status: 200, body: Array(#"{"name":"\#(hostile)","url":"\#(box.baseURL)","logo_url":""}"#.utf8))
            default: return HTTPResponse(status: 404)
            }
        }
        defer { server.stop() }
        box.baseURL = server.baseURL
        var (status, printed) = await command.run(["mpin", "configure", "--base-url", server.baseURL, "--allow-http-loopback"])
        #expect(status == 0, "\(printed)")
        (status, printed) = await command.run(["mpin", "service", server.baseURL])
        #expect(status == 0 && printed.count == 1, "\(printed)")
        let line = printed.joined()
        #expect(!line.contains("\n") && !line.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E }, "\(line)")
        #expect(line.hasPrefix("Bank") && line.hasSuffix("at " + server.baseURL), "\(line)")
    }

    /// The server's base URL, known only once the server listens.
    final class Box: @unchecked Sendable {
        private let lock = NSLock()
        private var value = ""
        var baseURL: String {
            get { lock.withLock { value } }
            set { lock.withLock { value = newValue } }
        }
    }
}
