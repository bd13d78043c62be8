// The type an app meets: what a scroll view reports goes in, prefetches,
// cancels and display requests on an AsyncFetcher come out, decided by a
// PrefetchPlanner. Main-actor and thin; LookaheadUIKit and LookaheadSwiftUI
// only forward to it, and the tests drive it through the headless views.

/// Drives an ``AsyncFetcher`` from a scroll view: the adaptive planner in a
/// real `UICollectionView`, `UITableView` or SwiftUI grid.
///
/// Tell it what the scroll view reports, and it prefetches and cancels:
/// - ``scrollViewDidScroll(contentOffset:viewportSize:at:)`` on every
///   offset change: it measures the velocity, plans the frame and sends the
///   planner's cancels (first) and prefetches to the fetcher.
/// - ``scrollViewWillEndDragging(velocity:targetContentOffset:contentOffset:viewportSize:at:)`` when a
///   drag ends, and ``scrollViewWillAnimateScroll(to:contentOffset:viewportSize:at:)``
///   before an animated scroll: the landing zone is asked for on that very frame.
/// - ``requestDisplay(at:for:completion:)`` from `cellForItemAt`: the cell's
///   display request, ranked as the scroll goes (a fling carrying the cell
///   away lowers it), lowered by ``didEndDisplaying(_:)`` when the cell
///   leaves, withdrawn when the cell is reused for another item.
/// - ``applyUpdates(to:)`` when the items change, ``reloadData()`` after a reload.
///
/// `LookaheadUIKit`'s `PrefetchCoordinator(fetcher:collectionView:key:)`
/// (or `tableView:`) makes the scrolling and display calls for a
/// `UICollectionView` or `UITableView`; over a layout source of your own,
/// make them yourself:
///
/// ```swift
/// let source = FixedLayoutSource(layout: ListLayout(width: 390, rowHeight: 88, rowCount: ids.count))
/// let coordinator = PrefetchCoordinator(fetcher: fetcher, layoutSource: source) { path in
///     ids.indices.contains(path.item) ? ids[path.item] : nil
/// }
/// coordinator.scrollViewDidScroll(contentOffset: Point(x: 0, y: 1_200), viewportSize: Size(width: 390, height: 844), at: .seconds(1))
/// coordinator.requestDisplay(at: ItemPath(item: 14, section: 0), for: cell) { [weak cell] result in
///     if case .success(let item) = result { cell?.show(item) }
/// }
/// ```
///
/// Requests belong to items and cells, never to index paths: the
/// coordinator remembers the key of every prefetch and the cell of every
/// display request, so that whatever the data does — inserts, deletes,
/// moves, reloads — no cell gets another item's value and no load the
/// screen needs restarts. Item frames come from a ``PrefetchLayoutSource``,
/// sampled around the viewport (and a fling's landing) and sampled again
/// only when the viewport nears the edge of the sample.
@MainActor
public final class PrefetchCoordinator<Key: Hashable & Sendable, Value: Sendable> {
    /// The fetcher prefetches and display requests go to.
    public let fetcher: AsyncFetcher<Key, Value>
    /// Where the item frames come from.
    public let layoutSource: any PrefetchLayoutSource
    /// The direction the view scrolls, as its layout source said when the
    /// coordinator was made: planning is along it.
    public var scrollAxis: ScrollAxis { core.axis }
    /// The decisions: frames, the sampled layout, the planner, the requests held.
    package private(set) var core: PrefetchCoordinatorCore
    /// The planner's state: what is prefetched, the last frame's visible items.
    package var planner: PrefetchPlanner { core.planner }
    /// The priority of prefetches; below display requests (`.high`).
    public var prefetchPriority: FetchPriority = .normal
    /// Whether prefetches are re-dated with when the policy predicts their
    /// items are needed (the adaptive policy predicts them), so that the
    /// fetcher starts queued prefetches earliest-due first rather than in
    /// the order they were asked for. On by default.
    public var datesPrefetches: Bool {
        get { core.datesPrefetches }
        set { core.datesPrefetches = newValue }
    }
    /// How many screens of frames are sampled on each side of the viewport:
    /// more than any policy looks ahead (the adaptive one reaches 6 screens
    /// and keeps what it asked for within 1.5 times that).
    public var sampledScreens: Double { core.sampledScreens }

