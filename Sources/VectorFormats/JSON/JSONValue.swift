// A JSON document as a tree, decoded with FoundationEssentials' JSONDecoder.

public import FoundationEssentials

/// A JSON value. Vector files are heterogeneous, so they are read as trees and queried.
public enum JSONValue: Sendable, Equatable, Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Encodes the value (numbers that are whole are written as integers).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            if value == value.rounded(), abs(value) < 9e15 { try container.encode(Int64(value)) } else { try container.encode(value) }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The value serialised as JSON bytes (member order unspecified), for feeding recorded
    /// response objects to parsers.
    public var serialized: [UInt8] {
        do {
            return Array(try JSONEncoder().encode(self))
        } catch {
            // Only a non-finite number fails to encode, and parsed JSON holds none.
            preconditionFailure("internal error: a parsed JSON value does not re-encode: \(error)")
        }
    }

    /// Parses a JSON document.
    public static func parse(_ data: Data) throws(VectorFormatError) -> JSONValue {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw .malformed("not JSON: \(error)")
        }
    }

    /// The member `key` of an object, or nil.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The object's members, or nil.
    public var object: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The array's elements, or nil.
    public var array: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The string, or nil.
    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number as an integer when it is one, or nil.
    public var int: Int? {
        if case .number(let value) = self, value == value.rounded(), abs(value) < 9e15 { return Int(value) }
        return nil
    }

    /// The Boolean, or nil.
    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }
}

/// Why a vector file could not be parsed.
public enum VectorFormatError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file is not of the expected shape.
    case malformed(String)
    /// A required field is missing.
    case missingField(String)
    /// A field that should be hex is not.
    case badHex(String)

    /// A readable reason.
    public var description: String {
        switch self {
        case .malformed(let why): "malformed: \(why)"
        case .missingField(let name): "missing field \(name)"
        case .badHex(let name): "field \(name) is not hex"
        }
    }
}
