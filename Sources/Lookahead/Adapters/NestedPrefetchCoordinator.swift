// The coordinator of a feed of carousels: the outer list's scrolling and
// each inner collection's go in, prefetches, cancels and display requests on
// one AsyncFetcher come out, decided by a NestedPrefetchPlanner on both axes.

/// Drives one ``AsyncFetcher`` from a feed whose rows are horizontal
/// carousels — a store, a streaming app — through a `NestedPrefetchPlanner`.
///
/// The feed's scroll view reports to it as to a ``PrefetchCoordinator``
/// (``scrollViewDidScroll(contentOffset:viewportSize:at:)``). Each inner
/// collection view, living in an outer cell, joins it with
/// ``registerNested(_:forRow:)`` and reports its horizontal scrolling through
/// the ``NestedCollectionLink`` it gets; on reuse the cell hands the same link
/// its new row, and gets back the offset that row last had. Every fetch,
/// outer or inner, goes to the one fetcher, so both axes share its
/// concurrency limit and its cache:
/// - a row about to appear brings its carousel's first items;
/// - a carousel swiped prefetches along its axis;
/// - a row scrolled away cancels what its carousel asked for;
/// - a display request per cell
///   (``NestedCollectionLink/requestDisplay(atItem:for:completion:)``), at the
///   priority the planner gives it (no more than `.normal` for a cell made
///   ahead of being shown), dropped to `.veryLow` when the cell leaves the
///   screen and withdrawn once its item is out of reach, or at once when the
///   inner collection is handed another row.
///
/// ```swift
/// let coordinator = NestedPrefetchCoordinator(fetcher: fetcher, layout: feedLayout) { path in
///     rows[path.row].items[path.item].id
/// }
/// ```
///
/// The coordinator remembers the key of every prefetch it made, so that a
/// cancel after the data changed withdraws what was asked for.
@MainActor
public final class NestedPrefetchCoordinator<Key: Hashable & Sendable, Value: Sendable> {
    /// The fetcher every prefetch and display request goes to, outer and inner.
    public let fetcher: AsyncFetcher<Key, Value>
    /// The planner's state: what is prefetched, which rows and items are on screen.
    package private(set) var planner: NestedPrefetchPlanner
    /// The priority of prefetches; below display requests (`.high`).
    public var prefetchPriority: FetchPriority = .normal

    private let key: @MainActor (NestedItemPath) -> Key?
    private let policy: PrefetchPolicy
    private let carouselPolicy: PrefetchPolicy
    private var tracker = ScrollTracker()
    /// The feed's last frame: a carousel's report is planned with it.
    private var lastFrame: ScrollFrame?
    /// Which of the feed's frames are planned (a carousel's report always is).
    package var cadence = PlanningCadence()
    /// Carousel reports made before the feed's first frame, planned with it.
    private var waitingScrolls: [NestedPrefetchPlanner.CarouselScroll] = []
    /// The requests held, and what each frame does to them.
    package private(set) var requests = CoordinatorCore<NestedItemPath>(datesPrefetches: false)
    /// The outstanding prefetches.
    private var prefetches = PrefetchRequestTable<NestedItemPath>()
    private let displayRequests = DisplayRequestTable<Key, Value>()
    /// The links handed out, weakly: a batch update moves them with their rows.
    private var links: [ObjectIdentifier: WeakLink<Key, Value>] = [:]
    private var loadObservation: FetchObservation?