    /// Records the scroll as a trace for `lookahead tune` while set; `nil`
    /// (off) by default. Switch it on in one line —
    /// `coordinator.traceRecorder = ScrollTraceRecorder()` — and export
    /// `coordinator.traceRecorder?.csv()`; the coordinator records each frame
    /// it plans, the drag-end targets, the viewport and the item sizes.
    public var traceRecorder: ScrollTraceRecorder?
    /// Records the fetcher's load durations for `lookahead tune
    /// --latency-profile` while set; `nil` (off) by default.
    public var latencyProfile: LatencyProfile?

    private let key: @MainActor (ItemPath) -> Key?
    /// The outstanding prefetches.
    private var prefetches = PrefetchRequestTable<ItemPath>()
    /// The key each prefetch held (outstanding or consumed) was made for:
    /// what an update follows, for the path may name another item by then.
    private var heldKeys: [ItemPath: Key] = [:]
    /// The key of each outstanding prefetch. For tests.
    package var prefetchedKeys: [ItemPath: Key] {
        var keys: [ItemPath: Key] = [:]
        for path in prefetches.paths { keys[path] = heldKeys[path] }
        return keys
    }
    private let displayRequests = DisplayRequestTable<Key, Value>()
    /// Requests a reload or an update let go of: withdrawn with the next
    /// planned frame, after its prefetches (which may ask for the same keys
    /// and so keep their loads), or once the layout pass is over if no frame
    /// came first (the cells have asked again by then).
    private var released: [FetchTask] = []
    private var releasesAfterThisTurn = false
    private var loadObservation: FetchObservation?
    var paging: PagingLink?
    /// What the platform glue keeps alive as long as the coordinator: a
    /// delegate proxy, notification observers.
    package var attachments: [AnyObject] = []
    /// The delegate bookkeeping of the view the glue attached this
    /// coordinator to: each cell's request checks the proxy still hears the view.
    package var viewAttachment: DelegateAttachment?
    /// Where planning and loads are reported to Instruments, when on.
    var signposts: (any PrefetchSignposting)?

    /// Whether prefetching is paused, as for a screen that goes out of
    /// sight: while it is, scrolling asks for nothing ahead, and pausing
    /// withdraws the prefetches this coordinator asked for whose loads have
    /// not started (loads already running finish, as Nuke's
    /// `ImagePrefetcher.isPaused`). Cells' display requests go on. The first
    /// frame after resuming plans afresh.
    public var isPaused = false {
        didSet {
            guard isPaused != oldValue else { return }
            core.isPaused = isPaused
            guard isPaused else { return }
            _ = core.paused()
            let held = prefetches.allRequests + released
            prefetches.removeAll()
            heldKeys.removeAll()
            released.removeAll()
            let waiting = fetcher.notStarted(held)
            fetcher.withdraw(zip(held, waiting).compactMap { $1 ? $0 : nil })
        }
    }

    /// Creates a coordinator.
    ///
    /// - Parameters:
    ///   - fetcher: loads the items; its load durations teach the policy.
    ///   - layoutSource: the view's item counts and frames.
    ///   - policy: which items to hold prefetched; the adaptive policy by default.
    ///   - sampledScreens: screens of frames sampled on each side of the
    ///     viewport, from 7 to 100; 10 by default.
    ///   - key: the key of the item at an index path, read on the main
    ///     actor; `nil` for an index path with nothing to load (a
    ///     placeholder, a footer, a path past the end).
    public init(
        fetcher: AsyncFetcher<Key, Value>,
        layoutSource: any PrefetchLayoutSource,
        policy: PrefetchPolicy = .adaptive,
        sampledScreens: Double = 10,
        key: @escaping @MainActor (ItemPath) -> Key?
    ) {
        self.fetcher = fetcher
        self.layoutSource = layoutSource
        self.key = key
        self.core = PrefetchCoordinatorCore(
            policy: policy, sampledScreens: sampledScreens, axis: layoutSource.scrollAxis)
        // A request that was answered is no longer ranked.
        displayRequests.onEnded = { [weak self] id in self?.core.displayEnded(id) }
        // A request a reused cell let go of, that no other cell claimed by the end of the layout pass.
        displayRequests.onUnclaimed = { [weak self] ids in
            guard let self else { return }
            performOutsideFrame(core.withdrawDisplays(ids))
        }
        // The policy learns how long the fetcher's loads take.
        loadObservation = fetcher.observe { [weak self] event in
            guard case .succeeded(_, let duration) = event else { return }
            Task { @MainActor [weak self] in
                self?.core.observeLoadDuration(duration)
                self?.latencyProfile?.record(duration)
            }
        }
    }

