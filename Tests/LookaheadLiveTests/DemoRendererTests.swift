#if Tools
import Foundation
import Testing

@testable import LookaheadLive

@Suite("Demo renderer", .timeLimit(.minutes(1)))
struct DemoRendererTests {
    /// Two columns, one row of cells in the viewport (3 lines), one row dimmed below (3 lines).
    func frame(rows: [[DemoCell]], firstLine: Int = 0, status: DemoStatus? = nil) -> DemoFrame {
        DemoFrame(
            columns: 2, viewportLines: 3, lookaheadLines: 3, firstLine: firstLine, firstRow: firstLine / 3,
            rows: rows, status: status ?? DemoStatus(strategy: .adaptive))
    }

    @Test("a loaded visible cell is drawn red, a missing one white, with their labels")
    func visibleCellColours() {
        // Given a visible row with one loaded and one missing cell
        let lines = DemoRenderer.lines(
            of: frame(rows: [[DemoCell(label: "7", state: .loaded), DemoCell(label: "8", state: .missing)], []]),
            width: 40)

        // Then the first line holds a red block labelled 7, then a white block labelled 8
        #expect(lines[0] == "\u{1B}[30;41m7    \u{1B}[0m \u{1B}[30;47m8    \u{1B}[0m ")
        #expect(lines[1] == "\u{1B}[30;41m     \u{1B}[0m \u{1B}[30;47m     \u{1B}[0m ")
        // And the third line is the gap between rows
        #expect(lines[2] == "")
    }

    @Test("the rows below the viewport are dimmed, red where loaded and white where missing")
    func lookaheadRowsAreDimmed() {
        let lines = DemoRenderer.lines(
            of: frame(rows: [
                [DemoCell(label: "1", state: .loaded), DemoCell(label: "2", state: .loaded)],
                [DemoCell(label: "3", state: .loaded), DemoCell(label: "4", state: .missing)],
            ]),
            width: 40)

        #expect(lines.count == 7)
        for line in lines[3...4] {
            #expect(line == "\u{1B}[2;31m▒▒▒▒▒\u{1B}[0m \u{1B}[2;37m░░░░░\u{1B}[0m ")
            #expect(!line.contains(DemoRenderer.loadedStyle) && !line.contains(DemoRenderer.missingStyle))
        }
        // The viewport's lines are not dimmed.
        #expect(!lines[0].contains("\u{1B}[2;"))
    }

    @Test("a viewport scrolled by a line shows the rows that cross it")
    func scrolledViewport() {
        // Given the content scrolled down one line: screen line 0 is row 0's second line
        let lines = DemoRenderer.lines(
            of: frame(
                rows: [
                    [DemoCell(label: "1", state: .missing)],
                    [DemoCell(label: "3", state: .loaded)],
                    [DemoCell(label: "5", state: .missing)],
                ], firstLine: 1),
            width: 40)

        #expect(lines[0] == "\u{1B}[30;47m     \u{1B}[0m ")
        #expect(lines[1] == "")
        #expect(lines[2] == "\u{1B}[30;41m3    \u{1B}[0m ")
        // Screen line 3 is row 1's second line, already below the viewport: dimmed
        #expect(lines[3] == "\u{1B}[2;31m▒▒▒▒▒\u{1B}[0m ")
        #expect(lines[5] == "\u{1B}[2;37m░░░░░\u{1B}[0m ")
    }

