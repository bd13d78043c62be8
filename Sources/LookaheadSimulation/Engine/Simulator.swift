import Lookahead

/// Replays a scenario's scroll trace over its modelled network, strategy by
/// strategy, and counts what a user would have seen.
///
/// A discrete-event loop in virtual time: network completions and retry
/// timers are processed in time order between frames; each frame shows the
/// viewport at the trace's offset, counts visible and blank cells, asks for
/// visible cells' data, and lets the strategy decide what to load ahead. The
/// decisions are made by the shipped code — the real ``PrefetchPlanner`` and
/// ``FetchScheduler`` — so the numbers describe what ships, not a model of it.
public struct Simulator: Sendable {
    public var scenario: SimulationScenario

    /// Creates a simulator of `scenario`.
    ///
    /// - Precondition: `scenario` passes ``SimulationScenario/validate()``;
    ///   check it first where the scenario comes from a user.
    public init(scenario: SimulationScenario) {
        do {
            try scenario.validate()
        } catch {
            preconditionFailure("Simulator: \(error)")
        }
        self.scenario = scenario
    }

    /// Runs one strategy over the whole trace.
    public func run(_ strategy: SimulationStrategy) -> StrategyResult {
        runTimed(strategy).result
    }

    /// Runs one strategy, also measuring the wall-clock time its decisions took.
    ///
    /// The oracle plans several clairvoyant schedules and keeps the one with
    /// the fewest blank cell-frames (``runOracle()``).
    public func runTimed(_ strategy: SimulationStrategy) -> (result: StrategyResult, timing: SimulationTiming) {
        guard strategy == .oracle else { return runTimed(strategy, plan: .earliestDeadlineFirst) }
        return runOracle()
    }

    func runTimed(
        _ strategy: SimulationStrategy, plan: OraclePlan, relaxationShownFrom: [Int: Int] = [:]
    ) -> (result: StrategyResult, timing: SimulationTiming) {
        var run = SimulationRun(scenario: scenario, strategy: strategy, oraclePlan: plan)
        run.relaxationShownFrom = relaxationShownFrom
        let clock = ContinuousClock()
        let start = clock.now
        run.begin()
        for frame in 0..<run.frameCount {
            let time = run.frameDuration * frame
            run.processEvents(until: time)
            run.showFrame(frame, at: time)
        }
        run.finish()
        let engineTime = start.duration(to: clock.now)
        return (run.result(), SimulationTiming(engineTimePerFrame: engineTime / max(1, run.frameCount)))
    }
}

/// The state of one simulated run.
struct SimulationRun {
    typealias Scheduler = FetchScheduler<Int, Int>

    let scenario: SimulationScenario
    let strategy: SimulationStrategy
    let oraclePlan: OraclePlan
    let layout: any CollectionLayout
    let itemCount: Int
    let frameDuration: Duration
    let frameCount: Int
    let maxOffset: Double

    var scheduler: Scheduler
    var transfers: TransferSimulator
    var planner: PrefetchPlanner?
    var nukeGroup: Scheduler.GroupID?
    var nukeInterests: [Int: Scheduler.InterestID] = [:]
    /// Visible cells' requests, with the priority each asked at.
    var displayInterests: [Int: (id: Scheduler.InterestID, priority: FetchPriority)] = [:]
    /// Loads on the network, by transfer id (the scheduler's load serial).
    var loads: [Int: (id: Scheduler.LoadID, key: Int, attempt: Int, start: Duration)] = [:]
    var failures: [Int: Int] = [:]
    var retryTimers: [(time: Duration, id: Scheduler.LoadID)] = []
    /// The oracle's requests, each released at its time (ascending).
    var releases: [(time: Duration, item: Int)] = []
    var nextRelease = 0
    /// The frame from which the lower bound's relaxation shows each item it shows.
    var relaxationShownFrom: [Int: Int] = [:]

    var ready: [Bool]
    var everVisible: [Bool]
    var previousVisible: [Int] = []
    var previousOffset: Double?
    var pendingAppearances: [Int: Duration] = [:]
    var timesToContent: [Duration] = []
    var completedKeys: [Int] = []
    var completedBytes = 0
    var cacheBytes = 0
    var peakCacheBytes = 0
    var visibleCellFrames = 0
    var blankCellFrames = 0
    var blankCellFramesPerSecond: [Int]
    var requestedPages = 0
    var pager: PagingStateMachine<SimulatedItem>?
    /// The pager's requests in flight, by offset (their load key).
    var pageRequests: [Int: PageRequest] = [:]
    /// The items each of the pager's requests covers, kept for the waste count.
    var pageRanges: [Int: Range<Int>] = [:]
    var pageLatency = LoadDurationEstimator(quantile: 0.9, prior: .milliseconds(500), capacity: 32)
    var bottomWait = Duration.zero