    /// Creates a coordinator.
    ///
    /// - Parameters:
    ///   - fetcher: loads the items of both axes; its load durations teach the policies.
    ///   - layout: the feed: its rows, and each carousel's items.
    ///   - policy: the window of rows; ``PrefetchPolicy/adaptiveRows``
    ///     (adaptive, resting at 2 screens ahead and 0.5 behind) by default.
    ///   - carouselPolicy: the window along a carousel being swiped;
    ///     ``PrefetchPolicy/adaptiveCarousel`` by default.
    ///   - initialPrefetchItemCount: items beyond a coming carousel's visible span, from 0 to 1,000; 1 by default.
    ///   - key: the key of the item at a path, read on the main actor; `nil`
    ///     for a path with nothing to load.
    public init(
        fetcher: AsyncFetcher<Key, Value>,
        layout: CarouselFeedLayout,
        policy: PrefetchPolicy = .adaptiveRows,
        carouselPolicy: PrefetchPolicy = .adaptiveCarousel,
        initialPrefetchItemCount: Int = 1,
        key: @escaping @MainActor (NestedItemPath) -> Key?
    ) {
        precondition(
            (0...1_000).contains(initialPrefetchItemCount),
            "NestedPrefetchCoordinator: initialPrefetchItemCount must be within 0...1000, got \(initialPrefetchItemCount)"
        )
        self.fetcher = fetcher
        self.key = key
        self.policy = policy
        self.carouselPolicy = carouselPolicy
        planner = NestedPrefetchPlanner(
            layout: layout, policy: policy, carouselPolicy: carouselPolicy,
            initialPrefetchItemCount: initialPrefetchItemCount)
        loadObservation = fetcher.observe { [weak self] event in
            guard case .succeeded(_, let duration) = event else { return }
            Task { @MainActor [weak self] in self?.planner.observeLoadDuration(duration) }
        }
        // A request that was answered is no longer ranked.
        displayRequests.onEnded = { [weak self] id in self?.requests.displayEnded(id) }
        // A request a reused cell let go of, that no other cell claimed by the end of the layout pass.
        displayRequests.onUnclaimed = { [weak self] ids in
            guard let self else { return }
            perform(requests.withdrawDisplays(ids))
        }
    }

    // A screen that goes away leaves no prefetch of its own behind (its
    // cells' display requests go with their table).
    deinit {
        fetcher.withdraw(prefetches.allRequests)
    }

    // MARK: - The feed

    /// Plans the frame the feed shows now: call it from the outer scroll view's `scrollViewDidScroll`.
    ///
    /// A frame that moved less than a twentieth of a screen, at about the
    /// same speed, within 50 ms of the last one planned is only tracked (a
    /// carousel's report plans with it at once).
    ///
    /// A report with non-finite numbers or an empty viewport is ignored.
    /// - Complexity: O(log n + window) for n rows, plus the windows of the carousels moving on screen.
    public func scrollViewDidScroll(contentOffset: Point, viewportSize: Size, at time: Duration) {
        guard let frame = tracker.frame(contentOffset: contentOffset, viewportSize: viewportSize, time: time)
        else { return }
        guard !waitingScrolls.isEmpty || cadence.isDue(frame) else {
            // Tracked: a carousel's report is planned with it.
            lastFrame = frame
            return
        }
        plan(frame, scrolls: waitingScrolls)
        waitingScrolls = []
    }

    /// A drag of the feed ended: plans at once with the velocity (points per
    /// second) and the target offset the deceleration will reach.
    public func scrollViewWillEndDragging(
        velocity: Double, targetContentOffset: Point, contentOffset: Point, viewportSize: Size, at time: Duration
    ) {
        let frame = tracker.frameAnnouncing(
            target: targetContentOffset, contentOffset: contentOffset, viewportSize: viewportSize, time: time,
            velocity: velocity)
        if let frame { plan(frame, scrolls: []) }
    }

    /// The app is about to scroll the feed with an animation to
    /// `targetContentOffset`: plans at once for where it will rest; see
    /// ``PrefetchCoordinator/scrollViewWillAnimateScroll(to:contentOffset:viewportSize:at:)``.
    public func scrollViewWillAnimateScroll(
        to targetContentOffset: Point, contentOffset: Point, viewportSize: Size, at time: Duration
    ) {
        let frame = tracker.frameAnnouncing(
            target: targetContentOffset, contentOffset: contentOffset, viewportSize: viewportSize, time: time)
        if let frame { plan(frame, scrolls: []) }
    }

    /// A new drag of the feed began, its deceleration ended or an animated
    /// scroll arrived: frames no longer carry the announced target.
    public func scrollViewDidEndFling() {
        tracker.endFling()
    }

    // MARK: - Inner collections

