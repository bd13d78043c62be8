import Lookahead

// How the one strategy driver plans a feed of carousels: the same frames,
// display requests and loads as for a list, with a nested planner deciding
// what to load ahead on both axes.

/// The planner of a strategy on a feed of carousels.
enum NestedPlanning {
    /// Lookahead's nested planner (``NestedPrefetchPlanner``): coming rows
    /// bring what they will show, swiped carousels plan along their axis.
    case lookahead(NestedPrefetchPlanner)
    /// UIKit's: each collection view on its own axis (``PerCollectionPrefetchPlanner``).
    case perCollection(PerCollectionPrefetchPlanner)

    /// The planning of `strategy` on `feed`, or `nil` when it plans nothing
    /// ahead there (`none`, `all`, the oracle).
    ///
    /// - `system` and `nuke`: UIKit's window in every collection view.
    /// - `texture`: the preload range (2.5 screens ahead, 1.5 behind) for the
    ///   rows, bringing each coming carousel's visible items and the next
    ///   one (a nested collection node preloads a little of itself), and the
    ///   same range along a swiped carousel.
    /// - `adaptive`: the library's nested planner with its default windows
    ///   (``NestedPrefetchPlanner/defaultPolicy``,
    ///   ``NestedPrefetchPlanner/defaultCarouselPolicy``), coming carousels
    ///   bringing the planner's default `initialPrefetchItemCount` (1) items
    ///   beyond their span.
    init?(strategy: SimulationStrategy, feed: CarouselFeedLayout) {
        switch strategy {
        case .system, .nuke:
            self = .perCollection(PerCollectionPrefetchPlanner(feed: feed))
        case .texture:
            let range = PrefetchPolicy.screens(leading: 2.5, trailing: 1.5)
            self = .lookahead(NestedPrefetchPlanner(layout: feed, policy: range, carouselPolicy: range))
        case .adaptive:
            self = .lookahead(Self.adaptive(feed: feed))
        case .none, .all, .batch, .swiftui, .paged, .pagedFixed, .oracle:
            return nil
        }
    }

    // `adaptive`'s settings on carousels are the library's defaults
    // (`NestedPrefetchPlanner.defaultPolicy` and `defaultCarouselPolicy`,
    // with 1 item beyond a coming carousel's span): what an app's nested
    // coordinator does unless told otherwise. Seed 1 alone would pick 2
    // items beyond (99 blank cell-frames against 110), but then seed 6 wasted
    // more than `texture` (97 loads against 90): an item beyond is wasted on
    // every row passed without a swipe. With 1, seeds 1–6 waste 33–58 loads
    // (`texture` 61–98) for 3.8% more blank cell-frames in sum (1,152
    // against 1,110; 0.12–0.32× `system`'s).

    /// `adaptive`'s nested planner with these policies, and otherwise the
    /// library's defaults: what an app's coordinator runs.
    static func adaptive(
        feed: CarouselFeedLayout, policy: PrefetchPolicy = NestedPrefetchPlanner.defaultPolicy,
        carouselPolicy: PrefetchPolicy = NestedPrefetchPlanner.defaultCarouselPolicy
    ) -> NestedPrefetchPlanner {
        NestedPrefetchPlanner(layout: feed, policy: policy, carouselPolicy: carouselPolicy)
    }

    mutating func update(
        _ frame: ScrollFrame, carousels scrolls: [NestedPrefetchPlanner.CarouselScroll], loadQueue: LoadQueueState
    ) -> NestedPrefetchPlanner.Update {
        switch self {
        case .lookahead(var planner):
            let update = planner.update(frame, carousels: scrolls, loadQueue: loadQueue)
            self = .lookahead(planner)
            return update
        case .perCollection(var planner):
            let update = planner.update(frame, carousels: scrolls, loadQueue: loadQueue)
            self = .perCollection(planner)
            return update
        }
    }

    /// What the planner holds prefetched.
    var prefetched: Set<NestedItemPath> {
        switch self {
        case .lookahead(let planner): planner.prefetched
        case .perCollection(let planner): planner.prefetched
        }
    }

    /// Whether the planner holds `path` prefetched.
    func holds(_ path: NestedItemPath) -> Bool {
        switch self {
        case .lookahead(let planner): planner.holds(path)
        case .perCollection(let planner): planner.prefetched.contains(path)
        }
    }

