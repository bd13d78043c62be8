// The type an app meets: what a scroll view reports goes in, prefetches,
// cancels and display requests on an AsyncFetcher come out, decided by a
// PrefetchPlanner. Main-actor and thin; LookaheadUIKit and LookaheadSwiftUI
// only forward to it, and the tests drive it through the headless views.

/// Drives an ``AsyncFetcher`` from a scroll view through a `PrefetchPlanner`:
/// the adaptive planner in a real `UICollectionView`, `UITableView` or
/// SwiftUI grid.
///
/// Tell it what the scroll view reports, and it prefetches and cancels:
/// - ``scrollViewDidScroll(contentOffset:viewportSize:at:)`` on every
///   offset change: it measures the velocity, plans the frame and sends the
///   planner's cancels (first) and prefetches to the fetcher.
/// - ``scrollViewWillEndDragging(velocity:targetContentOffset:contentOffset:viewportSize:at:)`` when a
///   drag ends, and ``scrollViewWillAnimateScroll(to:contentOffset:viewportSize:at:)``
///   before an animated scroll: the landing zone is asked for on that very frame
///   (``scrollViewWillAnimateScroll(to:)``: on the view's next report, where
///   the view reports on a clock of its own, as SwiftUI's does).
/// - ``requestDisplay(at:completion:)`` from `cellForItemAt`: a display
///   request at `PrefetchPlanner.displayPriority(for:)`, re-prioritised on
///   later frames (a fling carrying the cell away lowers it), withdrawn by
///   ``didEndDisplayingItem(at:)`` when the cell leaves (and is reused).
/// - ``didReceiveMemoryWarning(_:)`` trims the fetcher's cache.
///
/// `LookaheadUIKit`'s `PrefetchCoordinator(fetcher:collectionView:key:)`
/// (or `tableView:`) makes all these calls for a `UICollectionView` or
/// `UITableView`; over a layout source of your own, make them yourself:
///
/// ```swift
/// let coordinator = PrefetchCoordinator(fetcher: fetcher, layoutSource: source) { path in
///     ids.indices.contains(path.item) ? ids[path.item] : nil
/// }
/// coordinator.scrollViewDidScroll(contentOffset: offset, viewportSize: size, at: time)
/// cell.request = coordinator.requestDisplay(at: path) { result in … }
/// ```
///
/// The coordinator remembers the key of every prefetch it made, so that a
/// cancel after the data changed withdraws what was asked for, not what the
/// index path means now. Item frames come from a ``PrefetchLayoutSource``,
/// sampled around the viewport (and a fling's landing) and sampled again
/// only when the viewport nears the edge of the sample.
@MainActor
public final class PrefetchCoordinator<Key: Hashable & Sendable, Value: Sendable> {
    /// The fetcher prefetches and display requests go to.
    public let fetcher: AsyncFetcher<Key, Value>
    /// Where the item frames come from.
    public let layoutSource: any PrefetchLayoutSource
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
    /// The key of each outstanding prefetch, looked up when asked (for
    /// tests): a frame keeps handles, never keys.
    package var prefetchedKeys: [ItemPath: Key] {
        var keys: [ItemPath: Key] = [:]
        for path in prefetches.paths { keys[path] = key(path) }
        return keys
    }
    private let displayRequests = DisplayRequestTable<ItemPath>()
    private var loadObservation: FetchObservation?
    var paging: PagingLink?
    /// What the platform glue keeps alive as long as the coordinator: a
    /// delegate proxy, notification observers.
    package var attachments: [AnyObject] = []
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
            let held = prefetches.allRequests
            prefetches.removeAll()
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
        self.core = PrefetchCoordinatorCore(policy: policy, sampledScreens: sampledScreens)
        // A request that was answered is no longer ranked.
        displayRequests.onEnded = { [weak self] path in self?.core.displayEnded(at: path) }
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
        fetcher.withdraw(prefetches.allRequests)
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
            contentSize: source.contentSize
        ) { SampledLayout(source: source, band: $0) }
        perform(planned, announcesTarget: announcesTarget)
    }

    /// A drag ended: plans at once with the velocity and the target offset
    /// the scroll view will decelerate to, so that a fling's landing zone is
    /// asked for on this very frame. Call it from
    /// `scrollViewWillEndDragging(_:withVelocity:targetContentOffset:)`.
    ///
    /// - Parameters:
    ///   - velocity: the vertical velocity in points per **second** (UIKit
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
    /// ```swift
    /// coordinator.scrollViewWillAnimateScroll(to: Point(x: 0, y: layout.frame(at: path).minY))
    /// withAnimation { position.scrollTo(id: ids[path.item], anchor: .top) }
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
    ///   - velocity: the vertical velocity in points per second, positive
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

    /// Starts a display request for the item at `path`, at the priority the
    /// planner gives it, replacing the cell's earlier one for that path.
    /// Call it from `cellForItemAt`; the completion runs on the main actor
    /// (before this returns if the value is cached).
    ///
    /// A cell made ahead of being shown (UIKit's cell prefetching) asks at
    /// no more than `.normal` until its item comes on screen or
    /// ``willDisplayItem(at:)`` reports it shown.
    ///
    /// - Returns: the request, or `nil` if `path` has nothing to load.
    /// - Complexity: O(1) amortized.
    @discardableResult
    public func requestDisplay(
        at path: ItemPath, completion: @escaping @MainActor @Sendable (Result<Value, any Error>) -> Void
    ) -> FetchTask? {
        paging?.accessed(path)
        let request = displayRequests.request(
            at: path, key: key(path), from: fetcher, priority: core.displayRequested(at: path),
            completion: completion)
        if request?.isPending != true { core.displayEnded(at: path) }
        if request?.isPending == false { signposts?.cacheHit() }
        return request
    }

    /// The cell showing `path` is displayed (`willDisplay`), perhaps again
    /// without a new `cellForItemAt`: its display request, if it still
    /// waits, is ranked now at the planner's priority.
    public func willDisplayItem(at path: ItemPath) {
        performOutsideFrame(core.displayShown(at: path))
    }

    /// The cell showing `path` left the screen (`didEndDisplaying`): its
    /// display request goes on at `.veryLow`, so that the cell, if UIKit shows
    /// it again without a new `cellForItemAt`, still gets its data; the
    /// request is withdrawn once the item is neither within a quarter of a
    /// screen of the viewport nor within the planner's window, or replaced by
    /// the next request for `path`.
    public func didEndDisplayingItem(at path: ItemPath) {
        performOutsideFrame(core.displayLeft(at: path))
    }

    /// How many entries the coordinator's tables hold: prefetches (and
    /// consumed ones still loading), display requests, and the core's
    /// records of both. For the soak, which checks they stay bounded.
    package var tableEntryCount: Int {
        prefetches.count + displayRequests.count + core.requests.entryCount
    }

    /// The display requests still waiting, by index path. For tests.
    package var pendingDisplayPaths: Set<ItemPath> { displayRequests.paths }

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

    /// The data was replaced: every prefetch is withdrawn (by the key it was
    /// made for), every display request too, and the next frame is a first
    /// layout. Call it after `reloadData()`, or after applying a snapshot
    /// that replaced the list.
    public func reloadData() {
        performOutsideFrame(core.reloaded())
        displayRequests.cancelAll()
        paging?.listChanged()
    }

    /// Items moved (inserts, deletes, moves): prefetches and display requests
    /// follow their items to their new index paths; those of deleted items
    /// (`newPath` returns `nil`) are withdrawn. Call it inside
    /// `performBatchUpdates`' updates, after changing your data, or just
    /// before applying a snapshot: before the view asks for the new cells.
    /// Called after, it would move the requests those new cells made too,
    /// and withdraw a new item's at a deleted item's path.
    ///
    /// - Complexity: O(window + display requests).
    public func applyUpdates(newPath: (ItemPath) -> ItemPath?) {
        performOutsideFrame(core.updated(newPath: newPath))
        prefetches.remap(newPath)
        displayRequests.remap(newPath)
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
    private func performOutsideFrame(_ actions: CoordinatorCore<ItemPath>.Actions, timelineOffset: Duration = .zero) {
        guard !actions.isEmpty else { return }
        let made = PrefetchRequestTable<ItemPath>.keys(of: actions, key)
        var batch = FetchBatch<Key>()
        batch.prefetchPriority = prefetchPriority
        batch.prefetches = made.keys
        // Specialized for the path type whatever the key's: most of a frame's work.
        prefetches.add(actions, made: made.paths, timelineOffset: timelineOffset, to: &batch.changes)
        displayRequests.add(actions.rank, to: &batch.changes)
        displayRequests.withdraw(at: actions.withdrawDisplay, into: &batch.changes)
        prefetches.adopt(fetcher.perform(batch), for: made.paths)
    }

    /// Performs a planned frame: its requests in one batch on the fetcher,
    /// then paging and the trace.
    private func perform(_ planned: PrefetchCoordinatorCore.Frame?, announcesTarget: Bool) {
        guard let planned else { return }
        signposts?.planningBegan()
        defer { signposts?.planningEnded() }
        performOutsideFrame(planned.actions, timelineOffset: timelineOffset(at: planned.frame.time))
        if traceRecorder != nil { record(planned.frame, announcesTarget: announcesTarget) }
        paging?.scrolled(planned.frame, prefetched: planned.prefetched, layout: core.layout)
    }

    /// Records `frame` in the trace, describing the screen and the items
    /// again when the viewport changed size.
    private func record(_ frame: ScrollFrame, announcesTarget: Bool) {
        guard var recorder = traceRecorder else { return }
        let viewport = frame.visibleRect.size
        if recorder.viewport != viewport {
            let sizes = layoutSource.itemFrames(in: frame.visibleRect).map(\.frame.size)
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
