import LookaheadTestSupport
import Testing

@testable import Lookahead

@Suite(.queuedOnTheHeavyTestThread)
struct MemoryCacheTests {
    /// A cache that checks its invariants after every operation (in debug builds).
    private func makeCache(
        costLimit: Int = .max, countLimit: Int = 1_000, cost: (@Sendable (String) -> Int)? = nil
    ) -> MemoryCache<Int, String> {
        MemoryCache(costLimit: costLimit, countLimit: countLimit, cost: cost, checksInvariants: true)
    }

    // MARK: - Recency

    @Test func readingAnEntryMakesItTheMostRecentlyUsed() {
        // Given entries set in the order 1, 2, 3
        let cache = makeCache()
        cache.setValue("one", forKey: 1)
        cache.setValue("two", forKey: 2)
        cache.setValue("three", forKey: 3)
        #expect(cache.keysByRecency() == [3, 2, 1])

        // When the oldest one is read
        let value = cache.value(forKey: 1)

        // Then it is returned and is now the most recently used
        #expect(value == "one")
        #expect(cache.keysByRecency() == [1, 3, 2])
    }

    @Test func aMissDoesNotChangeTheOrder() {
        // Given two entries
        let cache = makeCache()
        cache.setValue("one", forKey: 1)
        cache.setValue("two", forKey: 2)

        // When a key that is not cached is read
        let value = cache.value(forKey: 3)

        // Then nothing is returned and nothing moves
        #expect(value == nil)
        #expect(cache.keysByRecency() == [2, 1])
    }

    @Test func replacingAnEntryMakesItTheMostRecentlyUsed() {
        // Given entries set in the order 1, 2, 3
        let cache = makeCache()
        cache.setValue("one", forKey: 1)
        cache.setValue("two", forKey: 2)
        cache.setValue("three", forKey: 3)

        // When the oldest one is replaced
        cache.setValue("uno", forKey: 1)

        // Then it has the new value, is the most recently used, and the count is unchanged
        #expect(cache.keysByRecency() == [1, 3, 2])
        #expect(cache.value(forKey: 1) == "uno")
        #expect(cache.count == 3)
    }

    @Test func evictionRemovesTheLeastRecentlyUsedEntry() {
        // Given a full cache of three, whose oldest entry was then read
        let cache = makeCache(countLimit: 3)
        cache.setValue("one", forKey: 1)
        cache.setValue("two", forKey: 2)
        cache.setValue("three", forKey: 3)
        _ = cache.value(forKey: 1)

        // When a fourth entry is set
        cache.setValue("four", forKey: 4)

        // Then the least recently used one (2, not the oldest set, 1) is gone
        #expect(cache.value(forKey: 2) == nil)
        #expect(cache.keysByRecency() == [4, 1, 3])
    }

    // MARK: - Count limit

    @Test func theCountNeverExceedsTheCountLimit() {
        // Given a cache limited to 10 entries
        let cache = makeCache(countLimit: 10)

        // When 100 distinct entries are set
        for key in 0..<100 {
            cache.setValue("\(key)", forKey: key)
        }

        // Then only the 10 most recent remain
        #expect(cache.count == 10)
        #expect(cache.keysByRecency() == Array((90..<100).reversed()))
        #expect(cache.totalCost == 20)  // "90"…"99": two UTF-8 bytes each
    }

    @Test func aCountLimitOfZeroStoresNothing() {
        // Given a cache that may hold no entries
        let cache = makeCache(countLimit: 0)

        // When an entry is set
        cache.setValue("one", forKey: 1)

        // Then it is not stored
        #expect(cache.value(forKey: 1) == nil)
        #expect(cache.count == 0)
        #expect(cache.totalCost == 0)
    }

    // MARK: - Cost limit

    @Test func explicitCostsEvictUntilWithinTheCostLimit() {
        // Given a cache with a cost limit of 10 holding entries of cost 4, 3 and 2
        let cache = makeCache(costLimit: 10)
        cache.setValue("a", forKey: 1, cost: 4)
        cache.setValue("b", forKey: 2, cost: 3)
        cache.setValue("c", forKey: 3, cost: 2)
        #expect(cache.totalCost == 9)

        // When an entry of cost 5 is set
        cache.setValue("d", forKey: 4, cost: 5)

        // Then the least recently used entries go until it fits: 1 (9 + 5 - 4 = 10)
        #expect(cache.keysByRecency() == [4, 3, 2])
        #expect(cache.totalCost == 10)
    }

