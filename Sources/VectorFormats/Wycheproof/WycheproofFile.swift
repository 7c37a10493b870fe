// Wycheproof test-vector files (github.com/C2SP/wycheproof, schema v1).

/// A Wycheproof file: header, notes and test groups.
public struct WycheproofFile: Sendable {
    /// The `algorithm` field, e.g. `AES-CBC-PKCS5`.
    public let algorithm: String
    /// The `schema` file name, e.g. `ind_cpa_test_schema_v1.json`.
    public let schema: String
    /// The declared number of tests.
    public let numberOfTests: Int
    /// Every flag described in `notes` (a test flag not listed here is an error).
    public let notedFlags: Set<String>
    /// The test groups.
    public let groups: [Group]

    /// A test group: its own fields (key sizes, keys, types) and its tests.
    public struct Group: Sendable {
        /// The group `type`, e.g. `IndCpaTest`.
        public let type: String
        /// Every field of the group except `tests`.
        public let fields: [String: JSONValue]
        /// The tests.
        public let tests: [Test]
    }

    /// One test case.
    public struct Test: Sendable {
        /// `tcId`.
        public let id: Int
        /// `comment`.
        public let comment: String
        /// `flags`.
        public let flags: [String]
        /// `result`.
        public let result: Result
        /// Every field of the test.
        public let fields: [String: JSONValue]

        /// The hex field `name` as bytes.
        public func bytes(_ name: String) throws(VectorFormatError) -> [UInt8] {
            guard let text = fields[name]?.string else { throw .missingField(name) }
            return try HexText.bytes(text, field: name)
        }
    }

    /// Wycheproof's verdicts.
    public enum Result: String, Sendable {
        /// Must be accepted.
        case valid
        /// Must be rejected.
        case invalid
        /// May be accepted or rejected; the runner decides per flag, explicitly.
        case acceptable
    }

    /// Reads a parsed document as a Wycheproof file, or returns nil if it is not one.
    public init?(_ json: JSONValue) throws(VectorFormatError) {
        guard let algorithm = json["algorithm"]?.string, let schema = json["schema"]?.string,
              let groups = json["testGroups"]?.array else { return nil }
        self.algorithm = algorithm
        self.schema = schema
        numberOfTests = json["numberOfTests"]?.int ?? 0
        notedFlags = Set(json["notes"]?.object?.keys.map { $0 } ?? [])
        var parsedGroups: [Group] = []
        for group in groups {
            guard var fields = group.object, let tests = fields.removeValue(forKey: "tests")?.array else {
                throw .malformed("test group without tests")
            }
            var parsedTests: [Test] = []
            for test in tests {
                guard let testFields = test.object, let id = test["tcId"]?.int,
                      let resultText = test["result"]?.string, let result = Result(rawValue: resultText) else {
                    throw .malformed("test without tcId or result")
                }
                let flags = test["flags"]?.array?.compactMap(\.string) ?? []
                parsedTests.append(Test(id: id, comment: test["comment"]?.string ?? "", flags: flags, result: result, fields: testFields))
            }
            parsedGroups.append(Group(type: fields["type"]?.string ?? "", fields: fields, tests: parsedTests))
        }
        self.groups = parsedGroups
    }
}
