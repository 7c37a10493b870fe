// A validating JSON scan that allocates nothing (RFC 8259), so `mfa powerauth call` can print
// the `responseObject` of a large answer straight from the received bytes instead of decoding it
// into values and serialising it again (each a copy as large as the answer). The scan checks the
// whole grammar, UTF-8 in strings included, to a nesting depth of 512; it returns the byte range
// of the top-level object's `responseObject` member, or of the whole document.

package enum JSONSlice {
    package struct Malformed: Error {}

    /// The range of the value to print: the top-level `responseObject` member's, else the
    /// whole document's (surrounding whitespace excluded). Throws ``Malformed`` for anything
    /// that is not one JSON value.
    package static func responseObject(in bytes: [UInt8]) throws(Malformed) -> Range<Int> {
        var scanner = Scanner(bytes: bytes)
        scanner.skipSpace()
        let start = scanner.position
        var member: Range<Int>?
        try scanner.value(depth: 0, topLevelMember: &member)
        let end = scanner.position
        scanner.skipSpace()
        guard scanner.position == bytes.count else { throw Malformed() }
        return member ?? start..<end
    }

    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        mutating func skipSpace() {
            while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        }

        func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func expect(_ byte: UInt8) throws(Malformed) {
            guard peek() == byte else { throw Malformed() }
            position += 1
        }

        /// One value; at depth 0 an object records its `responseObject` member's range.
        mutating func value(depth: Int, topLevelMember: inout Range<Int>?) throws(Malformed) {
            guard depth < 512, let first = peek() else { throw Malformed() }
            switch first {
            case UInt8(ascii: "{"):
                position += 1
                skipSpace()
                if peek() == UInt8(ascii: "}") { position += 1; return }
                while true {
                    skipSpace()
                    let keyStart = position
                    try string()
                    let isResponseObject = bytes[keyStart..<position].elementsEqual(Array("\"responseObject\"".utf8))
                    skipSpace()
                    try expect(UInt8(ascii: ":"))
                    skipSpace()
                    let valueStart = position
                    var ignored: Range<Int>?
                    try value(depth: depth + 1, topLevelMember: &ignored)
                    if depth == 0, isResponseObject { topLevelMember = valueStart..<position }
                    skipSpace()
                    if peek() == UInt8(ascii: ",") { position += 1; continue }
                    try expect(UInt8(ascii: "}"))
                    return
                }
            case UInt8(ascii: "["):
                position += 1
                skipSpace()
                if peek() == UInt8(ascii: "]") { position += 1; return }
                while true {
                    skipSpace()
                    var ignored: Range<Int>?
                    try value(depth: depth + 1, topLevelMember: &ignored)
                    skipSpace()
                    if peek() == UInt8(ascii: ",") { position += 1; continue }
                    try expect(UInt8(ascii: "]"))
                    return
                }
            case UInt8(ascii: "\""):
                try string()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            default:
                try number()
            }
        }

        mutating func literal(_ word: String) throws(Malformed) {
            let expected = Array(word.utf8)
            guard bytes.count - position >= expected.count, bytes[position..<(position + expected.count)].elementsEqual(expected) else {
                throw Malformed()
            }
            position += expected.count
        }

        /// RFC 8259 §6: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
        mutating func number() throws(Malformed) {
            if peek() == UInt8(ascii: "-") { position += 1 }
            guard let first = peek(), isDigit(first) else { throw Malformed() }
            position += 1
            if first != UInt8(ascii: "0") { while let byte = peek(), isDigit(byte) { position += 1 } }
            if peek() == UInt8(ascii: ".") {
                position += 1
                guard let byte = peek(), isDigit(byte) else { throw Malformed() }
                while let byte = peek(), isDigit(byte) { position += 1 }
            }
            if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
                position += 1
                if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
                guard let byte = peek(), isDigit(byte) else { throw Malformed() }
                while let byte = peek(), isDigit(byte) { position += 1 }
            }
        }

        func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

        /// RFC 8259 §7: no raw control characters, the escapes it lists, well-formed UTF-8.
        mutating func string() throws(Malformed) {
            try expect(UInt8(ascii: "\""))
            while let byte = peek() {
                position += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return
                case UInt8(ascii: "\\"):
                    guard let escape = peek() else { throw Malformed() }
                    position += 1
                    if escape == UInt8(ascii: "u") {
                        for _ in 0..<4 {
                            guard let hex = peek(), isDigit(hex) || (0x41...0x46).contains(hex) || (0x61...0x66).contains(hex) else { throw Malformed() }
                            position += 1
                        }
                    } else {
                        guard Array("\"\\/bfnrt".utf8).contains(escape) else { throw Malformed() }
                    }
                case 0..<0x20:
                    throw Malformed()
                case 0x80...:
                    try utf8Continuation(lead: byte)
                default:
                    continue
                }
            }
            throw Malformed()
        }

        /// The rest of a UTF-8 sequence whose lead byte was just read (RFC 3629 §4).
        mutating func utf8Continuation(lead: UInt8) throws(Malformed) {
            let (count, low, high): (Int, UInt8, UInt8) = switch lead {
            case 0xC2...0xDF: (1, 0x80, 0xBF)
            case 0xE0: (2, 0xA0, 0xBF)
            case 0xE1...0xEC, 0xEE...0xEF: (2, 0x80, 0xBF)
            case 0xED: (2, 0x80, 0x9F)
            case 0xF0: (3, 0x90, 0xBF)
            case 0xF1...0xF3: (3, 0x80, 0xBF)
            case 0xF4: (3, 0x80, 0x8F)
            default: (-1, 0, 0)
            }
            guard count > 0 else { throw Malformed() }
            for index in 0..<count {
                guard let byte = peek(), index == 0 ? (low...high).contains(byte) : (0x80...0xBF).contains(byte) else { throw Malformed() }
                position += 1
            }
        }
    }
}
