import Testing

@testable import Lookahead

/// Deadlines through ``AsyncFetcher`` and ``Prefetcher``: relative to now on
/// the injected clock, and the order queued loads start in.
@Suite(.timeLimit(.minutes(1)))
struct AsyncFetcherDeadlineTests {
    typealias Fetcher = AsyncFetcher<Int, String>

    func makeFetcher(_ gate: LoadGate<Int, String>, clock: ManualClock) -> Fetcher {
        Fetcher(maxConcurrentLoads: 1, memoryCache: MemoryCache(countLimit: 100), clock: clock) { key in
            try await gate.load(key)
        }
    }

    @Test func queuedRequestsStartByDeadlineMeasuredOnTheInjectedClock() async {
        // Given the only slot taken, and the clock 10 s in
        let gate = LoadGate<Int, String>()
        let clock = ManualClock()
        let fetcher = makeFetcher(gate, clock: clock)
        fetcher.fetchAsync(0)
        await gate.waitForStarts(1)
        clock.advance(by: .seconds(10))

        // When 1 is asked for with no deadline, 2 due in 500 ms, 3 due in 200 ms
        fetcher.fetchAsync(1)
        let second = fetcher.fetchAsync(2, deadline: .milliseconds(500))
        fetcher.fetchAsync(3, deadline: .milliseconds(200))

        // Then the deadlines sit on the fetcher's timeline: 10 s after it was made
        #expect(fetcher.withScheduler { $0.deadline(of: 3) } == .milliseconds(10_200))

        // When 2's prediction moves to 100 ms from now
        second.setDeadline(.milliseconds(100))

        // Then the loads start 2, 3, then 1
        #expect(await startOrder(gate, after: 0, count: 3) == [0, 2, 3, 1])
        await fetcher.waitUntilIdle()
    }

    @Test func aPrefetcherStartsItsKeysByDeadline() async {
        // Given the only slot taken
        let gate = LoadGate<Int, String>()
        let clock = ManualClock()
        let fetcher = makeFetcher(gate, clock: clock)
        let prefetcher = Prefetcher(fetcher: fetcher, maxConcurrentRequestCount: 3)
        fetcher.fetchAsync(0)
        await gate.waitForStarts(1)

        // When it prefetches 1, 2, 3 due in 300, 200, 100 ms, then 1 is re-dated to 50 ms
        prefetcher.startPrefetching(
            with: [1, 2, 3], deadlines: [.milliseconds(300), .milliseconds(200), .milliseconds(100)])
        prefetcher.setDeadline(.milliseconds(50), for: 1)
        #expect(prefetcher.outstandingCount == 3)

        // Then they start 1, 3, 2
        #expect(await startOrder(gate, after: 0, count: 3) == [0, 1, 3, 2])
        await fetcher.waitUntilIdle()
        #expect(prefetcher.completedCount == 3)
        #expect(prefetcher.outstandingCount == 0)
    }

    /// Finishes `first`, then each load as it starts, `count` times, one
    /// slot at a time; returns the keys in the order they started.
    private func startOrder(_ gate: LoadGate<Int, String>, after first: Int, count: Int) async -> [Int] {
        var running = first
        for started in 2...(count + 1) {
            gate.succeed(running, with: "")
            await gate.waitForStarts(started)
            running = gate.started.last!
        }
        gate.succeed(running, with: "")
        return gate.started
    }
}
