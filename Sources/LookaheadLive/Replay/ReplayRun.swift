import Logging
import Lookahead
import LookaheadSimulation

/// One strategy's real-time replay: the frame loop of the simulator's
/// `SimulationRun`, with the scheduler's calls replaced by the real stack's.
///
/// What the simulator does on its ``FetchScheduler``, this does on an
/// ``AsyncFetcher`` whose loads are HTTP requests:
/// - a prefetch (`addInterest(priority: .normal, payload: nil)`) is
///   `fetchAsync(key)`, and its withdrawal (`withdrawPrefetchInterests`) is
///   `cancelFetch(key)`, which are the same scheduler calls;
/// - `nuke`'s group (admission limit 2, `.low`) is a ``Prefetcher`` with those
///   settings, `startPrefetching`/`stopPrefetching` per item;
/// - a visible cell's display request is `value(for:priority:)` in a task the
///   cell owns and cancels when it leaves (withdrawing the request, as the
///   simulator does); the task starts immediately, so the request is
///   registered before the frame goes on, in the simulator's order. A raised
///   priority registers the new request before withdrawing the old one.
///
/// Completions are collected at the start of each frame (as an app's main
/// thread sees them between frames); the time-to-content of an appearance
/// uses the instant the response actually ended.
///
/// Not thread-safe: one task runs it from start to end.
final class ReplayRun {
    typealias Fetcher = AsyncFetcher<Int, ReplayPayload>

    let scenario: SimulationScenario
    let strategy: SimulationStrategy
    let layout: any CollectionLayout
    let itemCount: Int
    let frameDuration: Duration
    let frameCount: Int
    let maxOffset: Double
    let keys: ReplayKeys
    let fetcher: Fetcher
    let loader: ReplayLoader
    let logger: Logger

    var planner: PrefetchPlanner?
    var prefetcher: Prefetcher<Int, ReplayPayload>?
    /// Visible cells' requests (the tasks that own them), with the priority asked at.
    var displayRequests: [Int: (tasks: [Task<Void, Never>], priority: FetchPriority)] = [:]
    var requestedPages = 0
    var pager: PagingStateMachine<ReplayItem>?
    /// The pager's requests in flight, by offset (their load key).
    var pageRequests: [Int: PageRequest] = [:]
    /// Page keys asked for whose data has not been seen yet.
    var outstandingPages: Set<Int> = []
    var pageLatency = LoadDurationEstimator(quantile: 0.9, prior: .milliseconds(500), capacity: 32)
    var bottomWait = Duration.zero

    var ready: [Bool]
    var everVisible: [Bool]
    /// Keys whose data has been seen in the cache, in that order.
    var completedKeys: [Int] = []
    var isCompleted: Set<Int> = []
    /// Completions whose value was not in the cache yet when collected.
    var unconfirmed: Set<Int> = []
    var previousVisible: [Int] = []
    var previousOffset: Double?
    var pendingAppearances: [Int: Duration] = [:]
    var timesToContent: [Duration] = []
    var visibleCellFrames = 0
    var blankCellFrames = 0
    var blankCellFramesPerSecond: [Int]
    var cacheBytes = 0
    var lateFrames = 0
    var maxLateness = Duration.zero

    init(
        scenario: SimulationScenario, strategy: SimulationStrategy, fetcher: Fetcher, loader: ReplayLoader,
        logger: Logger
    ) {
        self.scenario = scenario
        self.strategy = strategy
        self.fetcher = fetcher
        self.loader = loader
        self.logger = logger
        layout = scenario.makeLayout()
        itemCount = layout.totalItemCount
        keys = loader.keys
        frameDuration = .seconds(1) / scenario.frameRate
        frameCount = Int((scenario.trace.duration / frameDuration).rounded(.down)) + 1
        maxOffset = max(0, layout.contentSize.height - scenario.viewport.height)
        ready = Array(repeating: false, count: itemCount)
        everVisible = Array(repeating: false, count: itemCount)
        let seconds = max(1, Int((scenario.trace.duration / .seconds(1)).rounded(.up)))
        blankCellFramesPerSecond = Array(repeating: 0, count: seconds)
        switch strategy {
        case .system:
            planner = PrefetchPlanner(layout: layout, policy: .system)
        case .texture:
            planner = PrefetchPlanner(layout: layout, policy: .screens(leading: 2.5, trailing: 1.5))
        case .adaptive:
            planner = PrefetchPlanner(layout: layout, policy: .adaptive)
        case .nuke:
            planner = PrefetchPlanner(layout: layout, policy: .system)
            prefetcher = Prefetcher(fetcher: fetcher, maxConcurrentRequestCount: 2, priority: .low)
        case .paged, .pagedFixed:
            pager = PagingStateMachine(
                configuration: PagingConfiguration(
                    pageSize: SimulationStrategy.pageSize, initialLoadSize: SimulationStrategy.pageSize))
        case .none, .all, .batch, .oracle:
            break
        }
    }

    // MARK: Running

