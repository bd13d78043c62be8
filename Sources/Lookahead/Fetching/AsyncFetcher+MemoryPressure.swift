// Memory pressure reaches a fetcher's values through its cache: one call for
// the Apple glue (and for apps) to forward a memory warning to.

extension AsyncFetcher {
    /// Gives memory back as the system asks, by trimming ``memoryCache``
    /// (see ``MemoryCache/trim(for:)``). Loads in flight are untouched: their
    /// values are delivered and cached as usual.
    ///
    /// - Complexity: O(k), where k is the number of entries evicted.
    public func trimMemory(for pressure: MemoryPressure) {
        memoryCache.trim(for: pressure)
    }
}
