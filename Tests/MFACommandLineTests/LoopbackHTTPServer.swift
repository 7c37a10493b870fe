// A small HTTP/1.1 server on 127.0.0.1 (a free port) for running `mfa`'s verbs in process over
// real sockets: one request per connection, handed to the test's handler as an `HTTPRequest`
// (path without its leading slash, the query decoded), the handler's `HTTPResponse` written back.

import Foundation
import ProtocolSupport
#if canImport(Glibc)
import Glibc
#endif

final class LoopbackHTTPServer: @unchecked Sendable {
    let port: UInt16
    private let socket: Int32
    private let handler: @Sendable (HTTPRequest) -> HTTPResponse

    /// Starts listening; `handler` answers each request.
    init(handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) throws {
        self.handler = handler
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        socket = fd
        port = UInt16(bigEndian: address.sin_port)
        Thread { [self] in acceptLoop() }.start()
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Stops accepting (the accept loop closes the socket when `accept` fails).
    func stop() { shutdown(socket, Int32(SHUT_RDWR)) }

    private func acceptLoop() {
        while true {
            let client = accept(socket, nil, nil)
            guard client >= 0 else { close(socket); return }
            Thread { [self] in serve(client) }.start()
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var buffer = [UInt8](), chunk = [UInt8](repeating: 0, count: 65_536)
        var headEnd: Int?
        while headEnd == nil {
            let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
            buffer += chunk[0..<count]
            headEnd = buffer.indices.dropLast(3).first { buffer[$0] == 13 && buffer[$0 + 1] == 10 && buffer[$0 + 2] == 13 && buffer[$0 + 3] == 10 }
        }
        guard let end = headEnd else { return }
        let lines = String(decoding: buffer[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let start = lines[0].split(separator: " ").map(String.init)
        guard start.count >= 2 else { return }
        let headers = lines.dropFirst().compactMap { line -> HTTPHeader? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return HTTPHeader(String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let length = Int(headers.first { $0.name.lowercased() == "content-length" }?.value ?? "0") ?? 0
        var body = Array(buffer[(end + 4)...])
        while body.count < length {
            let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            body += chunk[0..<count]
        }
        let components = URLComponents(string: start[1])
        let path = String((components?.path ?? start[1]).drop { $0 == "/" })
        let query = (components?.queryItems ?? []).map { HTTPHeader($0.name, $0.value ?? "") }
        let response = handler(HTTPRequest(method: HTTPMethod(rawValue: start[0]), path: path, query: query, headers: headers,
                                           body: body.isEmpty ? nil : body))
        var head = "HTTP/1.1 \(response.status) X\r\nContent-Length: \(response.body.count)\r\nConnection: close\r\nContent-Type: application/json\r\n\r\n"
        if response.body.isEmpty, response.status == 200 { head = head.replacingOccurrences(of: "Content-Type: application/json\r\n", with: "") }
        let bytes = Array(head.utf8) + response.body
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { send(client, $0.baseAddress.map { $0 + sent }, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return }
            sent += count
        }
    }
}
