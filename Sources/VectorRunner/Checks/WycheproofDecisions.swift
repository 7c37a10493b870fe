// Our explicit decisions on Wycheproof flags (docs/design.md §2, habit 12). Every "acceptable" case
// is decided by its flags here; a flag newer than this runner is noted, and a valid or invalid
// case carrying it is still judged on its result (newer suites add flags).

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

    /// Notes a flag the checker does not know; the case is still run and judged (a valid or
    /// invalid case on its result, an acceptable one by ``expectsSuccess(_:_:_:)``, which fails
    /// it when no flag of it has a decision). Always returns true.
    @discardableResult
    static func knownFlags(_ test: WycheproofFile.Test, _ known: Set<String>, _ log: inout CaseLog) -> Bool {
        let unknown = test.flags.filter { !known.contains($0) }
        if !unknown.isEmpty {
            log.note("#\(test.id)", "unknown flag(s) \(unknown.joined(separator: ", ")), judged on its result (\(test.result))")
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
