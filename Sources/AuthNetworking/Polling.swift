// One polling loop for every client (docs/design.md §1 "Polling: one AsyncSequence with interval,
// backoff and cancellation"): the Salt Edge poller (docs/protocols/saltedge-v2.md §9, `SEPoller`: every 3 s)
// and the CM poller for a device without push (docs/protocols/cm-authenticator.md §7) are this sequence with
// their own fetch, de-duplication key and fatal errors.
//
// It is pulled, not pushed: nothing is fetched while no one waits in `next()`, the first fetch
// is at once, and every later one follows a sleep on the injected clock in the consumer's task,
// so cancelling that task ends the sequence within one sleep.

/// The range every polling interval is held to: 0.1 s to one day.
///
/// A shorter interval would hammer the server (an interval of zero is a busy loop); a longer one
/// is a mistake, and holding it to a day keeps the backoff arithmetic far from overflow.
public enum PollingInterval {
    /// The shortest interval: 100 ms.
    public static let minimum: Duration = .milliseconds(100)
    /// The longest interval: one day.
    public static let maximum: Duration = .seconds(86_400)

    /// `interval` held to ``minimum`` ... ``maximum`` (a negative one becomes ``minimum``).
    public static func clamped(_ interval: Duration) -> Duration {
        min(max(interval, minimum), maximum)
    }

    /// An interval of `seconds`, held to ``minimum`` ... ``maximum``; `nil` for NaN or an
    /// infinity, which name no interval at all.
    public static func seconds(_ seconds: Double) -> Duration? {
        guard seconds.isFinite else { return nil }
        // Compare before converting: `Duration.seconds(1e300)` would trap.
        if seconds <= 0.1 { return minimum }
        if seconds >= 86_400 { return maximum }
        return clamped(.seconds(seconds))
    }
}

/// How the wait grows after a failed fetch, and its ceiling.
///
/// The first failure after a success waits `interval × factor`, each further one multiplies the
/// wait again, up to the ceiling (never below the interval itself: a backoff never polls faster
/// than the success path). A success resets the wait to the interval.
public struct PollingBackoff: Sendable, Equatable {
    /// The multiplier per consecutive failure, 1 ... 16 (1 means no backoff).
    public let factor: Int
    /// The longest wait, held to ``PollingInterval/maximum``.
    public let maximum: Duration

    /// Multiplies the wait by `factor` (held to 1 ... 16) after each failure, up to `maximum`.
    public static func exponential(factor: Int = 2, upTo maximum: Duration = .seconds(60)) -> PollingBackoff {
        PollingBackoff(factor: min(max(factor, 1), 16), maximum: min(max(maximum, .zero), PollingInterval.maximum))
    }

    /// No backoff: a failed fetch is retried after the ordinary interval.
    public static let none = PollingBackoff(factor: 1, maximum: .zero)

    /// The wait after one more failure, when the last wait was `current`.
    package func delay(after current: Duration, interval: Duration) -> Duration {
        let ceiling = max(maximum, interval)
        // current and ceiling are at most a day and factor at most 16: no overflow.
        guard current < ceiling else { return ceiling }
        return min(current * factor, ceiling)
    }
}

/// Fetches a value every interval and yields it — or, with a de-duplication key, only when the
/// key changed since the last value yielded.
///
/// A failed fetch is retried after a growing wait (``PollingBackoff``) and the sequence goes on,
/// unless `isFatal` says the error ends it: then `next()` throws it once and returns `nil`
/// afterwards. Cancelling the consuming task ends the sequence quietly (`next()` returns `nil`),
/// also when the cancellation surfaces as a fetch error.
///
/// ```swift
/// for try await list in Polling(every: .seconds(3), distinctBy: { $0.map(\.id) }) { () async throws(MyError) in
///     try await client.pendingItems()
/// } { show(list) }
/// ```
public struct Polling<Element: Sendable, Failure: Error>: AsyncSequence, Sendable {
    /// The wait between successful fetches, held to ``PollingInterval``.
    public let interval: Duration
    /// How the wait grows after a failed fetch.
    public let backoff: PollingBackoff

    private let fetch: @Sendable () async throws(Failure) -> Element
    private let isFatal: @Sendable (Failure) -> Bool
    private let sleep: @Sendable (Duration) async throws -> Void
    /// The de-duplication key of `element` if it differs from `previous`, else `nil`.
    private let novelty: (@Sendable (_ previous: (any Sendable)?, _ element: Element) -> (any Sendable)?)?

