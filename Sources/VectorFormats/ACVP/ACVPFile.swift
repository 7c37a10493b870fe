// NIST ACVP vector sets (github.com/usnistgov/ACVP-Server, gen-val/json-files): a prompt and
// its expected results, paired on (tgId, tcId), or one file holding both.

/// An ACVP vector set: the header naming the algorithm, and its test groups with the answers
/// merged in.
///
/// ACVP files come as `[{"acvVersion": …}, {"vsId": …, "algorithm": …, "testGroups": […]}]` or
/// as the bare second object. The prompt holds the inputs; `expectedResults.json` repeats the
/// tgId/tcId skeleton with the answers only.
public struct ACVPFile: Sendable {
    /// `algorithm`, e.g. `SHA2-256`, `ACVP-AES-CBC`, `ECDSA`.
    public let algorithm: String
    /// `mode`, e.g. `sigVer`; empty when absent.
    public let mode: String
    /// `revision`, e.g. `1.0`, `FIPS186-5`.
    public let revision: String
    /// The vector set identifier (`vsId`), 0 when absent.
    public let vectorSetID: Int
    /// The test groups, in file order.
    public let groups: [ACVPGroup]

    /// Whether `json` looks like an ACVP vector set (an `algorithm`, a `revision` and
    /// `testGroups`, possibly after the `acvVersion` header object).
    public static func isACVP(_ json: JSONValue) -> Bool {
        guard let body = body(of: json) else { return false }
        return body["algorithm"]?.string != nil && body["revision"] != nil && body["testGroups"]?.array != nil
    }

    /// The vector-set object of a file: the object itself, or the element after the
    /// `acvVersion` header of an array.
    static func body(of json: JSONValue) -> JSONValue? {
        if json.object != nil { return json }
        guard let elements = json.array else { return nil }
        return elements.first { $0["testGroups"] != nil }
    }

    /// Parses a prompt and, when given, its expected results; without them the prompt's own
    /// test objects are taken to hold the answers (a combined file).
    public init(prompt: JSONValue, expected: JSONValue? = nil) throws(ACVPFormatError) {
        guard let body = Self.body(of: prompt) else { throw .notACVP("no object with testGroups") }
        guard let algorithm = body["algorithm"]?.string else { throw .missingField("algorithm", at: "vector set") }
        self.algorithm = algorithm
        mode = body["mode"]?.string ?? ""
        revision = try Self.text(body["revision"], "revision", at: "vector set")
        vectorSetID = body["vsId"].flatMap(ACVPFields.integer) ?? 0
        guard let groupValues = body["testGroups"]?.array else { throw .wrongType("testGroups", expected: "array", at: "vector set") }
        var answers: [Int: (group: [String: JSONValue], tests: [Int: [String: JSONValue]])] = [:]
        if let expected {
            guard let expectedBody = Self.body(of: expected), let expectedGroups = expectedBody["testGroups"]?.array else {
                throw .notACVP("expected results hold no testGroups")
            }
            if let other = expectedBody["algorithm"]?.string, other != algorithm {
                throw .mismatch("expected results are for \(other), the prompt for \(algorithm)")
            }
            for group in expectedGroups {
                let (id, fields, tests) = try Self.split(group, at: "expected results")
                answers[id] = (fields, tests.reduce(into: [:]) { $0[$1.id] = $1.fields })
            }
        }
        var groups: [ACVPGroup] = []
        for group in groupValues {
            let (id, fields, tests) = try Self.split(group, at: "prompt")
            let answer = answers[id]
            if expected != nil, answer == nil { throw .mismatch("expected results have no tgId \(id)") }
            groups.append(ACVPGroup(id: id, fields: ACVPFields(fields, answer?.group ?? [:], at: "tgId \(id)"), tests: tests.map { test in
                ACVPCase(id: test.id, groupID: id, fields: ACVPFields(test.fields, answer?.tests[test.id] ?? [:], at: "tcId \(test.id)"),
                         hasExpectedResult: expected == nil || answer?.tests[test.id] != nil)
            }))
        }
        self.groups = groups
    }

    private static func text(_ value: JSONValue?, _ name: String, at place: String) throws(ACVPFormatError) -> String {
        guard let value else { throw .missingField(name, at: place) }
        if let text = value.string { return text }
        if let number = value.int { return String(number) }
        throw .wrongType(name, expected: "string", at: place)
    }

    /// A group's tgId, its fields other than `tests`, and its tests' tcIds and fields.
    private static func split(_ group: JSONValue, at place: String) throws(ACVPFormatError)
        -> (Int, [String: JSONValue], [(id: Int, fields: [String: JSONValue])]) {
        guard var fields = group.object else { throw .wrongType("testGroups[]", expected: "object", at: place) }
        guard let idValue = fields["tgId"] else { throw .missingField("tgId", at: place) }
        guard let id = ACVPFields.integer(idValue) else { throw .wrongType("tgId", expected: "integer", at: place) }
        guard let testValues = fields.removeValue(forKey: "tests") else { throw .missingField("tests", at: "\(place) tgId \(id)") }
        guard let testArray = testValues.array else { throw .wrongType("tests", expected: "array", at: "\(place) tgId \(id)") }
        var tests: [(id: Int, fields: [String: JSONValue])] = []
        for test in testArray {
            guard let testFields = test.object else { throw .wrongType("tests[]", expected: "object", at: "\(place) tgId \(id)") }
            guard let caseValue = testFields["tcId"] else { throw .missingField("tcId", at: "\(place) tgId \(id)") }
            guard let caseID = ACVPFields.integer(caseValue) else { throw .wrongType("tcId", expected: "integer", at: "\(place) tgId \(id)") }
            tests.append((caseID, testFields))
        }
        return (id, fields, tests)
    }
}

/// One ACVP test group.
public struct ACVPGroup: Sendable {
    /// `tgId`.
    public let id: Int
    /// The group's fields, prompt and expected results merged (`testType`, `curve`, `qx`, …).
    public let fields: ACVPFields
    /// The group's test cases.
    public let tests: [ACVPCase]
}

/// One ACVP test case.
public struct ACVPCase: Sendable {
    /// `tcId`.
    public let id: Int
    /// The `tgId` of its group.
    public let groupID: Int
    /// The case's fields, prompt and expected results merged.
    public let fields: ACVPFields
    /// False when paired expected results hold no entry for this tcId.
    public let hasExpectedResult: Bool
}

/// Why an ACVP file could not be read.
public enum ACVPFormatError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The document is not an ACVP vector set.
    case notACVP(String)
    /// A required field is absent.
    case missingField(String, at: String)
    /// A field has the wrong JSON type or cannot be decoded (bad hex, negative length).
    case wrongType(String, expected: String, at: String)
    /// Prompt and expected results do not belong together.
    case mismatch(String)

    /// A readable reason naming the field.
    public var description: String {
        switch self {
        case .notACVP(let why): "not an ACVP vector set: \(why)"
        case .missingField(let name, let place): "missing field \(name) (\(place))"
        case .wrongType(let name, let type, let place): "field \(name) is not \(type) (\(place))"
        case .mismatch(let why): "prompt and expected results do not match: \(why)"
        }
    }
}
