// Decoding response bodies into typed models. Malformed bodies are typed errors, never traps;
// identifiers are accepted as JSON numbers or strings and kept as strings
// (docs/protocols/saltedge-v2.md §6: v2 sends integers, older servers and Android's models use strings).

import CryptoPrimitives
public import FoundationEssentials

/// Decoding of JSON response bodies.
public enum JSONResponse {
    /// Decodes `body` as `T`; any malformation is ``ProtocolError/Code/malformedInput`` with
    /// `what` in the message. The decoder's copy of `body` is wiped afterwards: a body may hold
    /// secret members the model leaves to ``JSONSecretMember``.
    public static func decode<T: Decodable>(_ type: T.Type, from body: some Sequence<UInt8>, what: String) throws(ProtocolError) -> T {
        var data = Data(body)
        defer { data.withUnsafeMutableBytes { SecretBytes.wipe($0) } }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw ProtocolError(.malformedInput, "\(what): not the expected JSON")
        }
    }
}

/// An identifier that arrives as a JSON integer or string; kept as its decimal or literal text.
public struct FlexibleID: Decodable, Sendable, Hashable, CustomStringConvertible {
    /// The identifier's text.
    public let value: String

    /// Wraps an identifier text.
    public init(_ value: String) { self.value = value }

    /// Decodes an integer or a non-empty string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int64.self) {
            value = String(number)
        } else {
            let text = try container.decode(String.self)
            guard !text.isEmpty else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "empty identifier")
            }
            value = text
        }
    }

    /// The text.
    public var description: String { value }
}

/// A timestamp decoded from an ISO 8601 string with ``Timestamp/parseISO8601(_:)``.
public struct ISO8601Date: Decodable, Sendable, Hashable {
    /// The instant.
    public let date: Date

    /// Wraps an instant.
    public init(_ date: Date) { self.date = date }

    /// Decodes a string in one of the accepted layouts.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = Timestamp.parseISO8601(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an ISO 8601 date-time")
        }
        self.date = date
    }
}

/// A JSON string, number or boolean read as text (`12.5`, `true`), for display-only members
/// whose type servers do not keep stable.
public struct JSONScalar: Decodable, Sendable, Hashable, CustomStringConvertible {
    /// The value's text.
    public let text: String

    /// Decodes a string, integer, number or boolean.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let string = try? container.decode(String.self) {
            text = string
        } else if let integer = try? container.decode(Int64.self) {
            text = String(integer)
        } else if let number = try? container.decode(Double.self) {
            text = String(number)
        } else {
            text = String(try container.decode(Bool.self))
        }
    }

    /// The text.
    public var description: String { text }
}
