// Giving memory back: trimming a MemoryCache to a cost, a count, or as the
// system's memory pressure asks, by itself or when called.

extension MemoryCache {
    /// Evicts least recently used entries until ``totalCost`` is at most `cost`.
    ///
    /// Call it on memory pressure, for example with half the current total cost,
    /// or with 0 to empty the cache. The limits are unchanged.
    ///
    /// - Complexity: O(k), where k is the number of entries evicted.
    public func trim(toCost cost: Int) {
        precondition(cost >= 0, "MemoryCache cannot trim to a negative cost, got \(cost)")
        withStorage { $0.trim(toCost: cost, toCount: .max) }
    }

    /// Gives memory back as the system asks: under `.warning` the least
    /// recently used entries until the total cost is at most half of what it
    /// was, under `.critical` everything. The limits are unchanged.
    ///
    /// A cache that ``trimsOnMemoryPressure`` (the default) is called by the
    /// system's memory-pressure events, and by the Apple glue when the app
    /// goes to the background; call it yourself for anything else.
    ///
    /// - Complexity: O(k), where k is the number of entries evicted.
    public func trim(for pressure: MemoryPressure) {
        switch pressure {
        case .warning: withStorage { $0.trim(toCost: $0.totalCost / 2, toCount: .max) }
        case .critical: removeAll()
        }
    }

    /// Evicts least recently used entries until ``count`` is at most `count`.
    ///
    /// - Complexity: O(k), where k is the number of entries evicted.
    public func trim(toCount count: Int) {
        precondition(count >= 0, "MemoryCache cannot trim to a negative count, got \(count)")
        withStorage { $0.trim(toCost: .max, toCount: count) }
    }

    /// Whether the cache gives memory back by itself when the system runs
    /// short: on the system's memory-pressure events (a dispatch source on
    /// Apple platforms: `.warning` trims half, `.critical` everything, as
    /// ``trim(for:)``), and when the app goes to the background (`.warning`,
    /// from `LookaheadUIKit` and `LookaheadSwiftUI`). On by default, as
    /// Nuke's and Kingfisher's caches; turn it off for a cache whose
    /// contents cost more to rebuild than the memory they hold.
    public var trimsOnMemoryPressure: Bool {
        get { pressureRegistry.contains(ObjectIdentifier(self)) }
        set {
            if newValue {
                pressureRegistry.register(self)
            } else {
                pressureRegistry.unregister(ObjectIdentifier(self))
            }
        }
    }
}