    // A screen that goes away leaves no prefetch of its own behind (its
    // cells' display requests go with their table).
    deinit {
        fetcher.withdraw(prefetches.allRequests + released)
    }

    // MARK: - Scrolling

    /// Plans the frame the scroll view shows now: call it from `scrollViewDidScroll`.
    ///
    /// A frame that moved less than a twentieth of a screen, at about the
    /// same speed, within 50 ms of the last one planned is only tracked:
    /// it changes no decision, and planning it would cost the main thread.
    ///
    /// - Parameters:
    ///   - contentOffset: the visible area's top-left corner.
    ///   - viewportSize: the visible area's size (the scroll view's bounds).
    ///   - time: when the frame is shown, on any clock that does not go back.
    /// A report with non-finite numbers or an empty viewport is ignored.
    /// - Complexity: O(log n + window), plus O(sample) when the viewport
    ///   nears the edge of the sampled frames.
    public func scrollViewDidScroll(contentOffset: Point, viewportSize: Size, at time: Duration) {
        let announcesTarget = core.hasPendingTarget
        let source = layoutSource
        let planned = core.scrolled(
            contentOffset: contentOffset, viewportSize: viewportSize, at: time, loadQueue: fetcher.loadQueue,
            contentSize: source.contentSize, itemCounts: { SampledLayout.itemCounts(of: source) }
        ) { SampledLayout(source: source, band: $0) }
        perform(planned, announcesTarget: announcesTarget)
    }

    /// A drag ended: plans at once with the velocity and the target offset
    /// the scroll view will decelerate to, so that a fling's landing zone is
    /// asked for on this very frame. Call it from
    /// `scrollViewWillEndDragging(_:withVelocity:targetContentOffset:)`.
    ///
    /// - Parameters:
    ///   - velocity: the velocity along the scroll (`y`, or `x` for a horizontal view) in points per **second** (UIKit
    ///     reports points per millisecond: multiply by 1000).
    ///   - targetContentOffset: where the deceleration will stop.
    ///   - contentOffset: the offset now.
    ///   - viewportSize: the visible area's size.
    ///   - time: now, on the clock of ``scrollViewDidScroll(contentOffset:viewportSize:at:)``.
    public func scrollViewWillEndDragging(
        velocity: Double, targetContentOffset: Point, contentOffset: Point, viewportSize: Size, at time: Duration
    ) {
        announce(
            target: targetContentOffset, velocity: velocity, contentOffset: contentOffset, viewportSize: viewportSize,
            at: time)
    }

    /// The app is about to scroll with an animation: plans at once for where
    /// the scroll will rest, as for a fling's announced landing (the items
    /// there are asked for first, due at once), and the frames that follow
    /// carry the target until ``scrollViewDidEndFling()``. Call it just
    /// before `setContentOffset(_:animated: true)`,
    /// `scrollToItem(at:at:animated: true)` or `scrollRectToVisible(_:animated: true)`;
    /// `LookaheadUIKit` calls it for a tap on the status bar.
    ///
    /// Unannounced, the planner sees the motion only from its first frame,
    /// and a 0.3 s animation is mostly over before its loads land
    /// (docs/decisions.md, "Announce an animated scroll's target").
    ///
    /// - Parameters:
    ///   - targetContentOffset: where the scroll will come to rest.
    ///   - contentOffset: the offset now.
    ///   - viewportSize: the visible area's size.
    ///   - time: now, on the clock of ``scrollViewDidScroll(contentOffset:viewportSize:at:)``.
    public func scrollViewWillAnimateScroll(
        to targetContentOffset: Point, contentOffset: Point, viewportSize: Size, at time: Duration
    ) {
        announce(
            target: targetContentOffset, velocity: nil, contentOffset: contentOffset, viewportSize: viewportSize,
            at: time)
    }

    private func announce(
        target: Point, velocity: Double?, contentOffset: Point, viewportSize: Size, at time: Duration
    ) {
        let source = layoutSource
        let planned = core.announced(
            target: target, velocity: velocity, contentOffset: contentOffset, viewportSize: viewportSize, at: time,
            loadQueue: fetcher.loadQueue, contentSize: source.contentSize
        ) { SampledLayout(source: source, band: $0) }
        perform(planned, announcesTarget: true)
    }

