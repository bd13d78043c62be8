/// A vertical feed whose rows may be horizontal carousels: stores, streaming
/// apps, "stories" rows. What `NestedPrefetchPlanner` plans over.
///
/// The outer list is a ``ListLayout`` of the rows (section 0, one item per
/// row). A carousel's items are laid out left to right, each `itemWidth`
/// wide with `spacing` after it; its visible width is the feed's width. The
/// planner sees a carousel as a vertical list turned on its side — item
/// `i`'s horizontal extent is a list row's vertical one — so the policies
/// written for vertical lists plan along the carousel's axis unchanged.
public struct CarouselFeedLayout: Sendable {
    /// One row of the feed.
    public enum Row: Hashable, Sendable {
        /// A plain cell: one item.
        case cell(height: Double)
        /// A horizontally scrolling collection of `itemCount` items.
        case carousel(height: Double, itemWidth: Double, itemCount: Int, spacing: Double)

        /// The row's height, in points.
        public var height: Double {
            switch self {
            case .cell(let height), .carousel(let height, _, _, _): height
            }
        }
    }

    /// The rows, top to bottom.
    public let rows: [Row]
    /// The feed's width, which is also every carousel's visible width.
    public let width: Double
    /// The rows as a vertical list: row `r` is `ItemPath(item: r, section: 0)`.
    public let outer: ListLayout

    /// Creates a layout.
    ///
    /// - Precondition: `width` above 0; every height, item width and spacing
    ///   finite and not negative (item widths above 0), item counts not negative.
    public init(width: Double, rows: [Row]) {
        precondition(width.isFinite && width > 0, "CarouselFeedLayout: width \(width) must be above 0")
        for (index, row) in rows.enumerated() {
            precondition(row.height.isFinite && row.height >= 0, "CarouselFeedLayout: row \(index)'s height")
            if case .carousel(_, let itemWidth, let itemCount, let spacing) = row {
                precondition(
                    itemWidth.isFinite && itemWidth > 0 && spacing.isFinite && spacing >= 0 && itemCount >= 0,
                    "CarouselFeedLayout: row \(index)'s carousel (item width \(itemWidth), spacing \(spacing), "
                        + "\(itemCount) items)")
            }
        }
        self.width = width
        self.rows = rows
        outer = ListLayout(width: width, rowHeights: rows.map(\.height))
    }

    /// Whether item `item` of row `row`, its carousel at `offset`, crosses
    /// the carousel's visible width widened by `margin` points on each side
    /// (a plain cell's one item always does; an item past the row's count never).
    package func carouselShows(item: Int, ofRow row: Int, atOffset offset: Double, margin: Double = 0) -> Bool {
        guard item >= 0, item < itemCount(inRow: row) else { return false }
        guard case .carousel(_, let itemWidth, _, let spacing) = rows[row] else { return true }
        let clamped = min(max(offset, 0), maxOffset(ofRow: row))
        let minX = Double(item) * (itemWidth + spacing)
        return minX + itemWidth > clamped - margin && minX < clamped + width + margin
    }

    /// The number of items in row `row`: 1 for a cell, the carousel's count otherwise.
    public func itemCount(inRow row: Int) -> Int {
        switch rows[row] {
        case .cell: 1
        case .carousel(_, _, let itemCount, _): itemCount
        }
    }

    /// Row `row`'s carousel as a list on its side, or `nil` for a plain cell.
    ///
    /// Its rows share one height, the item's pitch, so the list stores nothing
    /// per item and finds the items in a range by arithmetic.
    ///
    /// - Complexity: O(1).
    public func carouselLayout(ofRow row: Int) -> ListLayout? {
        guard case .carousel(let height, let itemWidth, let itemCount, let spacing) = rows[row] else { return nil }
        return ListLayout(width: max(height, 1), rowHeight: itemWidth + spacing, rowCounts: [itemCount])
    }

    /// The largest horizontal offset of row `row`'s carousel (0 for a cell).
    public func maxOffset(ofRow row: Int) -> Double {
        guard case .carousel(_, let itemWidth, let itemCount, let spacing) = rows[row] else { return 0 }
        return max(0, Double(itemCount) * (itemWidth + spacing) - width)
    }

    /// The items of row `row`'s carousel that cross its visible width at
    /// horizontal `offset`; `[0]` for a cell.
    ///
    /// - Complexity: O(1) per item returned.
    public func items(inRow row: Int, atOffset offset: Double) -> Range<Int> {
        switch rows[row] {
        case .cell:
            return 0..<1
        case .carousel(_, let itemWidth, let itemCount, let spacing):
            let stride = itemWidth + spacing
            let clamped = min(max(offset, 0), maxOffset(ofRow: row))
            // Item i spans [i · stride, i · stride + itemWidth): one whose right
            // edge is in the spacing before the viewport's left edge is not shown.
            let first = min(itemCount, Int(((clamped - itemWidth) / stride).rounded(.down)) + 1)
            let end = min(itemCount, Int(((clamped + width) / stride).rounded(.up)))
            return first..<max(first, end)
        }
    }
}
