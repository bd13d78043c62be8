#if Tools
import Lookahead
import LookaheadSimulation

// The real replay's loads: what the simulator does on its FetchScheduler,
// done on an AsyncFetcher whose loads are HTTP requests.

/// Performs a ``StrategyDriver``'s loads on the real stack.
///
/// - a coordinator frame's actions are one batch on the fetcher, as
///   `PrefetchCoordinator` performs them (prefetches withdrawn by their own
///   request);
/// - a `Prefetcher` (`nuke`, `swiftui`) is a real ``Prefetcher`` with its
///   default settings (2 at a time, `.low`);
/// - a visible cell's display request is a `fetchAsync` with a completion,
///   re-ranked by its handle and withdrawn when the cell leaves, as the
///   coordinators make theirs (cells read the cache, not the completion);
/// - a page load is a task of its own calling the HTTP loader, outside the
///   fetcher, as the runtime ``Pager`` runs it; a `.retry` is due at the
///   time the machine's delay gives, and the replay hands it back to the
///   driver at the first frame at or after it.
///
/// Not thread-safe: the replay's one task uses it.
final class ReplayStrategyLoader: StrategyLoader {
    typealias Fetcher = AsyncFetcher<Int, ReplayPayload>

    let fetcher: Fetcher
    let loader: ReplayLoader
    let keys: LoadKeys
    let maxConcurrentLoads: Int
    let prefetcher: Prefetcher<Int, ReplayPayload>?
    /// Visible cells' requests.
    var displayRequests: [Int: FetchTask] = [:]
    /// Page loads running, by key.
    var pageTasks: [Int: Task<Void, Never>] = [:]
    /// The pager's retries, with the time each is due (in the order set).
    var pageRetries: [(time: Duration, request: PageRequest)] = []
    /// `batch` pages asked for (through the fetcher) whose data has not been seen yet.
    var outstandingPages: Set<Int> = []
    /// The prefetches a coordinator frame made, by key, as a coordinator keeps them.
    var prefetches = PrefetchRequestTable<Int>()

    init(fetcher: Fetcher, loader: ReplayLoader, strategy: SimulationStrategy, maxConcurrentLoads: Int) {
        self.fetcher = fetcher
        self.loader = loader
        self.keys = loader.keys
        self.maxConcurrentLoads = maxConcurrentLoads
        prefetcher = strategy.prefetchesThroughPrefetcher ? Prefetcher(fetcher: fetcher) : nil
    }

    func prefetch(_ key: Int) {
        if keys.isPaged { outstandingPages.insert(key) }
        fetcher.fetchAsync(key, priority: .normal)
    }

    /// What to add to the replay's time to place it on the fetcher's timeline, measured once.
    private var timelineOffset: Duration?

    func perform(_ actions: CoordinatorCore<Int>.Actions, at time: Duration) {
        var batch = FetchBatch<Int>()
        addRanks(actions.rank, to: &batch.changes)
        if let prefetcher {
            prefetcher.stopPrefetching(with: actions.withdraw)
            prefetcher.startPrefetching(with: actions.prefetch)
            _ = fetcher.perform(batch)
            return
        }
        if timelineOffset == nil { timelineOffset = fetcher.timelineNow - time }
        // The coordinators' own bookkeeping, keyed by item: the same batch they make.
        if keys.isPaged { outstandingPages.formUnion(actions.prefetch) }
        batch.prefetches = actions.prefetch
        prefetches.add(actions, made: actions.prefetch, timelineOffset: timelineOffset!, to: &batch.changes)
        prefetches.adopt(fetcher.perform(batch), for: actions.prefetch)
    }

    private func addRanks(
        _ ranks: [(id: DisplayRequestID, priority: FetchPriority)], to changes: inout FetchRequestChanges
    ) {
        for (id, priority) in ranks {
            if let request = displayRequests[id.rawValue] { changes.priorities.append((request, priority)) }
        }
    }

    func startPrefetching(_ item: Int) {
        prefetcher?.startPrefetching(with: [item])
    }

    func stopPrefetching(_ item: Int) {
        prefetcher?.stopPrefetching(with: [item])
    }

    func requestForDisplay(_ item: Int, priority: FetchPriority) {
        let request = fetcher.fetchAsync(item, priority: priority) { _ in }
        displayRequests.updateValue(request, forKey: item)?.cancel()
    }

    func withdrawDisplayRequest(_ item: Int) {
        displayRequests.removeValue(forKey: item)?.cancel()
    }

    var loadQueue: LoadQueueState {
        LoadQueueState(
            pending: fetcher.pendingLoadCount,
            maxConcurrentLoads: maxConcurrentLoads)
    }

    func loadPage(_ key: Int) {
        pageTasks[key] = loader.loadPage(key)
    }

    func cancelPage(_ key: Int) {
        pageTasks.removeValue(forKey: key)?.cancel()
    }

    func schedulePageRetry(_ request: PageRequest, at time: Duration) {
        pageRetries.append((time, request))
    }

    func isCached(_ item: Int) -> Bool {
        fetcher.fetchedData(for: item) != nil
    }

    func arrival(ofKey key: Int) -> Duration? {
        loader.arrival(ofKey: key)
    }

    /// Takes the pager's retries due at `time`, in the order they were set.
    func takeDueRetries(at time: Duration) -> [(time: Duration, request: PageRequest)] {
        let due = pageRetries.filter { $0.time <= time }
        pageRetries.removeAll { $0.time <= time }
        return due
    }

    /// Withdraws everything asked for, so that running loads stop; returns
    /// the page tasks, to wait for.
    func withdrawEverything(itemCount: Int) -> [Task<Void, Never>] {
        for item in Array(displayRequests.keys) { withdrawDisplayRequest(item) }
        prefetcher?.stopPrefetching()
        switch keys.kind {
        case .item:
            for key in 0..<itemCount { fetcher.cancelPrefetching(for: key) }
        case .pageNumber:
            for key in outstandingPages { fetcher.cancelPrefetching(for: key) }
        case .pageOffset:
            break
        }
        let tasks = Array(pageTasks.values)
        for task in tasks { task.cancel() }
        pageTasks.removeAll()
        return tasks
    }
}
#endif
