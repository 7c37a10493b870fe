// Starting corpora, read from ../shared/vectors in place (never copied into the repository)
// or made by our own code (a real sealed store record, a real activation answer).
import CryptoPrimitives
import Foundation

enum SeedSource: Sendable {
    /// String values of the named JSON members anywhere in one file or every `.json` under a
    /// folder; hex-decoded when `decodeHex` (values that are not hex are taken as text).
    case jsonStrings(under: String, keys: Set<String>, decodeHex: Bool)
    /// The named JSON members re-serialised as JSON documents.
    case jsonObjects(under: String, keys: Set<String>)
    /// Whole files.
    case files([String])
    /// Inputs our own code makes.
    case generated(@Sendable () -> [[UInt8]])

    /// At most this many seeds per target, each at most this long: a smoke run must get past
    /// loading its corpus.
    static let maximumCount = 200
    static let maximumLength = 8192

    func inputs(vectors: String) -> [[UInt8]] {
        switch self {
        case .jsonStrings(let under, let keys, let decodeHex):
            var found: [[UInt8]] = []
            for document in Self.documents(vectors + "/" + under) {
                Self.walk(document) { key, value in
                    guard keys.contains(key) else { return }
                    for text in Self.strings(in: value) {
                        if decodeHex, let bytes = try? Hex.decode(text) { found.append(bytes) } else { found.append(Array(text.utf8)) }
                    }
                }
            }
            return found
        case .jsonObjects(let under, let keys):
            var found: [[UInt8]] = []
            for document in Self.documents(vectors + "/" + under) {
                Self.walk(document) { key, value in
                    guard keys.contains(key), JSONSerialization.isValidJSONObject(value),
                          let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]) else { return }
                    found.append(Array(data))
                }
            }
            return found
        case .files(let paths):
            return paths.compactMap { FileManager.default.contents(atPath: vectors + "/" + $0).map { Array($0) } }
        case .generated(let make):
            return make()
        }
    }

    /// Parsed JSON documents at `path` (a file, or every `.json` below a folder).
    private static func documents(_ path: String) -> [Any] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return [] }
        var files = [path]
        if isFolder.boolValue {
            let names = (FileManager.default.enumerator(atPath: path)?.allObjects as? [String]) ?? []
            files = names.filter { $0.hasSuffix(".json") }.sorted().map { path + "/" + $0 }
        }
        return files.compactMap { file in
            FileManager.default.contents(atPath: file).flatMap { try? JSONSerialization.jsonObject(with: $0) }
        }
    }

    private static func walk(_ value: Any, _ visit: (String, Any) -> Void) {
        if let object = value as? [String: Any] {
            for key in object.keys.sorted() {
                guard let child = object[key] else { continue }
                visit(key, child)
                walk(child, visit)
            }
        } else if let array = value as? [Any] {
            for child in array { walk(child, visit) }
        }
    }

    private static func strings(in value: Any) -> [String] {
        if let text = value as? String { return [text] }
        if let array = value as? [Any] { return array.flatMap { strings(in: $0) } }
        return []
    }
}

extension FuzzTarget {
    /// Writes the target's seeds into `folder` as `seed-N` files; returns how many.
    func writeSeeds(vectors: String, into folder: String) throws -> Int {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var unique: [[UInt8]] = []
        var seen = Set<[UInt8]>()
        for source in seeds {
            for input in source.inputs(vectors: vectors) {
                let cut = Array(input.prefix(SeedSource.maximumLength))
                if seen.insert(cut).inserted { unique.append(cut) }
            }
        }
        for (index, input) in unique.prefix(SeedSource.maximumCount).enumerated() {
            FileManager.default.createFile(atPath: folder + "/seed-\(index)", contents: Data(input))
        }
        return min(unique.count, SeedSource.maximumCount)
    }
}