    /// The app is about to scroll with an animation, where it cannot time a
    /// report of its own: the next ``scrollViewDidScroll(contentOffset:viewportSize:at:)``
    /// plans for where the scroll will rest, as
    /// ``scrollViewWillAnimateScroll(to:contentOffset:viewportSize:at:)`` does
    /// at once, and the frames after it carry the target until
    /// ``scrollViewDidEndFling()``. For a SwiftUI scroll view reporting
    /// through `lookaheadScrolling(_:)`, whose clock is its own, call it just
    /// before `ScrollPosition.scrollTo` or `ScrollViewProxy.scrollTo` in
    /// `withAnimation`:
    ///
    /// <!-- snippet: declarations -->
    /// ```swift
    /// @MainActor
    /// func scrollToTop(with proxy: ScrollViewProxy) {
    ///     coordinator.scrollViewWillAnimateScroll(to: Point(x: 0, y: 0))
    ///     withAnimation { proxy.scrollTo(ids[0], anchor: .top) }
    /// }
    /// ```
    ///
    /// The planner clamps the target to the content. If the view does not
    /// move (it is there already), the target stands until the next drag
    /// begins (``scrollViewDidEndFling()``).
    ///
    /// - Parameter targetContentOffset: where the scroll will come to rest;
    ///   one with non-finite numbers is ignored.
    public func scrollViewWillAnimateScroll(to targetContentOffset: Point) {
        core.announceAtNextReport(target: targetContentOffset)
    }

    /// A drag ended in a deceleration whose target the view does not report
    /// (SwiftUI's `onScrollPhaseChange` gives only the velocity): plans at
    /// once with the target UIScrollView's deceleration reaches
    /// (`ScrollPhysics.projectedDistance(velocity:)`), clamped to the content.
    ///
    /// SwiftUI documents neither the unit nor the sign of its velocity: one
    /// that contradicts the motion measured between reports (the other way,
    /// or more than 8 times faster or slower) gives way to the measured one.
    ///
    /// - Parameters:
    ///   - velocity: the velocity along the scroll in points per second, positive
    ///     towards the end of the content.
    ///   - contentOffset: the offset now.
    ///   - viewportSize: the visible area's size.
    ///   - time: now, on the clock of ``scrollViewDidScroll(contentOffset:viewportSize:at:)``.
    public func scrollViewWillDecelerate(
        velocity: Double, contentOffset: Point, viewportSize: Size, at time: Duration
    ) {
        let source = layoutSource
        let planned = core.decelerating(
            velocity: velocity, contentOffset: contentOffset, viewportSize: viewportSize, at: time,
            loadQueue: fetcher.loadQueue, contentSize: source.contentSize
        ) { SampledLayout(source: source, band: $0) }
        perform(planned, announcesTarget: true)
    }

    /// A new drag began, a deceleration ended or an animated scroll arrived:
    /// frames no longer carry the announced target. Call it from
    /// `scrollViewWillBeginDragging`, `scrollViewDidEndDecelerating`,
    /// `scrollViewDidEndScrollingAnimation` and `scrollViewDidScrollToTop`.
    public func scrollViewDidEndFling() {
        core.motionEnded()
    }

    // MARK: - Cells

    /// Asks for the value of the item at `path` for `cell`, at the priority
    /// the planner gives it: call it from `cellForItemAt`. The completion
    /// runs on the main actor (before this returns if the value is cached).
    ///
    /// The request belongs to `cell` and to the item's key (`key(path)` now),
    /// not to `path`: the coordinator ranks it as the scroll goes, lowers it
    /// when the cell leaves the screen (``didEndDisplaying(_:)``) and
    /// withdraws it when the item goes away in an update, or once the cell is
    /// off screen and its item out of reach. A cell asking for another item
    /// (it was reused) silences its old request, withdrawn when another cell
    /// asks for that item (whose load then goes on: UIKit hands cells their
    /// items after a reload in no promised order) or else once the main
    /// actor's turn — the layout pass — is over. A cell that asks again for the item it already waits
    /// for keeps its request — its load goes on — and the new completion
    /// replaces the old one. No cell's request touches another's, so a cell
    /// needs no request property nor a cancel in `prepareForReuse`.
    ///
    /// A cell made ahead of being shown (UIKit's cell prefetching) asks at
    /// no more than `.normal` until its item comes on screen or
    /// ``willDisplay(_:at:)`` reports it shown.
    ///
    /// - Returns: the request (to read its state; the coordinator manages
    ///   it), or `nil` if `path` has nothing to load.
    /// - Complexity: O(1) amortized.
    @discardableResult
    public func requestDisplay(
        at path: ItemPath, for cell: AnyObject,
        completion: @escaping @MainActor @Sendable (Result<Value, any Error>) -> Void
    ) -> FetchTask? {
        requestDisplay(of: key(path), at: path, for: cell, completion: completion)
    }

