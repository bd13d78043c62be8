import Lookahead

/// UIKit's prefetching in a feed of carousels: every collection view
/// prefetches on its own axis, and nothing crosses from one to the other.
///
/// What a `UICollectionView` of carousels does, modelled on
/// ``SystemPrefetchPolicy`` (UIKit's window as observed):
/// - **The outer list** prefetches rows with its window (`policy`), but its
///   `prefetchItemsAt` names rows, not what they will show: a plain cell's
///   row brings its item, a carousel row brings nothing — its inner
///   collection view does not exist yet (it is made or dequeued when the
///   row's cell is), so no one knows which of its items it will show.
/// - **Each carousel on screen** is a collection view of its own, laid out
///   when its row's cell is: from its first layout it asks for the block of
///   items beyond its visible ones along its axis (`carouselPolicy`, UIKit's
///   list window of 10), and slides that window as it is swiped, at the
///   carousel's own horizontal offset.
/// - **A carousel that leaves the screen** is reused for another row: what it
///   asked for is cancelled (what apps do in `prepareForReuse`), and it asks
///   again when its row comes back and is laid out.
///
/// It answers as ``NestedPrefetchPlanner`` does, so one driver runs both.
struct PerCollectionPrefetchPlanner {
    let feed: CarouselFeedLayout
    let carouselPolicy: PrefetchPolicy
    var rows: PrefetchPlanner
    /// The planners of the carousels on screen, by row.
    var carousels: [Int: PrefetchPlanner] = [:]
    /// What is asked for now.
    private(set) var prefetched: Set<NestedItemPath> = []

    /// Creates the model of a feed whose collection views all follow UIKit's window.
    init(feed: CarouselFeedLayout, policy: PrefetchPolicy = .system, carouselPolicy: PrefetchPolicy = .system) {
        self.feed = feed
        self.carouselPolicy = carouselPolicy
        rows = PrefetchPlanner(layout: feed.outer, policy: policy)
    }

    /// Plans one frame; `scrolls` gives the horizontal offset and velocity
    /// of the carousels on screen (the others are at rest where they were).
    ///
    /// - Complexity: O(log rows + windows).
    mutating func update(
        _ frame: ScrollFrame, carousels scrolls: [NestedPrefetchPlanner.CarouselScroll], loadQueue: LoadQueueState
    ) -> NestedPrefetchPlanner.Update {
        _ = rows.update(frame, loadQueue: loadQueue)
        let visibleRows = rows.visibleItems.map(\.item)
        let isVisibleRow = Set(visibleRows)
        for row in carousels.keys where !isVisibleRow.contains(row) { carousels[row] = nil }
        var wanted: [NestedItemPath] = []
        var visible: Set<NestedItemPath> = []
        for scroll in scrolls where isVisibleRow.contains(scroll.row) {
            guard let layout = feed.carouselLayout(ofRow: scroll.row) else { continue }
            let span = feed.items(inRow: scroll.row, atOffset: scroll.offset)
            for item in span { visible.insert(NestedItemPath(row: scroll.row, item: item)) }
            var planner = carousels[scroll.row] ?? PrefetchPlanner(layout: layout, policy: carouselPolicy)
            let carouselFrame = ScrollFrame(
                visibleRect: Rect(
                    origin: Point(x: 0, y: scroll.offset),
                    size: Size(width: feed.rows[scroll.row].height, height: feed.width)),
                velocity: scroll.velocity, time: frame.time)
            _ = planner.update(carouselFrame, loadQueue: loadQueue)
            carousels[scroll.row] = planner
            wanted += planner.prefetchedPaths.map { NestedItemPath(row: scroll.row, item: $0.item) }
        }
        for path in rows.prefetchedPaths {
            if case .cell = feed.rows[path.item] { wanted.append(NestedItemPath(row: path.item, item: 0)) }
        }
        for row in visibleRows where !isCarousel(row) { visible.insert(NestedItemPath(row: row, item: 0)) }

        let wantedSet = Set(wanted)
        var update = NestedPrefetchPlanner.Update()
        for path in wanted where !prefetched.contains(path) { update.prefetch.append(path) }
        // What became visible leaves without a cancel: the cell's request takes over.
        for path in prefetched where !wantedSet.contains(path) && !visible.contains(path) {
            update.cancel.append(path)
        }
        update.cancel.sort()
        prefetched = wantedSet
        return update
    }

    func isCarousel(_ row: Int) -> Bool {
        if case .carousel = feed.rows[row] { return true }
        return false
    }

    /// Tells the windows how long one load took (UIKit's ignore it).
    mutating func observeLoadDuration(_ duration: Duration) {
        rows.observeLoadDuration(duration)
        for row in carousels.keys { carousels[row]?.observeLoadDuration(duration) }
    }
}
