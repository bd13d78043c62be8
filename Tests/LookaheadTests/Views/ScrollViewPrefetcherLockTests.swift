import Testing

@testable import Lookahead

// ScrollViewPrefetcher and its lock: the clock it is given is user code, and
// cancelling a sleep on it runs that code.

/// A manual clock whose sleeps, when cancelled, call `onCancel`: a clock's
/// cancellation handler is code the prefetcher does not control.
final class CallingBackClock: Clock, Sendable {
    let base = ManualClock()
    let onCancel = LockedValue<(@Sendable () -> Void)?>(nil)

    var now: ManualClock.Instant { base.now }
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: ManualClock.Instant, tolerance: Duration? = nil) async throws {
        try await withTaskCancellationHandler {
            try await base.sleep(until: deadline, tolerance: tolerance)
        } onCancel: {
            onCancel.withLock { $0 }?()
        }
    }
}

@Suite(.timeLimit(.minutes(1)))
struct ScrollViewPrefetcherLockTests {
    @Test func aClockWhoseCancellationCallsBackDoesNotDeadlockThePrefetcher() async {
        // Given an adaptive prefetcher whose clock reads the prefetcher when a sleep is cancelled
        let clock = CallingBackClock()
        let recorder = WindowRecorder()
        let prefetcher = await recorder.adaptivePrefetcherAtRow100(clock: clock, manual: clock.base)
        let calls = LockedValue(0)
        clock.onCancel.withLock { hook in
            hook = { [weak prefetcher] in
                _ = prefetcher?.window
                calls.withLock { $0 += 1 }
            }
        }
        // And the list moving, so that a rest check is arranged after the next settle
        for index in 100..<105 { prefetcher.onDisappear(index) }
        for index in 110..<115 { prefetcher.onAppear(index) }
        await clock.base.waitForSleepers(count: 1)
        clock.base.advance(by: .milliseconds(50))
        await recorder.waitForEmissions(2)
        await clock.base.waitForSleepers(count: 1)

        // When a row appears: the rest check is replaced by a sooner settle, its sleep cancelled
        prefetcher.onAppear(115)

        // Then the clock's handler ran, outside the prefetcher's lock, and the prefetcher goes on
        #expect(calls.withLock { $0 } == 1)
        await clock.base.waitForSleepers(count: 1)
        clock.base.advance(by: .milliseconds(50))
        #expect(!prefetcher.window.isEmpty)
    }
}
