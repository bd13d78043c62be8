import LookaheadTestSupport
import Testing

@testable import Lookahead

@Suite(.timeLimit(.minutes(1)))
struct AsyncFetcherTests {
    typealias Fetcher = AsyncFetcher<Int, String>

    func makeFetcher(
        _ gate: LoadGate<Int, String>,
        maxConcurrentLoads: Int = 6,
        clock: ManualClock = ManualClock(),
        retryPolicy: RetryPolicy = .never
    ) -> Fetcher {
        Fetcher(
            maxConcurrentLoads: maxConcurrentLoads,
            memoryCache: MemoryCache(countLimit: 10_000),
            clock: clock,
            retryPolicy: retryPolicy
        ) { key in
            try await gate.load(key)
        }
    }

    @Test func prefetchAndDisplayRequestShareOneLoad() async throws {
        // Given a prefetch and a display request for the same key
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate)
        let deliveries = Deliveries<String>()
        fetcher.fetchAsync(1)
        fetcher.fetchAsync(1, priority: .high) { deliveries.record($0) }
        await gate.waitForStarts(1)
        #expect(fetcher.withScheduler { $0.interestCount(in: 1) } == 2)

        // When the one load finishes
        gate.succeed(1, with: "one")
        await fetcher.waitUntilIdle()

