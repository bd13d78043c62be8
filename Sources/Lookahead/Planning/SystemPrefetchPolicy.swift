/// UIKit's prefetching, as observed on `UICollectionView` and `UITableView`.
///
/// The window is the next block of items beyond the visible ones in the
/// direction of travel: 6 rows of a grid (a 4-column grid showing items
/// 0–31 asks for 32–55 right after its first layout) and 10 rows of a list.
///
/// What this rests on, and how little: Apple documents only the order
/// (`tableView(_:prefetchRowsAt:)`: index paths sorted by priority, the one
/// closest to the visible area first) and that the calls come as the user
/// scrolls, for cells "likely to display in the near future"; WWDC 2016
/// ("What's New in UICollectionView in iOS 10") calls the mechanism
/// adaptive. Observed by others: about 10 rows ahead of a table showing
/// ~12 default-height rows (a measured blog post); a collection view showing
/// cells 2–10 asking for 11–14 (a Stack Overflow answer on iOS 10's
/// prefetching); a full-screen paging collection view prefetching one item
/// (rdar://28604718). A window relative to the viewport fits those as well
/// as this row count, so the simulator reports `adaptive` against a bracket
/// of such windows (`UIKitWindow`, docs/simulator.md), not this one alone.
/// It slides with the viewport, so steady scrolling asks for about one new
/// row per row scrolled and a fast fling for several per frame; on a
/// reversal the window moves to the other side and the planner cancels
/// what is left of the old one.
package struct SystemPrefetchPolicy: PrefetchPolicyProtocol {
    /// Rows ahead for layouts with more than one column.
    public var gridRows: Int
    /// Rows ahead for single-column layouts.
    public var listRows: Int
    /// Items ahead whatever the layout, in place of the rows: one for a
    /// full-screen paging collection view, as a filed radar observed.
    public var items: Int?

    public init(gridRows: Int = 6, listRows: Int = 10) {
        precondition(gridRows >= 0 && listRows >= 0, "SystemPrefetchPolicy: row counts must not be negative")
        self.gridRows = gridRows
        self.listRows = listRows
    }

    /// A window of `items` items ahead, whatever the layout.
    public init(items: Int) {
        precondition(items >= 0, "SystemPrefetchPolicy: items must not be negative")
        self.init()
        self.items = items
    }

    /// - Complexity: O(window).
    public mutating func window(for context: PrefetchContext, layout: any CollectionLayout) -> [ItemPath] {
        let total = layout.totalItemCount
        guard total > 0 else { return [] }
        let count = items ?? (layout.columns > 1 ? gridRows : listRows) * layout.columns
        guard count > 0 else { return [] }
        switch context.direction {
        case .forward:
            let start: Int
            if let last = context.visibleItems.last {
                start = layout.flatIndex(of: last) + 1
            } else {
                start = firstIndexBelow(context.frame.visibleRect, layout: layout)
            }
            let end = min(total, start + count)
            guard start < end else { return [] }
            return (start..<end).map { layout.itemPath(atFlatIndex: $0) }
        case .backward:
            let end: Int
            if let first = context.visibleItems.first {
                end = layout.flatIndex(of: first)
            } else {
                end = firstIndexBelow(context.frame.visibleRect, layout: layout)
            }
            let start = max(0, end - count)
            guard start < end else { return [] }
            return (start..<end).reversed().map { layout.itemPath(atFlatIndex: $0) }
        }
    }

    /// With nothing visible (the viewport between sections or past the end),
    /// the first item whose frame starts below the viewport's top.
    func firstIndexBelow(_ rect: Rect, layout: any CollectionLayout) -> Int {
        let below = Rect(
            x: rect.minX, y: rect.minY, width: rect.width, height: max(layout.contentSize.height - rect.minY, 0))
        guard let first = layout.itemPaths(in: below).first else { return layout.totalItemCount }
        return layout.flatIndex(of: first)
    }
}
