import LookaheadTestSupport
import Testing

@testable import Lookahead
@testable import LookaheadHeadless

@MainActor
@Suite(.queuedOnTheMainActor)
struct TableViewTests {
    typealias Fixtures = ViewFixtures

    @Test func firstLayoutAsksForTenRowsAhead() {
        // Given a table of 1,000 rows, 44 points each
        let recorder = ViewEventRecorder(itemCount: 1_000)
        let tableView = Fixtures.makeTableView(recorder)

        // When it lays out for the first time
        tableView.layoutIfNeeded()

        // Then it asks for the 20 visible rows, then for the 10 below them, nearest first
        #expect(tableView.indexPathsForVisibleRows == Fixtures.paths(0..<20))
        #expect(
            recorder.takeEvents() == Fixtures.paths(0..<20).map(ViewEvent.cell) + [.prefetch(Fixtures.paths(20..<30))])
        #expect(tableView.rectForRow(at: ItemPath(row: 19, section: 0)) == Rect(x: 0, y: 836, width: 390, height: 44))
    }

    @Test func normalSpeedAsksForOneRowAtATime() {
        // Given the table after its first layout
        let recorder = ViewEventRecorder(itemCount: 1_000)
        let tableView = Fixtures.makeTableView(recorder)
        tableView.layoutIfNeeded()
        _ = recorder.takeEvents()

        // When it scrolls 4 points a frame at 60 Hz over 3,000 points
        tableView.replay(Fixtures.linearTrace(from: 0, to: 3_000, speed: 240))

        // Then each row boundary crossed asks for exactly the next row
        let last = tableView.indexPathsForVisibleRows.last!.row
        #expect(recorder.prefetchEvents == (30..<last + 11).map { [ItemPath(row: $0, section: 0)] })
        #expect(recorder.cancelEvents.isEmpty)
    }

    @Test(arguments: [3_000.0, 6_000.0])
    func highSpeedAsksForSeveralRowsPerCall(speed: Double) {
        // Given the table after its first layout
        let recorder = ViewEventRecorder(itemCount: 1_000)
        let tableView = Fixtures.makeTableView(recorder)
        tableView.layoutIfNeeded()
        _ = recorder.takeEvents()

        // When it is flung down at `speed`
        tableView.replay(Fixtures.linearTrace(from: 0, to: 20_000, speed: speed))

        // Then calls ask for several rows at once, as many as the frame crossed, without gaps
        let prefetches = recorder.prefetchEvents
        let perFrame = speed / 60 / 44
        let last = tableView.indexPathsForVisibleRows.last!.row
        #expect(prefetches.flatMap { $0 } == Fixtures.paths(30..<last + 11))
        #expect(prefetches.contains { $0.count >= 2 })
        #expect(prefetches.allSatisfy { Double($0.count) <= perFrame.rounded(.up) })
        #expect(Double(prefetches.flatMap { $0 }.count) / Double(prefetches.count) > perFrame * 0.9)
        #expect(recorder.cancelEvents.isEmpty && recorder.emptyCalls == 0)
    }

    @Test func aReversalCancelsTheRestOfTheWindowAndAsksForTheOtherSide() {
        // Given a table scrolled down to 2,000 points: rows 45–64 visible, 65–74 prefetched
        let recorder = ViewEventRecorder(itemCount: 1_000)
        let tableView = Fixtures.makeTableView(recorder)
        tableView.layoutIfNeeded()
        let down = Fixtures.linearTrace(from: 0, to: 2_000, speed: 600)
        tableView.replay(down)
        #expect(tableView.indexPathsForVisibleRows == Fixtures.paths(45..<65))
        #expect(tableView.outstandingPrefetches == Set(Fixtures.paths(65..<75)))
        _ = recorder.takeEvents()

        // When the user turns back up by 10 points
        tableView.step(to: Point(x: 0, y: 1_990), at: down.last!.time + .milliseconds(16))

        // Then the undisplayed rows below are cancelled, then the 10 rows above
        // the visible ones asked for, nearest first
        #expect(
            recorder.takeEvents() == [
                .cancel(Fixtures.paths(65..<75)), .prefetch(Fixtures.paths(35..<45).reversed()),
            ])

        // And turning down again swaps the windows back
        tableView.step(to: Point(x: 0, y: 2_000), at: down.last!.time + .milliseconds(32))
        #expect(
            recorder.takeEvents() == [.cancel(Fixtures.paths(35..<45)), .prefetch(Fixtures.paths(65..<75))])
    }

    @Test func aJumpCancelsTheOldWindowAndSkipsTheRowsInBetween() {
        // Given a table after its first layout
        let recorder = ViewEventRecorder(itemCount: 1_000)
        let tableView = Fixtures.makeTableView(recorder)
        tableView.layoutIfNeeded()
        _ = recorder.takeEvents()

        // When it jumps 10,000 points down in one frame
        tableView.step(to: Point(x: 0, y: 10_000), at: .milliseconds(16))

        // Then the old window is cancelled, the new rows are asked for, then the window below them
        let first = 10_000 / 44
        let last = (10_000 + 844) / 44
        #expect(
            recorder.takeEvents() == Fixtures.paths(first..<last + 1).map(ViewEvent.cell) + [
                .cancel(Fixtures.paths(20..<30)), .prefetch(Fixtures.paths(last + 1..<last + 11)),
            ])
    }

    @Test func rowsCanHaveTheirOwnHeights() {
        // Given a table whose even rows are 100 points high and odd rows 50
        let recorder = ViewEventRecorder(itemCount: 100)
        let tableView = Fixtures.makeTableView(recorder)
        tableView.heightForRowAt = { $0.row % 2 == 0 ? 100 : 50 }

        // When it lays out, then scrolls to 1,500 points
        tableView.layoutIfNeeded()
        let firstVisible = tableView.indexPathsForVisibleRows
        tableView.step(to: Point(x: 0, y: 1_500), at: .milliseconds(16))

        // Then the rows are where their heights put them
        #expect(tableView.contentSize.height == 50 * 150)
        #expect(firstVisible == Fixtures.paths(0..<11))  // row 11 starts at 850, below the viewport
        #expect(tableView.indexPathsForVisibleRows == Fixtures.paths(20..<31))
        #expect(tableView.cellForRow(at: ItemPath(row: 21, section: 0))?.frame.minY == 1_600)
    }
}
