import Foundation
import Lookahead
import Testing

@testable import LookaheadServer

/// A clock that counts its sleeps and sleeps on the continuous clock.
private struct CountingClock: Clock {
    typealias Instant = ContinuousClock.Instant
    typealias Duration = Swift.Duration

    let sleeps = LockedValue(0)

    var now: Instant { ContinuousClock.now }
    var minimumResolution: Swift.Duration { ContinuousClock().minimumResolution }

    func sleep(until deadline: Instant, tolerance: Swift.Duration?) async throws {
        sleeps.withLock { $0 += 1 }
        try await ContinuousClock().sleep(until: deadline, tolerance: tolerance)
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
            let start = ContinuousClock.now
            let held = await Settling.wait(
                until: { false }, within: .seconds(3), pollingEvery: .milliseconds(5), clock: clock)
            return (held, start.duration(to: .now))
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
