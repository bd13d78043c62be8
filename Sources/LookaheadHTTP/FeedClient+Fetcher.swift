// An AsyncFetcher of feed items over a FeedClient, with retries.

#if Tools
public import Lookahead

extension FeedClient {
    /// An `AsyncFetcher` of items by id over this client: as many loads at
    /// once as the loader has connections, transient failures (timeouts, 5xx,
    /// truncated bodies, dropped connections) retried with `retryPolicy`'s
    /// backoff, others reported at once.
    ///
    /// - Parameters:
    ///   - retryPolicy: how transient failures are retried.
    ///   - memoryCache: where loaded items are kept.
    ///   - bytes: pads each item's body to about this many bytes.
    public func makeItemFetcher(
        retryPolicy: RetryPolicy = .default,
        memoryCache: MemoryCache<Int, FeedItem> = MemoryCache(),
        paddedTo bytes: Int? = nil
    ) -> AsyncFetcher<Int, FeedItem> {
        AsyncFetcher(
            maxConcurrentLoads: loader.configuration.maximumConnections,
            memoryCache: memoryCache,
            retryPolicy: retryPolicy,
            isTransient: HTTPLoader.isTransient
        ) { id in
            try await item(id, paddedTo: bytes)
        }
    }
}
#endif
