// Hex parsing for vector files. Deliberately separate from the engine's decoder: a parser must
// not agree with the code it checks by sharing it (docs/design.md §1).

/// Hex helpers for vector files.
public enum HexText {
    /// Bytes from hex text. Spaces are ignored (some files group digits); an odd number of
    /// digits or a non-hex character is an error.
    public static func bytes(_ text: String, field: String = "value") throws(VectorFormatError) -> [UInt8] {
        var digits: [UInt8] = []
        digits.reserveCapacity(text.utf8.count)
        for c in text.utf8 where c != 0x20 {
            switch c {
            case 0x30...0x39: digits.append(c - 0x30)
            case 0x41...0x46: digits.append(c - 0x41 + 10)
            case 0x61...0x66: digits.append(c - 0x61 + 10)
            default: throw .badHex(field)
            }
        }
        guard digits.count % 2 == 0 else { throw .badHex(field) }
        return stride(from: 0, to: digits.count, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
    }

    /// Lower-case hex of `bytes`.
    public static func string(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
