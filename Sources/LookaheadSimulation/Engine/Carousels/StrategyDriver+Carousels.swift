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
    /// - `adaptive`: the adaptive policy on both axes (``adaptiveRowPolicy``,
    ///   ``adaptiveCarouselPolicy``), coming carousels bringing
    ///   ``adaptiveInitialPrefetchItemCount`` items beyond their span.
    init?(strategy: SimulationStrategy, feed: CarouselFeedLayout) {
        switch strategy {
        case .system, .nuke:
            self = .perCollection(PerCollectionPrefetchPlanner(feed: feed))
        case .texture:
            let range = PrefetchPolicy.screens(leading: 2.5, trailing: 1.5)
            self = .lookahead(NestedPrefetchPlanner(layout: feed, policy: range, carouselPolicy: range))
        case .adaptive:
            self = .lookahead(
                Self.adaptive(feed: feed, policy: Self.adaptiveRowPolicy, carouselPolicy: Self.adaptiveCarouselPolicy))
        case .none, .all, .batch, .swiftui, .paged, .pagedFixed, .oracle:
            return nil
        }
    }

    // `adaptive`'s settings on carousels, through the planner's settings
    // only: the visible span of a coming (or resting, never swiped) carousel
    // and 1 item beyond (a swipe starting there finds it ready), and smaller
    // resting windows than the list's 2.5 / 1.5 screens — a coming row
    // brings several items, and most rows are passed, not read. Seed 1 alone
    // would pick 2 items beyond (99 blank cell-frames against 110), but then
    // seed 6 wasted more than `texture` (97 loads against 90): an item beyond
    // is wasted on every row passed without a swipe. With 1, seeds 1–6 waste
    // 33–58 loads (`texture` 61–98) for 3.8% more blank cell-frames in sum
    // (1,152 against 1,110; 0.12–0.32× `system`'s).

    /// Items beyond a coming carousel's visible span that `adaptive` asks for.
    static let adaptiveInitialPrefetchItemCount = 1

    /// `adaptive`'s window of rows: resting at 1 screen ahead and 0.5 behind.
    static let adaptiveRowPolicy = PrefetchPolicy.custom(adaptiveWindows(for: AdaptivePrefetchPolicy()).rows)

    /// `adaptive`'s window along a swiped carousel: resting at 1 carousel
    /// width ahead and 1.5 behind.
    static let adaptiveCarouselPolicy = PrefetchPolicy.custom(adaptiveWindows(for: AdaptivePrefetchPolicy()).carousels)

    /// `adaptive`'s windows on a carousel feed when its window on a list is
    /// `list`: the resting windows in the proportions the shipped ones have
    /// to the list's 2.5 screens ahead and 1.5 behind — rows 1 ahead and 0.5
    /// behind, a swiped carousel 1 ahead and 1.5 behind — and the rest of
    /// `list` as it is. So `lookahead tune` and `ablate` score on carousels
    /// what `simulate` runs: the shipped settings give the shipped windows.
    static func adaptiveWindows(
        for list: AdaptivePrefetchPolicy
    ) -> (rows: AdaptivePrefetchPolicy, carousels: AdaptivePrefetchPolicy) {
        let shipped = AdaptivePrefetchPolicy()
        var rows = list
        rows.restingLeadingScreens = list.restingLeadingScreens * 1 / shipped.restingLeadingScreens
        rows.restingTrailingScreens = list.restingTrailingScreens * 0.5 / shipped.restingTrailingScreens
        var carousels = list
        carousels.restingLeadingScreens = rows.restingLeadingScreens
        return (rows, carousels)
    }

    /// `adaptive`'s nested planner with these policies.
    static func adaptive(
        feed: CarouselFeedLayout, policy: PrefetchPolicy, carouselPolicy: PrefetchPolicy
    ) -> NestedPrefetchPlanner {
        NestedPrefetchPlanner(
            layout: feed, policy: policy, carouselPolicy: carouselPolicy,
            initialPrefetchItemCount: adaptiveInitialPrefetchItemCount)
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
        var lastRow: Int?
        for path in frame.paths where path.section != lastRow {
            let row = path.section
            lastRow = row
            guard case .carousel = feed.feed.rows[row] else { continue }
            let offset = visibility.rowOffset(ofRow: row, at: time)
            let previous = time >= frameDuration ? visibility.rowOffset(ofRow: row, at: time - frameDuration) : offset
            scrolls.append(
                NestedPrefetchPlanner.CarouselScroll(
                    row: row, offset: offset, velocity: (offset - previous) / (frameDuration / .seconds(1))))
        }
        let update = nested.update(
            ScrollFrame(visibleRect: frame.rect, velocity: velocity, time: time), carousels: scrolls,
            loadQueue: loader.loadQueue)
        self.nested = nested
        performPrefetches(
            prefetch: update.prefetch.map { feed.flatIndex(of: $0) },
            cancel: update.cancel.map { feed.flatIndex(of: $0) })
    }

    /// Replaces `adaptive`'s window on a list (what `lookahead tune`
    /// scores): on a carousel feed, its windows of rows and along a swiped
    /// carousel in the shipped proportions (``NestedPlanning/adaptiveWindows(for:)``).
    mutating func useAdaptivePolicy(_ policy: AdaptivePrefetchPolicy) {
        if let feed = visibility.feed {
            let windows = NestedPlanning.adaptiveWindows(for: policy)
            nested = .lookahead(
                NestedPlanning.adaptive(
                    feed: feed.feed, policy: .custom(windows.rows), carouselPolicy: .custom(windows.carousels)))
        } else {
            planner = PrefetchPlanner(layout: layout, policy: .custom(policy))
        }
    }
}
