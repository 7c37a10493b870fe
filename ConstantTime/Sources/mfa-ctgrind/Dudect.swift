// The dudect-style statistical timing check: for each operation, inputs of
// two classes — one fixed secret (class 0) and fresh random secrets (class 1) — are interleaved
// in a random order, each call is timed with the cycle counter, and Welch's t-test compares the
// classes (Welch.swift). A tool, not a test: timings on a shared machine are noisy, so it
// prints t-values and dudect's reading of them, and never fails a build.
//
//   mfa-ctgrind dudect [--samples-scale X] [NAME...]
import CMemcheck
import CryptoPrimitives

/// One operation timed over two classes of secret input.
struct TimingTarget: Sendable {
    let name: String
    /// Samples at scale 1 (cheaper operations get more).
    let samples: Int
    /// Builds the inputs for `classes` (true: random class) and returns the operation on input i.
    let prepare: @Sendable (_ classes: [Bool], _ random: inout SeededRandomSource) throws -> (Int) throws -> UInt64
}

enum Dudect {
    static func run(_ arguments: [String]) -> Int32 {
        var scale = 1.0
        var names: [String] = []
        var index = 0
        while index < arguments.count {
            if arguments[index] == "--samples-scale", index + 1 < arguments.count, let value = Double(arguments[index + 1]), value > 0 {
                scale = value
                index += 2
            } else {
                names.append(arguments[index])
                index += 1
            }
        }
        let selected = names.isEmpty ? TimingTarget.all : TimingTarget.all.filter { names.contains($0.name) }
        guard !selected.isEmpty else {
            print("dudect: no target named \(names.joined(separator: " ")); targets: \(TimingTarget.all.map(\.name).joined(separator: " "))")
            return 2
        }
        print("target                       samples   t(all)  max|t| (crop)   reading")
        for target in selected {
            do {
                try measure(target, samples: max(200, Int(Double(target.samples) * scale)))
            } catch {
                print("\(target.name): FAILED to prepare or run: \(error)")
                return 1
            }
        }
        print("(|t| < 4.5: no evidence of a leak at this sample count; > 10: a leak. Checksum \(String(Secret.checksum, radix: 16)).)")
        return 0
    }

    static func measure(_ target: TimingTarget, samples: Int) throws {
        var random = SeededRandomSource(seed: 0xD0DEC7)
        var classBytes = [UInt8](repeating: 0, count: samples)
        try random.fill(&classBytes)
        let classes = classBytes.map { $0 & 1 == 1 }
        let operation = try target.prepare(classes, &random)
        var timings = [UInt64](repeating: 0, count: samples)
        // A warm-up pass over the first tenth primes caches and branch predictors.
        for sample in 0..<(samples / 10) { Secret.checksum &+= try operation(sample) }
        for sample in 0..<samples {
            let start = ct_cycles()
            let result = try operation(sample)
            let end = ct_cycles()
            Secret.checksum &+= result
            timings[sample] = end &- start
        }
        let statistics = WelchTest.statistics(timings, classes: classes)
        let all = statistics[0].t
        let worst = statistics.max { abs($0.t) < abs($1.t) } ?? statistics[0]
        let crop = worst.crop == 1 ? "all" : "p\(Int(worst.crop * 100))"
        func column(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(1, width - text.count)) }
        print(column(target.name, 29) + column(String(samples), 9) + column(format(all), 8)
              + column("\(format(abs(worst.t))) (\(crop))", 16) + WelchTest.verdict(worst.t))
    }

    static func format(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return String(rounded)
    }
}

extension SeededRandomSource {
    mutating func fill(_ bytes: inout [UInt8]) throws(CryptoError) {
        var failure: CryptoError?
        bytes.withUnsafeMutableBytes { buffer in
            do throws(CryptoError) { try fill(buffer) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    mutating func bytes(_ count: Int) throws(CryptoError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        try fill(&bytes)
        return bytes
    }
}

/// A 64-bit fold of an operation's output, so the optimiser keeps the work.
func fold(_ bytes: some Sequence<UInt8>) -> UInt64 {
    bytes.reduce(UInt64(0)) { $0 &* 31 &+ UInt64($1) }
}