    /// The priority a visible cell asks at.
    func displayPriority(for path: NestedItemPath) -> FetchPriority {
        switch self {
        case .lookahead(let planner): planner.displayPriority(for: path)
        case .perCollection: .high
        }
    }

    mutating func observeLoadDuration(_ duration: Duration) {
        switch self {
        case .lookahead(var planner):
            planner.observeLoadDuration(duration)
            self = .lookahead(planner)
        case .perCollection(var planner):
            planner.observeLoadDuration(duration)
            self = .perCollection(planner)
        }
    }
}

extension StrategyDriver {
    /// Plans a frame of a carousel feed: the carousels on screen report
    /// their horizontal offset and velocity (from the trace, one frame
    /// apart), and the nested planner's prefetches and cancels are performed.
    mutating func planCarousels(at time: Duration, frame: FrameVisibility.Frame, velocity: Double) {
        guard var nested, let feed = visibility.feed else { return }
        var scrolls: [NestedPrefetchPlanner.CarouselScroll] = []
        var carouselMoved = false
        var lastRow: Int?
        for path in frame.paths where path.section != lastRow {
            let row = path.section
            lastRow = row
            guard case .carousel = feed.feed.rows[row] else { continue }
            let offset = visibility.rowOffset(ofRow: row, at: time)
            let previous = time >= frameDuration ? visibility.rowOffset(ofRow: row, at: time - frameDuration) : offset
            carouselMoved = carouselMoved || offset != previous
            scrolls.append(
                NestedPrefetchPlanner.CarouselScroll(
                    row: row, offset: offset, velocity: (offset - previous) / (frameDuration / .seconds(1))))
        }
        // A frame the coordinator would only track: neither due nor a carousel's report.
        let scrollFrame = ScrollFrame(visibleRect: frame.rect, velocity: velocity, time: time)
        guard carouselMoved || nestedCadence.isDue(scrollFrame) else { return }
        nestedCadence.planned(scrollFrame)
        // The cells' requests are re-ranked with the frame before's plan, as the coordinators do.
        var ranked = CoordinatorCore<NestedItemPath>.Actions()
        let shown = Set(frame.paths.map { NestedItemPath(row: $0.section, item: $0.item) })
        nestedRequests.rank({ nested.displayPriority(for: $0) }, isOnScreen: shown.contains, into: &ranked)
        let update = nested.update(scrollFrame, carousels: scrolls, loadQueue: loader.loadQueue)
        self.nested = nested
        // What is on screen is consumed, as the nested coordinator consumes it.
        let visible = frame.paths.map { NestedItemPath(row: $0.section, item: $0.item) }
        // A cell that left keeps its request while UIKit may show it again, as the nested coordinator's do.
        let kept = Size(
            width: feed.feed.width * PrefetchCoordinatorCore.keptCellScreens,
            height: frame.rect.height * PrefetchCoordinatorCore.keptCellScreens)
        let reach = Rect(
            x: frame.rect.minX, y: frame.rect.minY - kept.height, width: frame.rect.width,
            height: frame.rect.height + 2 * kept.height)
        let visibility = self.visibility
        let actions = nestedRequests.planned(
            update, visible: visible, deadlines: [], isHeld: { nested.holds($0) },
            isNear: { path in
                feed.feed.outer.frame(at: ItemPath(item: path.row, section: 0)).intersects(reach)
                    && feed.feed.carouselShows(
                        item: path.item, ofRow: path.row, atOffset: visibility.rowOffset(ofRow: path.row, at: time),
                        margin: kept.width)
            }, time: time, after: ranked)
        perform(actions, at: time) { feed.flatIndex(of: $0) }
    }

    /// Replaces `adaptive`'s window on a list (what `lookahead tune`
    /// scores): on a carousel feed, its windows of rows and along a swiped
    /// carousel in the default's proportions
    /// (`PrefetchPolicy.adaptiveRows(for:)`, `PrefetchPolicy.adaptiveCarousel(for:)`).
    mutating func useAdaptivePolicy(_ policy: AdaptivePrefetchPolicy) {
        if let feed = visibility.feed {
            nested = .lookahead(
                NestedPlanning.adaptive(
                    feed: feed.feed, policy: .adaptiveRows(for: policy), carouselPolicy: .adaptiveCarousel(for: policy))
            )
        } else {
            usePolicy(.adaptive(policy))
        }
    }
}
