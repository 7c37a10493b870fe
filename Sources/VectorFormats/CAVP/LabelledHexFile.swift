// The layout of the RSA Laboratories PKCS #1 example files and pyca's derived OAEP files:
// `# Label:` comment lines, each followed by lines of hex, between heading comments.

/// A file of labelled hex values and headings, in order.
public struct LabelledHexFile: Sendable {
    /// One line item.
    public enum Entry: Sendable, Equatable {
        /// A comment line that is not a label (`# Public key`, `# OAEP Example 1.1`).
        case heading(String)
        /// A label (`Modulus`, `Message to be encrypted`) and the bytes of the hex lines after it.
        case value(label: String, bytes: [UInt8])
    }

    /// The entries with their 1-based line numbers.
    public let entries: [(entry: Entry, line: Int)]

    /// Parses the text; nil when it holds no `Modulus` value (not an RSA example file).
    public init?(text: String) throws(VectorFormatError) {
        var entries: [(Entry, Int)] = []
        var pendingLabel: (String, Int)?
        var hex = ""
        func flush() throws(VectorFormatError) {
            if let (label, line) = pendingLabel {
                // pyca writes integers with an odd digit count ("10001"); they are big-endian values.
                let digits = hex.count % 2 == 1 ? "0" + hex : hex
                entries.append((.value(label: label, bytes: try HexText.bytes(digits, field: label)), line))
            }
            pendingLabel = nil
            hex = ""
        }
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = rawLine.trimmingSpaces()
            if line.hasPrefix("#") {
                try flush()
                let content = String(line.dropFirst()).trimmingSpaces()
                if content.hasSuffix(":") {
                    pendingLabel = (String(content.dropLast()).trimmingSpaces(), index + 1)
                } else if !content.isEmpty && !content.allSatisfy({ $0 == "-" || $0 == "=" }) {
                    entries.append((.heading(content), index + 1))
                }
            } else if pendingLabel != nil, !line.isEmpty, line.allSatisfy({ $0.isHexDigit || $0 == " " || $0 == "\t" }) {
                hex += line.filter { $0 != " " && $0 != "\t" }
            } else if !line.isEmpty {
                try flush()
            }
        }
        try flush()
        guard entries.contains(where: { if case .value("Modulus", _) = $0.0 { true } else { false } }) else { return nil }
        self.entries = entries
    }
}
