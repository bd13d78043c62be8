#if Tools
import Testing

@testable import LookaheadLive

@Suite("Demo blank cell-frames and geometry", .timeLimit(.minutes(1)))
struct DemoCountingTests {
    @Test("each visible cell counts once per frame, a missing one as blank")
    func countsBlankCellFrames() {
        var counter = BlankCellFrameCounter()
        #expect(counter.blankRatio == 0)

        counter.record(visible: [.missing, .missing, .loaded, .loaded])
        counter.record(visible: [.loaded, .loaded, .loaded, .missing])
        counter.record(visible: [])

        #expect(counter.frames == 3)
        #expect(counter.visibleCellFrames == 8)
        #expect(counter.blankCellFrames == 3)
        #expect(counter.blankRatio == 3.0 / 8.0)
    }

    @Test("the summary reports frames, blank cell-frames, the ratio, loads and bytes")
    func summaryText() {
        var counter = BlankCellFrameCounter()
        counter.record(visible: [.missing, .loaded, .loaded, .loaded])
        let summary = DemoSummary(
            strategy: .system, counter: counter, loadsStarted: 10, loadsCancelled: 2, loadsCompleted: 7,
            loadsFailed: 1, bytes: 4_096, wasInterrupted: false)

        #expect(
            summary.text
                == "demo finished: strategy system, 1 frames, 1 blank cell-frames of 4 visible (blank ratio 25.0%), "
                + "loads 10 started / 2 cancelled / 7 completed / 1 failed, 4096 bytes")
    }

    @Test("a 100 × 30 terminal holds 4 columns (a phone's, the most), 23 viewport lines and 6 dimmed ones")
    func geometry() {
        let geometry = DemoGeometry(terminalWidth: 100, terminalHeight: 30)
        #expect(geometry.columns == 4)
        #expect(DemoGeometry(terminalWidth: 20, terminalHeight: 30).columns == 3)
        #expect(geometry.lookaheadLines == 6)
        #expect(geometry.viewportLines == 23)
        #expect(geometry.viewportHeight == 23 * 32)
        #expect(geometry.firstLine(atOffset: 95) == 2)
        #expect(geometry.rows(fromFirstLine: 2) == 0...10)
    }

    @Test("a short terminal gives up the dimmed rows first")
    func shortTerminal() {
        let geometry = DemoGeometry(terminalWidth: 20, terminalHeight: 6)
        #expect(geometry.columns == 3)
        #expect(geometry.lookaheadLines == 1)
        #expect(geometry.viewportLines == 4)
    }
}
#endif