        // Then it ran once, the display request got its value and the cache has it
        #expect(gate.started == [1])
        #expect(try deliveries.all.map { try $0.get() } == ["one"])
        #expect(fetcher.fetchedData(for: 1) == "one")
        #expect(fetcher.statistics.loadsStarted == 1)
    }

    @Test func cancellingThePrefetchKeepsTheDisplayRequest() async throws {
        // Given a load wanted by a prefetch and by a cell
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate)
        let deliveries = Deliveries<String>()
        fetcher.fetchAsync(7)
        fetcher.fetchAsync(7) { deliveries.record($0) }
        await gate.waitForStarts(1)

        // When the prefetch is cancelled (the sample's cancelFetch would drop the cell's handler)
        fetcher.cancelPrefetching(for: 7)

        // Then the load keeps running, at the display request's priority, and the cell still gets its value
        #expect(fetcher.withScheduler { $0.phase(of: 7) } == .running(.high))
        gate.succeed(7, with: "seven")
        await fetcher.waitUntilIdle()
        #expect(gate.cancelled.isEmpty)
        #expect(try deliveries.all.map { try $0.get() } == ["seven"])
    }

    @Test func cancellingEveryInterestCancelsTheLoadTask() async {
        // Given two prefetches of a key whose load is running
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate)
        fetcher.fetchAsync(3)
        fetcher.fetchAsync(3)
        await gate.waitForStarts(1)

        // When they are cancelled
        fetcher.cancelPrefetching(for: 3)

        // Then the load's task is cancelled and nothing is cached
        await gate.waitForCancellations(1)
        await fetcher.waitUntilIdle()
        #expect(gate.cancelled == [3])
        #expect(fetcher.fetchedData(for: 3) == nil)
        #expect(fetcher.statistics.loadsCancelled == 1)
        #expect(fetcher.runningLoadCount == 0)
    }

    @Test func aLoadCancelledBeforeItStartsNeverRuns() async {
        // Given one slot, taken by key 1, and key 2 waiting
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate, maxConcurrentLoads: 1)
        fetcher.fetchAsync(1)
        await gate.waitForStarts(1)
        fetcher.fetchAsync(2)
        #expect(fetcher.pendingLoadCount == 1)

        // When key 2 is cancelled and the slot frees up
        fetcher.cancelPrefetching(for: 2)
        gate.succeed(1, with: "one")
        await fetcher.waitUntilIdle()

        // Then key 2 never started
        #expect(gate.started == [1])
    }

    @Test func waitingLoadsStartByPriorityThenFIFOAndEscalate() async {
        // Given one slot, taken, and requests waiting at several priorities
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate, maxConcurrentLoads: 1)
        fetcher.fetchAsync(0)
        await gate.waitForStarts(1)
        fetcher.fetchAsync(1, priority: .low)
        fetcher.fetchAsync(2, priority: .high)
        fetcher.fetchAsync(3, priority: .normal)
        fetcher.fetchAsync(4, priority: .high)
        fetcher.fetchAsync(5, priority: .veryLow)
        // and a display request at .veryHigh joins the .veryLow prefetch of key 5
        fetcher.fetchAsync(5, priority: .veryHigh) { _ in }

        // When each load finishes in turn
        for index in 1...6 {
            let running = gate.waiting[0]
            gate.succeed(running, with: "\(running)")
            if index < 6 { await gate.waitForStarts(index + 1) }
        }
        await fetcher.waitUntilIdle()

        // Then the escalated key went first, then by priority, FIFO within one
        #expect(gate.started == [0, 5, 2, 4, 3, 1])
    }

    @Test func theConcurrencyLimitIsNeverExceeded() async {
        // Given 300 requests over 100 keys at random priorities, some cancelled, with 3 slots
        let seed: UInt64 = 0x5EED_0003
        var random = SeededRandom(seed: seed)
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate, maxConcurrentLoads: 3)
        let deliveries = Deliveries<String>()
        for _ in 0..<300 {
            let key = random.next(below: 100)
            let priority = FetchPriority(rawValue: random.next(below: 5))!
            switch random.next(below: 4) {
            case 0: fetcher.cancelPrefetching(for: key)
            case 1: fetcher.fetchAsync(key, priority: priority) { deliveries.record($0) }
            default: fetcher.fetchAsync(key, priority: priority)
            }
        }

        // When the loads finish one at a time, oldest first (yielding while a
        // started load is still on its way into the gate)
        while fetcher.runningLoadCount + fetcher.pendingLoadCount > 0 {
            if let key = gate.waiting.first {
                gate.succeed(key, with: "\(key)")
            } else {
                await Task.yield()
            }
        }
        await fetcher.waitUntilIdle()

        // Then no more than 3 ever ran at once, and the limit was used
        #expect(gate.maxInFlight == 3, "seed \(seed)")
        #expect(deliveries.all.allSatisfy { (try? $0.get()) != nil }, "seed \(seed)")
        #expect(fetcher.statistics.loadsCompleted == gate.started.count - gate.cancelled.count, "seed \(seed)")
    }

    @Test func raisingTheLimitStartsWaitingLoadsAtOnce() async {
        // Given one slot and three requests
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate, maxConcurrentLoads: 1)
        for key in 1...3 { fetcher.fetchAsync(key) }
        await gate.waitForStarts(1)
        #expect(fetcher.pendingLoadCount == 2)

        // When the limit is raised
        fetcher.maxConcurrentLoads = 3

        // Then the waiting loads start without waiting for the first
        await gate.waitForStarts(3)
        #expect(Set(gate.started) == [1, 2, 3])
        for key in 1...3 { gate.succeed(key, with: "") }
        await fetcher.waitUntilIdle()
    }

    @Test func aFailureReachesEveryRequestAndIsNotCached() async {
        // Given two display requests and a prefetch of one key
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate)
        let deliveries = Deliveries<String>()
        fetcher.fetchAsync(9) { deliveries.record($0) }
        fetcher.fetchAsync(9)
        fetcher.fetchAsync(9, priority: .high) { deliveries.record($0) }
        await gate.waitForStarts(1)

        // When the load fails for good
        gate.fail(9, with: TestError(message: "boom"))
        await fetcher.waitUntilIdle()

        // Then both requests get the error, nothing is cached, and the next request loads again
        #expect(deliveries.count == 2)
        for result in deliveries.all {
            #expect(throws: TestError(message: "boom")) { try result.get() }
        }
        #expect(fetcher.fetchedData(for: 9) == nil)
        #expect(fetcher.statistics.loadsFailed == 1)
        fetcher.fetchAsync(9)
        await gate.waitForStarts(2)
        gate.succeed(9, with: "nine")
        await fetcher.waitUntilIdle()
        #expect(fetcher.fetchedData(for: 9) == "nine")
    }

    @Test func transientFailuresAreRetriedWithBoundedBackoff() async {
        // Given three attempts, 100 ms then 200 ms apart, on a manual clock
        let gate = LoadGate<Int, String>()
        let clock = ManualClock()
        let policy = RetryPolicy(maxAttempts: 3, initialDelay: .milliseconds(100), multiplier: 2)
        let fetcher = makeFetcher(gate, clock: clock, retryPolicy: policy)
        let deliveries = Deliveries<String>()
        fetcher.fetchAsync(5) { deliveries.record($0) }

        // When every attempt fails with a transient error
        await gate.waitForStarts(1)
        gate.fail(5, with: FlakyError())
        await clock.waitForSleepers(count: 1)
        #expect(fetcher.withScheduler { $0.phase(of: 5) } == .backingOff)
        clock.advance(by: .milliseconds(100))
        await gate.waitForStarts(2)
        gate.fail(5, with: FlakyError())
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .milliseconds(200))
        await gate.waitForStarts(3)
        gate.fail(5, with: FlakyError())
        await fetcher.waitUntilIdle()

        // Then it was tried exactly three times, slept 100 ms and 200 ms, and the failure was delivered
        #expect(gate.started == [5, 5, 5])
        #expect(clock.now.offset == .milliseconds(300))
        #expect(fetcher.statistics.retriesScheduled == 2)
        #expect(deliveries.count == 1)
        #expect(throws: FlakyError()) { try deliveries.all[0].get() }
    }

    @Test func nonTransientFailuresAreNotRetried() async {
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate, retryPolicy: .default)
        fetcher.fetchAsync(1)
        await gate.waitForStarts(1)
        gate.fail(1, with: TestError(message: "404"))
        await fetcher.waitUntilIdle()
        #expect(gate.started == [1])
        #expect(fetcher.statistics.retriesScheduled == 0)
    }

    @Test func awaitingAValueJoinsTheLoad() async throws {
        // Given a prefetch running
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate)
        fetcher.fetchAsync(4)
        await gate.waitForStarts(1)

        // When a caller awaits the same key and the load finishes
        async let value = fetcher.value(for: 4)
        await yieldUntil { fetcher.withScheduler { $0.interestCount(in: 4) } >= 2 }
        gate.succeed(4, with: "four")

        // Then the caller gets the value of the one load
        #expect(try await value == "four")
        #expect(gate.started == [4])
        // and a cached key is answered without a load
        #expect(try await fetcher.value(for: 4) == "four")
        #expect(fetcher.statistics.cacheHits == 1)
    }

    @Test func cancellingTheAwaitingTaskWithdrawsItsInterest() async {
        // Given a caller awaiting a key nobody else wants
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate)
        let task = Task { try await fetcher.value(for: 8) }
        await gate.waitForStarts(1)

        // When its task is cancelled
        task.cancel()

        // Then it gets CancellationError and the load's task is cancelled too
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        await gate.waitForCancellations(1)
        await fetcher.waitUntilIdle()
        #expect(fetcher.fetchedData(for: 8) == nil)
    }

    @Test func releasingTheFetcherFailsWaitingCompletionsWithCancellation() async {
        // Given a fetcher with a display request in flight
        let gate = LoadGate<Int, String>()
        var fetcher: Fetcher? = makeFetcher(gate)
        let deliveries = Deliveries<String>()
        fetcher?.fetchAsync(2) { deliveries.record($0) }
        await gate.waitForStarts(1)

        // When the fetcher is released
        fetcher = nil

        // Then the completion is called once with CancellationError and the load is cancelled
        await gate.waitForCancellations(1)
        #expect(deliveries.count == 1)
        #expect(throws: CancellationError.self) { try deliveries.all[0].get() }
    }

    @Test func waitingForIdleEndsWhenTheWaitingTaskIsCancelledAndTheLoadGoesOn() async {
        // Given a load that runs until the test lets it land, and a task waiting for the fetcher to be idle
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate)
        fetcher.fetchAsync(1)
        await gate.waitForStarts(1)
        let waiter = Task { await fetcher.waitUntilIdle() }
        await yieldUntil { !fetcher.core.state.withLock { $0.idleWaiters.isEmpty } }

        // When the waiting task is cancelled (a view's `.task` ending, say), the wait ends at once
        waiter.cancel()
        await waiter.value
        #expect(fetcher.core.state.withLock { $0.idleWaiters.isEmpty })

        // And the load was not touched: it lands, and the next wait ends when it has
        #expect(gate.cancelled.isEmpty)
        gate.succeed(1, with: "one")
        await fetcher.waitUntilIdle()
        #expect(fetcher.memoryCache.value(forKey: 1) == "one")
    }

    @Test func aTaskCancelledBeforeItWaitsForIdleReturnsAtOnce() async {
        // Given a load that never lands
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate)
        fetcher.fetchAsync(1)
        await gate.waitForStarts(1)

        // When an already cancelled task waits for idle, it returns and leaves no waiter
        let waiter = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await fetcher.waitUntilIdle()
        }
        await waiter.value
        #expect(fetcher.core.state.withLock { $0.idleWaiters.isEmpty })
        gate.succeed(1, with: "one")
        await fetcher.waitUntilIdle()
    }

    @Test func aCachedKeyCompletesImmediately() async {
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate)
        fetcher.memoryCache.setValue("cached", forKey: 1)
        let deliveries = Deliveries<String>()
        fetcher.fetchAsync(1) { deliveries.record($0) }
        #expect(deliveries.count == 1)
        #expect(gate.started.isEmpty)
        #expect(fetcher.statistics.cacheHits == 1)
    }
}

/// One default for a display request's priority: `.high`, whichever call
/// makes it; `.normal` for a prefetch.
@Suite(.queuedOnTheMainActor)
struct DisplayRequestPriorityTests {
    @Test @MainActor func everyDisplayRequestDefaultsToHighAndAPrefetchToNormal() async {
        let gate = LoadGate<Int, String>()
        let fetcher = AsyncFetcher<Int, String>(maxConcurrentLoads: 1) { key in try await gate.load(key) }
        fetcher.fetchAsync(0)
        await gate.waitForStarts(1)
        let prefetch = fetcher.fetchAsync(1)
        let display = fetcher.fetchAsync(2) { _ in }
        let onMain = fetcher.requestDisplay(of: 3) { _ in }
        #expect(prefetch.priority == .normal)
        #expect(display.priority == .high)
        #expect(onMain.priority == .high)
        for request in [prefetch, display, onMain] { request.cancel() }
        gate.succeed(0, with: "zero")
        await fetcher.waitUntilIdle()
    }
}
