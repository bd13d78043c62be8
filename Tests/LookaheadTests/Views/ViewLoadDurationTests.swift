import LookaheadTestSupport
import Testing

@testable import Lookahead
@testable import LookaheadHeadless

@Suite(.queuedOnTheMainActor)
@MainActor
struct ViewLoadDurationTests {
    /// The rows a table with the adaptive policy asks for while it scrolls
    /// steadily at 1,000 pt/s, after being told loads take `duration`.
    func prefetchedRows(afterLoadsOf duration: Duration) -> Int {
        let recorder = ViewEventRecorder(itemCount: 5_000)
        let table = ViewFixtures.makeTableView(recorder, rowHeight: 50)
        table.prefetchPolicy = .adaptive
        table.layoutIfNeeded()
        for _ in 0..<50 { table.observeLoadDuration(duration) }
        for (time, offset) in ViewFixtures.linearTrace(from: 0, to: 1_500, speed: 1_000) {
            table.step(to: offset, at: time)
        }
        return recorder.prefetchEvents.joined().count
    }

    @Test func slowerLoadsToldToTheViewReachFurther() {
        let quick = prefetchedRows(afterLoadsOf: .milliseconds(50))
        let slow = prefetchedRows(afterLoadsOf: .milliseconds(3_000))
        #expect(quick > 0)
        #expect(slow > quick, "quick \(quick), slow \(slow)")
    }
}
