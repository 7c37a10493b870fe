// `mfa bench [--filter TEXT] [--min-time SECONDS] [--json]`: our own throughput, no dependency.

import BenchmarkKit
import Foundation

enum BenchCommand {
    /// Runs the command; returns the exit status (0, or 2 on a usage error).
    static func run(_ arguments: [String]) -> Int32 {
        var filter: String?
        var minTime = 0.2
        var json = false
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "--json":
                json = true
            case "--filter" where index + 1 < arguments.count:
                filter = arguments[index + 1]
                index += 1
            case "--min-time" where index + 1 < arguments.count:
                guard let value = Double(arguments[index + 1]), value > 0 else { return usage("bad --min-time") }
                minTime = value
                index += 1
            default:
                return usage("unknown argument \(arguments[index])")
            }
            index += 1
        }
        let rows = BenchmarkCatalog.rows(matching: filter)
        guard !rows.isEmpty else { return usage("no row matches \(filter ?? "")") }
        var results: [BenchmarkResult] = []
        for row in rows {
            let result = BenchmarkHarness.measure(row, minTime: minTime)
            results.append(result)
            if !json { print(line(result, nameWidth: rows.map(\.name.count).max() ?? 32)) }
        }
        if json { print(document(results)) }
        return 0
    }

    private static func line(_ result: BenchmarkResult, nameWidth: Int) -> String {
        // Pad to the longest selected name; never cut a name.
        var text = result.name + String(repeating: " ", count: max(0, max(32, nameWidth) - result.name.count))
            + String(format: " %14.1f ops/s %12.3f µs/op", result.operationsPerSecond, result.nanosecondsPerOperation / 1000)
        if let bytes = result.bytesPerSecond { text += String(format: " %10.1f MB/s", bytes / 1e6) }
        return text
    }

    private static func document(_ results: [BenchmarkResult]) -> String {
        let rows: [[String: Any]] = results.map {
            ["name": $0.name, "ops_per_s": $0.operationsPerSecond, "ns_per_op": $0.nanosecondsPerOperation,
             "bytes_per_s": $0.bytesPerSecond.map { $0 as Any } ?? NSNull()]
        }
        let data = (try? JSONSerialization.data(withJSONObject: ["rows": rows], options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    private static func usage(_ message: String) -> Int32 {
        FileHandle.standardError.write(Data("mfa bench: \(message)\nusage: mfa bench [--filter TEXT] [--min-time SECONDS] [--json]\n".utf8))
        return 2
    }
}
