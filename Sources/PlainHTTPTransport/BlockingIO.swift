// Blocking socket work off the cooperative thread pool: an exchange runs on a thread of its own
// (POSIX threads from Glibc, no Foundation), so a slow peer holds that thread and not one of
// the few the Swift runtime shares between all tasks (two on a two-core board). Cancelling the
// calling task raises a flag the work sees at its next wait (TCPConnection waits in slices of at
// most 100 ms), and it stops with `TransportError.Kind.cancelled`.

package import AuthNetworking
import Glibc
import Synchronization

/// Runs blocking I/O on a dedicated thread with cooperative cancellation.
package enum BlockingIO {
    /// The work and where its result goes.
    private final class Job: @unchecked Sendable {
        let work: () -> Void
        init(_ work: @escaping () -> Void) { self.work = work }
    }

    /// The flag of the work running on this thread, if any.
    private final class Flag: Sendable {
        let cancelled = Atomic<Bool>(false)
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Whether the task whose work runs on this thread was cancelled (false off such a thread).
    package static var isCancelled: Bool {
        guard let raw = pthread_getspecific(key) else { return false }
        return Unmanaged<Flag>.fromOpaque(raw).takeUnretainedValue().cancelled.load(ordering: .relaxed)
    }

    /// Runs `work` on a new thread and returns its result; the calling task's cancellation is
    /// passed on. A thread that cannot be started runs the work inline instead.
    package static func run<T: Sendable>(_ work: @escaping @Sendable () throws(TransportError) -> T) async throws(TransportError) -> T {
        let flag = Flag()
        let result: Result<T, TransportError> = await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Result<T, TransportError>, Never>) in
                let job = Job {
                    pthread_setspecific(key, Unmanaged.passUnretained(flag).toOpaque())
                    let outcome: Result<T, TransportError>
                    do throws(TransportError) { outcome = .success(try work()) } catch { outcome = .failure(error) }
                    pthread_setspecific(key, nil)
                    continuation.resume(returning: outcome)
                }
                let context = Unmanaged.passRetained(job).toOpaque()
                var thread = pthread_t()
                let started = pthread_create(&thread, nil, { raw in
                    guard let raw else { return nil }
                    let job = Unmanaged<Job>.fromOpaque(raw).takeRetainedValue()
                    job.work()
                    return nil
                }, context)
                if started == 0 {
                    pthread_detach(thread)
                } else {
                    Unmanaged<Job>.fromOpaque(context).takeRetainedValue().work()
                }
            }
        } onCancel: {
            flag.cancelled.store(true, ordering: .relaxed)
        }
        return try result.get()
    }
}
