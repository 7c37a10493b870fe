// A caller-supplied transport in the smallest form:
// HTTP/1.1 over a Glibc TCP socket to a numeric IPv4 address, one connection per request
// (`Connection: close`), the answer read to the end and split at the blank line. No TLS, so it
// is for a loopback demo; a device would wrap its modem's or libcurl's HTTP stack the same way.
// It links no Foundation: the binary's size is what the SDK itself costs.

import AuthNetworking
import Glibc
import ProtocolSupport

struct SocketTransport: HTTPTransport {
    /// `127.0.0.1` and the port.
    let host: String
    let port: UInt16

    /// The most of an answer read before giving up (AuthNetworking's default limits).
    let limits = ResponseLimits()

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        // What every transport checks before a byte leaves: no CR, LF or control characters in
        // the target or a header (AuthNetworking's HTTPSendPolicy).
        try HTTPSendPolicy.validate(method: request.method, target: request.url(relativeTo: ""), headers: request.headers)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TransportError(.unreachable, underlying: "socket() failed") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { throw TransportError(.invalidRequest, underlying: "not an IPv4 address") }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw TransportError(.unreachable, underlying: "connect() failed") }
        // Every send and receive gives up after 20 s (a peer that stops answering is a time-out).
        var limit = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        let body = request.body ?? []
        // A secret field's `value` reads REDACTED: its bytes are written from where they are kept.
        var bare = request
        bare.query = []
        var outgoing = Array("\(request.method.rawValue) \(bare.url(relativeTo: ""))".utf8)
        if !request.query.isEmpty {
            outgoing.append(UInt8(ascii: "?"))
            request.appendQuery(to: &outgoing)
        }
        outgoing += " HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n".utf8
        for header in request.headers {
            outgoing += "\(header.name): ".utf8
            header.withValueBytes { outgoing += $0 }
            outgoing += "\r\n".utf8
        }
        outgoing += "Content-Length: \(body.count)\r\n\r\n".utf8 + body
        var sent = 0
        while sent < outgoing.count {
            let written = outgoing[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw TransportError(.unreachable, underlying: "send() failed") }
            sent += written
        }
        var incoming: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count >= 0 else {
                let error = errno
                throw TransportError(error == EAGAIN || error == EWOULDBLOCK ? .timedOut : .unreachable, underlying: "recv() failed (errno \(error))")
            }
            if count == 0 { break }
            incoming += buffer[..<count]
            try HTTPSendPolicy.checkReceived(incoming.count, limits: limits)
        }
        return try Self.parse(incoming)
    }

    /// Status line, headers, and the body after the blank line (checked against Content-Length).
    static func parse(_ bytes: [UInt8]) throws(TransportError) -> HTTPResponse {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(0, bytes.count - 3)).first(where: { bytes[$0..<($0 + 4)].elementsEqual(separator) }) else {
            throw TransportError(.badResponse, underlying: "no end of headers")
        }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusLine = lines.first?.split(separator: " ") ?? []
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw TransportError(.badResponse, underlying: "status line") }
        let headers = lines.dropFirst().compactMap { line -> HTTPHeader? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return HTTPHeader(String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " }))
        }
        let body = Array(bytes[(end + 4)...])
        if let length = headers.first(where: { $0.name.lowercased() == "content-length" }).flatMap({ Int($0.value) }), length != body.count {
            throw TransportError(.badResponse, underlying: "body of \(body.count) bytes, Content-Length \(length)")
        }
        // A 3xx is an error, never followed (credentials must not go where the caller did not send them).
        try HTTPSendPolicy.refuseRedirect(status: status, location: headers.first { $0.name.lowercased() == "location" }?.value)
        return HTTPResponse(status: status, headers: headers, body: body)
    }
}
