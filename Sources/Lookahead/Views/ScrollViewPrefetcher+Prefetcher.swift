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
    ///   - windowSize: how many items to keep prefetched ahead of the visible range.
    ///   - debounce: how long to collect changes before moving the window.
    ///   - clock: the clock `debounce` is measured on.
    ///   - keyForIndex: the key of the item at an index in `0..<itemCount`.
    public convenience init<Key: Hashable & Sendable, Value: Sendable>(
        prefetcher: Prefetcher<Key, Value>,
        itemCount: Int,
        windowSize: Int = 12,
        debounce: Duration = .milliseconds(50),
        clock: some Clock<Duration> = ContinuousClock(),
        keyForIndex: @escaping @Sendable (Int) -> Key
    ) {
        self.init(
            itemCount: itemCount,
            windowSize: windowSize,
            debounce: debounce,
            clock: clock,
            prefetch: { indices in prefetcher.startPrefetching(with: indices.map(keyForIndex)) },
            cancel: { indices in prefetcher.stopPrefetching(with: indices.map(keyForIndex)) }
        )
    }
}
