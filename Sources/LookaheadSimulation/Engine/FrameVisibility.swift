import Lookahead

/// What one frame of a scenario shows: the one function both the
/// simulator's blank count (``StrategyDriver``) and the future the oracle
/// and the lower bound read (``ScenarioVisibility``) compute visibility with.
///
/// The viewport stands at the trace's vertical offset, clamped to the
/// content. In a list or a grid the items crossing it are visible; in a
/// carousel feed the rows crossing it are, and of each carousel the items
/// crossing its width at the row's own horizontal offset at that time
/// (``ScrollTrace/rowOffset(ofRow:at:)``, clamped by the layout).
struct FrameVisibility {
    /// One frame's view.
    struct Frame {
        /// The viewport, in content coordinates.
        var rect: Rect
        /// The visible items, row by row (a carousel's as `ItemPath(item:section: row)`).
        var paths: [ItemPath]
        /// Their flat indices, in the same order.
        var items: [Int]
    }

    let trace: ScrollTrace
    let viewport: Size
    let layout: any CollectionLayout
    /// The feed, when the scenario is a carousel feed.
    let feed: CarouselFeedCollection?
    let maxOffset: Double

    /// The visibility of `scenario`'s frames.
    ///
    /// - Complexity: O(rows) to build the layout.
    init(scenario: SimulationScenario) {
        trace = scenario.trace
        viewport = scenario.viewport
        feed = scenario.makeCarouselFeed()
        layout = feed ?? scenario.makeLayout()
        maxOffset = max(0, layout.contentSize.height - scenario.viewport.height)
    }

    /// The horizontal offset of row `row`'s carousel at `time`, clamped to its content.
    func rowOffset(ofRow row: Int, at time: Duration) -> Double {
        guard let feed else { return 0 }
        return min(max(trace.rowOffset(ofRow: row, at: time), 0), feed.feed.maxOffset(ofRow: row))
    }

    /// What the frame at `time` shows.
    ///
    /// - Complexity: O(log n + k) for k visible items.
    func frame(at time: Duration) -> Frame {
        let offset = min(max(trace.offset(at: time), 0), maxOffset)
        let rect = Rect(origin: Point(x: 0, y: offset), size: viewport)
        guard let feed else {
            let paths = layout.itemPaths(in: rect)
            return Frame(rect: rect, paths: paths, items: paths.map { layout.flatIndex(of: $0) })
        }
        var paths: [ItemPath] = []
        for rowPath in feed.feed.outer.itemPaths(in: rect) {
            let row = rowPath.item
            let span = feed.feed.items(inRow: row, atOffset: rowOffset(ofRow: row, at: time))
            paths += span.map { ItemPath(item: $0, section: row) }
        }
        return Frame(rect: rect, paths: paths, items: paths.map { feed.flatIndex(of: $0) })
    }

    /// How many items the first frame shows: what an app tells its pager to
    /// load first.
    var firstScreenItemCount: Int { frame(at: .zero).items.count }

    /// The items within `screens` viewport lengths of the frame at `time`, in
    /// every direction (along each carousel too): the reach of a window held
    /// around that frame.
    ///
    /// - Complexity: O(log n + k) for k items in reach.
    func items(within screens: Double, ofFrameAt time: Duration) -> [Int] {
        let shown = frame(at: time).rect
        let (across, along) = (screens * viewport.width, screens * viewport.height)
        let top = max(0, shown.minY - along)
        let reach = Rect(
            x: shown.minX - across, y: top, width: viewport.width + 2 * across,
            height: shown.maxY + along - top)
        guard let feed else {
            return layout.itemPaths(in: reach).map { layout.flatIndex(of: $0) }
        }
        var items: [Int] = []
        for rowPath in feed.feed.outer.itemPaths(in: reach) {
            let row = rowPath.item
            let offset = rowOffset(ofRow: row, at: time)
            let first = feed.feed.items(inRow: row, atOffset: offset - across)
            let last = feed.feed.items(inRow: row, atOffset: offset + across)
            items += (first.lowerBound..<max(first.upperBound, last.upperBound)).map {
                feed.flatIndex(of: ItemPath(item: $0, section: row))
            }
        }
        return items
    }
}
