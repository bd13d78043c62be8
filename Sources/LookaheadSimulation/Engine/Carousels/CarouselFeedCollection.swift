public import Lookahead

/// A ``CarouselFeedLayout`` seen as one collection: section `r` is row `r`,
/// its items the carousel's (one for a plain cell), so every item of the
/// feed has one flat index — the simulator's load key, the oracle's and the
/// lower bound's item.
///
/// Frames are those of the carousels at rest (horizontal offset 0); where a
/// carousel stands at a given time is the trace's, and which of its items
/// show then is ``FrameVisibility``'s to say, not ``itemPaths(in:)``'s
/// (which answers for carousels at rest).
public struct CarouselFeedCollection: CollectionLayout {
    /// The feed.
    public let feed: CarouselFeedLayout
    /// The flat index of each row's first item, and the total at the end.
    let rowStarts: [Int]

    /// Creates the collection of `feed`.
    ///
    /// - Complexity: O(rows).
    public init(feed: CarouselFeedLayout) {
        self.feed = feed
        var starts = [0]
        starts.reserveCapacity(feed.rows.count + 1)
        for row in feed.rows.indices { starts.append(starts[row] + feed.itemCount(inRow: row)) }
        rowStarts = starts
    }

    /// The feed's size: its width, and its rows' heights summed.
    public var contentSize: Size { feed.outer.contentSize }

    /// One section per row.
    public var numberOfSections: Int { feed.rows.count }

    /// The row's items: its carousel's, or 1 for a plain cell.
    ///
    /// - Complexity: O(1).
    public func numberOfItems(inSection section: Int) -> Int { feed.itemCount(inRow: section) }

    /// Every item of every row.
    ///
    /// - Complexity: O(1).
    public var totalItemCount: Int { rowStarts[rowStarts.count - 1] }

    /// Always 1: the rows are stacked, each the feed's width.
    public var columns: Int { 1 }

    /// The item's frame with its carousel at rest.
    ///
    /// - Complexity: O(1).
    public func frame(at path: ItemPath) -> Rect {
        let row = feed.outer.frame(at: ItemPath(item: path.section, section: 0))
        guard case .carousel(_, let itemWidth, _, let spacing) = feed.rows[path.section] else { return row }
        return Rect(x: Double(path.item) * (itemWidth + spacing), y: row.minY, width: itemWidth, height: row.height)
    }

    /// The items in `rect`, row by row, with every carousel at rest.
    ///
    /// - Complexity: O(log rows + items returned).
    public func itemPaths(in rect: Rect) -> [ItemPath] {
        feed.outer.itemPaths(in: rect).flatMap { rowPath in
            let row = rowPath.item
            return feed.items(inRow: row, atOffset: 0).map { ItemPath(item: $0, section: row) }
        }
    }

    /// The item's place in the feed, row by row.
    ///
    /// - Complexity: O(1).
    public func flatIndex(of path: ItemPath) -> Int { rowStarts[path.section] + path.item }

    /// The item at a place in the feed, row by row.
    ///
    /// - Complexity: O(log rows).
    public func itemPath(atFlatIndex index: Int) -> ItemPath {
        // The last row starting at or before `index` (rows of no items share their start).
        var low = 0
        var high = rowStarts.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if rowStarts[middle] <= index { low = middle } else { high = middle }
        }
        return ItemPath(item: index - rowStarts[low], section: low)
    }

    /// The flat index of a nested path.
    ///
    /// - Complexity: O(1).
    public func flatIndex(of path: NestedItemPath) -> Int { rowStarts[path.row] + path.item }
}
