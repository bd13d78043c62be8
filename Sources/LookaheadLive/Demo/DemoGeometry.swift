/// How the demo maps the collection view's points onto a terminal's
/// characters, and how it splits the screen.
///
/// A cell is 6 columns × 3 lines of text: 5 × 2 of colour and a one-character
/// gap. In points it is 96 × 96, about the cell of Apple's sample on a phone,
/// so the scroll traces' speeds (points per second) mean what they mean on a
/// phone: one text line is 32 points.
#if Tools
public struct DemoGeometry: Hashable, Sendable {
    /// Characters per cell, gap included.
    public static let cellWidth = 6
    /// Text lines per cell, gap included.
    public static let cellLines = 3
    /// Points per text line.
    public static let pointsPerLine = 32.0
    /// A cell's side in points.
    public static let cellPoints = pointsPerLine * Double(cellLines)

    /// The most cells per row.
    ///
    /// A phone shows 4 columns of cells this size, and so does the demo (24
    /// characters; two grids side by side with `--compare` fit in 60). Every
    /// visible cell is a load, so a grid as wide as the terminal would show
    /// more cells than 6 connections can fill, and the demo would show only
    /// that: scripted skimming at a feed's latency under UIKit's window was
    /// 21 % blank with 8 columns, 6 % with 4.
    public static let maximumColumns = 4

    /// Cells per row: as many as the terminal's width holds, at most ``maximumColumns``.
    public var columns: Int
    /// Text lines of the viewport.
    public var viewportLines: Int
    /// Text lines drawn dimmed below the viewport.
    public var lookaheadLines: Int

    /// The screen layout for a terminal of `width` × `height` characters:
    /// the status line at the bottom, two rows of cells dimmed above it (less
    /// on a short terminal), the viewport above them; the legend, if it fits,
    /// to the right of the grid.
    ///
    /// - Precondition: `width >= 6` and `height >= 4`; ``DemoTerminal``
    ///   never reports less.
    public init(terminalWidth width: Int, terminalHeight height: Int) {
        precondition(width >= Self.cellWidth && height >= 4, "DemoGeometry: terminal \(width)×\(height) is too small")
        columns = min(width / Self.cellWidth, Self.maximumColumns)
        let available = height - 1
        lookaheadLines = min(2 * Self.cellLines, available / 4)
        viewportLines = available - lookaheadLines
    }

    /// The viewport's size in points.
    public var viewportHeight: Double { Double(viewportLines) * Self.pointsPerLine }

    /// The grid's width in points.
    public var contentWidth: Double { Double(columns) * Self.cellPoints }

    /// The content's text line at the top of a viewport scrolled to `offset` points.
    public func firstLine(atOffset offset: Double) -> Int {
        Int((offset / Self.pointsPerLine).rounded(.down))
    }

    /// The content rows the screen shows at `firstLine`: those crossing the
    /// viewport and the dimmed area below it.
    public func rows(fromFirstLine firstLine: Int) -> ClosedRange<Int> {
        let last = firstLine + viewportLines + lookaheadLines - 1
        return (firstLine / Self.cellLines)...(last / Self.cellLines)
    }
}
#endif
