// The shared polling sequence (docs/design.md §1 "Polling"): values in order, de-duplication by key,
// a backoff that doubles up to its ceiling and resets after a success, fatal errors thrown once,
// a quiet and prompt end on cancellation, and intervals held to 0.1 s ... 1 day whatever the
// caller passes. Waits go through a recording clock, so the tests read the exact sleeps asked for
// and take no wall-clock time; the cancellation test uses the real clock.

import AuthNetworking
import ClientTestSupport
import Synchronization
import Testing

/// A fetch that plays back a script of values and failures, then repeats its last entry.
final class Script: Sendable {
    struct Failure: Error, Equatable {
        var fatal = false
    }

    private let steps: Mutex<(remaining: [Result<Int, Failure>], calls: Int)>

    init(_ steps: [Result<Int, Failure>]) {
        self.steps = Mutex((steps, 0))
    }

    var calls: Int { steps.withLock { $0.calls } }

    func fetch() throws(Failure) -> Int {
        let step = steps.withLock { state in
            state.calls += 1
            return state.remaining.count > 1 ? state.remaining.removeFirst() : state.remaining[0]
        }
        return try step.get()
    }
}

@Suite struct PollingTests {
    private static func collect(_ polling: Polling<Int, Script.Failure>, count: Int) async throws -> [Int] {
        var iterator = polling.makeAsyncIterator()
        var values: [Int] = []
        while values.count < count, let value = try await iterator.next() { values.append(value) }
        return values
    }

    @Test func yieldsEachFetchedValueAndFetchesFirstAtOnce() async throws {
        let clock = RecordingClock()
        let script = Script([.success(1), .success(2), .success(3)])
        let polling = Polling(every: .seconds(3), clock: clock) { () throws(Script.Failure) in try script.fetch() }
        #expect(try await Self.collect(polling, count: 3) == [1, 2, 3])
        #expect(clock.sleeps == [.seconds(3), .seconds(3)])
    }

    @Test func yieldsOnlyWhenTheKeyChanges() async throws {
        let clock = RecordingClock()
        let script = Script([.success(1), .success(1), .success(2), .success(2), .success(2), .success(3)])
        let polling = Polling(every: .seconds(1), distinctBy: { $0 }, clock: clock) { () throws(Script.Failure) in try script.fetch() }
        #expect(try await Self.collect(polling, count: 3) == [1, 2, 3])
        #expect(script.calls == 6 && clock.sleeps.count == 5)
    }

    @Test func backoffDoublesUpToItsCeilingAndResetsAfterASuccess() async throws {
        let clock = RecordingClock()
        let failure = Result<Int, Script.Failure>.failure(Script.Failure())
        let script = Script([failure, failure, failure, failure, .success(1), failure, .success(2)])
        let polling = Polling(every: .seconds(1), backoff: .exponential(factor: 2, upTo: .seconds(5)), clock: clock) { () throws(Script.Failure) in
            try script.fetch()
        }
        #expect(try await Self.collect(polling, count: 2) == [1, 2])
        // 1 s × 2, × 4, capped at 5 s twice; after the success the interval, then 2 s again.
        #expect(clock.sleeps == [.seconds(2), .seconds(4), .seconds(5), .seconds(5), .seconds(1), .seconds(2)])
    }

    @Test func backoffNeverWaitsLessThanTheInterval() async throws {
        let clock = RecordingClock()
        let script = Script([.failure(Script.Failure()), .success(1)])
        let polling = Polling(every: .seconds(120), clock: clock) { () throws(Script.Failure) in try script.fetch() }
        #expect(try await Self.collect(polling, count: 1) == [1])
        #expect(clock.sleeps == [.seconds(120)])
    }

    @Test func noBackoffRetriesAtTheInterval() async throws {
        let clock = RecordingClock()
        let failure = Result<Int, Script.Failure>.failure(Script.Failure())
        let script = Script([failure, failure, .success(7)])
        let polling = Polling(every: .seconds(2), backoff: .none, clock: clock) { () throws(Script.Failure) in try script.fetch() }
        #expect(try await Self.collect(polling, count: 1) == [7])
        #expect(clock.sleeps == [.seconds(2), .seconds(2)])
    }

