// `mfa selftest` runs the engine's start-up
// known-answer tests now and prints each with the time the whole run took; exit 0 only when
// every one passed. The SDKs run the same tests once per process when their first SecureStore
// opens, and refuse to start when one fails.

import CryptoPrimitives
import Dispatch
import MFACommandLine

enum SelfTestCommand {
    /// Runs the tests and prints them (as one JSON object with `--json`); exit 0 only when
    /// every one passed, else 1.
    static func run(_ options: CommandOptions) -> Int32 {
        let json = options.json
        let start = DispatchTime.now().uptimeNanoseconds
        let results = CryptoSelfTest.runKnownAnswerTests()
        let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        let passed = results.allSatisfy(\.passed)
        if json {
            let object: [String: Any] = ["passed": passed, "milliseconds": milliseconds,
                                         "tests": results.map { ["algorithm": $0.algorithm, "passed": $0.passed] }]
            print(JSONOutput.render(object))
        } else {
            for result in results { print("\(result.passed ? "PASS" : "FAIL") \(result.algorithm)") }
            print("\(passed ? "all self-tests passed" : "SELF-TEST FAILED") in \(NumberText.fixed(milliseconds, decimals: 2, width: 0)) ms")
        }
        return passed ? 0 : 1
    }
}
