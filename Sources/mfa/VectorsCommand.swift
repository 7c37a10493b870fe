// `mfa vectors [--json] [--verbose] [--junit FILE] [PATH ...]`.

import FoundationEssentials
import Glibc
import VectorRunner

enum VectorsCommand {
    /// Runs the command; returns the exit status (0 all passed, 1 any failure, 2 usage error
    /// or a JUnit file that cannot be written).
    static func run(_ arguments: [String]) -> Int32 {
        var json = false
        var verbose = false
        var junitPath: String?
        var paths: [String] = []
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--json": json = true
            case "--verbose": verbose = true
            case "--junit":
                guard let path = remaining.popFirst(), !path.hasPrefix("-") else {
                    StandardStreams.writeError("mfa vectors: --junit needs a FILE\n")
                    return 2
                }
                junitPath = path
            case let option where option.hasPrefix("-"):
                StandardStreams.writeError("mfa vectors: unknown option \(option)\n")
                return 2
            default: paths.append(argument)
            }
        }
        // A progress line on standard error, only when standard output is a terminal.
        var progress = ProgressLine(enabled: isatty(STDOUT_FILENO) == 1, clock: monotonicSeconds, write: StandardStreams.writeError)
        let report = VectorRunner.run(roots: paths.isEmpty ? VectorRunner.defaultRoots() : paths) { done, total in
            progress.update(done: done, total: total)
        }
        progress.finish()
        print(json ? report.json() : report.text(verbose: verbose))
        if let junitPath {
            do {
                try Data(report.junitXML().utf8).write(to: URL(fileURLWithPath: junitPath), options: .atomic)
            } catch {
                StandardStreams.writeError("mfa vectors: cannot write \(junitPath): \(error)\n")
                return 2
            }
        }
        return report.exitCode
    }
}

/// Seconds on the monotonic clock.
private func monotonicSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