    /// Plays every frame at its deadline on the replay's clock.
    ///
    /// A frame whose deadline has passed runs at once and is counted at its
    /// scheduled time (never skipped); how late it started is recorded.
    ///
    /// - Parameters:
    ///   - elapsed: the time since the run's origin.
    ///   - sleep: sleeps until the given time since the origin.
    ///   - progress: called after each frame with the frame's index.
    func play(
        elapsed: () -> Duration, sleep: (Duration) async throws -> Void, progress: (Int) -> Void
    ) async throws {
        begin()
        for frame in 0..<frameCount {
            let time = frameDuration * frame
            try await sleep(time)
            let lateness = elapsed() - time
            maxLateness = max(maxLateness, lateness)
            if lateness > frameDuration / 2 { lateFrames += 1 }
            collectCompletions(at: time)
            showFrame(frame, at: time)
            progress(frame)
        }
        collectCompletions(at: frameDuration * (frameCount - 1))
    }

    // MARK: Loads

    func bytes(ofKey key: Int) -> Int {
        keys.items(ofKey: key).reduce(0) { $0 + scenario.network.payloadBytes(forItem: $1) }
    }

    func isCached(_ key: Int) -> Bool {
        fetcher.fetchedData(for: key) != nil
    }

    /// Whether `item`'s data is ready; asks the fetcher's cache (what
    /// `cellForItemAt` reads) about items not known to be ready yet.
    func isReady(_ item: Int) -> Bool {
        if ready[item] { return true }
        guard !keys.isPaged, isCached(item) else { return false }
        markReady(key: item)
        return true
    }

    /// Records that `key`'s data arrived, at the instant its response ended.
    func markReady(key: Int) {
        guard isCompleted.insert(key).inserted else { return }
        completedKeys.append(key)
        let arrival = loader.arrival(ofKey: key)
        for item in keys.items(ofKey: key) where !ready[item] {
            ready[item] = true
            cacheBytes += scenario.network.payloadBytes(forItem: item)
            if let entered = pendingAppearances.removeValue(forKey: item) {
                timesToContent.append(max(.zero, (arrival ?? entered) - entered))
            }
        }
    }

    /// What the simulator does on each completion: marks the data ready,
    /// tells the planner how long the load took, hands pages to the pager.
    func collectCompletions(at time: Duration) {
        for completion in loader.takeCompletions() {
            planner?.observeLoadDuration(completion.duration)
            if keys.isPaged { pageLatency.record(completion.duration) }
            unconfirmed.insert(completion.key)
        }
        // A worker caches the value right after its load returns: one not
        // there yet is looked for again next frame.
        for key in unconfirmed.sorted() where isCached(key) {
            unconfirmed.remove(key)
            markReady(key: key)
            outstandingPages.remove(key)
            if pager != nil { pageLoaded(key: key) }
        }
        for key in outstandingPages.sorted() where isCached(key) {
            outstandingPages.remove(key)
            markReady(key: key)
            if pager != nil { pageLoaded(key: key) }
        }
    }

    func prefetch(_ key: Int) {
        if keys.isPaged { outstandingPages.insert(key) }
        fetcher.fetchAsync(key, priority: .normal)
    }