    init(scenario: SimulationScenario, strategy: SimulationStrategy, oraclePlan: OraclePlan = .earliestDeadlineFirst) {
        self.scenario = scenario
        self.strategy = strategy
        self.oraclePlan = oraclePlan
        layout = scenario.makeLayout()
        itemCount = layout.totalItemCount
        frameDuration = .seconds(1) / scenario.frameRate
        frameCount = Int((scenario.trace.duration / frameDuration).rounded(.down)) + 1
        maxOffset = max(0, layout.contentSize.height - scenario.viewport.height)
        scheduler = Scheduler(maxConcurrentLoads: scenario.maxConcurrentLoads, retryPolicy: .default)
        transfers = TransferSimulator(bandwidth: scenario.network.bandwidth)
        ready = Array(repeating: false, count: itemCount)
        everVisible = Array(repeating: false, count: itemCount)
        // The frame at exactly the end of the trace counts in the last whole second.
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
            nukeGroup = scheduler.makeGroup(priority: .low, admissionLimit: 2)
        case .paged, .pagedFixed:
            planner = nil
            pager = PagingStateMachine(
                configuration: PagingConfiguration(
                    pageSize: SimulationStrategy.pageSize, initialLoadSize: SimulationStrategy.pageSize))
        case .none, .all, .batch, .oracle:
            planner = nil
        }
    }

    // MARK: Loads

    /// The items a load key covers: one item, or a page for `batch`.
    func items(ofKey key: Int) -> Range<Int> {
        if pager != nil { return pageRanges[key] ?? key..<key }
        guard strategy == .batch else { return key..<(key + 1) }
        let start = key * SimulationStrategy.pageSize
        return start..<min(itemCount, start + SimulationStrategy.pageSize)
    }

    func key(ofItem item: Int) -> Int {
        strategy == .batch ? item / SimulationStrategy.pageSize : item
    }

    func bytes(ofKey key: Int) -> Int {
        items(ofKey: key).reduce(0) { $0 + scenario.network.payloadBytes(forItem: $1) }
    }

    /// Performs the scheduler's actions on the network at `time`.
    mutating func drainActions(at time: Duration) {
        while let action = scheduler.nextAction() {
            switch action {
            case .start(let id, let key, _):
                let attempt = failures[key, default: 0]
                let transfer = Int(id.serial)
                loads[transfer] = (id, key, attempt, time)
                let item = items(ofKey: key).lowerBound
                transfers.start(
                    transfer, latency: scenario.network.latency(forItem: item, attempt: attempt),
                    bytes: bytes(ofKey: key), failing: scenario.network.fails(item: item, attempt: attempt), at: time)
            case .cancel(let id, _):
                // The request is torn down at once: the load ends now.
                let transfer = Int(id.serial)
                transfers.cancel(transfer, at: time)
                loads[transfer] = nil
                _ = scheduler.loadDidFail(id, isTransient: false)
            case .reprioritize:
                break
            }
        }
    }

    /// Handles network completions and retry timers up to `time`, in time order.
    mutating func processEvents(until time: Duration) {
        while true {
            let completion = transfers.nextCompletion()
            let timer = retryTimers.first
            let release = nextRelease < releases.count ? releases[nextRelease] : nil
            // Ties: completions, then retry timers, then the oracle's releases.
            var earliest = time
            if let timer { earliest = min(earliest, timer.time) }
            if let release { earliest = min(earliest, release.time) }
            if let completion, completion.time <= earliest {
                complete(completion.id, at: completion.time)
            } else if let timer, timer.time <= earliest {
                retryTimers.removeFirst()
                scheduler.retryTimerFired(timer.id)
                drainActions(at: timer.time)
            } else if let release, release.time <= earliest {
                processReleases(until: release.time)
            } else {
                return
            }
        }
    }

    /// Asks for the oracle's items whose release time has come.
    mutating func processReleases(until time: Duration) {
        while nextRelease < releases.count, releases[nextRelease].time <= time {
            scheduler.addInterest(in: releases[nextRelease].item, priority: .normal, payload: nil)
            nextRelease += 1
        }
        drainActions(at: time)
    }

    mutating func complete(_ transfer: Int, at time: Duration) {
        let completion = transfers.complete(transfer, at: time)
        guard let load = loads.removeValue(forKey: transfer) else { return }
        if completion.failed {
            failures[load.key, default: 0] += 1
            switch scheduler.loadDidFail(load.id, isTransient: true) {
            case .retry(let delay):
                let timer = (time: time + delay, id: load.id)
                let index = retryTimers.firstIndex { $0.time > timer.time } ?? retryTimers.endIndex
                retryTimers.insert(timer, at: index)
            case .deliver, .discarded:
                break
            }
        } else if scheduler.loadDidSucceed(load.id) != nil {
            // What a fetcher's statistics would tell the policy.
            planner?.observeLoadDuration(time - load.start)
            markReady(key: load.key, at: time)
            if pager != nil {
                pageLatency.record(time - load.start)
                pageLoaded(key: load.key, at: time)
            }
        }
        drainActions(at: time)
    }

    mutating func markReady(key: Int, at time: Duration) {
        completedKeys.append(key)
        completedBytes += bytes(ofKey: key)
        for item in items(ofKey: key) where !ready[item] {
            ready[item] = true
            cacheBytes += scenario.network.payloadBytes(forItem: item)
            if let entered = pendingAppearances.removeValue(forKey: item) {
                timesToContent.append(time - entered)
            }
        }
        peakCacheBytes = max(peakCacheBytes, cacheBytes)
    }

    // MARK: Frames

    /// What happens when the app starts, before the first frame: `all` and
    /// the oracle ask for their items, `batch` for its first page.
    mutating func begin() {
        switch strategy {
        case .all:
            for item in 0..<itemCount { scheduler.addInterest(in: item, priority: .normal, payload: nil) }
        case .oracle:
            releases = OracleSchedule(scenario: scenario, plan: oraclePlan).releases(
                relaxationShownFrom: relaxationShownFrom)
            processReleases(until: .zero)
        case .batch:
            if itemCount > 0 {
                scheduler.addInterest(in: 0, priority: .normal, payload: nil)
                requestedPages = 1
            }
        case .paged, .pagedFixed:
            if var pager {
                let actions = pager.start()
                self.pager = pager
                perform(actions)
            }
        case .none, .system, .nuke, .texture, .adaptive:
            break
        }
        drainActions(at: .zero)
    }

    mutating func showFrame(_ frame: Int, at time: Duration) {
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
            if !ready[item] {
                blankCellFrames += 1
                blankCellFramesPerSecond[second] += 1
            }
            guard !wasVisible.contains(item) else { continue }
            if ready[item] {
                timesToContent.append(.zero)
            } else {
                pendingAppearances[item] = time
            }
        }

        // Cells ask for their data when they appear and withdraw when they leave.
        let isVisible = Set(visible)
        for item in previousVisible where !isVisible.contains(item) {
            if let interest = displayInterests.removeValue(forKey: item) { scheduler.withdraw(interest.id) }
            // An appearance that ends blank counts the time it was on screen.
            if let entered = pendingAppearances.removeValue(forKey: item) {
                timesToContent.append(time - entered)
            }
        }
        // Pages carry their items, and the oracle's plan already covers every item it will show.
        if strategy.loadsPages, let last = visible.last, last >= loadedPrefix() {
            bottomWait += frameDuration
        }
        if !strategy.loadsPages, strategy != .oracle || oraclePlan.issuesDisplayRequests {
            // A cell asks at the priority the policy advises (`.high` but in
            // an adaptive fling), and asks again, higher, when that changes.
            for (item, path) in zip(visible, visiblePaths) where !ready[item] {
                let priority = planner?.displayPriority(for: path) ?? .high
                if let current = displayInterests[item] {
                    guard current.priority < priority else { continue }
                    let raised = scheduler.addInterest(in: item, priority: priority, payload: item)
                    scheduler.withdraw(current.id)
                    displayInterests[item] = (raised, priority)
                } else if !wasVisible.contains(item) {
                    displayInterests[item] = (
                        scheduler.addInterest(in: item, priority: priority, payload: item), priority
                    )
                }
            }
        }

        planAhead(at: time, rect: rect, velocity: velocity, visible: visible)
        drainActions(at: time)
        previousVisible = visible
    }

    mutating func planAhead(at time: Duration, rect: Rect, velocity: Double, visible: [Int]) {
        switch strategy {
        case .none:
            break
        case .all, .oracle:
            break
        case .paged, .pagedFixed:
            guard var pager, let last = visible.last else { return }
            let actions: [PagingStateMachine<SimulatedItem>.Action]
            if strategy == .paged {
                // Items per second, from points per second and the average item height.
                let itemsPerPoint = Double(itemCount) / max(layout.contentSize.height, 1)
                actions = pager.accessed(
                    index: last, velocity: velocity * itemsPerPoint,
                    observedPageLatency: pageLatency.estimate)
            } else {
                actions = pager.accessed(index: last)
            }
            self.pager = pager
            perform(actions)
        case .batch:
            // The tutorial's trigger: the last item asked for is displayed.
            let lastRequested = requestedPages * SimulationStrategy.pageSize - 1
            let isBottomReached = visible.last.map { $0 >= lastRequested } ?? false
            let pageInFlight = !ready[min(itemCount - 1, lastRequested)]
            if isBottomReached, !pageInFlight, requestedPages * SimulationStrategy.pageSize < itemCount {
                scheduler.addInterest(in: requestedPages, priority: .normal, payload: nil)
                requestedPages += 1
            }
        case .system, .texture, .nuke, .adaptive:
            guard var planner else { return }
            let update = planner.update(
                ScrollFrame(visibleRect: rect, velocity: velocity, time: time),
                loadQueue: LoadQueueState(
                    running: scheduler.runningCount, pending: scheduler.pendingCount,
                    maxConcurrentLoads: scenario.maxConcurrentLoads))
            self.planner = planner
            for path in update.cancel {
                let item = layout.flatIndex(of: path)
                if nukeGroup != nil {
                    if let interest = nukeInterests.removeValue(forKey: item) { scheduler.withdraw(interest) }
                } else {
                    scheduler.withdrawPrefetchInterests(in: item)
                }
            }
            for path in update.prefetch {
                let item = layout.flatIndex(of: path)
                guard !ready[item] else { continue }
                if let group = nukeGroup {
                    if let interest = nukeInterests[item], scheduler.isLive(interest) { continue }
                    nukeInterests[item] = scheduler.addInterest(in: item, group: group, payload: nil)
                } else {
                    scheduler.addInterest(in: item, priority: .normal, payload: nil)
                }
            }
        }
    }

    // MARK: Pages

    /// Performs the pager's actions through the scheduler (display requests
    /// and pages share one fetcher in every strategy).
    mutating func perform(_ actions: [PagingStateMachine<SimulatedItem>.Action]) {
        for action in actions {
            switch action {
            case .load(let request):
                guard case .offset(let offset) = request.key else { continue }
                pageRequests[offset] = request
                pageRanges[offset] = offset..<min(itemCount, offset + request.limit)
                scheduler.addInterest(in: offset, priority: .normal, payload: nil)
            case .cancel(let request):
                guard case .offset(let offset) = request.key else { continue }
                scheduler.withdrawPrefetchInterests(in: offset)
                pageRequests[offset] = nil
            case .retry, .dropped:
                // The scheduler retries failed loads itself; there is no maxSize here.
                break
            }
        }
    }

    mutating func pageLoaded(key: Int, at time: Duration) {
        guard var pager, let request = pageRequests.removeValue(forKey: key) else { return }
        let range = key..<min(itemCount, key + request.limit)
        let actions = pager.pageLoaded(request: request, page: Page(items: range.map(SimulatedItem.init)))
        self.pager = pager
        perform(actions)
    }

    /// How many items from the top are loaded without a gap.
    func loadedPrefix() -> Int {
        if let pager { return pager.count }
        return ready.firstIndex(of: false) ?? itemCount
    }

    // MARK: Results

    mutating func finish() {
        let end = frameDuration * (frameCount - 1)
        for (_, entered) in pendingAppearances.sorted(by: { $0.key < $1.key }) {
            timesToContent.append(end - entered)
        }
        pendingAppearances.removeAll()
    }

    func result() -> StrategyResult {
        var wastedLoads = 0
        var wastedBytes = 0
        for key in completedKeys where !items(ofKey: key).contains(where: { everVisible[$0] }) {
            wastedLoads += 1
            wastedBytes += bytes(ofKey: key)
        }
        let statistics = scheduler.statistics
        return StrategyResult(
            name: strategy.rawValue, blankCellFrames: blankCellFrames, visibleCellFrames: visibleCellFrames,
            timesToContent: timesToContent, requests: statistics.loadsStarted,
            cancellations: statistics.loadsCancelled, completedLoads: completedKeys.count, wastedLoads: wastedLoads,
            wastedBytes: wastedBytes, completedBytes: completedBytes, bytes: transfers.bytesTransferred,
            peakCacheBytes: peakCacheBytes, blankCellFramesPerSecond: blankCellFramesPerSecond,
            bottomWait: bottomWait)
    }
}

/// An item of the simulated list, for the pager (identity is its index).
struct SimulatedItem: Identifiable, Sendable, Hashable {
    let id: Int

    init(_ id: Int) {
        self.id = id
    }
}
