// Traffic logging without secrets (docs/design.md §2 habit 18): with `loggingHTTPTraffic` a body is
// logged as JSON whose secret-looking members — client-secret shares, one-time tokens (`regOTT`,
// `authOTT`), activation tokens and codes, passwords, PINs, JWTs — have their values replaced by
// their length; a body that is not JSON is logged by length only. Only the explicit reveal
// switch (`revealingSecretsAtDebug`) shows bodies as they are.

/// Masks the values of secret members in a JSON body, for logs.
enum BodyRedaction {
    /// Parts of a member name (lower case, `-` and `_` removed) that mark its value secret.
    static let secretNameParts = ["secret", "token", "password", "passwd", "passphrase", "ott", "puk", "otp", "code", "jwt", "cs1",
                                  "signature", "permit", "credential", "cookie", "authorization", "privatekey", "mac"]
    /// Whole member names (normalised as above) that are secret.
    /// `params` and `cs2url` carry the signed D-TA fetch parameters of a client-secret share
    /// (docs/protocols/mpin.md §5), `qrurl` an access code after `#`.
    static let secretNames: Set<String> = ["pin", "newpin", "oldpin", "signingpin", "key", "wid", "accessid", "v", "u", "ut", "y",
                                           "params", "cs2url", "qrurl", "url"]

    /// Whether a member called `name` carries a secret.
    static func isSecret(_ name: String) -> Bool {
        let normalised = String(name.lowercased().filter { $0 != "-" && $0 != "_" })
        return secretNames.contains(normalised) || secretNameParts.contains { normalised.contains($0) }
    }

    /// `body` as text with every secret member's value replaced by `"<redacted N bytes>"`;
    /// a body that is not a JSON object or array is only its length.
    static func redacted(_ body: [UInt8]) -> String {
        guard let first = body.first(where: { !isSpace($0) }), first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else {
            return "<body redacted, \(body.count) bytes>"
        }
        var out: [UInt8] = []
        out.reserveCapacity(body.count)
        var index = 0
        while index < body.count {
            let byte = body[index]
            guard byte == UInt8(ascii: "\"") else {
                out.append(byte)
                index += 1
                continue
            }
            let end = stringEnd(body, from: index)
            out.append(contentsOf: body[index..<end])
            var next = end
            while next < body.count, isSpace(body[next]) { next += 1 }
            guard next < body.count, body[next] == UInt8(ascii: ":") else {   // a value, not a member name
                index = end
                continue
            }
            let name = String(decoding: body[(index + 1)..<max(index + 1, end - 1)], as: UTF8.self)
            out.append(UInt8(ascii: ":"))
            index = next + 1
            guard isSecret(name) else { continue }
            while index < body.count, isSpace(body[index]) { index += 1 }
            let valueEnd = self.valueEnd(body, from: index)
            out.append(contentsOf: "\"<redacted \(valueEnd - index) bytes>\"".utf8)
            index = valueEnd
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// The index after the string starting at `start` (a quote), or the end of the body.
    private static func stringEnd(_ body: [UInt8], from start: Int) -> Int {
        var index = start + 1
        while index < body.count {
            switch body[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return body.count
    }

    /// The index after the JSON value starting at `start`: a string, a balanced object or
    /// array, or a literal up to the next delimiter.
    private static func valueEnd(_ body: [UInt8], from start: Int) -> Int {
        guard start < body.count else { return start }
        switch body[start] {
        case UInt8(ascii: "\""):
            return stringEnd(body, from: start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while index < body.count {
                switch body[index] {
                case UInt8(ascii: "\""):
                    index = stringEnd(body, from: index)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default: break
                }
                index += 1
            }
            return body.count
        default:
            var index = start
            while index < body.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]")].contains(body[index]), !isSpace(body[index]) { index += 1 }
            return index
        }
    }
}
