// Tests of display-request handles: cancelling one withdraws only its own
// interest, its completion is called exactly once, and its priority moves
// queued work.
import Testing

@testable import Lookahead

@Suite(.timeLimit(.minutes(1)))
struct FetchTaskTests {
    typealias Fetcher = AsyncFetcher<Int, String>

    func makeFetcher(_ gate: LoadGate<Int, String>, maxConcurrentLoads: Int = 6) -> Fetcher {
        Fetcher(maxConcurrentLoads: maxConcurrentLoads, memoryCache: MemoryCache(countLimit: 10_000)) { key in
            try await gate.load(key)
        }
    }

    @Test func aReusedCellsRequestIsWithdrawnAndItsLoadCancelled() async {
        // Given a cell's display request, the only interest in a running load
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate)
        let deliveries = Deliveries<String>()
        let request = fetcher.fetchAsync(1, priority: .high) { deliveries.record($0) }
        await gate.waitForStarts(1)
        #expect(request.isPending)

        // When the cell is reused
        request.cancel()

        // Then its completion gets a CancellationError, once, and the load is cancelled
        await gate.waitForCancellations(1)
        await fetcher.waitUntilIdle()
        #expect(deliveries.count == 1)
        #expect(deliveries.all.allSatisfy { if case .failure(is CancellationError) = $0 { true } else { false } })
        #expect(gate.cancelled == [1])
        #expect(!request.isPending)
        #expect(fetcher.fetchedData(for: 1) == nil)
    }

    @Test func aSharedLoadSurvivesTheCancelOfOneRequest() async throws {
        // Given a load wanted by a prefetch and two cells
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate)
        let first = Deliveries<String>()
        let second = Deliveries<String>()
        fetcher.fetchAsync(2)
        let firstRequest = fetcher.fetchAsync(2, priority: .high) { first.record($0) }
        fetcher.fetchAsync(2, priority: .high) { second.record($0) }
        await gate.waitForStarts(1)

        // When the first cell's request is cancelled
        firstRequest.cancel()
        // Then the load keeps running for the prefetch and the other cell
        #expect(fetcher.withScheduler { $0.phase(of: 2) } == .running(.high))
        #expect(first.count == 1)

        // When the prefetch is cancelled too
        fetcher.cancelPrefetching(for: 2)
        // Then the other cell's request still keeps it
        #expect(fetcher.withScheduler { $0.phase(of: 2) } == .running(.high))
        gate.succeed(2, with: "two")
        await fetcher.waitUntilIdle()
        #expect(gate.cancelled.isEmpty)
        #expect(try second.all.map { try $0.get() } == ["two"])
        #expect(first.count == 1)
    }

    @Test func anAwaitingCallerKeepsTheLoadWhenARequestIsCancelled() async throws {
        // Given a load wanted by a cell and by an awaiting caller
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate)
        let request = fetcher.fetchAsync(3, priority: .high) { _ in }
        let caller = Task { try await fetcher.value(for: 3) }
        await gate.waitForStarts(1)
        await yieldUntil { fetcher.withScheduler { $0.interestCount(in: 3) } >= 2 }

        // When the cell's request is cancelled
        request.cancel()

        // Then the caller still gets the value
        gate.succeed(3, with: "three")
        #expect(try await caller.value == "three")
        #expect(gate.cancelled.isEmpty)
    }

    @Test func aLoweredRequestStartsAfterALaterNormalOne() async {
        // Given one slot, taken, a .high request and then a .normal one waiting
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate, maxConcurrentLoads: 1)
        fetcher.fetchAsync(0)
        await gate.waitForStarts(1)
        let carriedAway = fetcher.fetchAsync(1, priority: .high) { _ in }
        fetcher.fetchAsync(2, priority: .normal) { _ in }

        // When a fling carries the first cell away
        carriedAway.priority = .low
        #expect(carriedAway.priority == .low)
        #expect(fetcher.withScheduler { $0.phase(of: 1) } == .pending(.low))

        // Then the .normal request starts first
        gate.succeed(0, with: "zero")
        await gate.waitForStarts(2)
        #expect(gate.started == [0, 2])
        gate.succeed(2, with: "two")
        await gate.waitForStarts(3)
        gate.succeed(1, with: "one")
        await fetcher.waitUntilIdle()
        #expect(gate.started == [0, 2, 1])
    }

    @Test func aRaisedRequestJumpsAhead() async {
        // Given one slot, taken, a .normal request and then a .low one waiting
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate, maxConcurrentLoads: 1)
        fetcher.fetchAsync(0)
        await gate.waitForStarts(1)
        fetcher.fetchAsync(1, priority: .normal) { _ in }
        let comingIntoView = fetcher.fetchAsync(2, priority: .low) { _ in }

        // When its cell comes into view
        comingIntoView.priority = .veryHigh

        // Then it starts first
        gate.succeed(0, with: "zero")
        await gate.waitForStarts(2)
        #expect(gate.started == [0, 2])
        gate.succeed(2, with: "two")
        await gate.waitForStarts(3)
        gate.succeed(1, with: "one")
        await fetcher.waitUntilIdle()
    }

    @Test func cancellingAfterDeliveryDoesNothing() async throws {
        // Given a request that got its value, and one answered from the cache
        let gate = LoadGate<Int, String>()
        let fetcher = makeFetcher(gate)
        let deliveries = Deliveries<String>()
        let request = fetcher.fetchAsync(4) { deliveries.record($0) }
        await gate.waitForStarts(1)
        gate.succeed(4, with: "four")
        await fetcher.waitUntilIdle()
        let cached = fetcher.fetchAsync(4) { deliveries.record($0) }

        // When both are cancelled, and re-prioritised
        request.cancel()
        cached.cancel()
        request.priority = .veryHigh

        // Then each completion ran once, with the value, and nothing changed:
        // the request keeps the display priority it was made with
        await fetcher.waitUntilIdle()
        #expect(try deliveries.all.map { try $0.get() } == ["four", "four"])
        #expect(!request.isPending)
        #expect(!cached.isPending)
        #expect(request.priority == .high)
        #expect(fetcher.statistics.loadsCancelled == 0)
    }

    @Test(arguments: [1, 2, 3, 4, 5])
    func everyCompletionRunsExactlyOnceWhenCancelsRaceLoads(seed: UInt64) async {
        // Given many requests over a few keys, with loads that finish at once
        var random = SeededRandom(seed: seed)
        let fetcher = Fetcher(maxConcurrentLoads: 3, memoryCache: MemoryCache(countLimit: 0)) { key in
            await Task.yield()
            return "\(key)"
        }
        let requestCount = 400
        let calls = LockedValue([Int](repeating: 0, count: requestCount))
        let plan = (0..<requestCount).map { _ in
            (key: Int.random(in: 0..<8, using: &random), cancels: Bool.random(using: &random))
        }

        // When some are cancelled from other tasks while their loads complete
        await withTaskGroup(of: Void.self) { group in
            for (index, step) in plan.enumerated() {
                let request = fetcher.fetchAsync(step.key, priority: .high) { _ in
                    calls.withLock { $0[index] += 1 }
                }
                if step.cancels {
                    group.addTask {
                        await Task.yield()
                        request.cancel()
                        request.cancel()
                    }
                }
            }
        }
        await fetcher.waitUntilIdle()

        // Then every completion ran exactly once
        let counts = calls.withLock { $0 }
        let wrong = counts.indices.filter { counts[$0] != 1 }
        #expect(wrong.isEmpty, "seed \(seed): requests \(wrong) completed \(wrong.map { counts[$0] }) times")
    }
}