    /// A cell's request for `item`, owned by a task that starts at once.
    func requestForDisplay(_ item: Int, priority: FetchPriority) -> Task<Void, Never> {
        let fetcher = self.fetcher
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
            return Task.immediate { _ = try? await fetcher.value(for: item, priority: priority) }
        } else {
            // Registered when the task first runs, a little after this frame.
            return Task { _ = try? await fetcher.value(for: item, priority: priority) }
        }
    }

    func withdrawDisplayRequest(_ item: Int) {
        guard let request = displayRequests.removeValue(forKey: item) else { return }
        for task in request.tasks { task.cancel() }
    }

    // MARK: Frames

    /// What happens when the app starts, before the first frame.
    func begin() {
        switch strategy {
        case .all:
            for item in 0..<itemCount { prefetch(item) }
        case .batch:
            if itemCount > 0 {
                prefetch(0)
                requestedPages = 1
            }
        case .paged, .pagedFixed:
            if var pager {
                let actions = pager.start()
                self.pager = pager
                perform(actions)
            }
        case .none, .system, .nuke, .texture, .adaptive, .oracle:
            break
        }
    }

    func showFrame(_ frame: Int, at time: Duration) {
        let offset = min(max(scenario.trace.offset(at: time), 0), maxOffset)
        let rect = Rect(origin: Point(x: 0, y: offset), size: scenario.viewport)
        let visiblePaths = layout.itemPaths(in: rect)
        let visible = visiblePaths.map { layout.flatIndex(of: $0) }
        let velocity = previousOffset.map { (offset - $0) / (frameDuration / .seconds(1)) } ?? 0
        previousOffset = offset

        let second = min(Int(time / .seconds(1)), blankCellFramesPerSecond.count - 1)
        let wasVisible = Set(previousVisible)
        for item in visible {
            visibleCellFrames += 1
            everVisible[item] = true
            let isReady = isReady(item)
            if !isReady {
                blankCellFrames += 1
                blankCellFramesPerSecond[second] += 1
            }
            guard !wasVisible.contains(item) else { continue }
            if isReady {
                timesToContent.append(.zero)
            } else {
                pendingAppearances[item] = time
            }
        }

        let isVisible = Set(visible)
        for item in previousVisible where !isVisible.contains(item) {
            withdrawDisplayRequest(item)
            if let entered = pendingAppearances.removeValue(forKey: item) {
                // Arrived since the last frame: counted until it arrived.
                let end = isReady(item) ? min(time, loader.arrival(ofKey: item) ?? time) : time
                timesToContent.append(max(.zero, end - entered))
            }
        }
        if strategy.loadsPages, let last = visible.last, last >= loadedPrefix() {
            bottomWait += frameDuration
        }
        if !strategy.loadsPages {
            for (item, path) in zip(visible, visiblePaths) where !ready[item] {
                let priority = planner?.displayPriority(for: path) ?? .high
                if let current = displayRequests[item] {
                    guard current.priority < priority else { continue }
                    let raised = requestForDisplay(item, priority: priority)
                    for task in current.tasks { task.cancel() }
                    displayRequests[item] = ([raised], priority)
                } else if !wasVisible.contains(item) {
                    displayRequests[item] = ([requestForDisplay(item, priority: priority)], priority)
                }
            }
        }

        planAhead(at: time, rect: rect, velocity: velocity, visible: visible)
        previousVisible = visible
    }

    func planAhead(at time: Duration, rect: Rect, velocity: Double, visible: [Int]) {
        switch strategy {
        case .none, .all, .oracle:
            break
        case .paged, .pagedFixed:
            guard var pager, let last = visible.last else { return }
            let actions: [PagingStateMachine<ReplayItem>.Action]
            if strategy == .paged {
                let itemsPerPoint = Double(itemCount) / max(layout.contentSize.height, 1)
                actions = pager.accessed(
                    index: last, velocity: velocity * itemsPerPoint, observedPageLatency: pageLatency.estimate)
            } else {
                actions = pager.accessed(index: last)
            }
            self.pager = pager
            perform(actions)
        case .batch:
            let pageSize = SimulationStrategy.pageSize
            let lastRequested = requestedPages * pageSize - 1
            let isBottomReached = visible.last.map { $0 >= lastRequested } ?? false
            let pageInFlight = !ready[min(itemCount - 1, lastRequested)]
            if isBottomReached, !pageInFlight, requestedPages * pageSize < itemCount {
                prefetch(requestedPages)
                requestedPages += 1
            }
        case .system, .texture, .nuke, .adaptive:
            guard var planner else { return }
            let update = planner.update(
                ScrollFrame(visibleRect: rect, velocity: velocity, time: time),
                loadQueue: LoadQueueState(
                    running: fetcher.runningFetchCount, pending: fetcher.pendingFetchCount,
                    maxConcurrentLoads: scenario.maxConcurrentLoads))
            self.planner = planner
            let cancelled = update.cancel.map { layout.flatIndex(of: $0) }
            let wanted = update.prefetch.map { layout.flatIndex(of: $0) }.filter { !isReady($0) }
            if let prefetcher {
                prefetcher.stopPrefetching(with: cancelled)
                prefetcher.startPrefetching(with: wanted)
            } else {
                for item in cancelled { fetcher.cancelFetch(item) }
                for item in wanted { prefetch(item) }
            }
        }
    }

    // MARK: Pages

    func perform(_ actions: [PagingStateMachine<ReplayItem>.Action]) {
        for action in actions {
            switch action {
            case .load(let request):
                guard case .offset(let offset) = request.key else { continue }
                pageRequests[offset] = request
                prefetch(offset)
            case .cancel(let request):
                guard case .offset(let offset) = request.key else { continue }
                fetcher.cancelFetch(offset)
                pageRequests[offset] = nil
                outstandingPages.remove(offset)
            case .retry, .dropped:
                // The fetcher retries failed loads itself; there is no maxSize here.
                break
            }
        }
    }

    func pageLoaded(key: Int) {
        guard var pager, let request = pageRequests.removeValue(forKey: key) else { return }
        let range = key..<min(itemCount, key + request.limit)
        let actions = pager.pageLoaded(request: request, page: Page(items: range.map(ReplayItem.init)))
        self.pager = pager
        perform(actions)
    }

    /// How many items from the top are loaded without a gap.
    func loadedPrefix() -> Int {
        if let pager { return pager.count }
        return ready.firstIndex(of: false) ?? itemCount
    }

    // MARK: Ending

    /// Withdraws everything the run asked for, so that running loads stop.
    func withdrawEverything() {
        for item in Array(displayRequests.keys) { withdrawDisplayRequest(item) }
        prefetcher?.stopPrefetching()
        switch keys.kind {
        case .item:
            for key in 0..<itemCount { fetcher.cancelFetch(key) }
        case .pageNumber, .pageOffset:
            for key in outstandingPages { fetcher.cancelFetch(key) }
        }
    }
}

/// An item of the replayed list, for the pager (identity is its index).
struct ReplayItem: Identifiable, Sendable, Hashable {
    let id: Int

    init(_ id: Int) {
        self.id = id
    }
}