    @Test func theCostFunctionPricesEntriesWithoutAnExplicitCost() {
        // Given a cache whose entries cost their string's length, with a limit of 10
        let cache = makeCache(costLimit: 10, cost: { $0.count })

        // When entries of length 4, 4 and 3 are set
        cache.setValue("aaaa", forKey: 1)
        cache.setValue("bbbb", forKey: 2)
        cache.setValue("ccc", forKey: 3)

        // Then the first one was evicted to make room for the last
        #expect(cache.keysByRecency() == [3, 2])
        #expect(cache.totalCost == 7)
    }

    @Test func anExplicitCostWinsOverTheCostFunction() {
        // Given a cache with a cost function
        let cache = makeCache(cost: { $0.count })

        // When an entry is set with an explicit cost
        cache.setValue("aaaa", forKey: 1, cost: 1)

        // Then the explicit cost is used
        #expect(cache.totalCost == 1)
    }

    @Test func withoutACostFunctionEveryEntryCostsOne() {
        // Given a cache without a cost function, of values that do not report a cost
        struct Opaque: Sendable {}
        let cache = MemoryCache<Int, Opaque>(checksInvariants: true)

        // When three entries are set without costs
        for key in 0..<3 {
            cache.setValue(Opaque(), forKey: key)
        }

        // Then each cost 1
        #expect(cache.totalCost == 3)
    }

    @Test func anEntryCostingMoreThanTheLimitIsNotStored() {
        // Given a cache with a cost limit of 10 holding two entries
        let cache = makeCache(costLimit: 10)
        cache.setValue("a", forKey: 1, cost: 3)
        cache.setValue("b", forKey: 2, cost: 3)

        // When an entry of cost 11 is set
        cache.setValue("huge", forKey: 3, cost: 11)

        // Then it is not stored, and nothing was evicted for it
        #expect(cache.value(forKey: 3) == nil)
        #expect(cache.count == 2)
        #expect(cache.totalCost == 6)
    }

    @Test func anEntryCostingMoreThanTheLimitRemovesTheOldValue() {
        // Given a cache with a cost limit of 10 holding a value for key 1
        let cache = makeCache(costLimit: 10)
        cache.setValue("old", forKey: 1, cost: 3)
        cache.setValue("other", forKey: 2, cost: 3)

        // When a value too costly to store is set for key 1
        cache.setValue("new", forKey: 1, cost: 11)

        // Then the old value is gone too, so it is never returned as if current
        #expect(cache.value(forKey: 1) == nil)
        #expect(cache.keysByRecency() == [2])
        #expect(cache.totalCost == 3)
    }

    @Test func anEntryCostingExactlyTheLimitEvictsEverythingElse() {
        // Given a cache with a cost limit of 10 holding two entries
        let cache = makeCache(costLimit: 10)
        cache.setValue("a", forKey: 1, cost: 3)
        cache.setValue("b", forKey: 2, cost: 3)

        // When an entry of cost 10 is set
        cache.setValue("c", forKey: 3, cost: 10)

        // Then it is the only entry
        #expect(cache.keysByRecency() == [3])
        #expect(cache.totalCost == 10)
    }

    @Test func replacingAnEntryUpdatesTheTotalCost() {
        // Given a cache holding entries of cost 3 and 4
        let cache = makeCache(costLimit: 10)
        cache.setValue("a", forKey: 1, cost: 3)
        cache.setValue("b", forKey: 2, cost: 4)

        // When the first is replaced by a cheaper value, then the second by a dearer one
        cache.setValue("a2", forKey: 1, cost: 1)
        let afterCheaper = cache.totalCost
        cache.setValue("b2", forKey: 2, cost: 9)

        // Then the total follows, and the dearer one evicted the other to fit (1 + 9 = 10)
        #expect(afterCheaper == 5)
        #expect(cache.totalCost == 10)
        #expect(cache.keysByRecency() == [2, 1])

        // And one more unit evicts key 1 instead of the replaced entry
        cache.setValue("b3", forKey: 2, cost: 10)
        #expect(cache.keysByRecency() == [2])
        #expect(cache.totalCost == 10)
    }

