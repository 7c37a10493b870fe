// One signing exchange at a time per PowerAuth instance, across processes. The server accepts a
// signature only within its look-ahead window above the last counter it saw (docs/protocols/powerauth.md §7.1),
// so two commands that sign counters N and N+1 and reach the server as N+1, N cost a failed
// attempt each time; ten at once blocked an activation in three rounds. Each verb that may sign
// holds an exclusive `flock` on `<store>/.send-<instance>.lock` from before it signs until its
// answer has been read, so the server sees the counters in the order they were signed. `sign`
// holds it only while it computes the header: sending that header is the caller's, in order.

import Glibc
import SecureStore

enum InstanceSendLock {
    /// How long a command waits for another one's exchange before it gives up (each exchange
    /// has its own overall deadline, well below this).
    static let waitLimit: Duration = .seconds(300)

    /// Runs `body` holding the instance's send lock; without a store directory there is nothing
    /// to sign with, and `body` runs as it is (it reports the missing configuration).
    static func holding<T>(directory: String, instance: String, _ body: () async throws -> T) async throws -> T {
        var info = stat()
        guard stat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return try await body() }
        let path = directory + "/.send-" + instance + ".lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw SecureStoreError(.io, "cannot open the instance's send lock", errno: errno, path: path)
        }
        defer { close(descriptor) }   // closing the descriptor releases the lock
        // Polled, not a blocking flock: a waiting command holds no thread another task needs.
        let deadline = ContinuousClock.now + waitLimit
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let error = errno
            guard error == EWOULDBLOCK || error == EINTR else {
                throw SecureStoreError(.io, "cannot lock the instance's send lock", errno: error, path: path)
            }
            guard ContinuousClock.now < deadline else {
                throw SecureStoreError(.io, "another mfa command has held instance \(instance)'s send lock for 300 s; try again when it is done", path: path)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return try await body()
    }
}
