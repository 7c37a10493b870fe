// compare: SwiftMFA against swift-crypto (BoringSSL) in one process, alternating rounds
// (docs/design.md §5). Prints `name | ours ops/s | swift-crypto ops/s | ours/theirs`; rows
// swift-crypto cannot do are given in units of one swift-crypto P-256 signature. With
// `--threads N` every row, theirs and the yardstick included, runs on N threads at once and
// the figures are aggregate ops/s (BenchmarkKit/Parallel.swift).

import BenchmarkKit
import Foundation

var filter: String?
var minTime = 0.2
var rounds = 7
var json = false
var threads = 1
var arguments = Array(CommandLine.arguments.dropFirst())

/// The usage line on standard error, exit status 2 (an unknown option or a value out of range).
func usage(_ problem: String) -> Never {
    FileHandle.standardError.write(Data("compare: \(problem)\nusage: compare [--filter TEXT] [--min-time SECONDS] [--rounds N] [--threads N] [--json]\n".utf8))
    exit(2)
}

/// The value after an option, checked against `range`; anything else is a usage error.
@MainActor
func value<T: LosslessStringConvertible & Comparable>(of option: String, in range: ClosedRange<T>) -> T {
    guard !arguments.isEmpty else { usage("\(option) needs a value") }
    let text = arguments.removeFirst()
    guard let parsed = T(text), range.contains(parsed) else { usage("\(option) \(text): not in \(range)") }
    return parsed
}

while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--json": json = true
    case "--filter" where !arguments.isEmpty: filter = arguments.removeFirst()
    case "--min-time": minTime = value(of: argument, in: 0.001...3600.0)
    case "--threads": threads = value(of: argument, in: 1...1024)
    case "--rounds": rounds = value(of: argument, in: 1...1000)
    default: usage("unknown argument \(argument)")
    }
}

/// Ours and theirs measured round by round in alternation; medians of each.
@MainActor
func alternate(_ oursRow: BenchmarkCase, _ theirsRow: BenchmarkCase) throws(BenchmarkFailure) -> (ours: Double, theirs: Double) {
    let ours = oursRow.parallel(threads: threads)
    let theirs = theirsRow.parallel(threads: threads)
    let oursIterations = try BenchmarkHarness.calibrate(ours, minTime: minTime)
    let theirsIterations = try BenchmarkHarness.calibrate(theirs, minTime: minTime)
    var oursTimes: [Double] = []
    var theirsTimes: [Double] = []
    for _ in 0..<rounds {
        oursTimes.append(try BenchmarkHarness.round(ours, iterations: oursIterations) / Double(oursIterations))
        theirsTimes.append(try BenchmarkHarness.round(theirs, iterations: theirsIterations) / Double(theirsIterations))
    }
    return (BenchmarkHarness.median(oursTimes) * 1e9, BenchmarkHarness.median(theirsTimes) * 1e9)
}

/// A row that could not be measured ends the run with its reason: a figure for a failing
/// operation would be the speed of its error path.
func fail(_ error: any Error) -> Never {
    FileHandle.standardError.write(Data("compare: \(error)\n".utf8))
    exit(1)
}

let yardstick = SwiftCryptoRows.yardstick
let rows: [BenchmarkCase]
let theirRows: [String: BenchmarkCase]
do {
    rows = try BenchmarkCatalog.rows(matching: filter)
    theirRows = try SwiftCryptoRows.all()
} catch {
    fail(error)
}
var yardstickTimes: [Double] = []
var report: [[String: Any]] = []
if !json {
    if threads > 1 { print("aggregate of \(threads) threads") }
    print("name | ours ops/s | swift-crypto ops/s | ours/theirs")
}
for row in rows {
    let output: [String: Any]
    if let theirs = theirRows[row.name] {
        let ours: Double, theirsNs: Double
        do { (ours, theirsNs) = try alternate(row, theirs) } catch { fail(error) }
        let ratio = theirsNs / ours
        output = ["name": row.name, "ours_ops_per_s": 1e9 / ours, "theirs_ops_per_s": 1e9 / theirsNs, "ratio": ratio,
                  "units": NSNull(), "ours_bytes_per_s": row.bytesPerOperation.map { Double($0) * 1e9 / ours } ?? NSNull()]
        if !json {
            var line = String(format: "%@ | %.1f | %.1f | %.3f", row.name, 1e9 / ours, 1e9 / theirsNs, ratio)
            if let bytes = row.bytesPerOperation {
                line += String(format: "   (ours %.1f MB/s, theirs %.1f MB/s)", Double(bytes) * 1e3 / ours, Double(bytes) * 1e3 / theirsNs)
            }
            print(line)
        }
    } else {
        // Interleave with the yardstick so the unit comes from the same moments.
        let ours: Double, stick: Double
        do { (ours, stick) = try alternate(row, yardstick) } catch { fail(error) }
        yardstickTimes.append(stick)
        let units = ours / stick
        output = ["name": row.name, "ours_ops_per_s": 1e9 / ours, "theirs_ops_per_s": NSNull(), "ratio": NSNull(),
                  "units": units, "ours_bytes_per_s": row.bytesPerOperation.map { Double($0) * 1e9 / ours } ?? NSNull()]
        if !json {
            print(String(format: "%@ | %.1f | - | - | %.3f units (%.3f µs; 1 unit = %.2f µs)", row.name, 1e9 / ours, units, ours / 1000, stick / 1000))
        }
    }
    report.append(output)
}
let stickNs: Double
do { stickNs = yardstickTimes.isEmpty ? try alternate(yardstick, yardstick).ours : BenchmarkHarness.median(yardstickTimes) } catch { fail(error) }
if json {
    let document: [String: Any] = ["yardstick_ns": stickNs, "rows": report]
    do {
        print(String(decoding: try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]), as: UTF8.self))
    } catch {
        fail(error)
    }
} else {
    print(String(format: "yardstick: one swift-crypto P-256 signature = %.1f ns", stickNs))
}
