// What every transport checks on the way out and on the way back (docs/design.md §1, layer 3: header
// validation before sending; redirect refusal and size limits after). One implementation that
// URLSessionTransport, PlainHTTPTransport and the pinning transport all call, so a transport
// cannot forget a check or apply a weaker copy of it.
//
// Out: a method, field name and request target are tokens or visible ASCII, a field value holds
// no control character (RFC 9110 §5.5–§5.6.2, RFC 9112 §3.2) — a CR or LF in either would let a
// value start a new header or a new request on the wire. Back: a 3xx is never followed (it
// would carry the credential headers to whatever origin `Location` names) but refused with its
// status and `Location`, and no body larger than ``ResponseLimits`` is read.

import CryptoPrimitives
public import ProtocolSupport

/// The checks every ``HTTPTransport`` applies before a request leaves and when its answer arrives.
public enum HTTPSendPolicy {
    /// Refuses a header field whose name is not a token or whose value holds a control character.
    ///
    /// RFC 9110 §5.6.2: a field name is one or more `tchar`; RFC 9110 §5.5: a field value is
    /// visible ASCII, space, horizontal tab and bytes ≥ 0x80 — never CR, LF, NUL, another control
    /// character or DEL. The error names the field, never its value (it may be a credential).
    public static func validateHeaders(_ headers: [HTTPHeader]) throws(TransportError) {
        for header in headers {
            guard !header.name.isEmpty, header.name.utf8.allSatisfy(isTokenCharacter) else {
                throw TransportError(.invalidRequest, underlying: "header name \(String(reflecting: header.name)) is not an RFC 9110 token")
            }
            if let secret = header.secret {
                // A secret is judged whole, with no early exit, and the error does not say which byte.
                guard !secret.withUnsafeBytes(holdsControlByte) else {
                    throw TransportError(.invalidRequest, underlying: "header \(header.name): the secret value holds a control character")
                }
            } else if let bad = header.value.utf8.first(where: { !isFieldValueByte($0) }) {
                throw TransportError(.invalidRequest, underlying: "header \(header.name): the value holds control character \(hex(bad))")
            }
        }
    }

    /// Refuses a request target (an origin-form `/path?query` or a whole absolute URL) holding
    /// anything but visible ASCII: RFC 9112 §3.2 and RFC 3986 §2 leave no room for a space, a
    /// control character, DEL or a raw non-ASCII byte, and a fragment (`#`) is never sent.
    /// Percent-encoded bytes (`%0D`) stay as they are: they are data, not framing.
    public static func validateTarget(_ target: String) throws(TransportError) {
        guard !target.isEmpty else { throw TransportError(.invalidRequest, underlying: "empty request target") }
        for (offset, byte) in target.utf8.enumerated() where !(0x21...0x7E).contains(byte) || byte == UInt8(ascii: "#") {
            throw TransportError(.invalidRequest, underlying: "request target holds \(hex(byte)) at offset \(offset)")
        }
    }

    /// Refuses a method that is not a token (RFC 9110 §9.1).
    public static func validateMethod(_ method: HTTPMethod) throws(TransportError) {
        guard !method.rawValue.isEmpty, method.rawValue.utf8.allSatisfy(isTokenCharacter) else {
            throw TransportError(.invalidRequest, underlying: "method \(String(reflecting: method.rawValue)) is not an RFC 9110 token")
        }
    }

    /// Validates everything a transport is about to put on the wire: the method, the target and
    /// every header field (the request's own and those the transport adds).
    public static func validate(method: HTTPMethod, target: String, headers: [HTTPHeader]) throws(TransportError) {
        try validateMethod(method)
        try validateTarget(target)
        try validateHeaders(headers)
    }

    /// Refuses a redirect: any 3xx status becomes ``TransportError/Kind/redirectRefused`` naming the
    /// status and the `Location`, so no request is ever re-sent — credential headers included —
    /// to an origin the caller did not configure (docs/design.md §1: "a 3xx is an error, never followed").
    public static func refuseRedirect(status: Int, location: String?) throws(TransportError) {
        guard (300..<400).contains(status) else { return }
        throw TransportError.redirectRefused(status: status, location: location)
    }

    /// Refuses a body whose announced `Content-Length` is already over `limits` (before reading it).
    public static func checkAnnouncedLength(_ contentLength: Int64, limits: ResponseLimits) throws(TransportError) {
        guard contentLength > Int64(limits.bodyBytes) else { return }
        throw TransportError.responseTooLarge(limit: limits.bodyBytes, announced: contentLength)
    }

    /// Refuses a body that has grown past `limits` while it is read.
    public static func checkReceived(_ bodyBytes: Int, limits: ResponseLimits) throws(TransportError) {
        guard bodyBytes > limits.bodyBytes else { return }
        throw TransportError.responseTooLarge(limit: limits.bodyBytes, announced: nil)
    }

    /// RFC 9110 §5.6.2 `tchar`.
    public static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
             UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"): true
        default: false
        }
    }

    /// Whether `bytes` hold a byte a field value may not (a control character but tab, or DEL),
    /// found with neither a branch nor an early exit on the bytes (they are a credential).
    static func holdsControlByte(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var bad: UInt32 = 0
        for byte in bytes {
            let value = UInt32(byte)
            let control = (value &- 0x20) >> 31  // 1 below 0x20
            let tab = ((value ^ 0x09) &- 1) >> 31  // 1 for 0x09
            let delete = ((value ^ 0x7F) &- 1) >> 31  // 1 for 0x7F
            bad |= (control & ~tab) | delete
        }
        return bad != 0
    }

    /// RFC 9110 §5.5: `field-vchar` (VCHAR, obs-text), SP or HTAB.
    static func isFieldValueByte(_ byte: UInt8) -> Bool {
        byte == 0x09 || (0x20...0x7E).contains(byte) || byte >= 0x80
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "0x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
    }
}

/// How much of an answer a transport reads before it gives up with
/// ``TransportError/Kind/responseTooLarge``: a 64 KiB head, a 16 MiB body (after any content
/// decoding the transport does) and 4 KiB for one chunk-size line.
public struct ResponseLimits: Sendable, Equatable {
    /// Largest status line plus header fields (and, for chunked bodies, trailer section), in bytes.
    public var headBytes: Int = 64 * 1024
    /// Largest body, in bytes, counted as it arrives.
    public var bodyBytes: Int = 16 * 1024 * 1024
    /// Largest chunk-size line including its extensions (RFC 9112 §7.1.1), in bytes.
    public var chunkLineBytes: Int = 4 * 1024

    /// The default limits.
    public init() {}

    /// Limits with a body of at most `bodyBytes`.
    public init(bodyBytes: Int) { self.bodyBytes = bodyBytes }
}

extension TransportError {
    /// ``Kind/redirectRefused`` for `status`, naming `Location` in ``underlying``.
    public static func redirectRefused(status: Int, location: String?) -> TransportError {
        TransportError(.redirectRefused, underlying: "HTTP \(status) redirect to \(location.map { String(reflecting: $0) } ?? "no Location") refused")
    }

    /// ``Kind/responseTooLarge`` for a body over `limit` bytes (`announced` by Content-Length, when it was).
    public static func responseTooLarge(limit: Int, announced: Int64?) -> TransportError {
        TransportError(.responseTooLarge, underlying: announced.map { "Content-Length \($0) over the \(limit)-byte limit" } ?? "body over the \(limit)-byte limit")
    }
}
