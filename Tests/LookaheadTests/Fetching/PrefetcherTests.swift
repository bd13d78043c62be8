import Testing

@testable import Lookahead

@Suite(.timeLimit(.minutes(1)))
struct PrefetcherTests {
    typealias Fetcher = AsyncFetcher<Int, String>

    func makeFetcher(_ gate: LoadGate<Int, String>, maxConcurrentLoads: Int = 6) -> Fetcher {
        Fetcher(maxConcurrentLoads: maxConcurrentLoads, memoryCache: MemoryCache(countLimit: 10_000)) { key in
            try await gate.load(key)
        }
    }

    /// Counts calls of `didComplete`.
    final class Counter: Sendable {
        let value = LockedValue(0)
        func increment() { value.withLock { $0 += 1 } }
        var count: Int { value.withLock { $0 } }
    }

    @Test func fetchesAtMostItsConcurrencyInTheOrderAsked() async {
        // Given a prefetcher that runs two at a time
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate)
        let prefetcher = Prefetcher(fetcher: fetcher, maxConcurrentRequestCount: 2)

        // When it is asked for four keys
        prefetcher.startPrefetching(with: [10, 11, 12, 13])
        await gate.waitForStarts(2)
        #expect(Set(gate.started) == [10, 11])
        #expect(prefetcher.outstandingCount == 4)

