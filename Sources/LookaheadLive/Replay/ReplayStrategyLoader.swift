import Lookahead
import LookaheadSimulation

// The real replay's loads: what the simulator does on its FetchScheduler,
// done on an AsyncFetcher whose loads are HTTP requests.

/// Performs a ``StrategyDriver``'s loads on the real stack.
///
/// - a prefetch is `fetchAsync(key)`, and its withdrawal `cancelFetch(key)`,
///   which are the scheduler calls the simulator makes;
/// - a `Prefetcher` (`nuke`, `swiftui`) is a real ``Prefetcher`` with its
///   default settings (2 at a time, `.low`);
/// - a visible cell's display request is `value(for:priority:)` in a task
///   the cell owns and cancels when it leaves; the task starts immediately,
///   so the request is registered before the frame goes on, in the
///   simulator's order. A raised priority registers the new request before
///   withdrawing the old one;
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
    /// Visible cells' requests: the tasks that own them.
    var displayRequests: [Int: [Task<Void, Never>]] = [:]
    /// Page loads running, by key.
    var pageTasks: [Int: Task<Void, Never>] = [:]
    /// The pager's retries, with the time each is due (in the order set).
    var pageRetries: [(time: Duration, request: PageRequest)] = []
    /// `batch` pages asked for (through the fetcher) whose data has not been seen yet.
    var outstandingPages: Set<Int> = []
    /// Prefetches, by key, to re-date them (a request that ended ignores it).
    var prefetchRequests: [Int: FetchTask] = [:]

    init(fetcher: Fetcher, loader: ReplayLoader, strategy: SimulationStrategy, maxConcurrentLoads: Int) {
        self.fetcher = fetcher
        self.loader = loader
        self.keys = loader.keys
        self.maxConcurrentLoads = maxConcurrentLoads
        prefetcher = strategy.prefetchesThroughPrefetcher ? Prefetcher(fetcher: fetcher) : nil
    }

    func prefetch(_ key: Int) {
        if keys.isPaged { outstandingPages.insert(key) }
        prefetchRequests[key] = fetcher.fetchAsync(key, priority: .normal)
    }

    func cancelPrefetch(_ key: Int) {
        prefetchRequests[key] = nil
        fetcher.cancelFetch(key)
    }

    func consumePrefetch(_ key: Int) {
        prefetchRequests.removeValue(forKey: key)?.consumePrefetch()
    }

    func datePrefetch(_ key: Int, by deadline: Duration, at time: Duration) {
        // The fetcher's deadlines are "this long from now".
        prefetchRequests[key]?.setDeadline(deadline - time)
    }

    func startPrefetching(_ item: Int) {
        prefetcher?.startPrefetching(with: [item])
    }

    func stopPrefetching(_ item: Int) {
        prefetcher?.stopPrefetching(with: [item])
    }

    func requestForDisplay(_ item: Int, priority: FetchPriority) {
        let fetcher = self.fetcher
        let task: Task<Void, Never>
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
            task = Task.immediate { _ = try? await fetcher.value(for: item, priority: priority) }
        } else {
            // Registered when the task first runs, a little after this frame.
            task = Task { _ = try? await fetcher.value(for: item, priority: priority) }
        }
        for replaced in displayRequests.updateValue([task], forKey: item) ?? [] { replaced.cancel() }
    }

    func withdrawDisplayRequest(_ item: Int) {
        for task in displayRequests.removeValue(forKey: item) ?? [] { task.cancel() }
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
            for key in 0..<itemCount { fetcher.cancelFetch(key) }
        case .pageNumber:
            for key in outstandingPages { fetcher.cancelFetch(key) }
        case .pageOffset:
            break
        }
        let tasks = Array(pageTasks.values)
        for task in tasks { task.cancel() }
        pageTasks.removeAll()
        return tasks
    }
}
