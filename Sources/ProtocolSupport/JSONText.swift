// Exact JSON bytes for request bodies. Signed protocols (Salt Edge's detached JWS, CM's body
// `sig`) sign the bytes that go on the wire, so a body is serialised once, by this writer, with
// keys in the order given and no re-encoding afterwards (docs/protocols/saltedge-v2.md §5.2,
// docs/protocols/cm-authenticator.md §5).

public import CryptoPrimitives

/// A JSON value whose serialisation is fully determined: object members keep their order,
/// output is compact, and strings escape only what RFC 8259 §7 requires.
public indirect enum JSONText: Sendable, Equatable {
    /// An object; members are written in this order.
    case object([(String, JSONText)])
    /// An array.
    case array([JSONText])
    /// A string.
    case string(String)
    /// A string whose UTF-8 bytes are secret (a PUK in a request that is encrypted next, M-Pin's
    /// `regOTT` and `authOTT`): written
    /// by ``bytes`` from wiped storage with the escapes of ``string(_:)``, never made a `String`
    /// there. ``text`` does make a `String` of it and `==` compares serialisations, so neither is
    /// for a value that holds one; `Encodable` refuses it. Timing reveals whether the secret holds
    /// a byte that needs an escape (none of a PUK's digits do), not which.
    case secret(SecretBytes)
    /// An integer.
    case integer(Int64)
    /// A number that is not an `Int64`, as its JSON text (read from a server, written back as is).
    case number(String)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null

    /// The compact UTF-8 serialisation: no whitespace, `/` not escaped, non-ASCII characters
    /// written as UTF-8, control characters as `\n`, `\r`, `\t`, `\b`, `\f` or `\u00XX`. The
    /// buffer is reserved at its largest possible size first, so that growing it leaves no
    /// unwiped copy of a ``secret(_:)`` behind; wiping the result is the caller's.
    public var bytes: [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(largestByteCount)
        write(to: &out)
        return out
    }

    /// An upper bound of the serialisation's length (every string byte escaped as `\u00XX`).
    private var largestByteCount: Int {
        switch self {
        case .object(let members): 2 + members.reduce(0) { $0 + 4 + 6 * $1.0.utf8.count + $1.1.largestByteCount }
        case .array(let elements): 2 + elements.reduce(0) { $0 + 1 + $1.largestByteCount }
        case .string(let value): 2 + 6 * value.utf8.count
        case .secret(let value): 2 + 6 * value.count
        case .integer: 20
        case .number(let text): text.utf8.count
        case .bool: 5
        case .null: 4
        }
    }

    /// The serialisation as a string.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    private func write(to out: inout [UInt8]) {
        switch self {
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(member.0.utf8, to: &out)
                out.append(UInt8(ascii: ":"))
                member.1.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                element.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .string(let value):
            Self.writeString(value.utf8, to: &out)
        case .secret(let value):
            value.withUnsafeBytes { bytes in
                // Whether any byte is a control character, a quote or a backslash, computed without a branch
                // on a byte; only a secret that needs an escape goes through the escaping writer.
                let needsEscape = bytes.reduce(UInt16(0)) { flags, byte in
                    let b = UInt16(byte)
                    return flags | ((b &- 0x20) >> 8) | (((b ^ 0x22) &- 1) >> 8) | (((b ^ 0x5C) &- 1) >> 8)
                }
                guard needsEscape & 1 == 0 else { return Self.writeString(bytes, to: &out) }
                out.append(UInt8(ascii: "\""))
                out.append(contentsOf: bytes)
                out.append(UInt8(ascii: "\""))
            }
        case .integer(let value):
            out.append(contentsOf: String(value).utf8)
        case .number(let text):
            out.append(contentsOf: text.utf8)
        case .bool(let value):
            out.append(contentsOf: (value ? "true" : "false").utf8)
        case .null:
            out.append(contentsOf: "null".utf8)
        }
    }

    private static func writeString(_ value: some Sequence<UInt8>, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in value {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0x0D: out.append(contentsOf: #"\r"#.utf8)
            case 0x09: out.append(contentsOf: #"\t"#.utf8)
            case 0x08: out.append(contentsOf: #"\b"#.utf8)
            case 0x0C: out.append(contentsOf: #"\f"#.utf8)
            case 0..<0x20:
                let digits = Array("0123456789abcdef".utf8)
                out.append(contentsOf: #"\u00"#.utf8)
                out.append(digits[Int(byte >> 4)])
                out.append(digits[Int(byte & 15)])
            default:
                out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Values are equal when their serialised bytes are.
    public static func == (lhs: JSONText, rhs: JSONText) -> Bool { lhs.bytes == rhs.bytes }
}

extension JSONText: Encodable {
    /// Writes the value through an encoder (object members in their order where the encoder
    /// keeps it), so that a `JSONText` can sit inside an `Encodable` request object.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .object(let members):
            var container = encoder.container(keyedBy: AnyKey.self)
            for (key, value) in members { try container.encode(value, forKey: AnyKey(stringValue: key)) }
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .secret:
            throw EncodingError.invalidValue("secret", .init(codingPath: encoder.codingPath, debugDescription: "a secret is written only by `bytes`"))
        case .integer(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .number(let text):
            var container = encoder.singleValueContainer()
            guard let value = Double(text) else {
                throw EncodingError.invalidValue(text, .init(codingPath: encoder.codingPath, debugDescription: "not a number"))
            }
            try container.encode(value)
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        }
    }
}

extension JSONText: Decodable {
    /// Reads any JSON value, for server-defined members kept as they came (PowerAuth's status
    /// `customObject`). Object members come out sorted by key: a decoder does not keep their
    /// order, and sorted is at least stable.
    public init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            var members: [(String, JSONText)] = []
            for key in object.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                members.append((key.stringValue, try object.decode(JSONText.self, forKey: key)))
            }
            self = .object(members)
        } else if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONText] = []
            while !array.isAtEnd { elements.append(try array.decode(JSONText.self)) }
            self = .array(elements)
        } else {
            let value = try decoder.singleValueContainer()
            if value.decodeNil() {
                self = .null
            } else if let flag = try? value.decode(Bool.self) {
                self = .bool(flag)
            } else if let integer = try? value.decode(Int64.self) {
                self = .integer(integer)
            } else if let number = try? value.decode(Double.self) {
                self = .number(String(number))
            } else {
                self = .string(try value.decode(String.self))
            }
        }
    }

    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
