import Lookahead

/// Drives `Lookahead.AsyncFetcher`; its load sleeps cooperatively, so a cancel can cut it short.
struct LookaheadFetcherUnderTest: FetcherUnderTest {
    let fetcher: AsyncFetcher<Int, Payload>
    private let ledger: CancellationLedger<Int>

    /// - Parameter keyCount: the size of the key space; the memory cache holds all of it.
    /// - Parameter tracksCancellations: whether to count loads completed after their cancel.
    init(loadLatency: Duration, keyCount: Int, tracksCancellations: Bool = false) {
        let ledger = CancellationLedger<Int>(tracksCancellations: tracksCancellations)
        self.ledger = ledger
        fetcher = AsyncFetcher(
            maxConcurrentLoads: 6,
            memoryCache: MemoryCache(countLimit: keyCount)
        ) { key in
            ledger.recordStart()
            if loadLatency > .zero {
                try await ContinuousClock().sleep(for: loadLatency)
            }
            ledger.recordCompletion(of: key)
            return Payload(identifier: key)
        }
    }

    func fetch(_ key: Int, completion: (@Sendable () -> Void)?) {
        if let completion {
            fetcher.fetchAsync(key) { _ in completion() }
        } else {
            fetcher.fetchAsync(key)
        }
    }

    func cancel(_ key: Int) {
        ledger.recordCancel(of: key)
        fetcher.cancelPrefetching(for: key)
    }

    func fetchedData(for key: Int) -> Payload? {
        fetcher.fetchedData(for: key)
    }

    func waitUntilIdle() async {
        await fetcher.waitUntilIdle()
    }

    var loadsStarted: Int { ledger.started }

    var loadsCompletedAfterCancel: Int { ledger.completedAfterCancel }

    var statistics: FetchStatistics? { fetcher.statistics }
}
