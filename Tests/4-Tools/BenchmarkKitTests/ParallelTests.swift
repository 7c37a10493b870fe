// The parallel runner behind `mfa bench --threads N` and `compare --threads N`: every
// iteration runs exactly once, spread over the threads asked for, and on distinct threads.
// (Nothing here is timed.)

import BenchmarkKit
import Glibc
import Synchronization
import Testing

struct ParallelTests {
    @Test(arguments: [(1, 10), (2, 10), (3, 10), (4, 3), (5, 0), (2, 1)])
    func everyIterationRunsOnceInAll(threads: Int, iterations: Int) throws {
        let done = Atomic<Int>(0)
        let row = BenchmarkCase("test/count") { n in done.add(n, ordering: .relaxed) }
        try row.parallel(threads: threads).run(iterations)
        #expect(done.load(ordering: .relaxed) == iterations)
    }

    @Test func sharesDifferByAtMostOne() {
        let shares = (0..<4).map { ParallelRun.portion($0, of: 10, threads: 4) }
        #expect(shares == [3, 3, 2, 2])
    }

    @Test func theSharesRunOnDistinctThreadsAtOnce() throws {
        // Each share waits until all three have started: this only returns if three threads
        // run at the same time (a serial runner would spin forever — bounded below).
        let started = Atomic<Int>(0)
        let sawAll = Atomic<Int>(0)
        let row = BenchmarkCase("test/rendezvous") { _ in
            started.add(1, ordering: .sequentiallyConsistent)
            var spins = 0
            while started.load(ordering: .sequentiallyConsistent) < 3 && spins < 50_000_000 { spins += 1 }
            if started.load(ordering: .sequentiallyConsistent) >= 3 { sawAll.add(1, ordering: .relaxed) }
        }
        try row.parallel(threads: 3).run(3)
        #expect(sawAll.load(ordering: .relaxed) == 3)
    }

    /// A failure on any thread is the round's failure, thrown after every thread has finished
    /// (the other shares still run: nothing is left running when it is thrown): once with only
    /// the calling thread failing, once with only the started threads failing.
    @Test(arguments: [true, false])
    func aFailureOnAnyThreadFailsTheRound(onCallingThread: Bool) {
        struct Broken: Error {}
        let caller = UInt(bitPattern: Int(truncatingIfNeeded: pthread_self()))
        let finished = Atomic<Int>(0)
        let row = BenchmarkCase("test/one-share-fails") { _ in
            defer { finished.add(1, ordering: .relaxed) }
            let isCaller = UInt(bitPattern: Int(truncatingIfNeeded: pthread_self())) == caller
            if isCaller == onCallingThread { throw Broken() }
        }
        do {
            try row.parallel(threads: 3).run(3)
            Issue.record("the failing share was not reported")
        } catch {
            #expect(error.row == "test/one-share-fails" && error.message.contains("Broken"))
        }
        #expect(finished.load(ordering: .relaxed) == 3)
    }
}
