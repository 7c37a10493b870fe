// `mfa bench [--filter TEXT] [--min-time SECONDS] [--threads N [--against-processes]] [--json]`:
// our own throughput, no dependency. `--threads N` reports N threads' aggregate ops/s (each
// thread running the row at once, BenchmarkKit/Parallel.swift); with `--against-processes`
// the one-thread and N-process figures of the same run are printed beside it (BenchScaling).
// `mfa bench --filter A|B --iterations N` runs each row named exactly A, B … once to warm up and
// then N times untimed inside `BenchmarkHarness.instructionCountedRun`, for callgrind
// (`Benchmarks/instruction-counts`). `mfa bench --key-provider file|passphrase|pkcs11:<URI>`
// measures a store key provider instead (BenchKeyProviders).

import MFACommandLine
import BenchmarkKit
import FoundationEssentials

enum BenchCommand {
    /// The internal child of `--against-processes` (`bench --child NAME ITERATIONS ROUNDS`),
    /// which never goes through the command model: its parent starts it.
    static func runChild(_ arguments: [String]) -> Int32 {
        do {
            guard arguments.count == 4, let row = try BenchmarkCatalog.all().first(where: { $0.name == arguments[1] }),
                  let iterations = Int(arguments[2]), iterations > 0,
                  let rounds = Int(arguments[3]), rounds > 0 else { return usage("bad --child") }
            try BenchScaling.runChild(row, iterations: iterations, rounds: rounds)
            return 0
        } catch {
            return rowFailed(error)
        }
    }

    /// Runs the command with the options the command model read; returns the exit status: 0,
    /// 2 on a usage error, 3 when a row failed (its set-up or an operation), 1 when
    /// `--against-processes` children failed.
    static func run(_ options: CommandOptions) -> Int32 {
        let filter = options.values["--filter"]
        let json = options.json
        let againstProcesses = options.flags.contains("--against-processes")
        let keyProvider = options.values["--key-provider"]  // a PIN never comes from here (BenchKeyProviders)
        let minTime: Double, threads: Int, countedIterations: Int?
        do throws(UsageError) {
            minTime = try options.seconds("--min-time", default: 0.2, in: 0.001...3600)
            threads = try options.integer("--threads", default: 1, in: 1...1024)
            countedIterations = options.values["--iterations"] == nil ? nil
                : try options.integer("--iterations", default: 1, in: 1...1_000_000_000)
        } catch {
            return usage(error.description)
        }
        if let keyProvider {
            guard threads == 1, !againstProcesses, countedIterations == nil else {
                return usage("--key-provider takes no --threads, --against-processes or --iterations")
            }
            return BenchKeyProviders.run(keyProvider, filter: filter, minTime: minTime, json: json)
        }
        do {
            if let countedIterations {
                // Exact names, in the order given, so each callgrind dump belongs to one row.
                let names = (filter ?? "").split(separator: "|").map(String.init)
                let all = try BenchmarkCatalog.all()
                var selected: [BenchmarkCase] = []
                for name in names {
                    guard let row = all.first(where: { $0.name == name }) else { return usage("no row is named \(name)") }
                    selected.append(row)
                }
                for row in selected {
                    try row.run(1)  // lazy tables and first-use work stay out of the count
                    try BenchmarkHarness.instructionCountedRun(row, iterations: countedIterations)
                    print("\(row.name)\t\(countedIterations)")
                }
                return 0
            }
            let rows = try BenchmarkCatalog.rows(matching: filter)
            guard !rows.isEmpty else { return usage("no row matches \(filter ?? "")") }
            if againstProcesses {
                guard threads > 1 else { return usage("--against-processes needs --threads N with N > 1") }
                return try scaling(rows, threads: threads, minTime: minTime, json: json)
            }
            var results: [BenchmarkResult] = []
            for row in rows {
                let result = try BenchmarkHarness.measure(row.parallel(threads: threads), minTime: minTime)
                results.append(result)
                if !json { print(line(result, nameWidth: rows.map(\.name.count).max() ?? 32)) }
            }
            if json { print(document(results)) }
            return 0
        } catch {
            return rowFailed(error)
        }
    }

    /// A row whose set-up or operation failed: reported (as JSON with `--json`), exit status 3.
    /// In text, the rows measured before it are already printed; with `--json` the one
    /// document is the error.
    private static func rowFailed(_ error: BenchmarkFailure) -> Int32 {
        CommandSupport.fail("mfa bench", error.description, .transportOrStore)
    }

    /// One thread, N threads and N processes per row, and threads ÷ processes.
    private static func scaling(_ rows: [BenchmarkCase], threads: Int, minTime: Double, json: Bool) throws(BenchmarkFailure) -> Int32 {
        var documents: [[String: Any]] = []
        var failed = false
        if !json {
            print("row | 1 thread ops/s | \(threads) threads ops/s | \(threads) processes ops/s | threads/processes")
        }
        for row in rows {
            let result = try BenchScaling.measure(row, threads: threads, minTime: minTime, rounds: 5, againstProcesses: true)
            guard let processes = result.processes else {
                StandardStreams.writeError("mfa bench: the child processes for \(row.name) failed\n")
                failed = true
                continue
            }
            if json {
                documents.append(["name": result.name, "threads": threads, "single_ops_per_s": result.single,
                                  "threads_ops_per_s": result.threads, "processes_ops_per_s": processes,
                                  "threads_over_processes": result.threads / processes])
            } else {
                print(result.name + " | " + NumberText.fixed(result.single, decimals: 1, width: 0) + " | "
                      + NumberText.fixed(result.threads, decimals: 1, width: 0) + " | "
                      + NumberText.fixed(processes, decimals: 1, width: 0) + " | "
                      + NumberText.fixed(result.threads / processes, decimals: 3, width: 0))
            }
        }
        if json { print(JSONOutput.render(["rows": documents])) }
        return failed ? 1 : 0
    }

    private static func line(_ result: BenchmarkResult, nameWidth: Int) -> String {
        // Pad to the longest selected name; never cut a name.
        var text = result.name + String(repeating: " ", count: max(0, max(32, nameWidth) - result.name.count))
            + " " + NumberText.fixed(result.operationsPerSecond, decimals: 1, width: 14) + " ops/s "
            + NumberText.fixed(result.nanosecondsPerOperation / 1000, decimals: 3, width: 12) + " µs/op"
        if let bytes = result.bytesPerSecond { text += " " + NumberText.fixed(bytes / 1e6, decimals: 1, width: 10) + " MB/s" }
        return text
    }

    private static func document(_ results: [BenchmarkResult]) -> String {
        let rows: [[String: Any]] = results.map {
            ["name": $0.name, "ops_per_s": $0.operationsPerSecond, "ns_per_op": $0.nanosecondsPerOperation,
             "bytes_per_s": $0.bytesPerSecond.map { $0 as Any } ?? JSONOutput.null]
        }
        return JSONOutput.render(["rows": rows])
    }

    /// A usage error: one line, or one JSON object under `--json` (`mfa bench --help` has the forms).
    private static func usage(_ message: String) -> Int32 {
        CommandSupport.fail("mfa bench", message + " (mfa bench --help)", .usage)
    }
}
