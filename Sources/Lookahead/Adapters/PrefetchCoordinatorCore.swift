// The whole of PrefetchCoordinator's decisions, pure: scroll reports turned
// into frames, the layout sampled around them, the planner run, and the
// requests it holds updated. The runtime coordinator and the simulator's
// strategy driver both run exactly this, and perform its actions.

/// A ``PrefetchCoordinator``'s decisions, without its fetcher, clock or
/// views: the scroll reports in, ``CoordinatorCore/Actions`` out.
///
/// - The ``ScrollTracker`` turns reports into frames (the velocity between
///   them, a fling's announced target until it ends).
/// - The layout is sampled around each frame — as far as any policy looks,
///   and again before the viewport nears the sample's edge — through a
///   closure the driver gives (a `UICollectionViewLayout` at runtime, the
///   scenario's layout in the simulator).
/// - The ``PrefetchPlanner`` plans the frame; the ``CoordinatorCore`` turns
///   its update into the actions on the requests held.
package struct PrefetchCoordinatorCore: Sendable {
    package private(set) var planner: PrefetchPlanner
    package private(set) var requests: CoordinatorCore<ItemPath>
    package private(set) var tracker = ScrollTracker()
    /// The frames sampled around the viewport.
    package private(set) var layout = SampledLayout.empty
    /// How many screens of frames are sampled on each side of the viewport.
    package let sampledScreens: Double
    private var needsSample = true
    private var needsReload = true
    /// The content size the last report carried: a change that leaves the
    /// item counts as they were is cells being measured (self-sizing), which
    /// neither samples the layout again nor plans the frame by itself.
    private var reportedContentSize: Size?
    /// While set, frames are tracked but not planned (``paused()``).
    package var isPaused = false {
        // The first frame after a pause plans afresh.
        didSet { cadence.reset() }
    }
    /// Which frames are planned: those that may change a decision.
    package var cadence = PlanningCadence()
    /// The direction the view scrolls. Reports come in the view's
    /// coordinates; everything past them — frames, the sampled layout, the
    /// planner — is along the scroll, `y` for a horizontal view's `x`.
    package let axis: ScrollAxis

    /// How far off screen, in screens, a cell that left (or was made ahead)
    /// keeps its request: beyond how far UIKit keeps cells ready to show
    /// again without a new `cellForItemAt` (``cellPrefetchScreens``), and no
    /// further, for a request kept longer goes on loading what the user
    /// passed by (docs/decisions.md, "A cell that left keeps its request nearby").
    package static var keptCellScreens: Double { 0.25 }

    /// How far off screen, in screens, UIKit's cell prefetching makes cells
    /// ahead and keeps cells that left: about a row of a photo grid on a
    /// phone. The headless views and the simulator model it with this.
    package static var cellPrefetchScreens: Double { 0.15 }

    /// What a driver reads from its layout source to sample it: the frames
    /// in `rect`, both in the view's coordinates.
    package typealias Sample = (_ rect: Rect) -> SampledLayout

    /// A planned frame's actions, and the frame (for paging and trace recording).
    package struct Frame: Sendable {
        package var frame: ScrollFrame
        package var actions: CoordinatorCore<ItemPath>.Actions
        /// What the planner asked to prefetch on this frame.
        package var prefetched: [ItemPath]
    }

    package init(policy: PrefetchPolicy, sampledScreens: Double = 10, axis: ScrollAxis = .vertical) {
        precondition(
            sampledScreens >= 7 && sampledScreens <= 100,
            "PrefetchCoordinator: sampledScreens must be within 7...100, got \(sampledScreens)")
        self.sampledScreens = sampledScreens
        self.axis = axis
        planner = PrefetchPlanner(layout: SampledLayout.empty, policy: policy)
        requests = CoordinatorCore()
    }

    /// Whether prefetches are dated from the policy's predictions.
    package var datesPrefetches: Bool {
        get { requests.datesPrefetches }
        set { requests.datesPrefetches = newValue }
    }

    // MARK: Reports

    /// A `scrollViewDidScroll`: the frame at `contentOffset`, planned if due
    /// (``cadence``; otherwise with no actions); `nil` for a report no
    /// planner can use (non-finite, an empty viewport).
    ///
    /// A content size that changed is read as the layout changing only if
    /// `itemCounts` (asked then, not every frame) differ from the sample's:
    /// otherwise cells were measured — a self-sizing list's content grows as
    /// it scrolls — and the frame is planned on the cadence, the layout
    /// sampled again only when the viewport nears the sample's edge.
    package mutating func scrolled(
        contentOffset: Point, viewportSize: Size, at time: Duration, loadQueue: LoadQueueState,
        contentSize: Size, itemCounts: () -> [Int]? = { nil }, sample: Sample
    ) -> Frame? {
        guard
            let frame = tracker.frame(
                contentOffset: axis.alongScroll(contentOffset), viewportSize: axis.alongScroll(viewportSize),
                time: time)
        else { return nil }
        let contentSize = axis.alongScroll(contentSize)
        if contentSize != reportedContentSize {
            let isFirst = reportedContentSize == nil
            reportedContentSize = contentSize
            if !isFirst, itemCounts() != layout.itemCounts { needsSample = true }
        }
        // A frame that must sample the layout again is planned, whatever the cadence.
        guard needsSample || cadence.isDue(frame) else {
            return Frame(frame: frame, actions: CoordinatorCore<ItemPath>.Actions(), prefetched: [])
        }
        return plan(frame, loadQueue: loadQueue, contentSize: contentSize, sample: sample)
    }

    /// A drag ended with this velocity and target (`scrollViewWillEndDragging`),
    /// or an animated scroll begins (no velocity): planned at once, the
    /// target kept until the motion ends.
    package mutating func announced(
        target: Point, velocity: Double?, contentOffset: Point, viewportSize: Size, at time: Duration,
        loadQueue: LoadQueueState, contentSize: Size, sample: Sample
    ) -> Frame? {
        guard
            let frame = tracker.frameAnnouncing(
                target: axis.alongScroll(target), contentOffset: axis.alongScroll(contentOffset),
                viewportSize: axis.alongScroll(viewportSize), time: time, velocity: velocity)
        else { return nil }
        return plan(frame, loadQueue: loadQueue, contentSize: axis.alongScroll(contentSize), sample: sample)
    }

    /// A deceleration the view reports only by its velocity (SwiftUI's).
    package mutating func decelerating(
        velocity: Double, contentOffset: Point, viewportSize: Size, at time: Duration, loadQueue: LoadQueueState,
        contentSize: Size, sample: Sample
    ) -> Frame? {
        let contentSize = axis.alongScroll(contentSize)
        let viewportSize = axis.alongScroll(viewportSize)
        guard
            let frame = tracker.frameDecelerating(
                velocity: velocity, contentOffset: axis.alongScroll(contentOffset), viewportSize: viewportSize,
                maxOffset: contentSize.height - viewportSize.height, time: time)
        else { return nil }
        return plan(frame, loadQueue: loadQueue, contentSize: contentSize, sample: sample)
    }

    /// An animated scroll whose report comes later, on the view's own clock.
    package mutating func announceAtNextReport(target: Point) {
        tracker.announceAtNextReport(target: axis.alongScroll(target))
    }

    /// Whether the next report carries a target announced without a report.
    package var hasPendingTarget: Bool { tracker.hasPendingTarget }

    /// The motion ended: frames carry no target any more.
    package mutating func motionEnded() {
        tracker.endFling()
    }

    // MARK: Cells

    /// Cell `id` asks for the item at `path`: the priority its display
    /// request runs at (the planner's; no higher than `.normal` for a cell
    /// made ahead of being shown), recorded for re-ranking. Whether the item
    /// is on screen is the last frame's unless the driver knows (`isOnScreen`).
    package mutating func displayRequested(
        _ id: DisplayRequestID, at path: ItemPath, isOnScreen: Bool? = nil
    ) -> FetchPriority {
        requests.displayRequested(
            id, at: path, priority: planner.displayPriority(for: path),
            isOnScreen: isOnScreen ?? planner.isOnScreen(path))
    }

    /// Cell `id` is shown at `path` (again, perhaps without a new request):
    /// its request, if it has one, is ranked at the planner's priority.
    package mutating func displayShown(_ id: DisplayRequestID, at path: ItemPath) -> CoordinatorCore<ItemPath>.Actions {
        requests.displayShown(id, at: path, priority: planner.displayPriority(for: path))
    }

    /// Cell `id` left the screen: its request goes on at `.veryLow`.
    package mutating func displayLeft(_ id: DisplayRequestID) -> CoordinatorCore<ItemPath>.Actions {
        requests.displayLeft(id)
    }

    /// Cell `id` asked for another item: its request goes stale (``CoordinatorCore/displayLetGo(_:)``).
    package mutating func displayLetGo(_ id: DisplayRequestID) -> CoordinatorCore<ItemPath>.Actions {
        requests.displayLetGo(id)
    }

    /// The display requests `ids` are withdrawn.
    package mutating func withdrawDisplays(_ ids: [DisplayRequestID]) -> CoordinatorCore<ItemPath>.Actions {
        requests.withdrawDisplays(ids)
    }

    /// The display request `id` ended or was withdrawn.
    package mutating func displayEnded(_ id: DisplayRequestID) {
        requests.displayEnded(id)
    }

    /// The priority a cell showing `path` asks at now.
    package func displayPriority(for path: ItemPath) -> FetchPriority {
        planner.displayPriority(for: path)
    }

    /// A load took `duration`: the policy learns from it.
    package mutating func observeLoadDuration(_ duration: Duration) {
        planner.observeLoadDuration(duration)
    }

    /// Changes the planner's policy (the simulator's tuning), keeping what is held.
    package mutating func setPolicy(_ policy: PrefetchPolicy) {
        planner.setPolicy(policy)
    }

    /// UIKit's own window asked for `paths` (`prefetchItemsAt`): held as
    /// the planner's prefetches are.
    package mutating func requests(prefetching paths: [ItemPath]) -> CoordinatorCore<ItemPath>.Actions {
        requests.prefetch(paths)
    }

    /// UIKit's own window withdrew `paths` (`cancelPrefetchingForItemsAt`).
    package mutating func requests(cancellingPrefetchesOf paths: [ItemPath]) -> CoordinatorCore<ItemPath>.Actions {
        var actions = CoordinatorCore<ItemPath>.Actions()
        requests.withdraw(paths, into: &actions)
        return actions
    }

    // MARK: Changes

    /// The data was replaced: the next frame is a first layout. Every
    /// prefetch is let go of — the driver withdraws their requests after the
    /// next frame's prefetches, which may ask for the same keys again — and
    /// each display request stays where `displayPath` finds its item still
    /// (the path it gives), or goes stale (``CoordinatorCore/displaysReloaded(_:)``).
    package mutating func reloaded(
        displayPath: (DisplayRequestID, ItemPath) -> ItemPath?
    ) -> CoordinatorCore<ItemPath>.Actions {
        _ = planner.reload(layout: SampledLayout.empty)
        _ = requests.withdrawAllPrefetches()
        needsSample = true
        needsReload = true
        tracker.reset()
        return requests.displaysReloaded(displayPath)
    }

    /// Items moved: prefetches follow `newPath` (by their path before), the
    /// planner's window too, and display requests `displayPath`; those of
    /// items gone are named to withdraw.
    package mutating func updated(
        newPath: (ItemPath) -> ItemPath?, displayPath: (DisplayRequestID, ItemPath) -> ItemPath?
    ) -> CoordinatorCore<ItemPath>.Actions {
        var actions = requests.remap(newPath)
        actions.withdrawDisplay = requests.remapDisplays(displayPath).withdrawDisplay
        planner.applyUpdates(layout: layout, newPath: newPath)
        needsSample = true
        return actions
    }

    /// Prefetching paused: the planner lets go of its window and every
    /// prefetch is named to withdraw (the driver lets the loads already
    /// running finish); frames are tracked, not planned, until it resumes,
    /// whose first frame plans afresh. Display requests are left alone.
    package mutating func paused() -> CoordinatorCore<ItemPath>.Actions {
        _ = planner.reload(layout: layout)
        return requests.withdrawAllPrefetches()
    }

    /// The layout changed without the items changing: sampled again next frame.
    package mutating func layoutInvalidated() {
        needsSample = true
    }

    // MARK: Planning

    private mutating func plan(
        _ frame: ScrollFrame, loadQueue: LoadQueueState, contentSize: Size, sample: Sample
    ) -> Frame? {
        guard !isPaused else { return nil }
        cadence.planned(frame)
        var actions = CoordinatorCore<ItemPath>.Actions()
        sampleIfNeeded(around: frame, contentSize: contentSize, sample: sample, into: &actions)
        // Ranked with the plan as it stands, before this frame's (taken out of
        // `self` for the call rather than copied: the planner is about to change).
        var ranked = requests
        requests = CoordinatorCore()
        do {
            // One copy for every request's question (a closure over `self`
            // copied the planner for each), gone before the planner changes.
            let asked = planner
            ranked.rank({ asked.displayPriority(for: $0) }, isOnScreen: { asked.isOnScreen($0) }, into: &actions)
        }
        requests = ranked
        let update = planner.update(frame, loadQueue: loadQueue)
        // Read from a copy (the planner does not change until the next frame):
        // a closure over `self` would copy the requests as they change.
        let window = planner
        let planned = requests.planned(
            update, visible: window.visibleItems, deadlines: window.deadlines, isHeld: { window.holds($0) },
            isNear: { window.isOnScreen($0, margin: frame.visibleRect.height * Self.keptCellScreens) },
            time: frame.time, after: actions)
        return Frame(frame: frame, actions: planned, prefetched: update.prefetch)
    }

    /// Samples the layout again if the viewport, what the policy may look
    /// at, or the fling's landing leaves the sampled band, or the content
    /// changed size.
    private mutating func sampleIfNeeded(
        around frame: ScrollFrame, contentSize: Size, sample: Sample,
        into actions: inout CoordinatorCore<ItemPath>.Actions
    ) {
        let visible = frame.visibleRect
        let screen = visible.height
        var low = visible.minY - (sampledScreens - 2) * screen
        var high = visible.maxY + (sampledScreens - 2) * screen
        let landingY =
            frame.targetOffset?.y ?? visible.minY + ScrollPhysics.projectedDistance(velocity: frame.velocity)
        low = min(low, landingY - screen)
        high = max(high, landingY + 2 * screen)
        let band = layout.band
        let covered =
            band.minY <= max(0, low) && band.maxY >= min(contentSize.height, high) && band.width > 0
        guard needsSample || !covered else { return }
        let top = max(0, min(low, visible.minY - sampledScreens * screen))
        let bottom = max(top, max(high, visible.maxY + sampledScreens * screen))
        let asked = Rect(x: 0, y: top, width: max(contentSize.width, visible.maxX), height: bottom - top)
        // Asked in the view's coordinates, kept along the scroll.
        layout = axis == .vertical ? sample(asked) : sample(axis.alongScroll(asked)).alongScroll(axis)
        if needsReload {
            requests.withdraw(planner.reload(layout: layout).cancel, into: &actions)
            needsReload = false
        } else {
            planner.applyUpdates(layout: layout) { $0 }
        }
        needsSample = false
    }
}

extension SampledLayout {
    /// The frames `source` reports in `band`, with its counts and content size.
    @MainActor
    package init(source: any PrefetchLayoutSource, band: Rect) {
        self.init(
            contentSize: source.contentSize, itemCounts: Self.itemCounts(of: source), band: band,
            reported: source.itemFrames(in: band))
    }

    /// The item counts `source` reports, section by section.
    @MainActor
    package static func itemCounts(of source: any PrefetchLayoutSource) -> [Int] {
        (0..<max(0, source.numberOfSections)).map { source.numberOfItems(inSection: $0) }
    }

    /// The frames `layout` has in `band`: what a `FixedLayoutSource` over it reports.
    package init(layout: some CollectionLayout, band: Rect) {
        let counts = (0..<max(0, layout.numberOfSections)).map { layout.numberOfItems(inSection: $0) }
        self.init(
            contentSize: layout.contentSize, itemCounts: counts, band: band,
            reported: layout.itemPaths(in: band).map { ItemFrame(path: $0, frame: layout.frame(at: $0)) })
    }
}
