import Testing

@testable import Lookahead

@Suite(.timeLimit(.minutes(1)))
struct ScrollViewPrefetcherLearningTests {
    @Test func theAdaptiveWindowLearnsTheFetchersLoadDurations() async {
        // Given a scroll prefetcher driving a Prefetcher over a gated fetcher
        let gate = LoadGate<Int, String>()
        let fetcher = AsyncFetcher<Int, String>(maxConcurrentLoads: 4) { key in try await gate.load(key) }
        let prefetcher = Prefetcher(fetcher: fetcher, maxConcurrentRequestCount: 4)
        let scrolling = ScrollViewPrefetcher(
            prefetcher: prefetcher, itemCount: 5, debounce: .zero, clock: ManualClock()
        ) { $0 }
        #expect(scrolling.observedLoadCount == 0)

        // When the first row appears and the prefetches of the other four complete
        scrolling.onAppear(0)
        await gate.waitForStarts(4)
        for key in gate.waiting { gate.succeed(key, with: "\(key)") }
        await fetcher.waitUntilIdle()
        let finished = fetcher.statistics.loadsCompleted

        // Then every completed load's duration reached the window
        #expect(finished == 4)
        #expect(scrolling.observedLoadCount == finished)
    }
}
