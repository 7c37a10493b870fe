// `mfa vectors [--json] [--verbose] [--junit FILE] [PATH ...]`.

import FoundationEssentials
import Glibc
import MFACommandLine
import VectorRunner

enum VectorsCommand {
    /// Runs the vector files under the options' paths (the defaults without any) with the
    /// options the command model read; returns the exit status (0, 1 on any failure, 2 when
    /// the JUnit report cannot be written).
    static func run(_ options: CommandOptions) -> Int32 {
        let json = options.json
        let verbose = options.flags.contains("--verbose")
        let junitPath = options.values["--junit"]
        let paths = options.positional
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
                return CommandErrors.report("mfa vectors", message: "cannot write the JUnit report \(junitPath): \(FileErrorText.reason(error))", code: "file", status: .usage)
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
