// Percent-encoding (RFC 3986 §2.1) and query strings, without Foundation's URL so that the
// decoding rules are exactly ours: `+` stays `+` (docs/protocols/saltedge-v2.md §4: the access token is Base64
// and a `+` in it is data, not a space).

/// Percent-encoding and query-string parsing.
public enum URLText {
    /// `text` with every byte outside RFC 3986's unreserved set (`A–Z a–z 0–9 - . _ ~`) written
    /// as `%XX` (upper-case hex).
    public static func percentEncoded(_ text: String) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out = [UInt8]()
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(digits[Int(byte >> 4)])
                out.append(digits[Int(byte & 15)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends every byte of `secret` as `%XX` (upper-case hex), unreserved bytes included, with
    /// neither a branch nor a table index on its bytes: the output's length is three times the
    /// input's whatever it holds (RFC 3986 §2.1: a percent-encoded octet means the octet).
    /// Reserve room in `bytes` first (``HTTPRequest/queryCapacity``): an array that grows leaves
    /// its old storage, secret included, unwiped.
    public static func appendPercentEncodedSecret(_ secret: UnsafeRawBufferPointer, to bytes: inout [UInt8]) {
        for byte in secret {
            bytes.append(UInt8(ascii: "%"))
            bytes.append(hexDigit(byte >> 4))
            bytes.append(hexDigit(byte & 15))
        }
    }

    /// `0`–`9`, `A`–`F` for a nibble, by arithmetic: 7 more past 9, chosen by a mask.
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        let pastNine = UInt8(truncatingIfNeeded: (9 &- Int(nibble)) >> 8)  // 0xFF when nibble > 9
        return 0x30 &+ nibble &+ (pastNine & 7)
    }

    /// `text` with every `%XX` replaced by its byte; `nil` when a `%` is not followed by two hex
    /// digits or the result is not UTF-8. `+` is left as it is.
    public static func percentDecoded(_ text: some StringProtocol) -> String? {
        let input = Array(text.utf8)
        var out = [UInt8]()
        out.reserveCapacity(input.count)
        var i = 0
        while i < input.count {
            if input[i] == UInt8(ascii: "%") {
                guard i + 2 < input.count, let high = hexValue(input[i + 1]), let low = hexValue(input[i + 2]) else { return nil }
                out.append(high << 4 | low)
                i += 3
            } else {
                out.append(input[i])
                i += 1
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    /// A URL split into what precedes `?` and its decoded query items, in order. A fragment
    /// (`#…`) is dropped. Returns `nil` when an item cannot be percent-decoded.
    public static func split(_ url: String) -> (base: String, query: [HTTPHeader])? {
        let withoutFragment = url.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let parts = withoutFragment.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let base = String(parts.first ?? "")
        guard parts.count == 2 else { return (base, []) }
        var items: [HTTPHeader] = []
        for pair in parts[1].split(separator: "&") {
            let nameValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = percentDecoded(nameValue[0]) else { return nil }
            guard let value = nameValue.count == 2 ? percentDecoded(nameValue[1]) : "" else { return nil }
            items.append(HTTPHeader(name, value))
        }
        return (base, items)
    }

    /// The scheme, host and path segments of an absolute URL (`scheme://host/a/b`), or `nil` when
    /// the text has no `scheme://` or no host. Port and user information stay in the host.
    public static func components(of url: String) -> (scheme: String, host: String, path: [String])? {
        guard let base = split(url)?.base else { return nil }
        let parts = base.split(separator: "://", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let scheme = String(parts[0])
        let rest = parts[1]
        let segments = rest.split(separator: "/", omittingEmptySubsequences: false)
        guard let host = segments.first, !host.isEmpty, !scheme.isEmpty else { return nil }
        return (scheme.lowercased(), String(host), segments.dropFirst().filter { !$0.isEmpty }.map(String.init))
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