    /// Asks for the value of `key`, shown by `owner` at `path` (a SwiftUI
    /// row, a view of your own): as ``requestDisplay(at:for:completion:)``,
    /// with the key the owner shows rather than the one `path` names now;
    /// `path` ranks it.
    @discardableResult
    public func requestDisplay(
        of key: Key?, at path: ItemPath, for owner: AnyObject,
        completion: @escaping @MainActor @Sendable (Result<Value, any Error>) -> Void
    ) -> FetchTask? {
        paging?.accessed(path)
        viewAttachment?.confirm(for: self)
        let outcome = displayRequests.request(
            for: owner, key: key, from: fetcher, priority: { core.displayRequested($0, at: path) },
            completion: completion)
        for id in outcome.claimed { core.displayEnded(id) }
        if let asked = outcome.asked, outcome.id == nil { core.displayEnded(asked) }
        if let letGo = outcome.letGo { performOutsideFrame(core.displayLetGo(letGo)) }
        if outcome.request?.isPending == false { signposts?.cacheHit() }
        return outcome.request
    }

    /// `cell` is displayed at `path` (`willDisplay`), perhaps again without a
    /// new `cellForItemAt`: its display request, if it still waits, is
    /// ranked now at the planner's priority.
    public func willDisplay(_ cell: AnyObject, at path: ItemPath) {
        guard let id = displayRequests.id(of: cell) else { return }
        performOutsideFrame(core.displayShown(id, at: path))
    }

    /// `cell` left the screen (`didEndDisplaying`): its display request goes
    /// on at `.veryLow`, so that the cell, if UIKit shows it again without a
    /// new `cellForItemAt`, still gets its data; the request is withdrawn
    /// once the item is neither within a quarter of a screen of the viewport
    /// nor within the planner's window, or when the cell asks for another
    /// item. Whatever index path UIKit reports with the call (one from before
    /// an update, for a cell it removes) is not needed: the cell says which
    /// request it is.
    public func didEndDisplaying(_ cell: AnyObject) {
        guard let id = displayRequests.id(of: cell) else { return }
        performOutsideFrame(core.displayLeft(id))
    }

    /// Withdraws `owner`'s display request, if it has one: a view that goes
    /// away for good (a SwiftUI row). Its completion gets `CancellationError`.
    public func cancelDisplayRequest(for owner: AnyObject) {
        guard let id = displayRequests.id(of: owner) else { return }
        core.displayEnded(id)
        displayRequests.cancel(id)
    }

    /// How many entries the coordinator's tables hold: prefetches (and
    /// consumed ones still loading), display requests, and the core's
    /// records of both. For the soak, which checks they stay bounded.
    package var tableEntryCount: Int {
        prefetches.count + heldKeys.count + released.count + displayRequests.count + core.requests.entryCount
    }

    /// The display requests still waiting: the path each cell was last seen
    /// at, and the key it waits for. For tests.
    package var pendingDisplays: [(path: ItemPath, key: Key)] {
        displayRequests.keys.compactMap { id, key in core.requests.displays[id].map { ($0.path, key) } }
    }

    /// The display request `owner` waits on, with its key. For tests.
    package func displayRequest(of owner: AnyObject) -> (key: Key, request: FetchTask)? {
        displayRequests.request(of: owner)
    }

    /// Every request the coordinator holds on its fetcher: prefetches
    /// (outstanding, consumed, let go of by a reload) and display requests.
    /// For the soak, which checks the fetcher serves nothing else.
    package var heldRequests: [FetchTask] {
        prefetches.allRequests + released + displayRequests.requests
    }

    /// The paths of the display requests still waiting. For tests.
    package var pendingDisplayPaths: Set<ItemPath> { Set(pendingDisplays.map(\.path)) }

    // MARK: - UIKit's own window

