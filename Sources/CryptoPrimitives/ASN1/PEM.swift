// PEM armour (RFC 7468): Base64 DER between BEGIN and END lines.

import CryptoCore

/// PEM encoding and strict decoding.
package enum PEM {
    /// The armoured text: `-----BEGIN label-----`, the Base64 body in 64-character lines,
    /// `-----END label-----`, every line ending in LF (RFC 7468 §2, the strict form).
    package static func encode(label: String, der: some Sequence<UInt8>) -> String {
        let body = Base64.encode(der)
        var text = "-----BEGIN \(label)-----\n"
        var index = body.startIndex
        while index < body.endIndex {
            let next = body.index(index, offsetBy: 64, limitedBy: body.endIndex) ?? body.endIndex
            text += body[index..<next] + "\n"
            index = next
        }
        return text + "-----END \(label)-----\n"
    }

    /// Decodes one PEM block: returns its label and DER bytes.
    ///
    /// Accepts LF or CRLF line endings, surrounding whitespace and body lines of any length up
    /// to 64; rejects mismatched labels, text between or after blocks, and malformed Base64
    /// with `CryptoError.invalidEncoding`.
    package static func decode(_ text: some StringProtocol) throws(CryptoError) -> (label: String, der: [UInt8]) {
        let lines: [Substring] = String(text).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .map { ($0.hasSuffix("\r") ? $0.dropLast() : $0).trimmingASCIIWhitespace() }
        var index = 0
        while index < lines.count && lines[index].isEmpty { index += 1 }
        guard index < lines.count, let label = Self.label(of: lines[index], prefix: "-----BEGIN ") else { throw .invalidEncoding }
        index += 1
        var body = ""
        while index < lines.count && !lines[index].hasPrefix("-----") {
            guard lines[index].utf8.count <= 64 else { throw .invalidEncoding }
            body += lines[index]
            index += 1
        }
        guard index < lines.count, Self.label(of: lines[index], prefix: "-----END ") == label else { throw .invalidEncoding }
        index += 1
        guard lines[index...].allSatisfy({ $0.isEmpty }) else { throw .invalidEncoding }
        return (label, try Base64.decode(body))
    }

    /// Decodes a PEM block that must carry `label`.
    package static func decode(_ text: some StringProtocol, label expected: String) throws(CryptoError) -> [UInt8] {
        let (label, der) = try decode(text)
        guard label == expected else { throw .invalidEncoding }
        return der
    }

    private static func label(of line: Substring, prefix: String) -> String? {
        guard line.hasPrefix(prefix), line.hasSuffix("-----"), line.count >= prefix.count + 5 else { return nil }
        let label = line.dropFirst(prefix.count).dropLast(5)
        guard label.allSatisfy({ $0 == " " || $0 == "-" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }) else { return nil }
        return String(label)
    }
}

extension Substring {
    /// The substring without leading and trailing spaces and tabs.
    func trimmingASCIIWhitespace() -> Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }
}