        // Then the next starts only when one finishes, in the order asked
        gate.succeed(10, with: "")
        await gate.waitForStarts(3)
        #expect(gate.started.last == 12)
        gate.succeed(11, with: "")
        gate.succeed(12, with: "")
        await gate.waitForStarts(4)
        gate.succeed(13, with: "")
        await fetcher.waitUntilIdle()
        #expect(gate.maxInFlight == 2)
        #expect(prefetcher.completedCount == 4)
        #expect(prefetcher.outstandingCount == 0)
    }

    @Test func prefetchesRunAtLowPriorityBelowDisplayRequests() async {
        // Given one slot, taken, a prefetch waiting and then a display request
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate, maxConcurrentLoads: 1)
        let prefetcher = Prefetcher(fetcher: fetcher)
        fetcher.fetchAsync(0)
        await gate.waitForStarts(1)
        prefetcher.startPrefetching(with: [1])
        fetcher.fetchAsync(2, priority: .normal) { _ in }

        // When the slot frees up
        gate.succeed(0, with: "")
        await gate.waitForStarts(2)

        // Then the display request goes first
        #expect(gate.started == [0, 2])
        gate.succeed(2, with: "")
        await gate.waitForStarts(3)
        gate.succeed(1, with: "")
        await fetcher.waitUntilIdle()
    }

    @Test func changingThePriorityMovesQueuedWork() async {
        // Given one slot, taken, two prefetches waiting at .low and a display request at .normal
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate, maxConcurrentLoads: 1)
        let prefetcher = Prefetcher(fetcher: fetcher, maxConcurrentRequestCount: 4)
        fetcher.fetchAsync(0)
        await gate.waitForStarts(1)
        prefetcher.startPrefetching(with: [1, 2])
        fetcher.fetchAsync(3, priority: .normal) { _ in }

        // When the prefetcher's priority is raised above the display request
        prefetcher.priority = .high
        #expect(prefetcher.priority == .high)

        // Then its waiting work runs first
        for index in 1...3 {
            gate.succeed(gate.waiting[0], with: "")
            await gate.waitForStarts(index + 1)
        }
        gate.succeed(gate.waiting[0], with: "")
        await fetcher.waitUntilIdle()
        #expect(gate.started == [0, 1, 2, 3])
    }

    @Test func pausingLetsRunningLoadsFinishAndHoldsTheRest() async {
        // Given a prefetcher running two of three keys
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate)
        let prefetcher = Prefetcher(fetcher: fetcher, maxConcurrentRequestCount: 2)
        prefetcher.startPrefetching(with: [1, 2, 3])
        await gate.waitForStarts(2)

        // When it is paused and a running load finishes
        prefetcher.isPaused = true
        #expect(prefetcher.isPaused)
        gate.succeed(1, with: "")
        gate.succeed(2, with: "")
        await fetcher.waitUntilIdle()

        // Then the running loads were not cancelled and the third waits
        #expect(gate.cancelled.isEmpty)
        #expect(gate.started == [1, 2])
        #expect(prefetcher.completedCount == 2)

        // and resuming starts it
        prefetcher.isPaused = false
        await gate.waitForStarts(3)
        gate.succeed(3, with: "")
        await fetcher.waitUntilIdle()
        #expect(prefetcher.completedCount == 3)
    }

    @Test func aPausedPrefetchJoinedByADisplayRequestStillLoads() async {
        // Given a paused prefetcher holding a key
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate)
        let prefetcher = Prefetcher(fetcher: fetcher)
        prefetcher.isPaused = true
        prefetcher.startPrefetching(with: [5])
        #expect(fetcher.pendingLoadCount == 0)

        // When a cell asks for the same key
        let deliveries = Deliveries<String>()
        fetcher.fetchAsync(5) { deliveries.record($0) }

        // Then it loads once, and the prefetch is satisfied too
        await gate.waitForStarts(1)
        gate.succeed(5, with: "five")
        await fetcher.waitUntilIdle()
        #expect(deliveries.count == 1)
        #expect(prefetcher.outstandingCount == 0)
        #expect(prefetcher.completedCount == 1)
    }

    @Test func stoppingAPrefetchLeavesADisplayRequestForTheSameKey() async throws {
        // Given a prefetch and a display request sharing a load
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate)
        let prefetcher = Prefetcher(fetcher: fetcher)
        let deliveries = Deliveries<String>()
        prefetcher.startPrefetching(with: [4])
        fetcher.fetchAsync(4, priority: .high) { deliveries.record($0) }
        await gate.waitForStarts(1)

        // When the prefetch is stopped
        prefetcher.stopPrefetching(with: [4])

        // Then the load goes on for the cell
        gate.succeed(4, with: "four")
        await fetcher.waitUntilIdle()
        #expect(gate.cancelled.isEmpty)
        #expect(try deliveries.all.map { try $0.get() } == ["four"])
        #expect(prefetcher.completedCount == 0)
    }

    @Test func stoppingEverythingCancelsRunningAndQueuedWork() async {
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate)
        let prefetcher = Prefetcher(fetcher: fetcher, maxConcurrentRequestCount: 2)
        prefetcher.startPrefetching(with: [1, 2, 3, 4])
        await gate.waitForStarts(2)

        prefetcher.stopPrefetching()

        await gate.waitForCancellations(2)
        await fetcher.waitUntilIdle()
        #expect(gate.started.count == 2)
        #expect(prefetcher.outstandingCount == 0)
    }

    @Test func startAndStopNeedNotBalanceAndEmptyArraysAreNoOps() async {
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate)
        let prefetcher = Prefetcher(fetcher: fetcher)
        prefetcher.startPrefetching(with: [])
        prefetcher.stopPrefetching(with: [])
        prefetcher.stopPrefetching(with: [1, 2])
        prefetcher.startPrefetching(with: [1])
        prefetcher.startPrefetching(with: [1, 1])
        await gate.waitForStarts(1)
        #expect(prefetcher.outstandingCount == 1)
        #expect(fetcher.withScheduler { $0.interestCount(in: 1) } == 1)
        prefetcher.stopPrefetching(with: [1])
        prefetcher.stopPrefetching(with: [1])
        await gate.waitForCancellations(1)
        await fetcher.waitUntilIdle()
        #expect(gate.started == [1])
    }

    @Test func didCompleteFiresWhenNothingIsLeftAndCachedKeysAreSkipped() async {
        // Given a prefetcher with a completion counter
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate)
        let prefetcher = Prefetcher(fetcher: fetcher)
        let counter = Counter()
        prefetcher.didComplete = { counter.increment() }

        // When one key loads and one fails
        prefetcher.startPrefetching(with: [1, 2])
        await gate.waitForStarts(2)
        gate.succeed(1, with: "one")
        gate.fail(2, with: TestError(message: "gone"))
        await fetcher.waitUntilIdle()

        // Then it fired once (not after the first), with one completion and one failure counted
        #expect(counter.count == 1)
        #expect(prefetcher.completedCount == 1)
        #expect(prefetcher.failedCount == 1)

        // When every key asked for is already cached
        prefetcher.startPrefetching(with: [1])

        // Then it is skipped, no load starts, and didComplete fires again
        #expect(prefetcher.skippedCount == 1)
        #expect(counter.count == 2)
        #expect(gate.started.count == 2)
    }

    @Test func releasingThePrefetcherCancelsWhatItStarted() async {
        // Given a prefetcher with two loads running and one queued
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate)
        var prefetcher: Prefetcher<Int, String>? = Prefetcher(fetcher: fetcher)
        prefetcher?.startPrefetching(with: [1, 2, 3])
        await gate.waitForStarts(2)

        // When it is released
        prefetcher = nil

        // Then its loads are cancelled and the queued one never starts
        await gate.waitForCancellations(2)
        await fetcher.waitUntilIdle()
        #expect(gate.started.count == 2)
        #expect(fetcher.withScheduler { $0.keyCount } == 0)
    }
}
