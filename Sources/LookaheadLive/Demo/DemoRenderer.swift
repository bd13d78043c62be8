/// Draws a ``DemoFrame`` as lines of text with plain ANSI escapes.
///
/// - A visible cell is a 5 × 2 block: white (`ESC[47m`) while its data is
///   missing, red (`ESC[41m`) once it has landed, as in Apple's sample, with
///   its identifier in black on the first line.
/// - Below the viewport the rows are drawn dimmed (`ESC[2m`) with shade
///   characters in the same colours: red `▒` for a value already loaded,
///   white `░` for one still missing. Watching that area is watching the
///   prefetcher work.
/// - The last line is the status line, in reverse video.
/// - A legend explaining the colours and the keys sits to the right of the
///   grid when the terminal is wide enough.
///
/// Pure: the same frame always gives the same text, so it is tested without a
/// terminal.
#if Tools
public enum DemoRenderer {
    /// Selects the default rendition.
    public static let reset = "\u{1B}[0m"
    /// A visible cell whose data has landed: black on red.
    public static let loadedStyle = "\u{1B}[30;41m"
    /// A visible cell whose data is missing: black on white.
    public static let missingStyle = "\u{1B}[30;47m"
    /// A loaded cell below the viewport: dim red.
    public static let dimmedLoadedStyle = "\u{1B}[2;31m"
    /// A missing cell below the viewport: dim white.
    public static let dimmedMissingStyle = "\u{1B}[2;37m"
    /// The status line: reverse video.
    public static let statusStyle = "\u{1B}[7m"

    /// The frame's lines: the viewport's, then the dimmed ones, then the
    /// status line, each ending in the default rendition.
    ///
    /// - Parameter width: the terminal's width; the status line is cut to it.
    /// - Complexity: O(lines × columns).
    public static func lines(of frame: DemoFrame, width: Int) -> [String] {
        var lines: [String] = []
        lines.reserveCapacity(frame.viewportLines + frame.lookaheadLines + 1)
        let gridWidth = frame.columns * DemoGeometry.cellWidth
        let legend = legendWidth + gridWidth + 2 <= width ? legend(strategy: frame.status.strategy) : []
        for screenLine in 0..<(frame.viewportLines + frame.lookaheadLines) {
            let contentLine = frame.firstLine + screenLine
            let cells = line(
                of: frame, row: contentLine / DemoGeometry.cellLines,
                part: contentLine % DemoGeometry.cellLines, dimmed: screenLine >= frame.viewportLines)
            if legend.indices.contains(screenLine) {
                // Pad the cells to the grid's width so that the legend lines up.
                let isGap = contentLine % DemoGeometry.cellLines == DemoGeometry.cellLines - 1
                let drawn = isGap ? 0 : frame.columns(drawnOnRow: contentLine / DemoGeometry.cellLines)
                let padding = gridWidth - drawn * DemoGeometry.cellWidth + 2
                lines.append(cells + String(repeating: " ", count: padding) + legend[screenLine])
            } else {
                lines.append(cells)
            }
        }
        lines.append(statusStyle + fitted(frame.status.text, to: width) + reset)
        return lines
    }

    /// The whole screen: cursor home, every line cleared to its end, and the
    /// rest of the screen cleared. Written in one go, it redraws without
    /// flicker.
    public static func screen(of frame: DemoFrame, width: Int) -> String {
        "\u{1B}[H" + lines(of: frame, width: width).joined(separator: "\u{1B}[K\r\n") + "\u{1B}[K\u{1B}[J"
    }

    /// Between two grids drawn side by side.
    public static let separator = " │ "

    /// Several frames side by side (`--compare`), each in an equal share of
    /// `width` (less the separators), line by line; one frame is drawn as
    /// ``screen(of:width:)`` draws it.
    public static func screen(of frames: [DemoFrame], width: Int) -> String {
        guard frames.count > 1 else { return frames.first.map { screen(of: $0, width: width) } ?? "" }
        let share = (width - separator.count * (frames.count - 1)) / frames.count
        let columns = frames.map { lines(of: $0, width: share) }
        let height = columns.map(\.count).max() ?? 0
        var joined: [String] = []
        for index in 0..<height {
            let parts = columns.map { lines in
                let line = index < lines.count ? lines[index] : ""
                return line + String(repeating: " ", count: max(0, share - visibleWidth(of: line)))
            }
            joined.append(parts.joined(separator: separator))
        }
        return "\u{1B}[H" + joined.joined(separator: "\u{1B}[K\r\n") + "\u{1B}[K\u{1B}[J"
    }

    /// The characters `line` takes on a terminal: its escape sequences take none.
    static func visibleWidth(of line: String) -> Int {
        var width = 0
        var inEscape = false
        for character in line {
            if inEscape {
                if character.isLetter { inEscape = false }
            } else if character == "\u{1B}" {
                inEscape = true
            } else {
                width += 1
            }
        }
        return width
    }

    /// The widest line of the legend.
    static let legendWidth = 34

    /// The legend: what the colours mean and which keys do what.
    static func legend(strategy: DemoStrategy) -> [String] {
        [
            "lookahead demo · strategy \(strategy.rawValue)",
            "",
            loadedStyle + "     " + reset + " loaded: data landed",
            missingStyle + "     " + reset + " missing: data not here yet",
            dimmedLoadedStyle + "▒▒▒▒▒" + reset + " below the viewport, loaded",
            dimmedMissingStyle + "░░░░░" + reset + " below the viewport, missing",
            "",
            "keys (--interactive):",
            "j/k row · space fling",
            "g/G top/bottom · q quit",
        ]
    }

    /// `text` cut or padded with spaces to exactly `width` characters.
    static func fitted(_ text: String, to width: Int) -> String {
        let count = text.count
        if count >= width { return String(text.prefix(max(width, 0))) }
        return text + String(repeating: " ", count: width - count)
    }

    private static func line(of frame: DemoFrame, row: Int, part: Int, dimmed: Bool) -> String {
        let blockWidth = DemoGeometry.cellWidth - 1
        // The last line of a cell is the gap between rows.
        guard part < DemoGeometry.cellLines - 1 else { return "" }
        var text = ""
        for column in 0..<frame.columns {
            guard let cell = frame.cell(row: row, column: column) else { break }
            let body: String
            let style: String
            switch (dimmed, cell.state) {
            case (false, .loaded):
                style = loadedStyle
                body = part == 0 ? fitted(cell.label, to: blockWidth) : fitted("", to: blockWidth)
            case (false, .missing):
                style = missingStyle
                body = part == 0 ? fitted(cell.label, to: blockWidth) : fitted("", to: blockWidth)
            case (true, .loaded):
                style = dimmedLoadedStyle
                body = String(repeating: "▒", count: blockWidth)
            case (true, .missing):
                style = dimmedMissingStyle
                body = String(repeating: "░", count: blockWidth)
            }
            text += style + body + reset + " "
        }
        return text
    }
}
#endif
