// NIST CAVP response files (.rsp, .txt, .fax) and files in the same layout (RFC and pyca
// vectors): `#` comments, `[section]` headers, and blocks of `key = value` lines.

/// A CAVP-style file as header comments and blocks of fields, each block tagged with the
/// section headers in force where it appears.
public struct CAVPFile: Sendable {
    /// The comment lines before the first section or block, without the `#`.
    public let headerComments: [String]
    /// Every block of consecutive `key = value` lines, in file order.
    public let blocks: [Block]

    /// A block of consecutive `key = value` lines.
    public struct Block: Sendable {
        /// The 1-based line number of the block's first line.
        public let line: Int
        /// The section headers in force: `[ENCRYPT]` gives ("ENCRYPT", ""), `[L = 32]` gives
        /// ("L", "32").
        public let section: [(name: String, value: String)]
        /// The fields in order.
        public let fields: [(name: String, value: String)]
        /// Indented lines (intermediate values in `.txt` files), in order.
        public let intermediates: [(name: String, value: String)]

        /// The first field called `name`, or nil.
        public subscript(name: String) -> String? {
            fields.first { $0.name == name }?.value
        }

        /// The field `name` as bytes.
        public func bytes(_ name: String) throws(VectorFormatError) -> [UInt8] {
            guard let text = self[name] else { throw .missingField(name) }
            return try HexText.bytes(text, field: name)
        }

        /// The field `name` as a big-endian integer given in hex, which CAVP writes with an odd
        /// number of digits when the value needs it (out-of-range coordinates in PKV files).
        public func integerBytes(_ name: String) throws(VectorFormatError) -> [UInt8] {
            guard let text = self[name] else { throw .missingField(name) }
            return try HexText.bytes(text.count % 2 == 1 ? "0" + text : text, field: name)
        }

        /// The field `name` as a decimal integer.
        public func integer(_ name: String) throws(VectorFormatError) -> Int {
            guard let text = self[name], let value = Int(text) else { throw .missingField(name) }
            return value
        }

        /// Whether the section includes the header `name` (e.g. `ENCRYPT`).
        public func inSection(_ name: String) -> Bool {
            section.contains { $0.name == name }
        }

        /// The value of the section header `name` (e.g. `L` in `[L = 32]`).
        public func sectionValue(_ name: String) -> String? {
            section.first { $0.name == name }?.value
        }

        /// Whether the block has a field called `name`.
        public func has(_ name: String) -> Bool {
            fields.contains { $0.name == name }
        }
    }

    /// Parses the text of a CAVP-style file.
    public init(text: String) {
        var header: [String] = []
        var blocks: [Block] = []
        var section: [(name: String, value: String)] = []
        var sectionIsOpen = false
        var fields: [(name: String, value: String)] = []
        var intermediates: [(name: String, value: String)] = []
        var blockLine = 0
        var seenContent = false

        func closeBlock() {
            if !fields.isEmpty {
                blocks.append(Block(line: blockLine, section: section, fields: fields, intermediates: intermediates))
                sectionIsOpen = false
            }
            fields = []
            intermediates = []
        }

        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine[...]
            let trimmed = line.trimmingSpaces()
            if trimmed.isEmpty {
                closeBlock()
                continue
            }
            if trimmed.hasPrefix("#") {
                if !seenContent { header.append(String(trimmed.dropFirst()).trimmingSpaces()) }
                continue
            }
            seenContent = true
            if trimmed.hasPrefix("[") && trimmed.hasSuffix("]") {
                closeBlock()
                if !sectionIsOpen {
                    section = []
                    sectionIsOpen = true
                }
                let inner = trimmed.dropFirst().dropLast()
                if let equals = inner.firstIndex(of: "=") {
                    section.append((String(inner[..<equals]).trimmingSpaces(), String(inner[inner.index(after: equals)...]).trimmingSpaces()))
                } else {
                    section.append((String(inner).trimmingSpaces(), ""))
                }
                continue
            }
            guard let equals = trimmed.firstIndex(of: "=") else { continue }
            let pair = (name: String(trimmed[..<equals]).trimmingSpaces(), value: String(trimmed[trimmed.index(after: equals)...]).trimmingSpaces())
            guard !pair.name.isEmpty, pair.name.count < 40, !pair.name.contains(where: { $0 == "," || $0 == "." }) else { continue }  // "=====" rules, prose
            if line.first == "\t" || line.first == " " {
                intermediates.append(pair)
            } else {
                if pair.name == "COUNT" { closeBlock() }  // COUNT always opens a record, blank line or not
                if fields.isEmpty { blockLine = index + 1 }
                fields.append(pair)
            }
        }
        closeBlock()
        headerComments = header
        self.blocks = blocks
    }

    /// All header comments joined, for recognising the file's kind.
    public var headerText: String { headerComments.joined(separator: "\n") }
}

extension StringProtocol {
    /// The string without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars = scalars.dropFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars = scalars.dropLast() }
        return String(scalars)
    }
}
