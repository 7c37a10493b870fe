// `mfa acvp check` for answers the IUT chooses at random (its own keys, signatures, keying
// material): the expected results hold the server's own random values, so comparing would fail
// every correct response. The response is read as the answers to the prompt and run through the
// same checkers as `mfa vectors` (Q = d·G with d in [1, n − 1], signatures verify under the
// response's key, the initiator's ciphertext decrypts to its dkm under the server's key).

import VectorFormats

extension ACVPLab {
    /// The vector checkers' verdicts on a response read as the answers to its prompt.
    struct Validation {
        private var passed: Set<String> = []
        private var failures: [String: CaseFailure] = [:]
        private var skips: [String: String] = [:]
        private var fileError: String?

        /// Runs the checkers over the prompt with the response as its expected results.
        init(prompt: JSONValue, response: JSONValue, path: String) {
            var log = CaseLog(path: path)
            do {
                ACVPRunner.check(try ACVPFile(prompt: prompt, expected: response), &log)
            } catch {
                log.fileError("\(error)")
            }
            let report = log.report
            passed = Set(report.passedIDs)
            for failure in report.failures { failures[failure.id] = failure }
            for skip in report.skips { skips[skip.id] = skip.reason }
            fileError = report.fileError
        }

        /// Whether an expected case's answer is the IUT's own random choice, to be validated
        /// rather than compared: ECDSA keyGen and sigGen, RSA sigGen, a KTS-IFC initiator's
        /// `iutC` (with its dkm), a KAS-ECC-SSC AFT case (the IUT's key and Z).
        static func isRandom(_ algorithm: String, _ mode: String, _ expected: ACVPFields) -> Bool {
            switch (algorithm, mode) {
            case ("ECDSA", "keyGen"), ("ECDSA", "sigGen"), ("RSA", "sigGen"): true
            case ("KTS-IFC", _): expected.has("iutC")
            case ("KAS-ECC-SSC", _): !expected.has("testPassed")
            default: false
            }
        }

        /// Records the checkers' verdict on case `id` in `log`.
        func judge(_ id: String, _ comment: String, _ log: inout CaseLog) {
            if let failure = failures[id] {
                log.fail(id, failure.comment + " (validated)", expected: failure.expected, got: failure.got)
            } else if let reason = skips[id] {
                log.skip(id, reason: reason)
            } else if passed.contains(id) {
                log.pass(id)
            } else {
                log.fail(id, comment, expected: "a response that answers the prompt", got: fileError ?? "no verdict on this case")
            }
        }
    }
}
