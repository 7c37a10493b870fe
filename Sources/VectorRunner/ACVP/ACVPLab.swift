// A lab's ACVP workflow (`mfa acvp respond|check`): answer a prompt as the IUT, and compare a
// response file with the expected results field by field.

import FoundationEssentials
import VectorFormats

/// Answers ACVP prompts with the engine and compares responses with expected results.
public enum ACVPLab {
    /// Why a prompt, response or expected-results file could not be used.
    public struct FileError: Error, CustomStringConvertible {
        /// What went wrong, naming the file.
        public let description: String
    }

    /// A response to a prompt.
    public struct Response: Sendable {
        /// The response document (`[{"acvVersion":"1.0"},{"vsId":…,"testGroups":[…]}]`) as JSON text.
        public let json: String
        /// The cases answered.
        public let answered: Int
        /// Cases left out of the response, each `tcId N: reason`.
        public let unanswered: [String]
    }

    /// The engine's response to the prompt at `path`.
    public static func respond(promptPath path: String) throws(FileError) -> Response {
        let file: ACVPFile
        do {
            file = try ACVPFile(prompt: try load(path))
        } catch let error as FileError {
            throw error
        } catch {
            throw FileError(description: "\(path): \(error)")
        }
        var answered = 0
        var unanswered: [String] = []
        var groups: [JSONValue] = []
        let keys = ACVPResponder.KeyPool()
        for group in file.groups {
            let answer = ACVPResponder.answer(file, group, keys: keys)
            var tests: [JSONValue] = []
            for (id, caseAnswer) in answer.cases {
                switch caseAnswer {
                case .fields(var fields):
                    fields["tcId"] = .number(Double(id))
                    tests.append(.object(fields))
                    answered += 1
                case .unanswered(let reason):
                    unanswered.append("tcId \(id): \(reason)")
                }
            }
            var fields = answer.fields
            // A group whose cases all went unanswered gives no key of its own.
            if tests.isEmpty { fields = [:] }
            fields["tgId"] = .number(Double(group.id))
            fields["tests"] = .array(tests)
            groups.append(.object(fields))
        }
        var header: [String: JSONValue] = ["vsId": .number(Double(file.vectorSetID)), "algorithm": .string(file.algorithm),
                                           "revision": .string(file.revision), "testGroups": .array(groups)]
        if !file.mode.isEmpty { header["mode"] = .string(file.mode) }
        let document = JSONValue.array([.object(["acvVersion": .string("1.0")]), .object(header)])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        do {
            return Response(json: String(decoding: try encoder.encode(document), as: UTF8.self) + "\n", answered: answered, unanswered: unanswered)
        } catch {
            throw FileError(description: "the response could not be encoded: \(error)")
        }
    }

    /// Compares the response at `responsePath` with the expected results at `expectedPath`:
    /// every field of every expected case must be in the response with the same value (hex
    /// compared without regard to case, MCT `resultsArray` element by element). Where the
    /// answers are the IUT's own random values (ECDSA keyGen and sigGen, RSA sigGen, KTS-IFC
    /// initiator ciphertexts, KAS-ECC-SSC AFT keys) the response is validated against the
    /// prompt instead — `promptPath`, else the `prompt.json` beside an `expectedResults.json` —
    /// and those cases are skipped when there is no prompt.
    public static func check(responsePath: String, expectedPath: String, promptPath: String? = nil) throws(FileError) -> FileReport {
        let response: ACVPFile, expected: ACVPFile, responseJSON = try load(responsePath)
        let promptPath = promptPath ?? ACVPRunner.promptPath(forExpected: expectedPath)
        var validation: Validation?
        do {
            response = try ACVPFile(prompt: responseJSON)
            expected = try ACVPFile(prompt: try load(expectedPath))
            if let promptPath { validation = Validation(prompt: try load(promptPath), response: responseJSON, path: responsePath) }
        } catch let error as FileError {
            throw error
        } catch {
            throw FileError(description: "\(error)")
        }
        var log = CaseLog(path: responsePath)
        if response.algorithm != expected.algorithm {
            log.fileError("the response is for \(response.algorithm), the expected results for \(expected.algorithm)")
        }
        var answers: [Int: [String: JSONValue]] = [:]
        for group in response.groups {
            for test in group.tests { answers[test.id] = test.fields.prompt }
        }
        for group in expected.groups {
            for test in group.tests {
                let id = "#\(test.id)", comment = "tgId \(group.id)"
                guard let answer = answers[test.id] else {
                    log.fail(id, comment, expected: "an answer", got: "none in the response")
                    continue
                }
                if Validation.isRandom(expected.algorithm, expected.mode, test.fields) {
                    guard let validation else {
                        log.skip(id, reason: "the IUT's own random answers are validated against the prompt: put prompt.json beside the expected results or give --prompt")
                        continue
                    }
                    validation.judge(id, comment, &log)
                    continue
                }
                let differing = test.fields.prompt.keys.sorted().filter { $0 != "tcId" && !same(test.fields.prompt[$0], answer[$0]) }
                if let name = differing.first {
                    log.fail(id, comment + " " + name, expected: render(test.fields.prompt[name]), got: render(answer[name]))
                } else {
                    log.pass(id)
                }
            }
        }
        return log.report
    }

    /// Whether two answer values agree (strings compared without regard to case, as ACVP hex is).
    static func same(_ a: JSONValue?, _ b: JSONValue?) -> Bool {
        switch (a, b) {
        case (.string(let x)?, .string(let y)?): x.uppercased() == y.uppercased()
        case (.array(let x)?, .array(let y)?): x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.object(let x)?, .object(let y)?): x.keys.sorted() == y.keys.sorted() && x.allSatisfy { same($0.value, y[$0.key]) }
        default: a == b
        }
    }

    private static func render(_ value: JSONValue?) -> String {
        guard let value else { return "(absent)" }
        return String(decoding: value.serialized, as: UTF8.self)
    }

    private static func load(_ path: String) throws(FileError) -> JSONValue {
        do {
            return try JSONValue.parse(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw FileError(description: "\(path): \(FileErrorText.reason(error))")
        }
    }
}

extension RunReport {
    /// A report over files checked one by one (`mfa acvp check`), each file its own root.
    public init(checked files: [FileReport]) {
        self.init(roots: files.map(\.path), files: files)
    }
}
