// Typed access to the fields of an ACVP group or case: a missing field or one of the wrong type
// is an error naming it, never a default value.

/// The fields of an ACVP test group or case: the prompt's inputs and the expected results'
/// answers. Unknown fields are kept and ignored.
public struct ACVPFields: Sendable {
    /// The fields from the prompt (or from the one file of a combined set).
    public let prompt: [String: JSONValue]
    /// The fields from the expected results.
    public let expected: [String: JSONValue]
    /// Where these fields are, for messages (`tcId 7`).
    public let place: String

    /// Fields from a prompt object and its expected-results counterpart.
    public init(_ prompt: [String: JSONValue], _ expected: [String: JSONValue] = [:], at place: String) {
        self.prompt = prompt
        self.expected = expected
        self.place = place
    }

    /// Whether the field is present in either half.
    public func has(_ name: String) -> Bool {
        prompt[name] != nil || expected[name] != nil
    }

    /// The raw value of an input: the prompt's, else the expected results'.
    public func value(_ name: String) -> JSONValue? {
        prompt[name] ?? expected[name]
    }

    /// The raw value of an answer: the expected results', else (a combined file) the prompt's.
    public func answerValue(_ name: String) -> JSONValue? {
        expected[name] ?? prompt[name]
    }

    /// A required string field.
    public func string(_ name: String, answer: Bool = false) throws(ACVPFormatError) -> String {
        guard let value = answer ? answerValue(name) : value(name) else { throw .missingField(name, at: place) }
        guard let text = value.string else { throw .wrongType(name, expected: "a string", at: place) }
        return text
    }

    /// A required hex field as bytes (an empty string is no bytes).
    public func hex(_ name: String, answer: Bool = false) throws(ACVPFormatError) -> [UInt8] {
        let text = try string(name, answer: answer)
        do {
            return try HexText.bytes(text, field: name)
        } catch {
            throw .wrongType(name, expected: "hex", at: place)
        }
    }

    /// A required non-negative integer field (a JSON number, or a decimal string as some
    /// ACVP servers write lengths).
    /// A field that sets how much work a case costs is refused beyond ``workLimits`` before any
    /// of that work starts.
    public func integer(_ name: String, answer: Bool = false) throws(ACVPFormatError) -> Int {
        guard let value = answer ? answerValue(name) : value(name) else { throw .missingField(name, at: place) }
        guard let number = Self.integer(value), number >= 0 else { throw .wrongType(name, expected: "a non-negative integer", at: place) }
        if let limit = Self.workLimits[name], !limit.contains(number) {
            throw .wrongType(name, expected: "an integer within \(limit.lowerBound)...\(limit.upperBound) (the file says \(number))", at: place)
        }
        return number
    }

    /// The fields whose value sets the work or memory of a case, with the largest value a vector
    /// run takes: the ACVP specifications' own maxima with room (PBKDF iterationCount 1 to
    /// 10,000,000 and keyLen up to 4,096 bits; output lengths of a few thousand bits; LDT
    /// messages up to 8 GiB, which the runner then bounds by its own limit). A hostile file
    /// asking for 10^12 iterations or a 10^9-bit key is refused at once, not run for hours.
    public static let workLimits: [String: ClosedRange<Int>] = [
        "iterationCount": 1...10_000_000, "keyLen": 0...65_536, "keyDataLength": 0...65_536, "l": 0...65_536,
        "macLen": 0...65_536, "saltLen": 0...65_536, "modulo": 0...16_384, "payloadLen": 0...(1 << 24), "len": 0...(1 << 24),
        "contentLength": 0...(1 << 24), "fullLength": 0...(1 << 40),
    ]

    /// The most Monte Carlo rounds a `resultsArray` may ask for (ACVP's MCTs have 100): each
    /// costs a thousand operations, so the count is bounded like an iteration count.
    public static let monteCarloRoundLimit = 1_000

    /// A required Boolean field (`true`/`false`, or the strings `"true"`/`"false"`).
    public func bool(_ name: String, answer: Bool = false) throws(ACVPFormatError) -> Bool {
        guard let value = answer ? answerValue(name) : value(name) else { throw .missingField(name, at: place) }
        if let flag = value.bool { return flag }
        switch value.string?.lowercased() {
        case "true"?: return true
        case "false"?: return false
        default: throw .wrongType(name, expected: "a Boolean", at: place)
        }
    }

    /// A required array of objects (an MCT `resultsArray`), each as fields.
    public func objects(_ name: String, answer: Bool = true) throws(ACVPFormatError) -> [ACVPFields] {
        guard let value = answer ? answerValue(name) : value(name) else { throw .missingField(name, at: place) }
        guard let elements = value.array else { throw .wrongType(name, expected: "an array", at: place) }
        var result: [ACVPFields] = []
        for (index, element) in elements.enumerated() {
            guard let members = element.object else { throw .wrongType("\(name)[\(index)]", expected: "an object", at: place) }
            result.append(ACVPFields(members, at: "\(place) \(name)[\(index)]"))
        }
        return result
    }

    /// A required object field, as fields.
    public func object(_ name: String) throws(ACVPFormatError) -> ACVPFields {
        guard let value = value(name) else { throw .missingField(name, at: place) }
        guard let members = value.object else { throw .wrongType(name, expected: "an object", at: place) }
        return ACVPFields(members, at: "\(place) \(name)")
    }

    /// An integer from a JSON number or a decimal string; nil otherwise.
    static func integer(_ value: JSONValue) -> Int? {
        if let number = value.int { return number }
        if let text = value.string { return Int(text) }
        return nil
    }
}
