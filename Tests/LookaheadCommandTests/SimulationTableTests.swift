// The text table `lookahead simulate` prints: each strategy's wasted loads
// split into the window held when the trace stops and the rest.
#if Tools
import LookaheadSimulation
import Testing

@testable import lookahead

@Suite(.timeLimit(.minutes(1)))
struct SimulationTableTests {
    func result(_ name: String, wasted: Int, atEnd: Int) -> StrategyResult {
        StrategyResult(
            name: name, blankCellFrames: 3, visibleCellFrames: 10, timesToContent: [], requests: 40,
            cancellations: 0, completedLoads: 30, wastedLoads: wasted, wastedLoadsAtEnd: atEnd, wastedBytes: 0,
            completedBytes: 1, bytes: 1, peakCacheBytes: 1, blankCellFramesPerSecond: [3], bottomWait: .zero)
    }

    @Test func theTableSaysWhichShareOfTheWasteIsTheWindowAtTheEnd() throws {
        let report = SimulationReport(
            seed: 1,
            scenarios: [
                .init(
                    name: "feed",
                    strategies: [result("texture", wasted: 16, atEnd: 12), result("batch", wasted: 0, atEnd: 0)])
            ])
        let lines = report.table(engineTimes: [:]).split(separator: "\n").map(String.init)
        let header = try #require(lines.first { $0.hasPrefix("strategy") })
        #expect(header.contains("cancels  waste %  at end %  waste B %"))
        // Rows are cells apart by spaces: strategy, blank %, blank cf, visible cf, ttc p50, p95, p99, requests, cancels, waste %, at end %
        let texture = try #require(lines.first { $0.hasPrefix("texture") }).split(separator: " ")
        let batch = try #require(lines.first { $0.hasPrefix("batch") }).split(separator: " ")
        let wasteColumn = 9
        #expect(texture[wasteColumn] == "53.3", "16 of 30 completed loads")
        #expect(texture[wasteColumn + 1] == "75.0", "12 of the 16 at the end")
        #expect(batch[wasteColumn + 1] == "-", "nothing wasted, no share")
    }
}
#endif
