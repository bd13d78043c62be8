import Testing

@testable import Lookahead

/// `AsyncFetcher.perform(_:)` checked against its model: the same changes
/// made one call at a time through `fetchAsync(_:priority:)` and the
/// requests' own `priority`, `setDeadline(_:)` and `cancel()`. After every
/// batch, both fetchers' schedulers must agree on each request's priority and
/// deadline, each key's phase, and what runs and waits.
///
/// Loads never finish, so what the scheduler decides is all there is to
/// compare; the clock is frozen, so a batch's deadlines on the fetcher's
/// timeline and a request's "from now" are the same numbers.
@Suite struct FetchBatchModelTests {
    @Test(arguments: [UInt64(0xBA7C_0001), 0xBA7C_0002, 0x5EED_BA7C])
    func aBatchDoesWhatItsRequestsDoOneByOne(seed: UInt64) async {
        let batched = Self.fetcher()
        let single = Self.fetcher()
        var random = SeededRandom(seed: seed)
        var batchedTasks: [FetchTask] = []
        var singleTasks: [FetchTask] = []
        var consumedOrWithdrawn = 0
        for step in 0..<300 {
            let batch = Self.randomBatch(over: batchedTasks.count, using: &random)
            consumedOrWithdrawn += batch.consumed.count + batch.withdrawn.count

            var changes = FetchRequestChanges()
            changes.consumed = batch.consumed.map { batchedTasks[$0] }
            changes.withdrawn = batch.withdrawn.map { batchedTasks[$0] }
            changes.deadlines = batch.deadlines.map { (Self.request($0.request, before: batchedTasks), $0.deadline) }
            changes.predicted = batch.deadlines.map { Self.request($0.request, before: batchedTasks) }
            changes.priorities = batch.priorities.map { (batchedTasks[$0.task], $0.priority) }
            var fetcherBatch = FetchBatch<Int>()
            fetcherBatch.changes = changes
            fetcherBatch.prefetches = batch.prefetches
            fetcherBatch.prefetchPriority = batch.prefetchPriority
            batchedTasks += batched.perform(fetcherBatch)

            // The model: the same, in the documented order, one call each.
            for index in batch.consumed where (singleTasks[index].priority > .low && singleTasks[index].isPending) {
                singleTasks[index].priority = .low
            }
            for index in batch.withdrawn { singleTasks[index].cancel() }
            let made = singleTasks.count
            for key in batch.prefetches { singleTasks.append(single.fetchAsync(key, priority: batch.prefetchPriority)) }
            for (request, deadline) in batch.deadlines {
                let index =
                    switch request {
                    case .earlier(let index): index
                    case .new(let index): made + index
                    }
                singleTasks[index].setDeadline(deadline)
            }
            for (index, priority) in batch.priorities { singleTasks[index].priority = priority }

            // A running load whose last interest was withdrawn ends when its
            // worker sees the cancel, on another thread: compare once both have.
            _ = await yieldUntil { !Self.hasCancelledAttempts(batched) && !Self.hasCancelledAttempts(single) }
            let divergence = Self.divergence(batched, batchedTasks, single, singleTasks)
            #expect(divergence == nil, "seed \(seed), batch \(step): \(divergence ?? "")")
            if divergence != nil { break }
        }
        // A run that never withdraws or consumes, or never fills the slots, proves little.
        #expect(consumedOrWithdrawn > 100, "seed \(seed)")
        #expect(Self.scheduler(of: batched).pendingCount > 0, "seed \(seed)")
        for task in batchedTasks + singleTasks { task.cancel() }
    }

    // MARK: - Random batches

    enum Request {
        case earlier(Int)
        case new(Int)
    }

    struct RandomBatch {
        var consumed: [Int] = []
        var withdrawn: [Int] = []
        var prefetches: [Int] = []
        var prefetchPriority = FetchPriority.normal
        var deadlines: [(request: Request, deadline: Duration)] = []
        var priorities: [(task: Int, priority: FetchPriority)] = []
    }

    static let priorities: [FetchPriority] = [.veryLow, .low, .normal, .high, .veryHigh]

    /// A frame's worth of changes over the `made` requests so far: repeats
    /// allowed (a request consumed and withdrawn in one batch, a key asked
    /// for twice), as a coordinator's bookkeeping never does but a fetcher
    /// must survive.
    static func randomBatch(over made: Int, using random: inout SeededRandom) -> RandomBatch {
        var batch = RandomBatch()
        func some(_ count: Int) -> [Int] {
            made == 0 ? [] : (0..<random.next(below: count + 1)).map { _ in random.next(below: made) }
        }
        batch.consumed = some(2)
        batch.withdrawn = some(3)
        batch.prefetches = (0..<random.next(below: 5)).map { _ in random.next(below: 60) }
        batch.prefetchPriority = priorities[random.next(below: priorities.count)]
        for _ in 0..<random.next(below: 4) {
            let deadline = Duration.milliseconds(random.next(below: 2_000) - 200)
            if !batch.prefetches.isEmpty, random.chance(0.5) {
                batch.deadlines.append((.new(random.next(below: batch.prefetches.count)), deadline))
            } else if made > 0 {
                batch.deadlines.append((.earlier(random.next(below: made)), deadline))
            }
        }
        for index in some(2) { batch.priorities.append((index, priorities[random.next(below: priorities.count)])) }
        return batch
    }

    static func request(_ request: Request, before tasks: [FetchTask]) -> FetchBatchRequest {
        switch request {
        case .earlier(let index): .task(tasks[index])
        case .new(let index): .prefetch(index)
        }
    }

    // MARK: - Comparing

    static func fetcher() -> AsyncFetcher<Int, Int> {
        AsyncFetcher<Int, Int>(maxConcurrentLoads: 3, clock: ManualClock()) { key in
            try await Task.sleep(for: .seconds(3_600))
            return key
        }
    }

    static func scheduler(of fetcher: AsyncFetcher<Int, Int>) -> FetcherCore<Int, Int>.Scheduler {
        fetcher.core.state.withLock { $0.scheduler }
    }

    /// Whether an attempt was cancelled and its worker has not yet reported back.
    static func hasCancelledAttempts(_ fetcher: AsyncFetcher<Int, Int>) -> Bool {
        scheduler(of: fetcher).loads.contains { record in
            guard case .cancelled = record?.state else { return false }
            return true
        }
    }

    static func divergence(
        _ batched: AsyncFetcher<Int, Int>, _ batchedTasks: [FetchTask],
        _ single: AsyncFetcher<Int, Int>, _ singleTasks: [FetchTask]
    ) -> String? {
        let a = scheduler(of: batched)
        let b = scheduler(of: single)
        if (a.runningCount, a.pendingCount, a.keyCount) != (b.runningCount, b.pendingCount, b.keyCount) {
            return "running, pending, keys: \((a.runningCount, a.pendingCount, a.keyCount))"
                + " batched, \((b.runningCount, b.pendingCount, b.keyCount)) one by one"
        }
        for key in 0..<60 where a.phase(of: key) != b.phase(of: key) {
            return "key \(key): \(a.phase(of: key)) batched, \(b.phase(of: key)) one by one"
        }
        for (index, (x, y)) in zip(batchedTasks, singleTasks).enumerated() {
            let left = (x.priority, a.deadline(of: x.interest.id), x.isPending)
            let right = (y.priority, b.deadline(of: y.interest.id), y.isPending)
            if left != right { return "request \(index): \(left) batched, \(right) one by one" }
        }
        return nil
    }
}
