// HTTP/1.1 on the wire for PlainHTTPTransport (RFC 9112): the request head it writes and the
// response it reads — status line, header fields, and a body framed by Content-Length, chunked
// transfer coding, or the end of the connection (§6.3). Pure functions over bytes, so they are
// tested and fuzzed without a socket; every malformed answer is a typed error, never a trap.

public import ProtocolSupport

/// The HTTP/1.1 framing PlainHTTPTransport speaks.
public enum HTTP1Message {
    /// Why bytes are not a well-formed HTTP/1.1 response.
    public enum ParseError: Error, Sendable, Equatable {
        /// The bytes end before the response does (head, a chunk, or Content-Length short).
        case incomplete
        /// The status line, a header field, or the framing is malformed.
        case malformed(String)
        /// The head or the body is over the transport's limit.
        case tooLarge
    }

    /// Limits on what is read: a head of 64 KiB and a body of 16 MiB by default.
    public struct Limits: Sendable {
        /// Largest status line plus header fields, in bytes.
        public var headBytes = 64 * 1024
        /// Largest body, in bytes.
        public var bodyBytes = 16 * 1024 * 1024
        /// The default limits.
        public init() {}
    }

    /// The request head and body as bytes: request line with the origin-form target (RFC 9112
    /// §3.2.1), `Host`, the fields, `Content-Length` when there is a body, `Connection: close`.
    public static func requestBytes(method: String, target: String, host: String, headers: [HTTPHeader], body: [UInt8]?) -> [UInt8] {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(host)\r\n"
        for header in headers { head += "\(header.name): \(header.value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        head += "Connection: close\r\n\r\n"
        return Array(head.utf8) + (body ?? [])
    }

    /// Parses a complete response from `bytes`. `connectionClosed` says whether the peer has
    /// closed (a body without Content-Length or chunking ends there); `.incomplete` asks for more.
    /// `hasNoBody` is true for answers to HEAD (RFC 9112 §6.3 rule 1).
    public static func parseResponse(_ bytes: [UInt8], connectionClosed: Bool, hasNoBody: Bool = false,
                                     limits: Limits = Limits()) throws(ParseError) -> HTTPResponse {
        guard let headEnd = find([13, 10, 13, 10], in: bytes, from: 0) else {
            throw bytes.count > limits.headBytes ? .tooLarge : .incomplete
        }
        guard headEnd <= limits.headBytes else { throw .tooLarge }
        let lines = split(bytes[0..<headEnd])
        guard let statusLine = lines.first else { throw .malformed("no status line") }
        let status = try parseStatusLine(statusLine)
        var headers: [HTTPHeader] = []
        for line in lines.dropFirst() { headers.append(try parseField(line)) }
        let bodyStart = headEnd + 4
        let response = HTTPResponse(status: status, headers: headers)
        // §6.3: 1xx, 204, 304 and answers to HEAD have no body.
        if hasNoBody || status == 204 || status == 304 || (100..<200).contains(status) { return response }
        var complete = response
        if let coding = response.header("Transfer-Encoding") {
            guard coding.lowercased().split(separator: ",").last?.trimmingCharacters() == "chunked" else {
                throw .malformed("transfer coding \(coding)")
            }
            complete.body = try dechunk(bytes, from: bodyStart, limit: limits.bodyBytes)
        } else if let lengthText = response.header("Content-Length") {
            let digits = lengthText.trimmingCharacters()
            guard !digits.isEmpty, digits.utf8.count <= 12, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let length = Int(digits) else {
                throw .malformed("Content-Length \(lengthText)")
            }
            guard length <= limits.bodyBytes else { throw .tooLarge }
            guard bytes.count - bodyStart >= length else { throw .incomplete }
            complete.body = Array(bytes[bodyStart..<(bodyStart + length)])
        } else {
            guard connectionClosed else { throw .incomplete }
            guard bytes.count - bodyStart <= limits.bodyBytes else { throw .tooLarge }
            complete.body = Array(bytes[bodyStart...])
        }
        return complete
    }

    /// `HTTP/1.x NNN reason` → NNN (RFC 9112 §4).
    static func parseStatusLine(_ line: ArraySlice<UInt8>) throws(ParseError) -> Int {
        let text = Array(line)
        guard text.count >= 12, Array(text[0..<7]) == Array("HTTP/1.".utf8), text[7] == 0x30 || text[7] == 0x31, text[8] == 0x20,
              text[9...11].allSatisfy({ (0x30...0x39).contains($0) }), text.count == 12 || text[12] == 0x20 else {
            throw .malformed("status line")
        }
        return text[9...11].reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// `name: value` with a token name and optional whitespace around the value (RFC 9112 §5).
    static func parseField(_ line: ArraySlice<UInt8>) throws(ParseError) -> HTTPHeader {
        guard let colon = line.firstIndex(of: 0x3A), colon > line.startIndex else { throw .malformed("header field") }
        let name = line[line.startIndex..<colon]
        guard name.allSatisfy(isTokenCharacter) else { throw .malformed("header field name") }
        let value = line[(colon + 1)...].drop { $0 == 0x20 || $0 == 0x09 }
        return HTTPHeader(String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self).trimmingCharacters())
    }

    /// The body of a chunked message from `start` (RFC 9112 §7.1); trailer fields are skipped.
    static func dechunk(_ bytes: [UInt8], from start: Int, limit: Int) throws(ParseError) -> [UInt8] {
        var body: [UInt8] = []
        var index = start
        while true {
            guard let lineEnd = find([13, 10], in: bytes, from: index) else { throw .incomplete }
            let sizeField = bytes[index..<lineEnd].prefix { $0 != 0x3B }  // chunk extensions after ';'
            guard !sizeField.isEmpty, sizeField.count <= 8, sizeField.allSatisfy(isHexDigit),
                  let size = Int(String(decoding: sizeField, as: UTF8.self), radix: 16) else {
                throw .malformed("chunk size")
            }
            index = lineEnd + 2
            if size == 0 {
                // Trailer section, then the final CRLF.
                while true {
                    guard let end = find([13, 10], in: bytes, from: index) else { throw .incomplete }
                    if end == index { return body }
                    index = end + 2
                }
            }
            guard body.count + size <= limit else { throw .tooLarge }
            guard bytes.count - index >= size + 2 else { throw .incomplete }
            guard bytes[index + size] == 13, bytes[index + size + 1] == 10 else { throw .malformed("chunk end") }
            body += bytes[index..<(index + size)]
            index += size + 2
        }
    }

    static func find(_ pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= pattern.count, start <= bytes.count - pattern.count else { return nil }
        for index in start...(bytes.count - pattern.count) where bytes[index..<(index + pattern.count)].elementsEqual(pattern) {
            return index
        }
        return nil
    }

    static func split(_ head: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = head.startIndex
        var index = head.startIndex
        while index < head.endIndex {
            if head[index] == 13, index + 1 < head.endIndex, head[index + 1] == 10 {
                lines.append(head[start..<index])
                index += 2
                start = index
            } else {
                index += 1
            }
        }
        lines.append(head[start..<head.endIndex])
        return lines
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    /// RFC 9110 §5.6.2 tchar.
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
             UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"): true
        default: false
        }
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs (no Foundation here).
    func trimmingCharacters() -> String {
        let scalars = unicodeScalars.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()
        return String(String.UnicodeScalarView(scalars))
    }
}
