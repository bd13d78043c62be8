import Foundation
import Lookahead

/// Drives the baseline `SampleAsyncFetcher`; its load blocks its thread, as the sample's does.
struct SampleFetcherUnderTest: FetcherUnderTest {
    let fetcher: SampleAsyncFetcher<Int, Payload>

    /// - Parameter tracksCancellations: whether to count loads completed after their cancel.
    init(loadLatency: Duration, tracksCancellations: Bool = false) {
        let seconds = loadLatency.seconds
        fetcher = SampleAsyncFetcher(tracksCancellations: tracksCancellations) { key in
            if seconds > 0 {
                Thread.sleep(forTimeInterval: seconds)
            }
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
        fetcher.cancelFetch(key)
    }

    func fetchedData(for key: Int) -> Payload? {
        fetcher.fetchedData(for: key)
    }

    /// Waits on a thread of its own: `SampleAsyncFetcher.waitUntilIdle()` blocks,
    /// and a blocked cooperative thread is one of only a few.
    func waitUntilIdle() async {
        let fetcher = fetcher
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                fetcher.waitUntilIdle()
                continuation.resume()
            }
        }
    }

    var loadsStarted: Int { fetcher.loadsStarted }

    var loadsCompletedAfterCancel: Int { fetcher.loadsCompletedAfterCancel }

    var statistics: FetchStatistics? { nil }
}
