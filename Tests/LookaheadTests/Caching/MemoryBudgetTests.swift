import Testing

@testable import Lookahead

/// The default byte budget, values that report their cost, memory pressure,
/// and values released outside the cache's lock.
@Suite(.timeLimit(.minutes(1)))
struct MemoryBudgetTests {
    struct Blob: MemoryCostReporting, Sendable, Equatable {
        var bytes: Int
        var memoryCost: Int { bytes }
    }

    @Test func theDefaultCacheHoldsAByteBudgetFromPhysicalMemory() throws {
        // Given the machine's memory
        let memory = try #require(physicalMemoryBytes())

        // When a cache is created with the defaults
        let cache = MemoryCache<Int, Blob>()

        // Then its budget is 15% of the memory, capped at 512 MiB, and values
        // that report their cost are not limited by count
        let expected = Int(min(512 << 20, memory / 100 * 15))
        #expect(MemoryCache<Int, Blob>.defaultCostLimit == expected)
        #expect(cache.costLimit == expected)
        #expect(cache.countLimit == .max)
    }

    @Test func valuesThatDoNotReportTheirCostAreLimitedByCount() {
        struct Opaque: Sendable {}
        let cache = MemoryCache<Int, Opaque>()
        cache.setValue(Opaque(), forKey: 1)
        #expect(cache.countLimit == 1_000)
        #expect(cache.totalCost == 1)
    }

    @Test func aValueCostsWhatItReports() {
        // Given a budget of 1,000 bytes
        let cache = MemoryCache<Int, Blob>(costLimit: 1_000)

        // When three 400-byte values are stored
        for key in 1...3 { cache.setValue(Blob(bytes: 400), forKey: key) }

        // Then the budget holds two of them, the most recent
        #expect(cache.totalCost == 800)
        #expect(cache.keysByRecency() == [3, 2])
        // And strings and byte arrays report their bytes
        let strings = MemoryCache<Int, String>()
        strings.setValue("héllo", forKey: 1)
        #expect(strings.totalCost == 6)
        let arrays = MemoryCache<Int, [UInt8]>()
        arrays.setValue([1, 2, 3], forKey: 1)
        #expect(arrays.totalCost == 3)
    }

    @Test func aWarningGivesBackTheLeastRecentlyUsedHalf() {
        // Given eight entries of 100 bytes, key 0 the least recently used
        let cache = MemoryCache<Int, Blob>(costLimit: 10_000)
        for key in 0..<8 { cache.setValue(Blob(bytes: 100), forKey: key) }

        // When the system warns
        cache.trim(for: .warning)

        // Then the four most recent stay and the limit is unchanged
        #expect(cache.keysByRecency() == [7, 6, 5, 4])
        #expect(cache.totalCost == 400)
        #expect(cache.costLimit == 10_000)
    }

    @Test func criticalPressureEmptiesTheFetchersCache() async throws {
        // Given a fetcher with three cached values
        let fetcher = AsyncFetcher<Int, String>(memoryCache: MemoryCache(countLimit: 100)) { "\($0)" }
        for key in 0..<3 { _ = try await fetcher.value(for: key) }
        #expect(fetcher.memoryCache.count == 3)

        // When a simulated critical pressure event reaches it
        fetcher.trimMemory(for: .critical)

        // Then nothing is left, and a new request loads again
        #expect(fetcher.memoryCache.count == 0)
        #expect(fetcher.fetchedData(for: 1) == nil)
        #expect(try await fetcher.value(for: 1) == "1")
    }

    /// A value whose `deinit` uses the cache that held it: released under the
    /// cache's lock it would re-enter the lock (a trap in debug, a deadlock in
    /// release).
    final class ReentrantValue: Sendable {
        let cache: LockedValue<MemoryCache<Int, ReentrantValue>?>
        init(cache: LockedValue<MemoryCache<Int, ReentrantValue>?>) { self.cache = cache }
        deinit { _ = cache.withLock { $0 }?.count }
    }

    @Test func evictedReplacedAndRemovedValuesAreReleasedOutsideTheLock() async {
        await #expect(processExitsWith: .success) {
            let holder = LockedValue<MemoryCache<Int, ReentrantValue>?>(nil)
            let cache = MemoryCache<Int, ReentrantValue>(countLimit: 2)
            holder.withLock { $0 = cache }
            for key in 0..<3 { cache.setValue(ReentrantValue(cache: holder), forKey: key) }  // evicts 0
            cache.setValue(ReentrantValue(cache: holder), forKey: 2)  // replaces 2
            cache.trim(toCount: 1)
            cache.trim(for: .warning)
            cache.setValue(ReentrantValue(cache: holder), forKey: 9)
            cache.trim(for: .critical)
            holder.withLock { $0 = nil }
        }
    }
}
