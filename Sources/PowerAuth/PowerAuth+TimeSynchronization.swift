// Server-synchronised time (powerauth.md §11.4): the iOS SDK's adjustment rule, as a value the
// caller feeds with local times and server times it observes. No clock is read here.

extension PowerAuth {
    /// The difference between the server's clock and ours, learned from responses (3.2+).
    public struct TimeSynchronization: Sendable, Equatable {
        /// Milliseconds to add to local time.
        public private(set) var adjustment: Int64 = 0
        /// Whether an observation has been accepted.
        public private(set) var isSynchronized = false

        /// Not yet synchronised.
        public init() {}

        /// Feeds one `/pa/v3/status` round trip: `requestStart` and `responseEnd` are local
        /// milliseconds, `serverTime` the server's. Ignored when the round trip took less than 0
        /// or more than 16 s; otherwise the server time is taken at the midpoint.
        public mutating func observe(serverTime: Int64, requestStart: Int64, responseEnd: Int64) {
            let elapsed = responseEnd - requestStart
            guard elapsed >= 0, elapsed <= 16_000 else { return }
            let difference = serverTime + elapsed / 2 - responseEnd
            let closeToOld = abs(adjustment - difference) < 10_000
            if abs(difference) < 2_000 && closeToOld {
                isSynchronized = true
            } else if isSynchronized && closeToOld {
                return
            } else {
                adjustment = difference
                isSynchronized = true
            }
        }

        /// Forgets the adjustment (e.g. after resume or a wall-clock jump).
        public mutating func reset() {
            adjustment = 0
            isSynchronized = false
        }

        /// The server-synchronised time for local `now` (ms).
        public func serverTime(atLocal now: Int64) -> Int64 { now + adjustment }
    }
}
