// Loading a file and recognising its kind from its content (docs/design.md §3).

public import FoundationEssentials

/// A vector file, parsed according to its kind.
public enum VectorFile: Sendable {
    /// A Wycheproof JSON file.
    case wycheproof(WycheproofFile)
    /// A CAVP-style response file (NIST, RFC or pyca vectors in `key = value` layout).
    case cavp(CAVPFile)
    /// The SP 800-38A worked examples.
    case sp80038a(SP80038AExamples)
    /// A file of our own schema.
    case own(OwnVectorFile)
    /// RSA example vectors in the labelled-hex layout (RSA Laboratories, pyca).
    case labelledHex(LabelledHexFile)
    /// A PEM file (key fixtures).
    case pem(String)
    /// Another JSON document (PowerAuth, Milagro, Salt Edge, CM), identified by the runner from
    /// its shape and file name.
    case json(JSONValue)
    /// A text file of no known layout.
    case unrecognized

    /// Whether `path` is documentation or tooling rather than data (Markdown, licence and
    /// notice files, generator scripts, the CAVP `…Readme.txt` / `…_readme.txt` notes, and the
    /// JSON schemas Wycheproof keeps in `schemas/`); such files are not vector files and are not
    /// listed.
    public static func isDocumentation(path: String) -> Bool {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.hasSuffix(".md") || name.hasSuffix(".py") || name == "LICENSE" || name == "NOTICE"
            || name.lowercased().hasSuffix("readme.txt")
            || (path.contains("wycheproof/schemas/") && name.hasSuffix(".json"))
    }

    /// Reads and parses the file at `path`.
    public static func load(path: String) throws(VectorFormatError) -> VectorFile {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .malformed("cannot read: \(error)")
        }
        return try parse(data, path: path)
    }

    /// Parses file contents; `path` only tells JSON from text.
    public static func parse(_ data: Data, path: String) throws(VectorFormatError) -> VectorFile {
        if path.hasSuffix(".json") {
            let json = try JSONValue.parse(data)
            if let file = try WycheproofFile(json) { return .wycheproof(file) }
            if let file = try OwnVectorFile(json) { return .own(file) }
            return .json(json)
        }
        if path.hasSuffix(".pem") { return .pem(String(decoding: data, as: UTF8.self)) }
        guard [".rsp", ".txt", ".fax"].contains(where: { path.hasSuffix($0) }) else { return .unrecognized }
        let text = String(decoding: data, as: UTF8.self)
        if let examples = try SP80038AExamples(text: text) { return .sp80038a(examples) }
        let file = CAVPFile(text: text)
        if !file.blocks.isEmpty { return .cavp(file) }
        if let labelled = try LabelledHexFile(text: text) { return .labelledHex(labelled) }
        return .unrecognized
    }
}