    /// An inner collection view shows row `row` from now on: a new outer cell,
    /// a reused one handed another row, or one shown again. Its display
    /// requests for the row it showed before are withdrawn (their completions
    /// get `CancellationError`); the row's requests that its cells left
    /// waiting when the row went off screen are raised again for the items
    /// its carousel shows.
    ///
    /// - Parameters:
    ///   - link: the inner collection's link, from an earlier call; `nil` for a new one.
    ///   - row: the row the outer cell shows now.
    /// - Returns: the link (the one given, or a new one), whose
    ///   ``NestedCollectionLink/contentOffset`` is the offset the row last
    ///   had: scroll the inner collection there.
    /// - Precondition: `row` is a row of the layout.
    @discardableResult
    public func registerNested(
        _ link: NestedCollectionLink<Key, Value>? = nil, forRow row: Int
    ) -> NestedCollectionLink<Key, Value> {
        precondition(
            planner.layout.rows.indices.contains(row),
            "NestedPrefetchCoordinator.registerNested(_:forRow:): row \(row) is out of range "
                + "(\(planner.layout.rows.count) rows)")
        let link = link ?? NestedCollectionLink(coordinator: self)
        precondition(link.coordinator === self, "NestedPrefetchCoordinator: the link belongs to another coordinator")
        links[ObjectIdentifier(link)] = WeakLink(link: link)
        if let old = link.row, old != row { endDisplaying(row: old) }
        link.show(row: row, offset: min(max(0, planner.offset(ofRow: row)), planner.layout.maxOffset(ofRow: row)))
        // UIKit shows a row it kept again without asking for its inner cells anew.
        let shown = planner.visibleSpan(ofRow: row)
        for id in requests.departed.sorted() {
            guard let path = requests.displays[id]?.path, path.row == row, shown.contains(path.item) else { continue }
            perform(requests.displayShown(id, at: path, priority: planner.displayPriority(for: path)))
        }
        return link
    }

    /// The outer cell holding `link`'s inner collection left the screen: its
    /// cells' display requests go on at `.veryLow` (UIKit may show the row
    /// again without new cells) until their items are out of reach, and it
    /// shows no row until registered again.
    public func unregisterNested(_ link: NestedCollectionLink<Key, Value>) {
        guard link.coordinator === self, let row = link.row else { return }
        for id in requests.displays.keys.sorted() where requests.displays[id]?.path.row == row {
            perform(requests.displayLeft(id))
        }
        link.show(row: nil, offset: 0)
    }

    /// A carousel's report, from its link: planned at once with the feed's last frame.
    func carouselDidScroll(_ scroll: NestedPrefetchPlanner.CarouselScroll, at time: Duration) {
        guard var frame = lastFrame else {
            waitingScrolls.removeAll { $0.row == scroll.row }
            waitingScrolls.append(scroll)
            return
        }
        frame.time = max(frame.time, time)
        plan(frame, scrolls: [scroll])
    }

    // MARK: - Cells

    /// Asks for the value of the item at `path` for `cell`, at the priority
    /// the planner gives it. Call it when a cell is configured (an inner
    /// cell through its link's ``NestedCollectionLink/requestDisplay(atItem:for:completion:)``);
    /// the completion runs on the main actor (before this returns if the
    /// value is cached).
    ///
    /// The request belongs to `cell` and the item's key, as
    /// `PrefetchCoordinator.requestDisplay(at:for:completion:)`'s: a cell that
    /// asks again for the same key keeps its request, one reused for another
    /// item lets go of it, and nothing another cell does touches it. A cell
    /// made ahead of being shown (UIKit's cell prefetching) asks at no more
    /// than `.normal` until its item comes on screen or ``willDisplay(_:at:)``
    /// reports it shown.
    ///
    /// - Returns: the request, or `nil` if `path` has nothing to load.
    /// - Complexity: O(1) amortized.
    @discardableResult
    public func requestDisplay(
        at path: NestedItemPath, for cell: AnyObject,
        completion: @escaping @MainActor @Sendable (Result<Value, any Error>) -> Void
    ) -> FetchTask? {
        let planner = self.planner
        let outcome = displayRequests.request(
            for: cell, key: key(path), from: fetcher,
            priority: {
                requests.displayRequested(
                    $0, at: path, priority: planner.displayPriority(for: path), isOnScreen: planner.isOnScreen(path))
            }, completion: completion)
        for id in outcome.claimed { requests.displayEnded(id) }
        if let asked = outcome.asked, outcome.id == nil { requests.displayEnded(asked) }
        if let letGo = outcome.letGo { perform(requests.displayLetGo(letGo)) }
        return outcome.request
    }

    /// `cell` is displayed at `path` (`willDisplay`), perhaps again without
    /// a new request: its display request, if it still waits, is ranked now
    /// at the planner's priority.
    public func willDisplay(_ cell: AnyObject, at path: NestedItemPath) {
        guard let id = displayRequests.id(of: cell) else { return }
        perform(requests.displayShown(id, at: path, priority: planner.displayPriority(for: path)))
    }

