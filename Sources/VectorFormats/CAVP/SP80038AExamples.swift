// The worked examples of NIST SP 800-38A Appendix F as the NIST toolkit's text files lay
// them out (extracted from the PDF: labelled blocks of 32-bit hex groups).

/// The SP 800-38A examples in one file (CBC or CTR).
public struct SP80038AExamples: Sendable {
    /// One example: a mode, a key size and a direction.
    public struct Example: Sendable {
        /// `CBC` or `CTR`.
        public let mode: String
        /// 128, 192 or 256.
        public let keyBits: Int
        /// True for "(Encryption)".
        public let encrypt: Bool
        /// The key.
        public let key: [UInt8]
        /// The IV (CBC) or initial counter block (CTR).
        public let iv: [UInt8]
        /// The input text, block after block.
        public let input: [UInt8]
        /// The expected output text.
        public let output: [UInt8]
        /// The 1-based line of the example's title.
        public let line: Int
    }

    /// The examples, in file order.
    public let examples: [Example]

    /// Parses the text; returns nil when it is not an SP 800-38A examples file.
    public init?(text: String) throws(VectorFormatError) {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { line in
            (line.hasSuffix("\r") ? line.dropLast() : line[...]).trimmingSpaces()
        }
        guard lines.contains("Block Cipher Modes of Operation") else { return nil }
        var examples: [Example] = []
        var iv: [UInt8] = []
        var index = 0
        // The IV or initial counter is given once, in the file header.
        while index < lines.count {
            if lines[index] == "IV is" || lines[index] == "Initial Counter is" {
                (iv, index) = try Self.hexLines(lines, after: index)
                break
            }
            index += 1
        }
        while index < lines.count {
            guard let title = Self.title(lines[index]) else { index += 1; continue }
            let line = index + 1
            index += 1
            var key: [UInt8] = []
            var input: [UInt8] = []
            var output: [UInt8] = []
            let (inLabel, outLabel) = title.mode == "CTR" ? ("Text-In", "Text-Out")
                : title.encrypt ? ("Plaintext", "Ciphertext") : ("Ciphertext", "Plaintext")
            while index < lines.count && Self.title(lines[index]) == nil {
                let text = lines[index]
                if text == "Key is" {
                    (key, index) = try Self.hexLines(lines, after: index)
                    continue
                }
                if let bytes = try Self.labelled(text, inLabel) { input += bytes }
                if let bytes = try Self.labelled(text, outLabel) { output += bytes }
                index += 1
            }
            guard !key.isEmpty, !input.isEmpty, input.count == output.count else {
                throw .malformed("example at line \(line) is incomplete")
            }
            examples.append(Example(mode: title.mode, keyBits: title.bits, encrypt: title.encrypt, key: key, iv: iv,
                                    input: input, output: output, line: line))
        }
        guard !examples.isEmpty, !iv.isEmpty else { return nil }
        self.examples = examples
    }

    /// "CBC-AES128 (Encryption)" → (CBC, 128, true).
    private static func title(_ line: String) -> (mode: String, bits: Int, encrypt: Bool)? {
        let parts = line.split(separator: " ")
        guard parts.count == 2, let dash = parts[0].firstIndex(of: "-") else { return nil }
        let mode = String(parts[0][..<dash])
        let cipher = parts[0][parts[0].index(after: dash)...]
        guard ["CBC", "CTR"].contains(mode), cipher.hasPrefix("AES"), let bits = Int(cipher.dropFirst(3)) else { return nil }
        switch parts[1] {
        case "(Encryption)": return (mode, bits, true)
        case "(Decryption)": return (mode, bits, false)
        default: return nil
        }
    }

    /// The hex in the lines following `index` that hold only hex groups.
    private static func hexLines(_ lines: [String], after index: Int) throws(VectorFormatError) -> ([UInt8], Int) {
        var bytes: [UInt8] = []
        var next = index + 1
        while next < lines.count, isHexGroups(lines[next]) {
            bytes += try HexText.bytes(lines[next])
            next += 1
        }
        return (bytes, next)
    }

    /// The bytes of a line "label XXXXXXXX XXXXXXXX …", or nil if the line has another label.
    private static func labelled(_ line: String, _ label: String) throws(VectorFormatError) -> [UInt8]? {
        guard line.hasPrefix(label + " ") else { return nil }
        let rest = String(line.dropFirst(label.count + 1))
        guard isHexGroups(rest) else { return nil }
        return try HexText.bytes(rest)
    }

    private static func isHexGroups(_ text: String) -> Bool {
        !text.isEmpty && text.allSatisfy { $0 == " " || $0.isHexDigit }
    }
}
