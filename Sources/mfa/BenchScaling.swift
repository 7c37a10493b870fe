// `mfa bench --threads N --against-processes`: the same row measured three ways in one run —
// one thread, N threads in this process, and N independent `mfa bench` processes started
// together — so the threads' aggregate can be quoted as a fraction of what separate processes
// reach on the same cores at the same moments. Every measurement uses the
// same per-thread iteration count K, calibrated once on one thread, and R rounds; the median
// round counts. The children run `mfa bench --child NAME K R` and print their median ns/op.

import BenchmarkKit
import Glibc

/// One row's scaling figures (ops/s).
struct ScalingResult {
    let name: String
    let single: Double
    let threads: Double
    let processes: Double?
}

enum BenchScaling {
    /// Measures `row` on 1 thread, on `threads` threads, and (when `againstProcesses`) in
    /// `threads` child processes. nil processes when a child could not be run.
    static func measure(_ row: BenchmarkCase, threads: Int, minTime: Double, rounds: Int,
                        againstProcesses: Bool) throws(BenchmarkFailure) -> ScalingResult {
        let perThread = try BenchmarkHarness.calibrate(row, minTime: minTime)
        let single = try medianNanoseconds(row, iterations: perThread, rounds: rounds)
        let parallel = row.parallel(threads: threads)
        _ = try BenchmarkHarness.round(parallel, iterations: threads)  // start-up work out of the count
        let aggregate = try medianNanoseconds(parallel, iterations: perThread * threads, rounds: rounds)
        let processes = againstProcesses ? childrenOperationsPerSecond(row.name, count: threads, iterations: perThread, rounds: rounds) : nil
        return ScalingResult(name: row.name, single: 1e9 / single, threads: 1e9 / aggregate, processes: processes)
    }

    /// The child side: warm up, then `rounds` rounds of `iterations`; prints the median ns/op.
    static func runChild(_ row: BenchmarkCase, iterations: Int, rounds: Int) throws(BenchmarkFailure) {
        try row.run(1)
        print(try medianNanoseconds(row, iterations: iterations, rounds: rounds))
    }

    private static func medianNanoseconds(_ row: BenchmarkCase, iterations: Int, rounds: Int) throws(BenchmarkFailure) -> Double {
        var times: [Double] = []
        for _ in 0..<max(rounds, 1) { times.append(try BenchmarkHarness.round(row, iterations: iterations) / Double(iterations)) }
        return BenchmarkHarness.median(times) * 1e9
    }

    /// Starts `count` copies of this executable on one row at once and sums their ops/s; nil
    /// if any child fails to start, exits non-zero, or prints something that is not a number.
    private static func childrenOperationsPerSecond(_ name: String, count: Int, iterations: Int, rounds: Int) -> Double? {
        let arguments = ["mfa", "bench", "--child", name, String(iterations), String(rounds)]
        var children: [(pid: pid_t, output: Int32)] = []
        for _ in 0..<count {
            guard let child = spawn(arguments) else { break }
            children.append(child)
        }
        var total = 0.0
        var failed = children.count != count
        for child in children {
            let text = readAll(child.output)
            close(child.output)
            var status: Int32 = 0
            while waitpid(child.pid, &status, 0) < 0 && errno == EINTR {}
            let exitedCleanly = (status & 0x7F) == 0 && ((status >> 8) & 0xFF) == 0
            guard exitedCleanly, let nanoseconds = Double(text.split(separator: "\n").last.map(String.init) ?? ""),
                  nanoseconds > 0 else {
                failed = true
                continue
            }
            total += 1e9 / nanoseconds
        }
        return failed ? nil : total
    }

    /// `posix_spawn` of /proc/self/exe with standard output on a pipe.
    private static func spawn(_ arguments: [String]) -> (pid: pid_t, output: Int32)? {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, descriptors[1], STDOUT_FILENO)
        posix_spawn_file_actions_addclose(&actions, descriptors[0])
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, "/proc/self/exe", &actions, nil, &argv, environ)
        close(descriptors[1])
        guard status == 0 else {
            close(descriptors[0])
            return nil
        }
        return (pid, descriptors[0])
    }

    private static func readAll(_ descriptor: Int32) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes += buffer[0..<count]
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
