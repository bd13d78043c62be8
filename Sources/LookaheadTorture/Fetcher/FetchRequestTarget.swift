// The display-request calls of a fetcher torture run, behind a protocol so
// that a test can put a deliberately faulty fetcher in front of the checker.

import Lookahead

/// The calls a torture run makes for display requests.
///
/// A run uses ``PassThroughTarget`` over the real fetcher; the checker's
/// tests wrap it in targets that deliver twice, drop or swap deliveries, or
/// keep the fetcher alive, and check that each fault lands in its counter.
protocol FetchRequestTarget: Sendable {
    func fetchAsync(
        _ key: Int, priority: FetchPriority, completion: @escaping @Sendable (Result<TortureValue, any Error>) -> Void)
    func value(for key: Int, priority: FetchPriority) async throws -> TortureValue
}

/// The real fetcher, unchanged.
struct PassThroughTarget: FetchRequestTarget {
    let fetcher: AsyncFetcher<Int, TortureValue>

    func fetchAsync(
        _ key: Int, priority: FetchPriority, completion: @escaping @Sendable (Result<TortureValue, any Error>) -> Void
    ) {
        fetcher.fetchAsync(key, priority: priority, completion: completion)
    }

    func value(for key: Int, priority: FetchPriority) async throws -> TortureValue {
        try await fetcher.value(for: key, priority: priority)
    }
}