    /// `cell` left the screen (`didEndDisplaying`): its display request goes
    /// on at `.veryLow`, so that the cell, if UIKit shows it again without a
    /// new request, still gets its data; it is withdrawn once the item is
    /// neither within a quarter of a screen of the feed's viewport and of its
    /// carousel's visible span nor within the planner's window, or when the
    /// cell asks for another item.
    public func didEndDisplaying(_ cell: AnyObject) {
        guard let id = displayRequests.id(of: cell) else { return }
        perform(requests.displayLeft(id))
    }

    /// The paths the cells of the display requests still waiting were last seen at. For tests.
    package var pendingDisplayPaths: Set<NestedItemPath> {
        Set(displayRequests.keys.keys.compactMap { requests.displays[$0]?.path })
    }

    /// The keys held prefetched, by path, looked up when asked (for tests):
    /// a frame keeps handles, never keys.
    package var prefetchedKeysByPath: [NestedItemPath: Key] {
        var keys: [NestedItemPath: Key] = [:]
        for path in prefetches.paths { keys[path] = key(path) }
        return keys
    }

    private func endDisplaying(row: Int) {
        for id in requests.displays.keys.sorted() where requests.displays[id]?.path.row == row {
            requests.displayEnded(id)
            displayRequests.cancel(id)
        }
    }

    // MARK: - Changes

    /// The feed was replaced (`reloadData()`): every prefetch and display
    /// request is withdrawn, and planning starts afresh on `layout`.
    public func reloadData(layout: CarouselFeedLayout) {
        fetcher.withdraw(prefetches.takeFinishing())
        _ = planner.cancelAll()
        perform(requests.reset())
        displayRequests.cancelAll()
        planner = NestedPrefetchPlanner(
            layout: layout, policy: policy, carouselPolicy: carouselPolicy,
            initialPrefetchItemCount: planner.initialPrefetchItemCount)
        tracker.reset()
        cadence.reset()
        lastFrame = nil
        waitingScrolls = []
    }

    /// Rows were inserted, deleted or moved in the feed: prefetches, display
    /// requests, inner collections' links and carousels' offsets follow their
    /// rows to their new indices; those of deleted rows (`newRow` returns
    /// `nil`) are withdrawn, and their links show no row. Call it inside the
    /// outer collection's `performBatchUpdates` updates, after changing the
    /// data and before the view asks for new cells (display requests move by
    /// the path their cell was last seen at): the rule of
    /// `PrefetchCoordinator.applyUpdates(newPath:)`.
    ///
    /// - Parameters:
    ///   - layout: the feed after the update.
    ///   - newRow: the index after the update of the row at an index before it, or `nil` if it was deleted.
    /// - Precondition: `newRow` answers with rows of `layout`.
    /// - Complexity: O(prefetches + display requests + links) calls to `newRow`.
    public func applyUpdates(layout: CarouselFeedLayout, newRow: (Int) -> Int?) {
        func checked(_ row: Int) -> Int? {
            guard let new = newRow(row) else { return nil }
            precondition(
                layout.rows.indices.contains(new),
                "NestedPrefetchCoordinator.applyUpdates(layout:newRow:): row \(row) moves to \(new), "
                    + "out of range (\(layout.rows.count) rows)")
            return new
        }
        remap { path in checked(path.row).map { NestedItemPath(row: $0, item: path.item) } }
        for (id, entry) in links {
            guard let link = entry.link else {
                links[id] = nil
                continue
            }
            if let row = link.row { link.move(toRow: checked(row)) }
        }
        waitingScrolls = waitingScrolls.compactMap { scroll in
            checked(scroll.row).map {
                NestedPrefetchPlanner.CarouselScroll(row: $0, offset: scroll.offset, velocity: scroll.velocity)
            }
        }
        planner.applyUpdates(layout: layout, newRow: checked)
        cadence.reset()
    }

