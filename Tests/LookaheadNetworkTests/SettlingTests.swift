#if Tools
import Foundation
import Lookahead
import Testing

@testable import LookaheadServer

/// A clock that counts its sleeps and moves only when slept on: a sleep
/// moves `now` to its deadline and returns at once (throwing if the task is
/// cancelled, so a loop that ignores the error reaches its limit in a few
/// thousand sleeps instead of spinning forever). Real time never enters, so a run whose cooperative threads are
/// held by other tests for longer than a wait's limit cannot end it early.
private struct CountingClock: Clock {
    typealias Instant = ContinuousClock.Instant
    typealias Duration = Swift.Duration

    let sleeps = LockedValue(0)
    private let origin = ContinuousClock.now
    private let offset = LockedValue(Swift.Duration.zero)

    var now: Instant { origin.advanced(by: offset.withLock { $0 }) }
    var minimumResolution: Swift.Duration { .nanoseconds(1) }

    func sleep(until deadline: Instant, tolerance: Swift.Duration?) async throws {
        sleeps.withLock { $0 += 1 }
        let target = origin.duration(to: deadline)
        offset.withLock { $0 = max($0, target) }
        try Task.checkCancellation()
        await Task.yield()
    }
}

/// Shutdown and settling waits end when their task is cancelled instead of
/// spinning until their deadline (a cancelled sleep returns at once).
@Suite(.timeLimit(.minutes(1)))
struct SettlingTests {
    @Test func aCancelledWaitEndsAtOnceWithoutSpinning() async {
        // Given a wait for a condition that never holds, in a task cancelled before it starts
        let clock = CountingClock()
        let gate = LockedValue(false)
        let task = Task {
            while !gate.withLock({ $0 }) { await Task.yield() }
            let start = clock.now
            let held = await Settling.wait(
                until: { false }, within: .seconds(3), pollingEvery: .milliseconds(5), clock: clock)
            return (held, start.duration(to: clock.now))
        }
        task.cancel()
        gate.withLock { $0 = true }

        // When it runs
        let (held, elapsed) = await task.value

        // Then it ends after one attempt to sleep, long before its deadline
        #expect(!held)
        #expect(clock.sleeps.withLock { $0 } <= 1)
        #expect(elapsed < .seconds(2))
    }

    @Test func aWaitEndsWhenItsConditionHolds() async {
        // Given a condition that holds after a few polls
        let clock = CountingClock()
        let polls = LockedValue(0)

        // When waited for
        let held = await Settling.wait(
            until: {
                polls.withLock {
                    $0 += 1; return $0 >= 3
                }
            }, within: .seconds(30),
            pollingEvery: .milliseconds(1), clock: clock)

        // Then it held, after two sleeps
        #expect(held)
        #expect(clock.sleeps.withLock { $0 } == 2)
    }
}
#endif