    @Test func costsNearIntMaxDoNotOverflow() {
        // Given an unlimited cache holding an entry costing almost Int.max
        let cache = makeCache()
        cache.setValue("a", forKey: 1, cost: .max - 1)

        // When another such entry is set, and then the first is replaced by another
        cache.setValue("b", forKey: 2, cost: .max - 1)
        cache.setValue("c", forKey: 2, cost: .max)

        // Then each evicts what it has to, without trapping
        #expect(cache.keysByRecency() == [2])
        #expect(cache.totalCost == .max)
    }

    // MARK: - Removal

    @Test func removeValueReturnsAndRemovesTheEntry() {
        // Given three entries
        let cache = makeCache()
        cache.setValue("a", forKey: 1, cost: 2)
        cache.setValue("b", forKey: 2, cost: 3)
        cache.setValue("c", forKey: 3, cost: 4)

        // When the middle one is removed, and a missing one
        let removed = cache.removeValue(forKey: 2)
        let missing = cache.removeValue(forKey: 42)

        // Then the value is returned, and the others keep their order and costs
        #expect(removed == "b")
        #expect(missing == nil)
        #expect(cache.value(forKey: 2) == nil)
        #expect(cache.keysByRecency() == [3, 1])
        #expect(cache.totalCost == 6)
    }

    @Test func removeAllEmptiesTheCacheAndKeepsTheLimits() {
        // Given a cache with entries
        let cache = makeCache(costLimit: 50, countLimit: 20)
        for key in 0..<10 {
            cache.setValue("\(key)", forKey: key, cost: 2)
        }

        // When everything is removed
        cache.removeAll()

        // Then it is empty, keeps its limits, and is usable again
        #expect(cache.count == 0)
        #expect(cache.totalCost == 0)
        #expect(cache.keysByRecency().isEmpty)
        #expect(cache.costLimit == 50)
        #expect(cache.countLimit == 20)
        cache.setValue("again", forKey: 1)
        #expect(cache.value(forKey: 1) == "again")
    }

    @Test func removedAndEvictedValuesAreReleased() {
        // Given a cache of two holding objects that nothing else references
        let cache = MemoryCache<Int, Box>(countLimit: 2, checksInvariants: true)
        weak var evicted: Box?
        weak var removed: Box?
        weak var kept: Box?
        do {
            let first = Box(1)
            let second = Box(2)
            let third = Box(3)
            evicted = first
            removed = second
            kept = third
            cache.setValue(first, forKey: 1)
            cache.setValue(second, forKey: 2)

            // When one is removed and another evicted
            cache.removeValue(forKey: 2)
            cache.setValue(third, forKey: 3)
            cache.setValue(Box(4), forKey: 4)
        }

        // Then the cache no longer keeps them alive (free slots hold no value)
        #expect(evicted == nil)
        #expect(removed == nil)
        #expect(kept != nil)
    }

    // MARK: - Trimming

    @Test func trimToCostEvictsLeastRecentlyUsedFirst() {
        // Given four entries of cost 2, of which the oldest was then read
        let cache = makeCache()
        for key in 1...4 {
            cache.setValue("\(key)", forKey: key, cost: 2)
        }
        _ = cache.value(forKey: 1)

        // When trimmed to a cost of 5 (memory pressure)
        cache.trim(toCost: 5)

        // Then the two least recently used are gone, and the limit is unchanged
        #expect(cache.keysByRecency() == [1, 4])
        #expect(cache.totalCost == 4)
        #expect(cache.costLimit == .max)
    }

    @Test func trimToCostZeroEmptiesTheCache() {
        // Given entries of cost 1
        let cache = makeCache()
        for key in 0..<5 {
            cache.setValue("\(key)", forKey: key)
        }

        // When trimmed to nothing
        cache.trim(toCost: 0)

        // Then nothing is left
        #expect(cache.count == 0)
        #expect(cache.totalCost == 0)
    }