    /// Prefetches the items at `paths`, for an app that keeps UIKit's own
    /// prefetch window (`prefetchItemsAt`) rather than the planner's.
    public func prefetchItems(at paths: [ItemPath]) {
        performOutsideFrame(core.requests(prefetching: paths))
    }

    /// Withdraws the prefetches of the items at `paths` (`cancelPrefetchingForItemsAt`).
    public func cancelPrefetchingForItems(at paths: [ItemPath]) {
        performOutsideFrame(core.requests(cancellingPrefetchesOf: paths))
    }

    // MARK: - Changes

    /// The data was reloaded (`reloadData()`): call it after the view's.
    ///
    /// Nothing the screen still needs restarts. A cell's display request
    /// stays if the key at its path is still its key (a page appended, items
    /// changed elsewhere) — and when the view asks the cell again, it keeps
    /// its request; the others go on at `.veryLow` until the cells that show
    /// their items now have asked, and are withdrawn at the next planned
    /// frame. Prefetches are asked for again by the next frame's window, and
    /// those it no longer wants are withdrawn then, after it: a load both
    /// want goes on. The next frame is a first layout.
    ///
    /// For an append, an insert, a delete or a move, ``applyUpdates(to:)``
    /// is cheaper: the planner keeps its window.
    public func reloadData() {
        release(prefetches.allRequests)
        prefetches.removeAll()
        heldKeys.removeAll()
        let key = self.key
        let displays = displayRequests
        performOutsideFrame(
            core.reloaded { id, path in
                guard let held = displays.key(of: id), key(path) == held else { return nil }
                return path
            })
        paging?.listChanged()
    }

    /// The items changed — inserted, deleted, moved, a page appended, a
    /// snapshot applied: `keys` are the keys the view shows now, section by
    /// section, in order (a diffable data source's item identifiers).
    ///
    /// Every request follows its item's key to where it is now; those whose
    /// key is gone are withdrawn; nothing else restarts. Call it before or
    /// after applying the change to the view, from the main actor: it depends
    /// only on `keys`, so calling it twice, or after cells were asked for at
    /// their new paths, changes nothing more. A key listed twice is taken
    /// where it first appears.
    ///
    /// - Complexity: O(items in `keys` + requests held).
    public func applyUpdates(to keys: [[Key]]) {
        var newIndex: [Key: ItemPath] = [:]
        newIndex.reserveCapacity(keys.reduce(0) { $0 + $1.count })
        for (section, items) in keys.enumerated() {
            for (item, key) in items.enumerated() where newIndex[key] == nil {
                newIndex[key] = ItemPath(item: item, section: section)
            }
        }
        let displays = displayRequests
        let heldKeys = self.heldKeys
        remap(
            { heldKeys[$0].flatMap { newIndex[$0] } },
            displayPath: { id, _ in displays.key(of: id).flatMap { newIndex[$0] } })
    }

    /// Items moved (inserts, deletes, moves): prefetches and display requests
    /// follow their items to the index paths `newPath` gives (`nil`: the item
    /// was deleted, its requests withdrawn). Call it inside
    /// `performBatchUpdates`' updates, after changing your data, before the
    /// view asks for the new cells (display requests move by the path their
    /// cell was last seen at). ``applyUpdates(to:)`` needs no such care.
    ///
    /// - Complexity: O(window + display requests).
    public func applyUpdates(newPath: (ItemPath) -> ItemPath?) {
        remap(newPath, displayPath: { _, path in newPath(path) })
    }

    private func remap(_ newPath: (ItemPath) -> ItemPath?, displayPath: (DisplayRequestID, ItemPath) -> ItemPath?) {
        release(prefetches.takeFinishing())
        // Withdrawn by their paths before, then moved.
        performOutsideFrame(core.updated(newPath: newPath, displayPath: displayPath))
        prefetches.remap(newPath)
        heldKeys = heldKeys.remappingKeys(newPath).moved
        paging?.listChanged()
    }

    /// The layout changed without the items changing (a new width, other
    /// cell sizes): frames are sampled again on the next frame.
    public func invalidateLayout() {
        core.layoutInvalidated()
    }

    /// Gives memory back on a memory warning: the fetcher's cache is trimmed
    /// (``AsyncFetcher/trimMemory(for:)``).
    public func didReceiveMemoryWarning(_ pressure: MemoryPressure = .critical) {
        fetcher.trimMemory(for: pressure)
    }

