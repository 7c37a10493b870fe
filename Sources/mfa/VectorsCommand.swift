// `mfa vectors [--json] [--verbose] [PATH ...]`.

import FoundationEssentials
import VectorRunner

enum VectorsCommand {
    /// Runs the command; returns the exit status (0 all passed, 1 any failure, 2 usage error).
    static func run(_ arguments: [String]) -> Int32 {
        var json = false
        var verbose = false
        var paths: [String] = []
        for argument in arguments {
            switch argument {
            case "--json": json = true
            case "--verbose": verbose = true
            case let option where option.hasPrefix("-"):
                StandardStreams.writeError("mfa vectors: unknown option \(option)\n")
                return 2
            default: paths.append(argument)
            }
        }
        let report = VectorRunner.run(roots: paths.isEmpty ? VectorRunner.defaultRoots() : paths)
        print(json ? report.json() : report.text(verbose: verbose))
        return report.exitCode
    }
}