    @Test func trimToCountKeepsTheMostRecentlyUsed() {
        // Given five entries
        let cache = makeCache()
        for key in 0..<5 {
            cache.setValue("\(key)", forKey: key)
        }

        // When trimmed to two, and then to more than there are
        cache.trim(toCount: 2)
        cache.trim(toCount: 10)

        // Then the two most recent remain, and the limit is unchanged
        #expect(cache.keysByRecency() == [4, 3])
        #expect(cache.countLimit == 1_000)
    }

    @Test func loweringTheCostLimitTrims() {
        // Given four entries of cost 3
        let cache = makeCache(costLimit: 100)
        for key in 1...4 {
            cache.setValue("\(key)", forKey: key, cost: 3)
        }

        // When the cost limit is lowered to 7
        cache.costLimit = 7

        // Then the least recently used entries go until the total fits, and the new limit holds afterwards
        #expect(cache.keysByRecency() == [4, 3])
        #expect(cache.totalCost == 6)
        cache.setValue("5", forKey: 5, cost: 3)
        #expect(cache.keysByRecency() == [5, 4])
    }

    @Test func loweringTheCountLimitTrims() {
        // Given five entries
        let cache = makeCache()
        for key in 1...5 {
            cache.setValue("\(key)", forKey: key)
        }

        // When the count limit is lowered to 2, then raised again
        cache.countLimit = 2
        cache.countLimit = 4

        // Then the two most recent remain, and raising the limit evicted nothing more
        #expect(cache.keysByRecency() == [5, 4])
        #expect(cache.countLimit == 4)
    }

    // MARK: - Preconditions

    @Test func negativeLimitsAndCostsStopTheProgram() async {
        await #expect(processExitsWith: .failure) {
            _ = MemoryCache<Int, Int>(costLimit: -1)
        }
        await #expect(processExitsWith: .failure) {
            _ = MemoryCache<Int, Int>(countLimit: -1)
        }
        await #expect(processExitsWith: .failure) {
            MemoryCache<Int, Int>().setValue(1, forKey: 1, cost: -1)
        }
        await #expect(processExitsWith: .failure) {
            MemoryCache<Int, Int>().costLimit = -1
        }
    }

    // MARK: - Concurrency

    @Test func concurrentMixedOperationsKeepTheInvariants() async {
        // Given a small cache shared by 8 tasks, each value being its key times 10
        let cache = MemoryCache<Int, Int>(costLimit: 300, countLimit: 64, checksInvariants: true)

        // When each task performs 10,000 random operations
        let wrongValues = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var random = SeededRandom(seed: UInt64(task))
                    var wrong = 0
                    for _ in 0..<10_000 {
                        let key = Int.random(in: 0..<128, using: &random)
                        switch random.next() % 8 {
                        case 0...3:
                            if let value = cache.value(forKey: key), value != key * 10 { wrong += 1 }
                        case 4...5:
                            cache.setValue(key * 10, forKey: key, cost: Int.random(in: 0...10, using: &random))
                        case 6:
                            if let value = cache.removeValue(forKey: key), value != key * 10 { wrong += 1 }
                        default:
                            cache.trim(toCount: Int.random(in: 32...64, using: &random))
                        }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }

        // Then no value was mixed up, the limits hold and the structure is intact
        #expect(wrongValues == 0)
        #expect(cache.count <= 64)
        #expect(cache.totalCost <= 300)
        #expect(cache.keysByRecency().count == cache.count)
        cache.checkInvariants()
    }

    // MARK: - Randomized against a reference model

    @Test(arguments: [0x5EED_CAFE, 1, 2_026] as [UInt64])
    func randomOperationsMatchAReferenceModel(seed: UInt64) async {
        // A long synchronous loop: on the heavy tests' thread, not the cooperative pool's.
        await onHeavyTestThread { runRandomOperations(seed: seed) }
    }

    private func runRandomOperations(seed: UInt64) {
        // Given a cache and a naive model of it, with random limits
        var random = SeededRandom(seed: seed)
        let costLimit = Int.random(in: 20...120, using: &random)
        let countLimit = Int.random(in: 4...40, using: &random)
        let cache = MemoryCache<Int, Int>(costLimit: costLimit, countLimit: countLimit, checksInvariants: true)
        var model = ReferenceCache(costLimit: costLimit, countLimit: countLimit)

        // When both run the same 100,000 random operations
        for step in 0..<100_000 {
            let key = Int.random(in: 0..<64, using: &random)
            let roll = Int.random(in: 0..<1_000, using: &random)
            var actual: Int?
            var expected: Int?
            switch roll {
            case 0..<400:
                actual = cache.value(forKey: key)
                expected = model.value(forKey: key)
            case 400..<800:
                let value = Int.random(in: 0..<1_000_000, using: &random)
                let cost = Int.random(in: 0...(roll < 790 ? 12 : costLimit + 5), using: &random)
                cache.setValue(value, forKey: key, cost: cost)
                model.setValue(value, forKey: key, cost: cost)
            case 800..<980:
                actual = cache.removeValue(forKey: key)
                expected = model.removeValue(forKey: key)
            case 980..<985:
                let cost = Int.random(in: 0...model.totalCost, using: &random)
                cache.trim(toCost: cost)
                model.trim(toCost: cost, toCount: .max)
            case 985..<990:
                let count = Int.random(in: 0...model.entries.count, using: &random)
                cache.trim(toCount: count)
                model.trim(toCost: .max, toCount: count)
            case 990..<995:
                let limit = Int.random(in: 0...150, using: &random)
                cache.costLimit = limit
                model.costLimit = limit
            case 995..<999:
                let limit = Int.random(in: 0...50, using: &random)
                cache.countLimit = limit
                model.countLimit = limit
            default:
                cache.removeAll()
                model.entries.removeAll()
            }

            // Then every result, the order and the totals agree
            let observed = Snapshot(
                result: actual, keysByRecency: cache.keysByRecency(), totalCost: cache.totalCost, count: cache.count)
            let modelled = Snapshot(
                result: expected, keysByRecency: model.entries.map(\.key), totalCost: model.totalCost,
                count: model.entries.count)
            #expect(observed == modelled, "seed \(seed), step \(step)")
            guard observed == modelled else { return }
        }
        cache.checkInvariants()
    }
}

