// Percent-encoding for PKCS #11 URIs (RFC 7512 §2.3, RFC 3986 §2.1): the characters each part
// may hold literally, decoding `%XX` to bytes, encoding everything else.

extension PKCS11URI {
    /// RFC 3986 ALPHA / DIGIT.
    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    /// pk11-pchar (path) or pk11-qchar (query) without pct-encoded: unreserved, pk11-res-avail,
    /// and "&" in the path or "/" "?" "|" in the query (RFC 7512 §2.3).
    static func isLiteral(_ byte: UInt8, query: Bool) -> Bool {
        if isAlphanumeric(byte) { return true }
        let unreservedAndAvailable = Array("-._~:[]@!$'()*+,=".utf8)
        if unreservedAndAvailable.contains(byte) { return true }
        return query ? Array("/?|".utf8).contains(byte) : byte == UInt8(ascii: "&")
    }

    /// Decodes `%XX` escapes; a `%` not followed by two hex digits is refused.
    static func percentDecoded(_ text: Substring) throws(PKCS11Error) -> [UInt8] {
        let bytes = Array(text.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else {
                    throw PKCS11Error(.invalidURI, "a \"%\" not followed by two hex digits")
                }
                result.append(high << 4 | low)
                index += 3
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return result
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    /// `%XX` with upper-case hex digits (RFC 3986 §2.1).
    static func escaped(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        return String(decoding: [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0xF)]], as: UTF8.self)
    }

    /// One part's attributes joined by `separator`.
    static func printed(_ attributes: [Attribute], separator: String, query: Bool) -> String {
        attributes.map { attribute in
            let value = attribute.value.map { byte in
                attribute.name != "id" && isLiteral(byte, query: query) ? String(UnicodeScalar(byte)) : escaped(byte)
            }
            return attribute.name + "=" + value.joined()
        }.joined(separator: separator)
    }
}