    /// Polls `fetch` and yields every value it returns.
    /// - Parameters:
    ///   - interval: the wait between fetches, held to ``PollingInterval`` (the first fetch is at once).
    ///   - backoff: how the wait grows after a failure; doubling up to 60 s unless told otherwise.
    ///   - clock: the clock whose `sleep(for:)` waits (tests inject their own).
    ///   - isFatal: whether an error ends the sequence rather than being retried; none by default.
    ///   - fetch: one fetch.
    public init(every interval: Duration, backoff: PollingBackoff = .exponential(), clock: any Clock<Duration> = ContinuousClock(),
                isFatal: @escaping @Sendable (Failure) -> Bool = { _ in false },
                fetch: @escaping @Sendable () async throws(Failure) -> Element) {
        self.init(interval, backoff, clock, isFatal, fetch, novelty: nil)
    }

    /// Polls `fetch` and yields a value only when its `key` differs from the last one yielded
    /// (the first value always). Only the key is kept between fetches, not the value.
    /// - Parameters:
    ///   - interval: the wait between fetches, held to ``PollingInterval`` (the first fetch is at once).
    ///   - key: what counts as a change.
    ///   - backoff: how the wait grows after a failure; doubling up to 60 s unless told otherwise.
    ///   - clock: the clock whose `sleep(for:)` waits (tests inject their own).
    ///   - isFatal: whether an error ends the sequence rather than being retried; none by default.
    ///   - fetch: one fetch.
    public init<Key: Equatable & Sendable>(every interval: Duration, distinctBy key: @escaping @Sendable (Element) -> Key,
                                           backoff: PollingBackoff = .exponential(), clock: any Clock<Duration> = ContinuousClock(),
                                           isFatal: @escaping @Sendable (Failure) -> Bool = { _ in false },
                                           fetch: @escaping @Sendable () async throws(Failure) -> Element) {
        self.init(interval, backoff, clock, isFatal, fetch) { previous, element in
            let current = key(element)
            if let previous = previous as? Key, previous == current { return nil }
            return current
        }
    }

    private init(_ interval: Duration, _ backoff: PollingBackoff, _ clock: any Clock<Duration>,
                 _ isFatal: @escaping @Sendable (Failure) -> Bool, _ fetch: @escaping @Sendable () async throws(Failure) -> Element,
                 novelty: (@Sendable ((any Sendable)?, Element) -> (any Sendable)?)?) {
        self.interval = PollingInterval.clamped(interval)
        self.backoff = backoff
        self.fetch = fetch
        self.isFatal = isFatal
        self.sleep = { duration in try await clock.sleep(for: duration) }
        self.novelty = novelty
    }

    /// A fresh iteration: its first `next()` fetches at once.
    public func makeAsyncIterator() -> Iterator {
        Iterator(polling: self)
    }

    /// One iteration of a ``Polling`` sequence; each iterator polls on its own.
    public struct Iterator: AsyncIteratorProtocol {
        private let polling: Polling
        /// The wait before the next fetch; `nil` before the first.
        private var delay: Duration?
        private var lastKey: (any Sendable)?
        private var finished = false

        fileprivate init(polling: Polling) {
            self.polling = polling
        }

        /// The next value: waits, fetches (again after a retryable error) until a value is due;
        /// `nil` once cancelled or after a fatal error was thrown.
        public mutating func next() async throws(Failure) -> Element? {
            try await next(isolation: nil)
        }

        /// The next value, called from `actor`'s isolation (see ``next()``).
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
            while !finished {
                if let delay {
                    // A sleep throws only when the task is cancelled: end quietly.
                    do { try await polling.sleep(delay) } catch { finished = true; return nil }
                }
                if Task.isCancelled { finished = true; return nil }
                do throws(Failure) {
                    let element = try await polling.fetch()
                    delay = polling.interval
                    if let novelty = polling.novelty {
                        guard let key = novelty(lastKey, element) else { continue }
                        lastKey = key
                    }
                    return element
                } catch {
                    // A fetch cut short by cancellation fails in its own words: still a quiet end.
                    if Task.isCancelled { finished = true; return nil }
                    if polling.isFatal(error) { finished = true; throw error }
                    delay = polling.backoff.delay(after: delay ?? polling.interval, interval: polling.interval)
                }
            }
            return nil
        }
    }
}