/// What the randomized test compares after each step.
private struct Snapshot: Equatable {
    var result: Int?
    var keysByRecency: [Int]
    var totalCost: Int
    var count: Int
}

/// A `Sendable` object, to observe when the cache releases a value.
private final class Box: Sendable {
    let number: Int

    init(_ number: Int) {
        self.number = number
    }
}

/// An obviously correct LRU cache: an array, most recently used first, O(n) everywhere.
private struct ReferenceCache {
    var entries: [(key: Int, value: Int, cost: Int)] = []
    var costLimit: Int {
        didSet { trim(toCost: costLimit, toCount: countLimit) }
    }
    var countLimit: Int {
        didSet { trim(toCost: costLimit, toCount: countLimit) }
    }
    var totalCost: Int { entries.reduce(0) { $0 + $1.cost } }

    init(costLimit: Int, countLimit: Int) {
        self.costLimit = costLimit
        self.countLimit = countLimit
    }

    mutating func value(forKey key: Int) -> Int? {
        guard let position = entries.firstIndex(where: { $0.key == key }) else { return nil }
        let entry = entries.remove(at: position)
        entries.insert(entry, at: 0)
        return entry.value
    }

    mutating func setValue(_ value: Int, forKey key: Int, cost: Int) {
        _ = removeValue(forKey: key)
        guard cost <= costLimit else { return }
        entries.insert((key, value, cost), at: 0)
        trim(toCost: costLimit, toCount: countLimit)
    }

    mutating func removeValue(forKey key: Int) -> Int? {
        guard let position = entries.firstIndex(where: { $0.key == key }) else { return nil }
        return entries.remove(at: position).value
    }

    mutating func trim(toCost cost: Int, toCount count: Int) {
        while totalCost > cost || entries.count > count {
            entries.removeLast()
        }
    }
}
