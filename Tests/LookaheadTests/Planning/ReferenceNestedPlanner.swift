import Lookahead

/// The nested planner as first written, plainly: sets of paths rebuilt and
/// diffed every frame, every planner run on every frame. The planner's
/// row-by-row bookkeeping and its skipping of planners at rest must decide
/// exactly what this decides (`NestedPlannerReferenceTests`).
struct ReferenceNestedPlanner {
    typealias Update = NestedPrefetchPlanner.Update
    typealias CarouselScroll = NestedPrefetchPlanner.CarouselScroll

    /// The feed.
    let layout: CarouselFeedLayout
    /// Items beyond a carousel's visible span asked for when its row is about to appear.
    var initialPrefetchItemCount: Int
    /// What is asked for now.
    var prefetched: Set<NestedItemPath> = []
    /// The items on screen as of the last frame.
    var visibleItems: [NestedItemPath] = []

    var rows: PrefetchPlanner
    let carouselPolicy: PrefetchPolicy
    /// Planners of the carousels being swiped, by row.
    var carousels: [Int: PrefetchPlanner] = [:]
    /// Each carousel's last known offset, by row (0 if never reported).
    var offsets: [Int: Double] = [:]

    /// Creates a planner.
    ///
    /// - Parameters:
    ///   - layout: the feed.
    ///   - policy: the window of rows.
    ///   - carouselPolicy: the window along a carousel being swiped.
    ///   - initialPrefetchItemCount: items beyond a coming carousel's visible span (at least 0).
    init(
        layout: CarouselFeedLayout, policy: PrefetchPolicy = .adaptive, carouselPolicy: PrefetchPolicy = .adaptive,
        initialPrefetchItemCount: Int = 1
    ) {
        precondition(
            initialPrefetchItemCount >= 0, "NestedPrefetchPlanner: initialPrefetchItemCount must not be negative")
        self.layout = layout
        self.carouselPolicy = carouselPolicy
        self.initialPrefetchItemCount = initialPrefetchItemCount
        rows = PrefetchPlanner(layout: layout.outer, policy: policy)
    }

    /// Plans one frame.
    ///
    /// - Parameters:
    ///   - frame: the feed's vertical scroll.
    ///   - scrolls: the carousels whose horizontal offset is known this frame
    ///     (at least those that moved); the others keep their last offset.
    ///   - loadQueue: the loader's queue, for the adaptive policies.
    mutating func update(
        _ frame: ScrollFrame, carousels scrolls: [CarouselScroll] = [], loadQueue: LoadQueueState = LoadQueueState()
    ) -> Update {
        _ = rows.update(frame, loadQueue: loadQueue)
        let visibleRows = rows.visibleItems.map(\.item)
        let isVisibleRow = Set(visibleRows)
        for scroll in scrolls where layout.rows.indices.contains(scroll.row) {
            let moved = (offsets[scroll.row] ?? 0) != scroll.offset || scroll.velocity != 0
            offsets[scroll.row] = scroll.offset
            // A carousel on screen that the user swipes gets a planner along its axis.
            if moved, isVisibleRow.contains(scroll.row), carousels[scroll.row] == nil,
                case .carousel(let height, let itemWidth, let itemCount, let spacing) = layout.rows[scroll.row]
            {
                // Each item's boundary a running sum, as the layout once was: an independent check of its arithmetic.
                let carouselLayout = ListLayout(
                    width: max(height, 1), rowHeights: Array(repeating: itemWidth + spacing, count: itemCount))
                carousels[scroll.row] = PrefetchPlanner(layout: carouselLayout, policy: carouselPolicy)
            }
        }
        // A carousel that left the screen stops planning along its axis.
        for row in carousels.keys where !isVisibleRow.contains(row) { carousels[row] = nil }

        var visible: [NestedItemPath] = []
        // Wanted items are never visible and never repeated: the visible rows
        // want what lies beyond their spans, the coming rows are off screen.
        var wanted: [NestedItemPath] = []
        var visibleSpans: [Int: Range<Int>] = [:]
        for row in visibleRows {
            let span = layout.items(inRow: row, atOffset: offsets[row] ?? 0)
            visibleSpans[row] = span
            visible += span.map { NestedItemPath(row: row, item: $0) }
            if carousels[row] != nil {
                let scroll = scrolls.first { $0.row == row }
                let carouselFrame = ScrollFrame(
                    visibleRect: Rect(
                        origin: Point(x: 0, y: offsets[row] ?? 0),
                        size: Size(width: layout.rows[row].height, height: layout.width)),
                    velocity: scroll?.velocity ?? 0, time: frame.time)
                // Updated in place: a copy would copy the planner's sets every frame.
                _ = carousels[row]!.update(carouselFrame, loadQueue: loadQueue)
                wanted += carousels[row]!.prefetched.sorted().map { NestedItemPath(row: row, item: $0.item) }
            } else {
                wanted += extra(beyond: span, inRow: row)
            }
        }
        // Rows coming: nearest first in the direction of travel.
        let coming = rows.prefetched.map(\.item).sorted()
        let ordered = rows.direction == .forward ? coming : coming.reversed()
        for row in ordered {
            let span = layout.items(inRow: row, atOffset: offsets[row] ?? 0)
            wanted += span.map { NestedItemPath(row: row, item: $0) } + extra(beyond: span, inRow: row)
        }

        visibleItems = visible
        let wantedSet = Set(wanted)
        var update = Update()
        for path in wanted where !prefetched.contains(path) { update.prefetch.append(path) }
        for path in prefetched where !wantedSet.contains(path) {
            // What became visible leaves without a cancel: the cell's request takes over.
            if visibleSpans[path.row]?.contains(path.item) != true { update.cancel.append(path) }
        }
        update.cancel.sort()
        prefetched = wantedSet
        return update
    }

    /// The ``initialPrefetchItemCount`` items after `span` in row `row`.
    func extra(beyond span: Range<Int>, inRow row: Int) -> [NestedItemPath] {
        let end = min(layout.itemCount(inRow: row), span.upperBound + initialPrefetchItemCount)
        return (span.upperBound..<max(span.upperBound, end)).map { NestedItemPath(row: row, item: $0) }
    }

    /// The priority a visible cell showing `path` should ask at: what the row
    /// planner advises for its row (`.low` for a row a fling carries away),
    /// else what its carousel's planner advises for the item.
    func displayPriority(for path: NestedItemPath) -> FetchPriority {
        let rowPriority = rows.displayPriority(for: ItemPath(item: path.row, section: 0))
        guard rowPriority == .high, let carousel = carousels[path.row] else { return rowPriority }
        return carousel.displayPriority(for: ItemPath(item: path.item, section: 0))
    }

    /// Tells the adaptive policies how long one load took.
    mutating func observeLoadDuration(_ duration: Duration) {
        rows.observeLoadDuration(duration)
        for row in carousels.keys { carousels[row]?.observeLoadDuration(duration) }
    }
}