    // MARK: - Planning

    /// What to add to a frame's time to place it on the fetcher's timeline:
    /// measured once, so that a deadline given on an earlier frame and one
    /// given now are placed alike (both clocks run at one rate).
    private var frameToTimeline: Duration?

    private func timelineOffset(at time: Duration) -> Duration {
        if let frameToTimeline { return frameToTimeline }
        let offset = fetcher.timelineNow - time
        frameToTimeline = offset
        return offset
    }

    /// Performs a frame's (or a change's) actions on the fetcher, in one batch.
    /// Lets go of `requests` with the next planned frame, or once this turn
    /// of the main actor (the layout pass) is over, whichever comes first.
    private func release(_ requests: [FetchTask]) {
        guard !requests.isEmpty else { return }
        released += requests
        guard !releasesAfterThisTurn else { return }
        releasesAfterThisTurn = true
        Task { @MainActor [weak self] in
            guard let self else { return }
            releasesAfterThisTurn = false
            performOutsideFrame(CoordinatorCore<ItemPath>.Actions(), releasing: true)
        }
    }

    /// Performs `actions` in one batch on the fetcher; with `releasing`,
    /// withdraws what a reload or an update let go of after them.
    private func performOutsideFrame(
        _ actions: CoordinatorCore<ItemPath>.Actions, timelineOffset: Duration = .zero, releasing: Bool = false
    ) {
        guard !actions.isEmpty || (releasing && !released.isEmpty) else { return }
        let made = PrefetchRequestTable<ItemPath>.keys(of: actions, key)
        var batch = FetchBatch<Key>()
        batch.prefetchPriority = prefetchPriority
        batch.prefetches = made.keys
        // Specialized for the path type whatever the key's: most of a frame's work.
        prefetches.add(actions, made: made.paths, timelineOffset: timelineOffset, to: &batch.changes)
        displayRequests.add(actions.rank, to: &batch.changes)
        displayRequests.withdraw(actions.withdrawDisplay, into: &batch.changes)
        if releasing {
            batch.changes.released = released
            released = []
        }
        prefetches.adopt(fetcher.perform(batch), for: made.paths)
        if !actions.forget.isEmpty { prefetches.prune { fetcher.arePending($0) } }
        for path in actions.withdraw where !prefetches.holds(path) { heldKeys[path] = nil }
        for path in actions.forget where !prefetches.holds(path) { heldKeys[path] = nil }
        for (index, path) in made.paths.enumerated() { heldKeys[path] = made.keys[index] }
    }

    /// Performs a planned frame: its requests in one batch on the fetcher,
    /// then paging and the trace.
    private func perform(_ planned: PrefetchCoordinatorCore.Frame?, announcesTarget: Bool) {
        guard let planned else { return }
        signposts?.planningBegan()
        defer { signposts?.planningEnded() }
        performOutsideFrame(planned.actions, timelineOffset: timelineOffset(at: planned.frame.time), releasing: true)
        if traceRecorder != nil { record(planned.frame, announcesTarget: announcesTarget) }
        paging?.scrolled(planned.frame, prefetched: planned.prefetched, layout: core.layout)
    }

    /// Records `frame` in the trace, describing the screen and the items
    /// again when the viewport changed size.
    private func record(_ frame: ScrollFrame, announcesTarget: Bool) {
        guard var recorder = traceRecorder else { return }
        let viewport = frame.visibleRect.size
        if recorder.viewport != viewport {
            // The trace is along the scroll, as the frame is.
            let axis = core.axis
            let sizes = layoutSource.itemFrames(in: axis.alongScroll(frame.visibleRect)).map {
                axis.alongScroll($0.frame.size)
            }
            let count = (0..<max(0, layoutSource.numberOfSections)).reduce(0) {
                $0 + layoutSource.numberOfItems(inSection: $1)
            }
            if let first = sizes.first, sizes.allSatisfy({ $0 == first }) {
                recorder.describe(viewport: viewport, itemCount: count, itemSize: first)
            } else {
                let mean = sizes.isEmpty ? nil : sizes.reduce(0) { $0 + $1.height } / Double(sizes.count)
                recorder.describe(viewport: viewport, itemCount: count, meanItemHeight: mean)
            }
        }
        recorder.record(frame, targetOffset: announcesTarget ? frame.targetOffset?.y : nil)
        traceRecorder = recorder
    }
}
