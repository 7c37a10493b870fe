// Our explicit decisions on Wycheproof flags (DESIGN.md §2, habit 12). Every flag a file
// uses must be known to its checker; every "acceptable" case is decided by its flags here.

import VectorFormats

enum WycheproofDecisions {
    /// What we do with a flagged "acceptable" case.
    enum Decision {
        /// We implement the behaviour: the operation must succeed and be right.
        case accept
        /// We refuse the input: the operation must fail.
        case reject
    }

    /// Whether a case must succeed: valid → yes, invalid → no, acceptable → by the decisions on
    /// its flags (any `reject` wins). An acceptable case with a flag we have no decision for
    /// fails, and nil is returned.
    static func expectsSuccess(_ test: WycheproofFile.Test, _ decisions: [String: Decision], _ log: inout CaseLog) -> Bool? {
        switch test.result {
        case .valid: return true
        case .invalid: return false
        case .acceptable:
            let decided = test.flags.compactMap { decisions[$0] }
            guard !decided.isEmpty else {
                log.fail("#\(test.id)", test.comment, expected: "a decision for an acceptable case", got: "none for \(test.flags)")
                return nil
            }
            return !decided.contains(.reject)
        }
    }

    /// Fails the case (and returns false) when it carries a flag the checker does not know, or
    /// when a file's declared test count is wrong; returns true otherwise.
    static func knownFlags(_ test: WycheproofFile.Test, _ known: Set<String>, _ log: inout CaseLog) -> Bool {
        let unknown = test.flags.filter { !known.contains($0) }
        guard unknown.isEmpty else {
            log.fail("#\(test.id)", test.comment, expected: "known flags", got: "unknown flag(s) \(unknown.joined(separator: ", "))")
            return false
        }
        return true
    }

    /// Checks that the file holds as many tests as it declares.
    static func checkCount(_ file: WycheproofFile, _ log: inout CaseLog) {
        let actual = file.groups.reduce(0) { $0 + $1.tests.count }
        if file.numberOfTests != 0 && actual != file.numberOfTests {
            log.fileError("declares \(file.numberOfTests) tests, holds \(actual)")
        }
    }
}
