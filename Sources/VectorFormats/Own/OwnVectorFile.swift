// The schema of the vectors this project records itself (Vectors/README.md).

/// A file of our own schema `swiftmfa-vectors-v1`: one algorithm, cases with named inputs and
/// outputs, written by `Vectors/generate.py` from an independent implementation.
public struct OwnVectorFile: Sendable {
    /// The schema identifier this parser reads.
    public static let schemaName = "swiftmfa-vectors-v1"

    /// The algorithm, e.g. `SHA-256`, `HMAC-SHA256`, `AES-CBC-PKCS7`.
    public let algorithm: String
    /// The implementation that produced the expected values.
    public let reference: String
    /// The cases.
    public let cases: [Case]

    /// One case.
    public struct Case: Sendable {
        /// Its number, unique in the file.
        public let id: Int
        /// What it exercises.
        public let comment: String
        /// `valid` (the operation must reproduce the outputs) or `invalid` (it must fail).
        public let isValid: Bool
        /// Named inputs.
        public let inputs: [String: JSONValue]
        /// Named expected outputs.
        public let outputs: [String: JSONValue]

        /// The input `name` as bytes.
        public func input(_ name: String) throws(VectorFormatError) -> [UInt8] {
            try OwnVectorFile.bytes(inputs[name], name)
        }

        /// The output `name` as bytes.
        public func output(_ name: String) throws(VectorFormatError) -> [UInt8] {
            try OwnVectorFile.bytes(outputs[name], name)
        }

        /// The input `name` as an integer.
        public func integer(_ name: String) throws(VectorFormatError) -> Int {
            guard let value = inputs[name]?.int else { throw .missingField(name) }
            return value
        }

        /// The input `name` as a string.
        public func string(_ name: String) throws(VectorFormatError) -> String {
            guard let value = inputs[name]?.string else { throw .missingField(name) }
            return value
        }
    }

    /// Reads a parsed document of our schema, or returns nil for any other document.
    public init?(_ json: JSONValue) throws(VectorFormatError) {
        guard json["schema"]?.string == Self.schemaName else { return nil }
        guard let algorithm = json["algorithm"]?.string, let cases = json["cases"]?.array else {
            throw .malformed("our schema needs algorithm and cases")
        }
        self.algorithm = algorithm
        reference = json["reference"]?.string ?? ""
        var parsed: [Case] = []
        for entry in cases {
            guard let id = entry["id"]?.int, let result = entry["result"]?.string, result == "valid" || result == "invalid" else {
                throw .malformed("case without id or result")
            }
            parsed.append(Case(id: id, comment: entry["comment"]?.string ?? "", isValid: result == "valid",
                               inputs: entry["inputs"]?.object ?? [:], outputs: entry["outputs"]?.object ?? [:]))
        }
        self.cases = parsed
    }

    /// A byte string: hex text, or `{"repeat": hex, "count": n}` for n copies of a pattern
    /// (long messages stay small in the file).
    static func bytes(_ value: JSONValue?, _ name: String) throws(VectorFormatError) -> [UInt8] {
        guard let value else { throw .missingField(name) }
        if let text = value.string { return try HexText.bytes(text, field: name) }
        if let pattern = value["repeat"]?.string, let count = value["count"]?.int, count >= 0 {
            let unit = try HexText.bytes(pattern, field: name)
            guard !unit.isEmpty else { throw .malformed("empty repeat pattern in \(name)") }
            return Array(Array(repeating: unit, count: count).joined())
        }
        throw .malformed("field \(name) is neither hex nor a repeat pattern")
    }
}
