/// UIKit's prefetching, as observed on `UICollectionView` and `UITableView`.
///
/// The window is the next block of items beyond the visible ones in the
/// direction of travel: 6 rows of a grid (a 4-column grid showing items
/// 0–31 asks for 32–55 right after its first layout) and 10 rows of a list.
/// It slides with the viewport, so steady scrolling asks for about one new
/// row per row scrolled and a fast fling for several per frame; on a
/// reversal the window moves to the other side and the planner cancels
/// what is left of the old one.
package struct SystemPrefetchPolicy: PrefetchPolicyProtocol {
    /// Rows ahead for layouts with more than one column.
    public var gridRows: Int
    /// Rows ahead for single-column layouts.
    public var listRows: Int

    public init(gridRows: Int = 6, listRows: Int = 10) {
        precondition(gridRows >= 0 && listRows >= 0, "SystemPrefetchPolicy: row counts must not be negative")
        self.gridRows = gridRows
        self.listRows = listRows
    }

    /// - Complexity: O(window).
    public mutating func window(for context: PrefetchContext, layout: any CollectionLayout) -> [ItemPath] {
        let total = layout.totalItemCount
        guard total > 0 else { return [] }
        let count = (layout.columns > 1 ? gridRows : listRows) * layout.columns
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