    @Test func aFatalErrorIsThrownOnceAndEndsTheSequence() async throws {
        let clock = RecordingClock()
        let script = Script([.success(1), .failure(Script.Failure()), .failure(Script.Failure(fatal: true)), .success(2)])
        let polling = Polling(every: .seconds(1), clock: clock, isFatal: { $0.fatal }) { () throws(Script.Failure) in try script.fetch() }
        var iterator = polling.makeAsyncIterator()
        #expect(try await iterator.next() == 1)
        do {
            let value = try await iterator.next()
            Issue.record("the fatal error was not thrown: \(String(describing: value))")
        } catch {
            #expect(error == Script.Failure(fatal: true))   // typed: no cast needed
        }
        #expect(try await iterator.next() == nil)
        #expect(script.calls == 3)
    }

    @Test func cancellationEndsTheSequenceWithinOneInterval() async throws {
        let script = Script([.success(1), .success(2)])
        let polling = Polling(every: .seconds(3600)) { () throws(Script.Failure) in try script.fetch() }
        let start = ContinuousClock.now
        let consumer = Task { () async throws -> [Int] in
            var values: [Int] = []
            for try await value in polling { values.append(value) }
            return values
        }
        while script.calls == 0 { try await Task.sleep(for: .milliseconds(10)) }
        consumer.cancel()
        #expect(try await consumer.value == [1])   // ended quietly, without the second fetch
        // Far inside the hour-long interval: the cancellation ended the sleep (a loaded two-core
        // machine has taken 42 s to schedule it).
        #expect(ContinuousClock.now - start < .seconds(600))
        #expect(script.calls == 1)
    }

    @Test func aFetchFailingBecauseOfCancellationEndsQuietly() async throws {
        let clock = RecordingClock()
        let polling = Polling(every: .seconds(1), clock: clock, isFatal: { _ in true }) { () throws(Script.Failure) -> Int in
            withUnsafeCurrentTask { $0?.cancel() }
            throw Script.Failure(fatal: true)
        }
        // In a task of its own: the fetch cancels the task it runs in.
        let consumer = Task { () async throws -> Int? in
            var iterator = polling.makeAsyncIterator()
            return try await iterator.next()
        }
        #expect(try await consumer.value == nil)
        #expect(clock.sleeps.isEmpty)
    }

    @Test func intervalsAreHeldToTheirRange() async throws {
        let make = { (interval: Duration) in Polling<Int, Script.Failure>(every: interval) { () throws(Script.Failure) in 0 }.interval }
        #expect(make(.zero) == .milliseconds(100))
        #expect(make(.seconds(-1)) == .milliseconds(100))
        #expect(make(.seconds(Int64.max)) == .seconds(86_400))
        #expect(make(.seconds(3)) == .seconds(3))

        #expect(PollingInterval.seconds(.nan) == nil)
        #expect(PollingInterval.seconds(.infinity) == nil)
        #expect(PollingInterval.seconds(-.infinity) == nil)
        #expect(PollingInterval.seconds(1e300) == .seconds(86_400))
        #expect(PollingInterval.seconds(-1) == .milliseconds(100))
        #expect(PollingInterval.seconds(-1e300) == .milliseconds(100))
        #expect(PollingInterval.seconds(2.5) == .milliseconds(2500))

        // A zero interval (what a NaN used to become on the command line) does not busy-loop.
        let clock = RecordingClock()
        let polling = Polling(every: .zero, clock: clock) { () throws(Script.Failure) in 5 }
        #expect(try await Self.collect(polling, count: 3) == [5, 5, 5])
        #expect(clock.sleeps == [.milliseconds(100), .milliseconds(100)])
    }

    @Test func backoffArgumentsAreHeldToTheirRange() {
        #expect(PollingBackoff.exponential(factor: -3).factor == 1)
        #expect(PollingBackoff.exponential(factor: Int.max).factor == 16)
        #expect(PollingBackoff.exponential(upTo: .seconds(Int64.max)).maximum == .seconds(86_400))
        #expect(PollingBackoff.exponential(upTo: .seconds(-5)).maximum == .zero)
    }
}