    @Test("the status line shows its numbers in reverse video, cut to the width")
    func statusLine() {
        let status = DemoStatus(
            visible: 48, inFlight: 6, cached: 120, blankCellFrames: 312, cancellations: 4, strategy: .texture)
        let lines = DemoRenderer.lines(of: frame(rows: [], status: status), width: 200)

        let last = lines[lines.count - 1]
        #expect(last.hasPrefix(DemoRenderer.statusStyle))
        #expect(
            last.contains(
                "[texture] blank cell-frames 312 · visible 48 · in flight 6 · cached 120 · cancellations 4"))
        #expect(
            DemoRenderer.lines(of: frame(rows: [], status: status), width: 10).last
                == DemoRenderer.statusStyle + "[texture] " + DemoRenderer.reset)
    }

    @Test("rows past the end of the content are empty")
    func pastTheEnd() {
        let lines = DemoRenderer.lines(of: frame(rows: [[DemoCell(label: "1", state: .loaded)]]), width: 40)
        #expect(lines[3] == "" && lines[4] == "")
    }

    @Test("the screen starts at home and clears each line and the rest")
    func screen() {
        let screen = DemoRenderer.screen(of: frame(rows: []), width: 20)
        #expect(screen.hasPrefix("\u{1B}[H"))
        #expect(screen.hasSuffix("\u{1B}[K\u{1B}[J"))
        #expect(screen.components(separatedBy: "\u{1B}[K\r\n").count == 7)
    }

    @Test("two frames side by side: each line padded to its share, the separator lined up, both status lines")
    func sideBySide() {
        // Given system with a loaded cell and adaptive with a missing one, on a 50-character terminal
        let left = frame(
            rows: [[DemoCell(label: "1", state: .loaded)], []],
            status: DemoStatus(blankCellFrames: 9, strategy: .system))
        let right = frame(
            rows: [[DemoCell(label: "1", state: .missing)], []],
            status: DemoStatus(blankCellFrames: 4, strategy: .adaptive))

        // When both are drawn
        let screen = DemoRenderer.screen(of: [left, right], width: 50)
        let lines = String(screen.dropFirst(3).dropLast(6)).components(separatedBy: "\u{1B}[K\r\n")

        // Then every line has the separator at the same visible column, and each side its own colours and status
        let share = (50 - DemoRenderer.separator.count) / 2
        #expect(lines.count == 7)
        for line in lines {
            let halves = line.components(separatedBy: DemoRenderer.separator)
            #expect(halves.count == 2, "\(line)")
            #expect(DemoRenderer.visibleWidth(of: halves[0]) == share, "\(line)")
        }
        #expect(lines[0].components(separatedBy: DemoRenderer.separator)[0].contains(DemoRenderer.loadedStyle))
        #expect(lines[0].components(separatedBy: DemoRenderer.separator)[1].contains(DemoRenderer.missingStyle))
        #expect(lines[6].contains("[system]") && lines[6].contains("[adaptive]"))
        // And one frame alone is drawn as before
        #expect(DemoRenderer.screen(of: [left], width: 50) == DemoRenderer.screen(of: left, width: 50))
    }

    @Test("labels are cut to the block's width")
    func longLabels() {
        let lines = DemoRenderer.lines(
            of: frame(rows: [[DemoCell(label: "1234567", state: .loaded)]]), width: 40)
        #expect(lines[0] == "\u{1B}[30;41m12345\u{1B}[0m ")
    }
}

@Suite("Demo renderer legend", .timeLimit(.minutes(1)))
struct DemoRendererLegendTests {
    @Test("a wide terminal shows the legend right of the grid, lined up whatever the row holds")
    func legend() {
        let frame = DemoFrame(
            columns: 2, viewportLines: 3, lookaheadLines: 3, firstLine: 0, firstRow: 0,
            rows: [[DemoCell(label: "1", state: .loaded)], []], status: DemoStatus(strategy: .system))
        let lines = DemoRenderer.lines(of: frame, width: 80)

        // Row 0 has one cell of two: padded by one cell's width plus the two-space margin.
        #expect(
            lines[0] == "\u{1B}[30;41m1    \u{1B}[0m " + String(repeating: " ", count: 8)
                + "lookahead demo · strategy system")
        // The gap line is padded by the whole grid.
        #expect(lines[2].hasPrefix(String(repeating: " ", count: 14) + DemoRenderer.loadedStyle))
        #expect(lines[2].hasSuffix("loaded: data landed"))
        #expect(!DemoRenderer.lines(of: frame, width: 47)[0].contains("lookahead demo"))
    }
}
#endif
