// Reading a secret out of a JSON body without a `String`: JSONDecoder makes a `String` of every
// member it decodes, which the program cannot wipe, so a model leaves its secret members out
// (JSONDecoder then never turns them into text) and takes them from here, copied from the body
// straight into `SecretBytes`. The scan only finds the member: the caller decodes the whole body
// with JSONDecoder as well, which judges it as JSON.

public import CryptoPrimitives

/// The string value of one member of a JSON body, as secret bytes.
public enum JSONSecretMember {
    /// The bytes of the string at `path` (member names from the outermost object inward) of the
    /// JSON in `body`, or nil when a member on the path is absent or `null`. The simple escapes
    /// (`\/`, `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`) are decoded; a value that is not a string or
    /// holds a `\u` escape, a member named twice on the path, malformed JSON around it or nesting
    /// deeper than 64 is ``ProtocolError/Code/malformedInput`` with `what` in the message. The
    /// body is read in place: wiping it stays the caller's.
    ///
    /// Timing reveals where the value ends (its length) and where it holds escapes and which,
    /// the only bytes the scan tells apart; a secret's Base64 or digits hold none unless a
    /// server escapes `/`.
    public static func value(at path: [String], in body: [UInt8], what: String) throws(ProtocolError) -> SecretBytes? {
        var scanner = Scanner(bytes: body, malformed: ProtocolError(.malformedInput, "\(what): a secret member cannot be read"))
        scanner.skipWhitespace()
        guard let (range, escaped) = try scanner.member(at: path[...], depth: 0) else { return nil }
        guard escaped else { return SecretBytes(body[range]) }
        return try scanner.unescaped(range)
    }

    private struct Scanner {
        let bytes: [UInt8]
        let malformed: ProtocolError
        var index = 0

        init(bytes: [UInt8], malformed: ProtocolError) {
            self.bytes = bytes
            self.malformed = malformed
        }

        mutating func skipWhitespace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func expect(_ byte: UInt8) throws(ProtocolError) {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == byte else { throw malformed }
            index += 1
        }

        /// At a `"`: the range of the string's raw content, and whether it holds an escape.
        mutating func string() throws(ProtocolError) -> (range: Range<Int>, escaped: Bool) {
            try expect(0x22)
            let start = index
            var escaped = false
            while index < bytes.count, bytes[index] != 0x22 {
                if bytes[index] == 0x5C {
                    escaped = true
                    index += 1
                }
                index += 1
            }
            guard index < bytes.count else { throw malformed }
            index += 1
            return (start..<index - 1, escaped)
        }

        /// The content of the string at `range` with its simple escapes decoded, straight into
        /// secret bytes; a `\u` escape (never needed by a secret's Base64 or digits) is malformed.
        func unescaped(_ range: Range<Int>) throws(ProtocolError) -> SecretBytes {
            var out = [UInt8]()
            out.reserveCapacity(range.count)
            defer { SecretBytes.wipe(&out) }
            var position = range.lowerBound
            while position < range.upperBound {
                var byte = bytes[position]
                if byte == 0x5C {
                    position += 1
                    guard position < range.upperBound else { throw malformed }
                    switch bytes[position] {
                    case 0x22, 0x5C, 0x2F: byte = bytes[position]
                    case 0x62: byte = 0x08
                    case 0x66: byte = 0x0C
                    case 0x6E: byte = 0x0A
                    case 0x72: byte = 0x0D
                    case 0x74: byte = 0x09
                    default: throw malformed
                    }
                }
                out.append(byte)
                position += 1
            }
            return SecretBytes(out)
        }

        /// Skips one value of any kind.
        mutating func skipValue(depth: Int) throws(ProtocolError) {
            skipWhitespace()
            guard index < bytes.count, depth < 64 else { throw malformed }
            switch bytes[index] {
            case 0x22:
                _ = try string()
            case 0x7B, 0x5B:
                let close: UInt8 = bytes[index] == 0x7B ? 0x7D : 0x5D
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == close {
                    index += 1
                    return
                }
                while true {
                    if close == 0x7D {
                        _ = try string()
                        try expect(0x3A)
                    }
                    try skipValue(depth: depth + 1)
                    skipWhitespace()
                    guard index < bytes.count else { throw malformed }
                    index += 1
                    if bytes[index - 1] == close { return }
                    guard bytes[index - 1] == 0x2C else { throw malformed }
                }
            default:
                // A number, true, false or null: up to the next delimiter.
                let start = index
                while index < bytes.count, ![0x2C, 0x7D, 0x5D, 0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
                guard index > start else { throw malformed }
            }
        }

        /// At an object: the range of the string at `path` inside it, reading every member so that
        /// a name given twice is found; nil when absent or null.
        mutating func member(at path: ArraySlice<String>, depth: Int) throws(ProtocolError) -> (range: Range<Int>, escaped: Bool)? {
            guard let name = path.first, depth < 64 else { throw malformed }
            skipWhitespace()
            if bytes[index...].starts(with: Array("null".utf8)) {
                index += 4
                return nil
            }
            try expect(0x7B)
            skipWhitespace()
            if index < bytes.count, bytes[index] == 0x7D {
                index += 1
                return nil
            }
            var found: (range: Range<Int>, escaped: Bool)?
            var seen = false
            while true {
                let key = try string()
                try expect(0x3A)
                skipWhitespace()
                if !key.escaped, bytes[key.range].elementsEqual(name.utf8) {
                    guard !seen else { throw malformed }
                    seen = true
                    if path.count > 1 {
                        found = try member(at: path.dropFirst(), depth: depth + 1)
                    } else if bytes[index...].starts(with: Array("null".utf8)) {
                        try skipValue(depth: depth + 1)
                    } else {
                        found = try string()
                    }
                } else {
                    try skipValue(depth: depth + 1)
                }
                skipWhitespace()
                guard index < bytes.count else { throw malformed }
                index += 1
                if bytes[index - 1] == 0x7D { return found }
                guard bytes[index - 1] == 0x2C else { throw malformed }
            }
        }
    }
}
