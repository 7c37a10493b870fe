// Throughput on every core: a row run by N threads at once, each doing its
// share of the iterations, so the harness's ns/op becomes the aggregate wall time per
// operation — N threads' ops/s. Threads are plain pthreads started per round and released
// together through a start gate, so thread creation is not in the measured work's way.

#if canImport(Glibc)
import Glibc
#endif

extension BenchmarkCase {
    /// This row run by `threads` threads at once: one call with `iterations` performs
    /// `iterations` operations in all, split as evenly as possible over the threads, and
    /// returns when the last thread is done. With one thread it is the row itself.
    ///
    /// The row's body must be safe to call concurrently: every row's fixtures are immutable
    /// (keys, messages) and each call builds its own mutable state. A failure on any thread
    /// is the round's failure, thrown once every thread has finished.
    public func parallel(threads: Int) -> BenchmarkCase {
        guard threads > 1 else { return self }
        let row = self
        return BenchmarkCase(name, bytesPerOperation: bytesPerOperation) { iterations in
            try ParallelRun.run(threads: threads, iterations: iterations) { (share: Int) throws(BenchmarkFailure) in try row.run(share) }
        }
    }
}

/// One parallel round: `threads` pthreads wait on a gate, run their share, and are joined.
package enum ParallelRun {
    /// The work handed to one thread.
    final class Share: @unchecked Sendable {
        let body: @Sendable (Int) throws(BenchmarkFailure) -> Void
        let iterations: Int
        let gate: Gate
        /// The thread's failure, read by the calling thread after `pthread_join`.
        var failure: BenchmarkFailure?
        init(body: @escaping @Sendable (Int) throws(BenchmarkFailure) -> Void, iterations: Int, gate: Gate) {
            self.body = body
            self.iterations = iterations
            self.gate = gate
        }
    }

    /// A one-shot start gate: threads block until it opens, so all start within microseconds.
    final class Gate: @unchecked Sendable {
        private var mutex = pthread_mutex_t()
        private var condition = pthread_cond_t()
        private var isOpen = false

        init() {
            pthread_mutex_init(&mutex, nil)
            pthread_cond_init(&condition, nil)
        }

        deinit {
            pthread_cond_destroy(&condition)
            pthread_mutex_destroy(&mutex)
        }

        func wait() {
            pthread_mutex_lock(&mutex)
            while !isOpen { pthread_cond_wait(&condition, &mutex) }
            pthread_mutex_unlock(&mutex)
        }

        func open() {
            pthread_mutex_lock(&mutex)
            isOpen = true
            pthread_cond_broadcast(&condition)
            pthread_mutex_unlock(&mutex)
        }
    }

    /// Runs `iterations` calls' worth of `body` on `threads` threads. The calling thread takes
    /// one share itself, so `threads` threads in all do work. Should a thread fail to start,
    /// its share runs on the calling thread: the work is never skipped (only less parallel).
    /// Throws a failure after all threads have been joined: the calling thread's own, else that
    /// of the lowest-numbered thread that failed.
    static func run(threads: Int, iterations: Int, body: @escaping @Sendable (Int) throws(BenchmarkFailure) -> Void) throws(BenchmarkFailure) {
        let gate = Gate()
        var shares: [Share] = []
        var handles: [pthread_t] = []
        var leftover = 0
        for index in 1..<threads {
            let share = Share(body: body, iterations: portion(index, of: iterations, threads: threads), gate: gate)
            let context = Unmanaged.passRetained(share).toOpaque()
            var handle = pthread_t()
            let status = pthread_create(&handle, nil, { context in
                let share = Unmanaged<Share>.fromOpaque(context!).takeRetainedValue()
                share.gate.wait()
                do throws(BenchmarkFailure) { try share.body(share.iterations) } catch { share.failure = error }
                return nil
            }, context)
            if status == 0 {
                handles.append(handle)
                shares.append(share)
            } else {
                Unmanaged<Share>.fromOpaque(context).release()
                leftover += portion(index, of: iterations, threads: threads)
            }
        }
        gate.open()
        var failure: BenchmarkFailure?
        do throws(BenchmarkFailure) { try body(portion(0, of: iterations, threads: threads) + leftover) } catch { failure = error }
        for handle in handles { pthread_join(handle, nil) }
        if let failure = failure ?? shares.lazy.compactMap(\.failure).first { throw failure }
    }

    /// Thread `index`'s share of `iterations`: the remainder goes to the first threads.
    package static func portion(_ index: Int, of iterations: Int, threads: Int) -> Int {
        iterations / threads + (index < iterations % threads ? 1 : 0)
    }
}
