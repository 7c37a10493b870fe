// A clock for the polling tests of every client: each requested sleep is recorded and returns at
// once, so a test reads the exact waits a polling sequence asked for and takes no wall-clock time.

import Synchronization

/// A clock that records each requested sleep and returns at once (cancellation still throws).
public struct RecordingClock: Clock {
    /// An instant: an offset from the clock's start.
    public struct Instant: InstantProtocol {
        var offset: Duration
        /// This instant moved by `duration`.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    final class State: Sendable {
        let value = Mutex<(now: Duration, sleeps: [Duration])>((.zero, []))
    }

    let state = State()

    /// A clock at its start, with no sleep recorded.
    public init() {}

    /// The start plus every sleep so far.
    public var now: Instant { Instant(offset: state.value.withLock { $0.now }) }
    /// None: a sleep ends exactly at its deadline.
    public var minimumResolution: Duration { .zero }
    /// The sleeps asked for, in order.
    public var sleeps: [Duration] { state.value.withLock { $0.sleeps } }

    /// Records the sleep to `deadline` and returns after one yield; throws when cancelled.
    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        state.value.withLock { value in
            value.sleeps.append(deadline.offset - value.now)
            value.now = max(value.now, deadline.offset)
        }
        await Task.yield()
    }
}
