/// Everything one rendered frame of the demo shows: the rows of cells that
/// cross the viewport and the area just below it, and the status line.
///
/// A value, built by the driver from the collection view and the fetcher,
/// and drawn by ``DemoRenderer``; tests build it by hand (the memberwise
/// initializer).
#if Tools
public struct DemoFrame: Hashable, Sendable {
    /// Cells per row.
    public var columns: Int
    /// Text lines of the viewport.
    public var viewportLines: Int
    /// Text lines drawn dimmed below the viewport: the area the prefetcher
    /// works on, visible as if the view did not clip to its bounds.
    public var lookaheadLines: Int
    /// The content's text line at the top of the viewport.
    public var firstLine: Int
    /// The content row of `rows[0]`.
    public var firstRow: Int
    /// The rows of cells from `firstRow` on; a row may be shorter than
    /// `columns` (the last one), and rows past the end are empty.
    public var rows: [[DemoCell]]
    /// The status line's figures.
    public var status: DemoStatus

    /// How many cells content row `row` has on screen.
    public func columns(drawnOnRow row: Int) -> Int {
        let index = row - firstRow
        guard rows.indices.contains(index) else { return 0 }
        return min(rows[index].count, columns)
    }

    /// The cell at `column` of content row `row`, or `nil` where there is none.
    public func cell(row: Int, column: Int) -> DemoCell? {
        let index = row - firstRow
        guard rows.indices.contains(index), rows[index].indices.contains(column) else { return nil }
        return rows[index][column]
    }
}
#endif
