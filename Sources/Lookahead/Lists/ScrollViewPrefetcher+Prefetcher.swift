// A ScrollViewPrefetcher wired to a Prefetcher: the window's updates start
// and stop prefetches by key.

extension ScrollViewPrefetcher {
    /// Creates a prefetcher that drives a ``Prefetcher``: items entering the
    /// window start prefetching, items leaving it unseen stop.
    ///
    /// Keys are looked up when an update is delivered, for prefetching and for
    /// cancelling alike, so `keyForIndex` should answer for the list as it is
    /// now; after the list changes, call `update(itemCount:)`. A cancel that
    /// maps to another key than was prefetched only stops a prefetch early or
    /// is ignored: prefetching warms a cache keyed by the item itself, so no
    /// value ever reaches the wrong row.
    ///
    /// - Parameters:
    ///   - prefetcher: the prefetcher to drive; it is kept alive by this one.
    ///   - itemCount: the number of items in the list (at least 0).
    ///   - window: how the window is sized: adaptive by default, with the
    ///     fetcher's queue counted in the time a new load takes to finish.
    ///   - debounce: how long to collect changes before moving the window.
    ///   - clock: the clock `debounce` and the scroll speed are measured on.
    ///   - keyForIndex: the key of the item at an index in `0..<itemCount`.
    ///
    /// The fetcher's load durations feed the adaptive window (through
    /// ``AsyncFetcher/observe(_:)``) for as long as this prefetcher lives.
    package convenience init<Key: Hashable & Sendable, Value: Sendable>(
        prefetcher: Prefetcher<Key, Value>,
        itemCount: Int,
        window: PrefetchWindowSizing = .adaptive,
        debounce: Duration = .milliseconds(50),
        clock: some Clock<Duration> = ContinuousClock(),
        keyForIndex: @escaping @Sendable (Int) -> Key
    ) {
        self.init(
            itemCount: itemCount,
            window: window,
            debounce: debounce,
            clock: clock,
            queuedLoadsPerSlot: { [fetcher = prefetcher.fetcher] in
                Double(fetcher.pendingLoadCount) / Double(max(1, fetcher.maxConcurrentLoads))
            },
            prefetch: { indices in prefetcher.startPrefetching(with: indices.map(keyForIndex)) },
            cancel: { indices in prefetcher.stopPrefetching(with: indices.map(keyForIndex)) }
        )
        // The adaptive window learns how long the fetcher's loads take.
        let observation = prefetcher.fetcher.observe { [weak self] event in
            if case .succeeded(_, let duration) = event { self?.observeLoadDuration(duration) }
        }
        retain(observation)
    }
}
