// Server-synchronised time (docs/protocols/powerauth.md §11.4): the iOS SDK's adjustment rule, as a value the
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

        /// The server times an observation may carry: 1970 up to the end of year 9999 in
        /// milliseconds. The value comes from an unauthenticated answer (docs/protocols/powerauth.md §11.4), so
        /// anything outside is refused rather than fed to arithmetic near `Int64.max`/`.min`.
        public static let plausibleServerTimes: ClosedRange<Int64> = 0...253_402_300_799_999

        /// Feeds one `/pa/v3/status` round trip: `requestStart` and `responseEnd` are local
        /// milliseconds, `serverTime` the server's. Ignored (returns `false`) when the round trip
        /// took less than 0 or more than 16 s, or when `serverTime` is outside
        /// ``plausibleServerTimes``; otherwise the server time is taken at the midpoint. No input
        /// traps: every difference is computed with overflow reported (§11.4).
        @discardableResult
        public mutating func observe(serverTime: Int64, requestStart: Int64, responseEnd: Int64) -> Bool {
            guard Self.plausibleServerTimes.contains(serverTime) else { return false }
            let (elapsed, elapsedOverflow) = responseEnd.subtractingReportingOverflow(requestStart)
            guard !elapsedOverflow, elapsed >= 0, elapsed <= 16_000 else { return false }
            let (midpoint, midpointOverflow) = serverTime.addingReportingOverflow(elapsed / 2)
            let (difference, differenceOverflow) = midpoint.subtractingReportingOverflow(responseEnd)
            guard !midpointOverflow, !differenceOverflow, difference != .min else { return false }
            let (drift, driftOverflow) = adjustment.subtractingReportingOverflow(difference)
            let closeToOld = !driftOverflow && drift != .min && abs(drift) < 10_000
            if abs(difference) < 2_000 && closeToOld {
                isSynchronized = true
            } else if isSynchronized && closeToOld {
                return true
            } else {
                adjustment = difference
                isSynchronized = true
            }
            return true
        }

        /// Forgets the adjustment (e.g. after resume or a wall-clock jump).
        public mutating func reset() {
            adjustment = 0
            isSynchronized = false
        }

        /// The server-synchronised time for local `now` (ms), clamped to the `Int64` range.
        public func serverTime(atLocal now: Int64) -> Int64 {
            let (sum, overflow) = now.addingReportingOverflow(adjustment)
            guard overflow else { return sum }
            return adjustment > 0 ? .max : .min
        }
    }
}
