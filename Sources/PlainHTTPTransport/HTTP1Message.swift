// HTTP/1.1 on the wire for PlainHTTPTransport (RFC 9112): the request head it writes and the
// response it reads — status line, header fields, and a body framed by Content-Length, chunked
// transfer coding, or the end of the connection (§6.3). Pure functions over bytes, so they are
// tested and fuzzed without a socket; every malformed answer is a typed error, never a trap.
// The response is read incrementally by HTTP1ResponseReader; this file holds the pieces it uses.

public import AuthNetworking
public import CryptoPrimitives
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

    /// Limits on what is read (the shared `ResponseLimits`): a head of 64 KiB,
    /// a body of 16 MiB and a chunk-size line of 4 KiB by default.
    public typealias Limits = ResponseLimits

    /// The request head and body as bytes: request line with the origin-form target (RFC 9112
    /// §3.2.1) and `request`'s query, `Host`, the fields, `Content-Length` when there is a body,
    /// and `Connection: close` unless `keepAlive`. The bytes are written as given: run
    /// `HTTPSendPolicy.validate(method:target:headers:)` on them first, as ``PlainHTTPTransport`` does.
    ///
    /// Secret header values and query values go straight from their `SecretBytes` into the
    /// result, which is itself secret, so the request is wiped when the transport lets it go;
    /// the working array is sized once and wiped before return.
    public static func requestBytes(_ request: HTTPRequest, target: String, host: String, headers: [HTTPHeader],
                                    keepAlive: Bool = false) -> SecretBytes {
        let body = request.body ?? []
        var capacity = request.method.rawValue.utf8.count + target.utf8.count + request.queryCapacity + host.utf8.count + 96 + body.count
        for header in headers { capacity += header.name.utf8.count + (header.secret?.count ?? header.value.utf8.count) + 4 }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(capacity)
        defer { SecretBytes.wipe(&bytes) }
        bytes += "\(request.method.rawValue) \(target)".utf8
        if !request.query.isEmpty {
            bytes.append(UInt8(ascii: "?"))  // as HTTPRequest.url(relativeTo:) joins them
            request.appendQuery(to: &bytes)
        }
        bytes += " HTTP/1.1\r\nHost: \(host)\r\n".utf8
        for header in headers {
            bytes += "\(header.name): ".utf8
            header.withValueBytes { bytes += $0 }
            bytes += "\r\n".utf8
        }
        if request.body != nil { bytes += "Content-Length: \(body.count)\r\n".utf8 }
        bytes += (keepAlive ? "\r\n" : "Connection: close\r\n\r\n").utf8
        bytes += body
        return SecretBytes(bytes)
    }

    /// Parses a complete response from `bytes` (``HTTP1ResponseReader`` fed them at once).
    /// `connectionClosed` says whether the peer has closed (a body without Content-Length or
    /// chunking ends there); `.incomplete` asks for more. `hasNoBody` is true for answers to HEAD
    /// (RFC 9112 §6.3 rule 1).
    public static func parseResponse(_ bytes: [UInt8], connectionClosed: Bool, hasNoBody: Bool = false,
                                     limits: Limits = Limits()) throws(ParseError) -> HTTPResponse {
        var reader = HTTP1ResponseReader(hasNoBody: hasNoBody, limits: limits)
        if let response = try reader.consume(bytes) { return response }
        guard connectionClosed else { throw .incomplete }
        return try reader.finish()
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
        // RFC 9112 §2.2, §5.5: a bare CR or LF, NUL or another control byte in a value is refused
        // (it would reach a `Location` in an error, or a log, as it was sent).
        guard value.allSatisfy({ $0 == 0x09 || (0x20...0x7E).contains($0) || $0 >= 0x80 }) else { throw .malformed("header field value") }
        return HTTPHeader(String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self).trimmingCharacters())
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

    /// RFC 9110 §5.6.2 tchar (the one definition, in ``AuthNetworking/HTTPSendPolicy``).
    static func isTokenCharacter(_ byte: UInt8) -> Bool { HTTPSendPolicy.isTokenCharacter(byte) }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs (no Foundation here).
    func trimmingCharacters() -> String {
        let scalars = unicodeScalars.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()
        return String(String.UnicodeScalarView(scalars))
    }
}