    /// Items were inserted, deleted or moved in row `row`'s carousel:
    /// prefetches and display requests follow their items to their new
    /// indices; those of deleted items (`newItem` returns `nil`) are
    /// withdrawn. Call it inside the inner collection's `performBatchUpdates`
    /// updates, before the view asks for new cells, as for the feed's rows
    /// (or through its link, ``NestedCollectionLink/applyUpdates(layout:newItem:)``).
    ///
    /// - Parameters:
    ///   - row: the row whose carousel changed.
    ///   - layout: the feed after the update.
    ///   - newItem: the index after the update of the item at an index before it, or `nil` if it was deleted.
    /// - Precondition: `row` is a row of both layouts, and `newItem` answers with items of that row in `layout`.
    /// - Complexity: O(prefetches + display requests) for the row's, calls to `newItem`.
    public func applyUpdates(inRow row: Int, layout: CarouselFeedLayout, newItem: (Int) -> Int?) {
        precondition(
            planner.layout.rows.indices.contains(row) && layout.rows.indices.contains(row),
            "NestedPrefetchCoordinator.applyUpdates(inRow:layout:newItem:): row \(row) is out of range "
                + "(\(planner.layout.rows.count) rows before, \(layout.rows.count) after)")
        let count = layout.itemCount(inRow: row)
        func checked(_ item: Int) -> Int? {
            guard let new = newItem(item) else { return nil }
            precondition(
                (0..<count).contains(new),
                "NestedPrefetchCoordinator.applyUpdates(inRow:layout:newItem:): item \(item) of row \(row) moves "
                    + "to \(new), out of range (\(count) items)")
            return new
        }
        remap { path in
            guard path.row == row else { return path }
            return checked(path.item).map { NestedItemPath(row: row, item: $0) }
        }
        planner.applyUpdates(inRow: row, layout: layout, newItem: checked)
        cadence.reset()
    }

    /// Moves each prefetch and display request to its item's new path;
    /// withdraws those whose item is gone.
    private func remap(_ newPath: (NestedItemPath) -> NestedItemPath?) {
        fetcher.withdraw(prefetches.takeFinishing())
        var actions = requests.remap(newPath)
        actions.withdrawDisplay = requests.remapDisplays { _, path in newPath(path) }.withdrawDisplay
        // Withdrawn by their paths before, then moved.
        perform(actions)
        prefetches.remap(newPath)
    }

    // MARK: - Planning

    private func plan(_ frame: ScrollFrame, scrolls: [NestedPrefetchPlanner.CarouselScroll]) {
        lastFrame = frame
        cadence.planned(frame)
        var actions = CoordinatorCore<NestedItemPath>.Actions()
        do {
            // Gone before the planner changes: a copy alive then would make it copy its tables.
            let lastPlan = self.planner
            requests.rank(
                { lastPlan.displayPriority(for: $0) }, isOnScreen: { lastPlan.isOnScreen($0) }, into: &actions)
        }
        let update = planner.update(frame, carousels: scrolls, loadQueue: fetcher.loadQueue)
        // Consumed: what is on screen now is the cells' business.
        let planner = self.planner
        var visible: [NestedItemPath] = []
        for row in planner.visibleRows {
            for item in planner.visibleSpan(ofRow: row) { visible.append(NestedItemPath(row: row, item: item)) }
        }
        let kept = Size(
            width: planner.layout.width * PrefetchCoordinatorCore.keptCellScreens,
            height: frame.visibleRect.height * PrefetchCoordinatorCore.keptCellScreens)
        perform(
            requests.planned(
                update, visible: visible, deadlines: [], isHeld: { planner.holds($0) },
                isNear: { planner.isOnScreen($0, margin: kept) }, time: frame.time, after: actions))
    }

    /// Performs a frame's (or a change's) actions on the fetcher, in one batch.
    private func perform(_ actions: CoordinatorCore<NestedItemPath>.Actions) {
        guard !actions.isEmpty else { return }
        let made = PrefetchRequestTable<NestedItemPath>.keys(of: actions, key)
        var batch = FetchBatch<Key>()
        batch.prefetchPriority = prefetchPriority
        batch.prefetches = made.keys
        prefetches.add(actions, made: made.paths, to: &batch.changes)
        displayRequests.add(actions.rank, to: &batch.changes)
        displayRequests.withdraw(actions.withdrawDisplay, into: &batch.changes)
        prefetches.adopt(fetcher.perform(batch), for: made.paths)
        if !actions.forget.isEmpty { prefetches.prune { fetcher.arePending($0) } }
    }
}

/// A link held weakly: the coordinator does not keep its inner collections' links alive.
private struct WeakLink<Key: Hashable & Sendable, Value: Sendable> {
    weak var link: NestedCollectionLink<Key, Value>?
}
