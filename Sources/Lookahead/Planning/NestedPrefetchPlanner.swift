/// Plans prefetching for a feed of carousels on both axes: which rows are
/// coming (vertically), and along each carousel being swiped (horizontally).
///
/// Android's RecyclerView prefetches nested rows (GapWorker with
/// `setInitialPrefetchItemCount`); UIKit prefetches each collection view on
/// its own axis only, so a carousel row scrolling into view starts loading
/// when it appears. This planner does both, as one decision:
/// - **A row about to appear** (in the outer planner's window) brings the
///   items its carousel will show at its current horizontal offset, plus
///   ``initialPrefetchItemCount`` beyond them.
/// - **A carousel being swiped** (its offset moved while on screen) gets a
///   planner of its own along its axis, with the carousel policy — the
///   adaptive one by default (``defaultCarouselPolicy``) — fed the
///   carousel's offset and velocity.
///   A visible carousel that was never swiped holds only its initial items:
///   most carousels are never swiped, and a resting window on each would
///   spend connections on what nobody sees.
/// - **A row scrolled away** (out of the outer window and off screen) cancels
///   what its carousel asked for. Each carousel's offset is remembered, so a
///   row coming back asks for what it will show where it was left.
/// - What becomes visible leaves the prefetched set without a cancel: the
///   cell's own request takes over, as in UIKit.
///
/// Pure and synchronous, like `PrefetchPlanner`, which it composes: one for
/// the rows, one per carousel being swiped.
///
/// ## Cost
/// What is asked for is held row by row, as a range of items (a coming row,
/// a carousel never swiped) or the sorted items of a carousel's own planner,
/// so a frame diffs a few dozen rows rather than hashing every item. A
/// planner whose view rests — the same visible rect as on its last frame, no
/// velocity then or now — is not run again: a built-in policy's window at
/// rest depends on that rect only. A `.custom` policy is run every frame.
///
/// - Complexity: O(log n + window) per frame for the rows, plus the windows
///   of the carousels moving on screen.
package struct NestedPrefetchPlanner: Sendable {
    /// What one frame changes: the items to ask for (nearest row first), and
    /// those no longer wanted.
    public typealias Update = PrefetchUpdate<NestedItemPath>

    /// One carousel's horizontal scroll, reported for a frame.
    public struct CarouselScroll: Hashable, Sendable {
        /// The carousel's row.
        public var row: Int
        /// Its horizontal content offset, in points.
        public var offset: Double
        /// Its horizontal velocity in points per second, positive towards later items.
        public var velocity: Double

        /// Creates a report.
        public init(row: Int, offset: Double, velocity: Double = 0) {
            self.row = row
            self.offset = offset
            self.velocity = velocity
        }
    }

    /// The feed.
    public internal(set) var layout: CarouselFeedLayout
    /// Items beyond a carousel's visible span asked for when its row is about to appear.
    public var initialPrefetchItemCount: Int

    var rows: PrefetchPlanner
    /// The rows planner's last frame, to tell a feed at rest.
    var lastRowsFrame: ScrollFrame?
    let carouselPolicy: PrefetchPolicy
    /// Whether a planner at rest may be skipped (see "Cost" above).
    let skipsRest: Bool
    /// Planners of the carousels being swiped, by row.
    var carousels: [Int: Carousel] = [:]
    /// Each row's carousel offset (0 if never reported).
    var offsets: [Double]
    /// The rows on screen as of the last frame.
    public internal(set) var visibleRows: Range<Int> = 0..<0
    /// What is asked for, by row, ascending rows.
    var wants: [RowWant] = []
    /// The next frame's wants, in the order they are asked for; kept to reuse its storage.
    var nextWants: [RowWant] = []
    /// The coming rows, kept to reuse its storage.
    var comingRows: [Int] = []

    /// Creates a planner.
    ///
    /// - Parameters:
    ///   - layout: the feed.
    ///   - policy: the window of rows; ``defaultPolicy`` (adaptive, resting
    ///     at 2 screens ahead and 0.5 behind) by default.
    ///   - carouselPolicy: the window along a carousel being swiped;
    ///     ``defaultCarouselPolicy`` (adaptive, resting at 2 carousel
    ///     widths ahead) by default.
    ///   - initialPrefetchItemCount: items beyond a coming carousel's visible span (at least 0).
    public init(
        layout: CarouselFeedLayout, policy: PrefetchPolicy = defaultPolicy,
        carouselPolicy: PrefetchPolicy = defaultCarouselPolicy, initialPrefetchItemCount: Int = 1
    ) {
        precondition(
            initialPrefetchItemCount >= 0, "NestedPrefetchPlanner: initialPrefetchItemCount must not be negative")
        self.layout = layout
        self.carouselPolicy = carouselPolicy
        self.initialPrefetchItemCount = initialPrefetchItemCount
        skipsRest = !policy.isCustom && !carouselPolicy.isCustom
        offsets = Array(repeating: 0, count: layout.rows.count)
        rows = PrefetchPlanner(layout: layout.outer, policy: policy)
    }

    /// What is asked for now.
    ///
    /// - Complexity: O(prefetched items): built from the rows' wants on each call.
    public var prefetched: Set<NestedItemPath> {
        var paths = Set<NestedItemPath>()
        for want in wants { want.forEach { paths.insert(NestedItemPath(row: want.row, item: $0)) } }
        return paths
    }

    /// Whether ``prefetched`` holds `path`, without building it.
    /// - Complexity: O(log rows asked for + log items).
    package func holds(_ path: NestedItemPath) -> Bool {
        Self.want(ofRow: path.row, in: wants)?.contains(path.item) ?? false
    }

    /// The items on screen as of the last frame, ascending.
    ///
    /// - Complexity: O(visible items): built on each call.
    public var visibleItems: [NestedItemPath] {
        var paths: [NestedItemPath] = []
        for row in visibleRows {
            for item in visibleSpan(ofRow: row) { paths.append(NestedItemPath(row: row, item: item)) }
        }
        return paths
    }

    /// Row `row`'s carousel offset as last reported (0 if never): where a row
    /// coming back, or a reused cell showing it, scrolls its carousel to.
    ///
    /// - Precondition: `row` is a row of ``layout``.
    public func offset(ofRow row: Int) -> Double {
        offsets[row]
    }

    /// The items of row `row`'s carousel that cross the screen's width at its
    /// remembered offset, whether or not the row is on screen.
    ///
    /// - Precondition: `row` is a row of ``layout``.
    public func visibleSpan(ofRow row: Int) -> Range<Int> {
        layout.items(inRow: row, atOffset: offsets[row])
    }

    /// Whether the item at `path` crosses the screen as of the last frame
    /// (every item, before the first frame), or comes within `margin` of it:
    /// `margin.height` points above or below the feed's viewport, `margin.width`
    /// left or right of its carousel's visible span.
    package func isOnScreen(_ path: NestedItemPath, margin: Size = Size(width: 0, height: 0)) -> Bool {
        layout.rows.indices.contains(path.row)
            && rows.isOnScreen(ItemPath(item: path.row, section: 0), margin: margin.height)
            && layout.carouselShows(item: path.item, ofRow: path.row, atOffset: offsets[path.row], margin: margin.width)
    }

    /// Plans one frame.
    ///
    /// - Parameters:
    ///   - frame: the feed's vertical scroll.
    ///   - scrolls: the carousels whose horizontal offset is known this frame
    ///     (at least those that moved); the others keep their last offset.
    ///   - loadQueue: the loader's queue, for the adaptive policies.
    /// - Complexity: O(log n + window) for the rows, plus the windows of the
    ///   carousels moving on screen.
    public mutating func update(
        _ frame: ScrollFrame, carousels scrolls: [CarouselScroll] = [], loadQueue: LoadQueueState = LoadQueueState()
    ) -> Update {
        // The same frame again (a carousel's report planned with the feed where it is) changes nothing for the rows.
        if frame != lastRowsFrame, !(skipsRest && Self.rests(frame, after: lastRowsFrame)) {
            _ = rows.update(frame, loadQueue: loadQueue)
        }
        lastRowsFrame = frame
        let visible = rows.visibleItems
        // Locals, and keys rather than values: reading a carousel out of the
        // dictionary, or capturing `self` in a closure, copies what they hold.
        let onScreen = (visible.first?.item ?? 0)..<((visible.last?.item ?? -1) + 1)
        visibleRows = onScreen
        for scroll in scrolls where layout.rows.indices.contains(scroll.row) {
            let moved = offsets[scroll.row] != scroll.offset || scroll.velocity != 0
            offsets[scroll.row] = scroll.offset
            // A carousel on screen that the user swipes gets a planner along its axis.
            if moved, onScreen.contains(scroll.row), !carousels.keys.contains(scroll.row),
                let carouselLayout = layout.carouselLayout(ofRow: scroll.row)
            {
                carousels[scroll.row] = Carousel(
                    planner: PrefetchPlanner(layout: carouselLayout, policy: carouselPolicy))
            }
        }
        // A carousel that left the screen stops planning along its axis.
        if carousels.keys.contains(where: { !onScreen.contains($0) }) {
            carousels = carousels.filter { onScreen.contains($0.key) }
        }

        // Wanted items are never visible and never repeated: the visible rows
        // want what lies beyond their spans, the coming rows are off screen.
        nextWants.removeAll(keepingCapacity: true)
        // Locals: a call on `self` inside a mutation of `self` copies the whole planner.
        let feed = layout
        let extra = initialPrefetchItemCount
        for row in onScreen {
            if let index = carousels.index(forKey: row) {
                let scroll = scrolls.first { $0.row == row }
                let carouselFrame = ScrollFrame(
                    visibleRect: Rect(
                        origin: Point(x: 0, y: offsets[row]),
                        size: Size(width: layout.rows[row].height, height: layout.width)),
                    velocity: scroll?.velocity ?? 0, time: frame.time)
                // Updated in place: a copy would copy the planner's arrays every frame.
                let items = carousels.values[index].plan(carouselFrame, loadQueue: loadQueue, skipsRest: skipsRest)
                nextWants.append(RowWant(row: row, items: items))
            } else {
                let span = feed.items(inRow: row, atOffset: offsets[row])
                let end = Self.extraEnd(after: span, itemCount: feed.itemCount(inRow: row), extra: extra)
                nextWants.append(RowWant(row: row, range: span.upperBound..<end))
            }
        }
        // Rows coming: nearest first in the direction of travel.
        comingRows.removeAll(keepingCapacity: true)
        for path in rows.prefetchedPaths { comingRows.append(path.item) }
        if rows.direction == .backward { comingRows.reverse() }
        for row in comingRows {
            let span = feed.items(inRow: row, atOffset: offsets[row])
            let end = Self.extraEnd(after: span, itemCount: feed.itemCount(inRow: row), extra: extra)
            nextWants.append(RowWant(row: row, range: span.lowerBound..<end))
        }
        return commitWants()
    }

    /// Diffs `nextWants` against `wants` row by row, then makes them the wants.
    mutating func commitWants() -> Update {
        var update = Update()
        for want in nextWants {
            let old = Self.want(ofRow: want.row, in: wants)
            want.forEach { item in
                if old?.contains(item) != true { update.prefetch.append(NestedItemPath(row: want.row, item: item)) }
            }
        }
        nextWants.sort { $0.row < $1.row }
        let feed = layout
        for old in wants {
            let new = Self.want(ofRow: old.row, in: nextWants)
            // What became visible leaves without a cancel: the cell's request takes over.
            let span = visibleRows.contains(old.row) ? feed.items(inRow: old.row, atOffset: offsets[old.row]) : 0..<0
            old.forEach { item in
                if new?.contains(item) != true, !span.contains(item) {
                    update.cancel.append(NestedItemPath(row: old.row, item: item))
                }
            }
        }
        swap(&wants, &nextWants)
        return update
    }

    /// The end of the `extra` items after `span` in a row of `itemCount` items.
    static func extraEnd(after span: Range<Int>, itemCount: Int, extra: Int) -> Int {
        max(span.upperBound, min(itemCount, span.upperBound + extra))
    }

    /// The priority a visible cell showing `path` should ask at: what the row
    /// planner advises for its row (`.low` for a row a fling carries away),
    /// else what its carousel's planner advises for the item.
    public func displayPriority(for path: NestedItemPath) -> FetchPriority {
        let rowPriority = rows.displayPriority(for: ItemPath(item: path.row, section: 0))
        guard rowPriority == .high, let index = carousels.index(forKey: path.row) else { return rowPriority }
        // Read in place: a carousel taken out of the dictionary is a copy of its planner, per cell.
        return carousels.values[index].planner.displayPriority(for: ItemPath(item: path.item, section: 0))
    }

    /// Tells the adaptive policies how long one load took.
    public mutating func observeLoadDuration(_ duration: Duration) {
        rows.observeLoadDuration(duration)
        for row in carousels.keys { carousels[row]?.planner.observeLoadDuration(duration) }
    }

    /// Cancels everything asked for (the feed going away, its data replaced).
    ///
    /// The next frame asks afresh for what it wants.
    public mutating func cancelAll() -> Update {
        var update = Update()
        for want in wants { want.forEach { update.cancel.append(NestedItemPath(row: want.row, item: $0)) } }
        wants.removeAll()
        _ = rows.cancelAll()
        carousels.removeAll()
        lastRowsFrame = nil
        return update
    }

    /// Whether `frame` shows what `last` showed, both at rest: a built-in
    /// policy's window is then what it was.
    static func rests(_ frame: ScrollFrame, after last: ScrollFrame?) -> Bool {
        guard let last else { return false }
        return frame.velocity == 0 && last.velocity == 0 && frame.visibleRect == last.visibleRect
            && frame.targetOffset == nil && last.targetOffset == nil
    }
}
