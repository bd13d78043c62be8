package import Lookahead

// The one strategy driver: what each strategy asks for, frame by frame, and
// what it makes of the loads that finish — shared by the simulator (virtual
// time) and the real replay (HTTP), which differ only in their loader.

/// Drives one strategy over a scenario's trace: shows each frame, counts
/// what is on screen, asks for visible cells' data, lets the strategy decide
/// what to load ahead, and feeds finished loads back to the strategy.
///
/// The decisions are the shipped state machines': the coordinator's own
/// core (``PrefetchCoordinatorCore``: its frames, layout sampling, planner
/// and the frame loop over the requests it holds) for the windows (`system`,
/// `nuke`, `texture`, `adaptive`), a
/// ``ScrollViewPrefetcherStateMachine`` with its own debounce and rest check for
/// `swiftui`, a ``PagingStateMachine`` for `paged` and `paged-fixed`
/// (retries included, as the runtime ``Pager`` performs them); on a feed of
/// carousels a ``NestedPrefetchPlanner`` (or UIKit's per-collection windows,
/// ``PerCollectionPrefetchPlanner``) fed each carousel's horizontal offset
/// (`StrategyDriver+Carousels.swift`), whose requests the same frame loop
/// (``CoordinatorCore``) keeps. What a frame shows is ``FrameVisibility``'s,
/// as for the oracle and the lower bound. On each frame the cells that left
/// end their display and the cells that came ask for their data, then the
/// scroll is reported and planned. The driver performs the actions on its
/// ``StrategyLoader`` and keeps the one ``RunMetrics``. It reads no clock:
/// every call says what time it is.
///
/// Calls come in time order: `begin()`, then for each frame the events due
/// before it (``loadFinished(key:duration:)``, ``dataArrived(key:arrival:at:)``,
/// ``pageFailed(key:isTransient:at:)``, ``pageRetryDue(_:at:)``,
/// ``settleWindow(at:)``), then ``showFrame(_:at:)``; ``finish()`` at the end.
package struct StrategyDriver<Loader: StrategyLoader> {
    package let scenario: SimulationScenario
    package let strategy: SimulationStrategy
    package let layout: any CollectionLayout
    package let itemCount: Int
    package let frameDuration: Duration
    package let frameCount: Int
    /// What each frame shows.
    let visibility: FrameVisibility
    /// Whether visible cells ask for their data (all but the page strategies
    /// and some of the oracle's plans).
    let issuesDisplayRequests: Bool
    /// Whether cells ask for their data where UIKit makes them, about a row
    /// ahead of showing them (cell prefetching, on in UIKit by default): for
    /// the strategies that model an app on UIKit with a coordinator. The
    /// textbook ones (`none`, `all`, pages) load at display, SwiftUI's rows
    /// at `onAppear`, and a feed of carousels as before.
    package var makesCellsAhead: Bool

    package var loader: Loader
    package private(set) var metrics: RunMetrics

    /// The coordinator's core, for the strategies that plan a window on a list.
    package var coordinator: PrefetchCoordinatorCore?
    /// The planner's state, for the strategies that plan a window on a list.
    package var planner: PrefetchPlanner? { coordinator?.planner }
    /// On a feed of carousels, the planner of the strategies that plan ahead.
    var nested: NestedPlanning?
    /// On a feed of carousels, the requests held, through the coordinators' frame loop.
    var nestedRequests = CoordinatorCore<NestedItemPath>(datesPrefetches: false)
    /// On a feed of carousels, which of the feed's frames are planned, as
    /// the nested coordinator plans them (a carousel that moved always is).
    var nestedCadence = PlanningCadence()
    /// For `swiftui`: how far beyond the viewport, in screens, a lazy stack
    /// makes a row and so calls its `onAppear` (0: when it becomes visible).
    /// SwiftUI does not document it; the simulator brackets it.
    package var swiftUIAppearScreens = 0.0
    /// For `swiftui`: the rows appeared (made) as of the last frame, which
    /// tell the coordinator where the list is (``RowAppearance``), as
    /// `FetchedContent` rows do before iOS 18.
    var appearance = RowAppearance()
    var pager: PagingStateMachine<ListItem>?
    /// The pager's requests in flight or backing off, by offset (their load key).
    var pageRequests: [Int: PageRequest] = [:]
    /// How long pages took: what ``Pager/observedPageLatency`` tells the adaptive trigger.
    var pageLatency = LoadDurationEstimator(quantile: 0.9, prior: .milliseconds(500), capacity: 32)
    /// `batch`: the pages asked for so far.
    var requestedPages = 0
    /// Visible cells' requests, by item (their paths, for the frame loop).
    var displayRequests: [Int: ItemPath] = [:]
    var previousVisible: [Int] = []
    /// Where the trace's motions land, told to `adaptive`'s planner on the
    /// frames an app would know it (``AnnouncedLandings``); `nil`: not told.
    var landings: AnnouncedLandings?
    /// Whether prefetches are re-dated from the policy's predictions
    /// (`PrefetchPlanner.deadlines`), so that the queue starts them
    /// earliest-due first; only the adaptive policy predicts them.
    package var datesPrefetches: Bool {
        didSet { coordinator?.datesPrefetches = datesPrefetches }
    }
    /// The scroll velocity, measured as the runtime views measure it: the
    /// finite difference between two frames.
    var scrollVelocity = VelocityEstimator(timeConstant: .zero)
    /// The landing the coordinator was last told of (``landings``).
    var announcedTarget: Double?

    /// Creates the driver of `strategy` on `scenario`.
    ///
    /// - Parameters:
    ///   - issuesDisplayRequests: whether visible cells ask for their data;
    ///     by default all strategies but those that load pages or the oracle.
    ///   - makeLoader: makes the loader that performs the loads, given what
    ///     the strategy's keys stand for.
    package init(
        scenario: SimulationScenario, strategy: SimulationStrategy, issuesDisplayRequests: Bool? = nil,
        makeLoader: (LoadKeys) -> Loader
    ) {
        self.scenario = scenario
        self.strategy = strategy
        self.issuesDisplayRequests = issuesDisplayRequests ?? (!strategy.loadsPages && strategy != .oracle)
        datesPrefetches = strategy == .adaptive && AdaptiveSettings.datesPrefetchesByDefault
        visibility = FrameVisibility(scenario: scenario)
        makesCellsAhead = visibility.feed == nil && strategy.prefetchPolicy != nil
        layout = visibility.layout
        itemCount = layout.totalItemCount
        frameDuration = .seconds(1) / scenario.frameRate
        frameCount = Int((scenario.trace.duration / frameDuration).rounded(.down)) + 1
        let network = scenario.network
        let keys = LoadKeys(strategy: strategy, visibility: visibility)
        loader = makeLoader(keys)
        metrics = RunMetrics(
            keys: keys, duration: scenario.trace.duration, itemBytes: { network.payloadBytes(forItem: $0) })
        if strategy == .adaptive {
            if AdaptiveSettings.announcesLandingsByDefault { landings = announcedLandings() }
            hedge(like: .shipped(maxConcurrentLoads: scenario.maxConcurrentLoads))
        }
        if let feed = visibility.feed {
            nested = NestedPlanning(strategy: strategy, feed: feed.feed)
            nestedCadence = cadence
        } else if let policy = strategy.prefetchPolicy {
            usePolicy(policy)
        }
        switch strategy {
        case .swiftui:
            // `PrefetchCoordinator(fetcher:)` with `.lookaheadPrefetching`: the adaptive planner.
            if visibility.feed == nil { usePolicy(.adaptive) }
        case .paged, .pagedFixed:
            pager = PagingStateMachine(configuration: SimulationStrategy.pagingConfiguration)
        case .none, .all, .batch, .system, .nuke, .texture, .adaptive, .oracle:
            break
        }
    }

    /// Drives `adaptive` with `settings` instead of the shipped ones: the
    /// policy, how the loads are hedged, whether the planner is told where
    /// motions land, whether prefetches are dated.
    /// Replaces the strategy's window with `policy` (a list or a grid's; a
    /// feed of carousels keeps its own), as its coordinator would plan it.
    package mutating func usePolicy(_ policy: PrefetchPolicy) {
        guard visibility.feed == nil else { return }
        var core = PrefetchCoordinatorCore(policy: policy, axis: scenario.axis)
        core.datesPrefetches = datesPrefetches
        core.cadence = cadence
        coordinator = core
    }

    /// Which frames the strategy plans: Lookahead's coordinator plans on its
    /// cadence; UIKit's window and the other libraries' follow every frame.
    var cadence: PlanningCadence {
        strategy == .adaptive || strategy == .swiftui ? PlanningCadence() : .everyFrame
    }

    package mutating func useAdaptiveSettings(_ settings: AdaptiveSettings) {
        useAdaptivePolicy(settings.makeAdaptivePolicy())
        hedge(like: settings)
        landings = settings.announcesLandings ? announcedLandings() : nil
        datesPrefetches = settings.datesPrefetches
    }

    /// Has the loader hedge as the fetcher an app makes with `settings` does
    /// (``AdaptiveSettings/fetcherHedging``, and
    /// ``AdaptiveSettings/hedgesDueSoonAtOnce(over:)`` on the scenario's link).
    mutating func hedge(like settings: AdaptiveSettings) {
        loader.hedge(
            like: settings.fetcherHedging, dueSoonAtOnce: settings.hedgesDueSoonAtOnce(over: scenario.network.bandwidth)
        )
    }

    /// Where the trace's motions land, as an app would announce them.
    func announcedLandings() -> AnnouncedLandings {
        AnnouncedLandings(
            trace: scenario.trace, maxOffset: max(0, layout.contentSize.height - scenario.viewport.height))
    }

    /// The time of frame `frame`.
    package func time(ofFrame frame: Int) -> Duration {
        frameDuration * frame
    }

    // MARK: Frames

    /// What happens when the app starts, before the first frame: `all` asks
    /// for every item, `batch` for its first page, the pager for its first.
    package mutating func begin() {
        switch strategy {
        case .all:
            for item in 0..<itemCount { loader.prefetch(item) }
        case .batch:
            if itemCount > 0 {
                loader.prefetch(0)
                requestedPages = 1
            }
        case .paged, .pagedFixed:
            if var pager {
                // As an app tells its pager what the first screen shows.
                let actions = pager.start(firstScreenItemCount: visibility.firstScreenItemCount)
                self.pager = pager
                perform(actions, at: .zero)
            }
        case .none, .system, .nuke, .texture, .adaptive, .swiftui, .oracle:
            break
        }
    }

    /// Before the view exists (``SimulationScenario/startLead``): the app
    /// starts its first screen's loads — the first frame's items, or the
    /// first page for the strategies that load pages.
    package mutating func beginFirstScreen() {
        if strategy.loadsPages {
            begin()
            return
        }
        for item in visibility.frame(at: .zero).items { loader.prefetchFirstScreen(item) }
    }

    /// Whether `item`'s data is ready, learning from the loader's cache.
    mutating func isReady(_ item: Int) -> Bool {
        if metrics.ready[item] { return true }
        guard !metrics.keys.isPaged, loader.isCached(item) else { return false }
        metrics.markReady(key: item, arrival: loader.arrival(ofKey: item))
        return true
    }

    /// Shows frame `frame` at `time`: counts it, ends the display of the
    /// cells that left and asks for the data of the cells that came, then
    /// lets the strategy plan ahead.
    package mutating func showFrame(_ frame: Int, at time: Duration) {
        let shown = visibility.frame(at: time)
        let (rect, visiblePaths, visible) = (shown.rect, shown.paths, shown.items)
        let offset = rect.minY
        // Points per second, from the offset one frame before.
        scrollVelocity.record(position: offset, at: time)
        let velocity = scrollVelocity.velocity

        let wasVisible = Set(previousVisible)
        for item in visible {
            let ready = isReady(item)
            metrics.countVisible(item, isReady: ready, appeared: !wasVisible.contains(item), at: time)
        }
        // Pages carry their items, and the oracle's plan already covers every item it will show.
        if strategy.loadsPages, let last = visible.last, last >= loadedPrefix() {
            metrics.waitedAtBottom(for: frameDuration)
        }
        // Cells that left end their display; cells that came take their
        // request back if they still have one, or ask for their data.
        let isVisible = Set(visible)
        for item in previousVisible where !isVisible.contains(item) {
            if let path = displayRequests[item] { endDisplay(at: path, item: item, time: time) }
            _ = isReady(item)
            metrics.itemLeft(item, at: time)
        }
        if issuesDisplayRequests {
            for (item, path) in zip(visible, visiblePaths) where !wasVisible.contains(item) {
                if displayRequests[item] != nil {
                    showAgain(at: path, item: item, time: time)
                } else if !metrics.ready[item] {
                    loader.requestForDisplay(item, priority: requestDisplay(at: path, item: item))
                    displayRequests[item] = path
                }
            }
            if makesCellsAhead, velocity != 0 { requestCellsAhead(of: rect, down: velocity > 0, visible: isVisible) }
        }
        // The scroll reported: the coordinator plans, consumes what came, and re-ranks its cells' requests.
        if nested != nil {
            planCarousels(at: time, frame: shown, velocity: velocity)
        } else {
            planAhead(at: time, rect: rect, velocity: velocity, visible: visible, wasVisible: wasVisible)
        }
        previousVisible = visible
    }

    /// UIKit makes cells about a row before showing them (cell prefetching),
    /// and an app's `cellForItemAt` asks for their data there: the items in
    /// that band ahead of `rect` ask, no higher than `.normal` until shown.
    mutating func requestCellsAhead(of rect: Rect, down: Bool, visible: Set<Int>) {
        let distance = (rect.height * PrefetchCoordinatorCore.cellPrefetchScreens).rounded()
        let band = Rect(x: rect.minX, y: down ? rect.maxY : rect.minY - distance, width: rect.width, height: distance)
        for path in layout.itemPaths(in: band) {
            let item = layout.flatIndex(of: path)
            guard displayRequests[item] == nil, !visible.contains(item), !metrics.ready[item] else { continue }
            loader.requestForDisplay(item, priority: requestDisplay(at: path, item: item, isOnScreen: false))
            displayRequests[item] = path
        }
    }

    /// A cell for `path` asks for its data: the priority the coordinator's
    /// planner gives it (`.high` but in an adaptive fling), `.high` without
    /// one; no higher than `.normal` for a cell made ahead of being shown.
    /// The item is the cell's request's identity: the simulator's items never move.
    mutating func requestDisplay(at path: ItemPath, item: Int, isOnScreen: Bool = true) -> FetchPriority {
        if let nested {
            let nestedPath = NestedItemPath(row: path.section, item: path.item)
            return nestedRequests.displayRequested(
                DisplayRequestID(item), at: nestedPath, priority: nested.displayPriority(for: nestedPath),
                isOnScreen: isOnScreen)
        }
        return coordinator?.displayRequested(DisplayRequestID(item), at: path, isOnScreen: isOnScreen)
            ?? (isOnScreen ? .high : .normal)
    }

    /// The cell showing `path` (`item`) left the screen: through a
    /// coordinator its request goes on at `.veryLow` until the cell is shown
    /// again or the item goes out of reach, as `didEndDisplayingItem(at:)`
    /// does; otherwise it is withdrawn.
    mutating func endDisplay(at path: ItemPath, item: Int, time: Duration) {
        if nested == nil, var coordinator {
            let actions = coordinator.displayLeft(DisplayRequestID(item))
            self.coordinator = coordinator
            perform(actions, at: time)
            return
        }
        if nested != nil, let feed = visibility.feed {
            perform(nestedRequests.displayLeft(DisplayRequestID(item)), at: time) {
                feed.flatIndex(of: $0)
            }
            return
        }
        displayRequests[item] = nil
        loader.withdrawDisplayRequest(item)
    }

    /// The cell showing `path` is shown again with its request still held
    /// (`willDisplayItem(at:)`): ranked at the planner's priority.
    mutating func showAgain(at path: ItemPath, item: Int, time: Duration) {
        if let nested, let feed = visibility.feed {
            let nestedPath = NestedItemPath(row: path.section, item: path.item)
            let actions = nestedRequests.displayShown(
                DisplayRequestID(item), at: nestedPath, priority: nested.displayPriority(for: nestedPath))
            perform(actions, at: time) { feed.flatIndex(of: $0) }
            return
        }
        guard var coordinator else { return }
        let actions = coordinator.displayShown(DisplayRequestID(item), at: path)
        self.coordinator = coordinator
        perform(actions, at: time)
    }

    mutating func planAhead(at time: Duration, rect: Rect, velocity: Double, visible: [Int], wasVisible: Set<Int>) {
        switch strategy {
        case .none, .all, .oracle:
            break
        case .paged, .pagedFixed:
            guard var pager, let last = visible.last else { return }
            let actions =
                strategy == .paged
                ? pager.accessed(
                    index: last, velocity: itemsPerSecond(fromPointsPerSecond: velocity),
                    observedPageLatency: pageLatency.estimate)
                : pager.accessed(index: last)
            self.pager = pager
            perform(actions, at: time)
        case .batch:
            // The tutorial's trigger: the last item asked for is displayed.
            let lastRequested = requestedPages * SimulationStrategy.pageSize - 1
            let isBottomReached = visible.last.map { $0 >= lastRequested } ?? false
            let pageInFlight = !metrics.ready[min(itemCount - 1, lastRequested)]
            if isBottomReached, !pageInFlight, requestedPages * SimulationStrategy.pageSize < itemCount {
                loader.prefetch(requestedPages)
                requestedPages += 1
            }
        case .swiftui:
            // Rows report appearing and disappearing: where they say the list
            // is goes to the coordinator as a scroll report (no velocity, no
            // landing: the rows tell neither).
            let margin = rect.height * swiftUIAppearScreens
            let band = Rect(x: rect.minX, y: rect.minY - margin, width: rect.width, height: rect.height + 2 * margin)
            let appeared = margin > 0 ? layout.itemPaths(in: band).map { layout.flatIndex(of: $0) } : visible
            let isAppeared = Set(appeared)
            for item in appearance.rows where !isAppeared.contains(item) { appearance.row(item, isShown: false) }
            for item in appeared { appearance.row(item, isShown: true) }
            guard let top = appearance.offset(in: layout) else { return }
            report(origin: Point(x: rect.minX, y: top), size: rect.size, target: nil, at: time)
        case .system, .texture, .nuke, .adaptive:
            // What the app tells its coordinator: every offset, and where a motion lands when it knows.
            report(origin: rect.origin, size: rect.size, target: landings?.offset(at: time), at: time)
        }
    }

    /// Reports the frame at `origin` (and a motion's landing, `target`) to
    /// the coordinator, and performs what it plans.
    mutating func report(origin: Point, size: Size, target: Double?, at time: Duration) {
        guard var coordinator else { return }
        let rect = Rect(origin: origin, size: size)
        let layout = self.layout
        // The coordinator sees the view as the app has it: a sideways
        // scenario's view is the transpose of the simulation's layout,
        // which runs along the scroll.
        let axis = scenario.axis
        let sample: PrefetchCoordinatorCore.Sample = {
            SampledLayout(layout: layout, band: axis.alongScroll($0)).alongScroll(axis)
        }
        let planned: PrefetchCoordinatorCore.Frame?
        if let target, target != announcedTarget {
            planned = coordinator.announced(
                target: axis.alongScroll(Point(x: origin.x, y: target)), velocity: nil,
                contentOffset: axis.alongScroll(origin), viewportSize: axis.alongScroll(rect.size), at: time,
                loadQueue: loader.loadQueue, contentSize: axis.alongScroll(layout.contentSize), sample: sample)
        } else {
            if target == nil, announcedTarget != nil { coordinator.motionEnded() }
            planned = coordinator.scrolled(
                contentOffset: axis.alongScroll(origin), viewportSize: axis.alongScroll(rect.size), at: time,
                loadQueue: loader.loadQueue, contentSize: axis.alongScroll(layout.contentSize), sample: sample)
        }
        announcedTarget = target
        self.coordinator = coordinator
        if let planned { perform(planned.actions, at: time) }
    }

    /// Performs a coordinator's actions on the loader, in keys; an item
    /// whose data is here already is not asked for again (the fetcher's
    /// cache answers it).
    mutating func perform<Path>(
        _ actions: CoordinatorCore<Path>.Actions, at time: Duration, key: (Path) -> Int
    ) {
        var keyed = CoordinatorCore<Int>.Actions()
        keyed.consume = actions.consume.map(key)
        keyed.withdraw = actions.withdraw.map(key)
        keyed.prefetch = actions.prefetch.map(key).filter { !isReady($0) }
        keyed.date = actions.date.map { (key($0.path), $0.deadline) }
        keyed.predicted = actions.predicted.map(key)
        keyed.rank = actions.rank
        keyed.forget = actions.forget.map(key)
        loader.perform(keyed, at: time)
        for id in actions.withdrawDisplay {
            let item = id.rawValue
            displayRequests[item] = nil
            loader.withdrawDisplayRequest(item)
        }
    }

    mutating func perform(_ actions: CoordinatorCore<ItemPath>.Actions, at time: Duration) {
        let layout = self.layout
        perform(actions, at: time) { layout.flatIndex(of: $0) }
    }

    /// Items per second, from points per second and the average item height:
    /// the pager counts in items.
    func itemsPerSecond(fromPointsPerSecond velocity: Double) -> Double {
        velocity * Double(itemCount) / max(layout.contentSize.height, 1)
    }

    // MARK: Loads

    /// A load of `key` produced its data after `duration`: what a fetcher's
    /// statistics (or the pager's stopwatch) tell the strategy.
    package mutating func loadFinished(key: Int, duration: Duration) {
        coordinator?.observeLoadDuration(duration)
        nested?.observeLoadDuration(duration)
        if pager != nil { pageLatency.record(duration) }
    }

    /// `key`'s data is there at `time` (it arrived at `arrival`, if known).
    package mutating func dataArrived(key: Int, arrival: Duration?, at time: Duration) {
        metrics.markReady(key: key, arrival: arrival)
        if pager != nil { pageLoaded(key: key, at: time) }
    }

    /// The page load of `key` failed at `time`.
    package mutating func pageFailed(key: Int, isTransient: Bool, at time: Duration) {
        guard var pager, let request = pageRequests[key] else { return }
        let actions = pager.pageFailed(request: request, isTransient: isTransient)
        self.pager = pager
        perform(actions, at: time)
    }

    /// The delay of the pager's `.retry` for `request` passed.
    package mutating func pageRetryDue(_ request: PageRequest, at time: Duration) {
        guard var pager else { return }
        let actions = pager.retryTimerFired(request)
        self.pager = pager
        perform(actions, at: time)
    }

    // MARK: Pages

    /// Performs the pager's actions as the runtime ``Pager`` does: loads of
    /// their own, retries after the machine's delay.
    mutating func perform(_ actions: [PagingStateMachine<ListItem>.Action], at time: Duration) {
        for action in actions {
            switch action {
            case .load(let request):
                guard case .offset(let offset) = request.key else { continue }
                pageRequests[offset] = request
                loader.loadPage(offset)
            case .cancel(let request):
                guard case .offset(let offset) = request.key else { continue }
                loader.cancelPage(offset)
                pageRequests[offset] = nil
            case .retry(let request, let delay):
                loader.schedulePageRetry(request, at: time + delay)
            case .dropped:
                // No `maxSize` here: nothing is dropped.
                break
            }
        }
    }

    mutating func pageLoaded(key: Int, at time: Duration) {
        guard var pager, let request = pageRequests.removeValue(forKey: key) else { return }
        let range = key..<min(itemCount, key + request.limit)
        precondition(
            range == metrics.keys.items(ofKey: key),
            "StrategyDriver: page \(request) covers \(range), its load key \(metrics.keys.items(ofKey: key))")
        let actions = pager.pageLoaded(request: request, page: Page(items: range.map(ListItem.init)))
        self.pager = pager
        perform(actions, at: time)
    }

    /// How many items from the top are loaded without a gap.
    func loadedPrefix() -> Int {
        if let pager { return pager.count }
        return metrics.ready.firstIndex(of: false) ?? itemCount
    }

    // MARK: Ending

    /// Closes the appearances still blank at the last frame, and tells the
    /// metrics which items are within reach of it.
    package mutating func finish() {
        let end = frameDuration * (frameCount - 1)
        metrics.finish(at: end, reach: visibility.items(within: RunMetrics.reachAtEnd, ofFrameAt: end))
    }

    /// Records that `key`'s data is in the cache at the end of the run, seen or not.
    package mutating func markReadyAtEnd(key: Int) {
        metrics.markReady(key: key, arrival: loader.arrival(ofKey: key))
    }
}

/// An item of a driven list, for the pager (identity is its index).
package struct ListItem: Identifiable, Sendable, Hashable {
    package let id: Int

    package init(_ id: Int) {
        self.id = id
    }
}
