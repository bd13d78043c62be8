import Dispatch
import Testing

@testable import Lookahead

/// A clock the app supplies runs the app's code: its `now` may call back
/// into the prefetcher that reads it, from this thread or another.
private struct ReenteringClock: Clock {
    typealias Instant = ContinuousClock.Instant

    let onNow: @Sendable () -> Void

    var now: Instant {
        onNow()
        return ContinuousClock.now
    }

    var minimumResolution: Duration { .nanoseconds(1) }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try await ContinuousClock().sleep(until: deadline, tolerance: tolerance)
    }
}

/// Counts the calls that found the prefetcher's lock held: each asks for
/// `itemCount` from another thread and waits for the answer, which a lock
/// held by the caller holds back until the wait gives up.
private final class ReentryProbe: Sendable {
    private let prefetcher = LockedValue<ScrollViewPrefetcher?>(nil)
    private let counts = LockedValue((calls: 0, heldBack: 0))

    var calls: Int { counts.withLock { $0.calls } }
    var heldBack: Int { counts.withLock { $0.heldBack } }

    func watch(_ prefetcher: ScrollViewPrefetcher?) {
        self.prefetcher.withLock { $0 = prefetcher }
    }

    func probe() {
        guard let prefetcher = prefetcher.withLock({ $0 }) else { return }
        let answered = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = prefetcher.itemCount
            answered.signal()
        }
        // Only a failing run waits this long: the lock is free at once otherwise.
        let timedOut = answered.wait(timeout: .now() + .seconds(5)) == .timedOut
        counts.withLock { counts in
            counts.calls += 1
            if timedOut { counts.heldBack += 1 }
        }
    }
}

/// Nothing the app supplied is called under the prefetcher's lock: not the
/// clock, not the consumer's queue (the fetcher's lock), not a task's start.
@Suite(.timeLimit(.minutes(1)))
struct ScrollViewPrefetcherReentryTests {
    @Test func theClockAndTheQueueAreReadOutsideTheLock() {
        // Given a prefetcher updated in every call, whose clock and queue call back in
        let probe = ReentryProbe()
        let prefetcher = ScrollViewPrefetcher(
            itemCount: 100, window: .adaptive, debounce: .zero, clock: ReenteringClock { probe.probe() },
            queuedLoadsPerSlot: {
                probe.probe()
                return 0
            },
            prefetch: { _ in }, cancel: { _ in })
        probe.watch(prefetcher)

        // When rows appear and disappear
        for index in 0..<5 { prefetcher.onAppear(index) }
        prefetcher.onDisappear(0)
        probe.watch(nil)

        // Then every call back found the lock free
        #expect(probe.calls >= 12, "the clock and the queue were read in every change")
        #expect(probe.heldBack == 0)
    }

    @Test func anArrangedSettleReadsTheClockOutsideTheLock() async {
        // Given a debounced prefetcher whose clock and queue call back in
        let probe = ReentryProbe()
        let recorder = WindowRecorder()
        let prefetcher = ScrollViewPrefetcher(
            itemCount: 100, window: .fixed(count: 3), debounce: .milliseconds(10),
            clock: ReenteringClock { probe.probe() },
            queuedLoadsPerSlot: {
                probe.probe()
                return 0
            },
            prefetch: { recorder.record(.prefetch($0)) }, cancel: { recorder.record(.cancel($0)) })
        probe.watch(prefetcher)

        // When a row appears and the arranged settle runs
        prefetcher.onAppear(0)
        await recorder.waitForEmissions(1)
        probe.watch(nil)

        // Then the settle was delivered, and no call back found the lock held
        #expect(recorder.emissions == [.prefetch([1, 2, 3])])
        #expect(probe.calls >= 3)
        #expect(probe.heldBack == 0)
    }
}
