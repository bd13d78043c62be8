import Foundation
import LookaheadTestSupport
import Testing

@testable import LookaheadSimulation

@Suite("HTML report and its replay timelines", .queuedOnTheHeavyTestThread)
struct SimulationHTMLReportTests {
    /// What the page's script does: per frame, the visible items whose data was not there yet.
    func counted(_ timeline: ReplayTimeline, _ strand: ReplayTimeline.Strand) -> Int {
        var blank = 0
        for (item, runs) in timeline.visibleRuns.enumerated() {
            for run in runs {
                for frame in run[0]...run[1] {
                    let ready = strand.readyFrames[item]
                    if ready < 0 || ready > frame { blank += 1 }
                }
            }
        }
        return blank
    }

    @Test(
        "counting blank frames from the timeline gives the simulator's count, for every strategy",
        arguments: ["photos", "fling", "carousels"])
    func timelineCountsMatchTheSimulator(name: String) async throws {
        try await onHeavyTestThread {
            let seed: UInt64 = 5
            let scenario = try #require(SimulationScenario.builtIn(named: name, seed: seed, duration: .seconds(8)))
            let suite = SimulationSuite(seed: seed, scenarios: [scenario], strategies: SimulationStrategy.allCases)
            let (report, timelines) = suite.run(keepingTimelines: true)
            let timeline = try #require(timelines.first)
            #expect(timeline.offsets.count == Int((scenario.trace.duration / (.seconds(1) / scenario.frameRate))) + 1)
            for (strand, result) in zip(timeline.strands, report.scenarios[0].strategies) {
                #expect(strand.name == result.name)
                #expect(counted(timeline, strand) == result.blankCellFrames, "\(name) \(strand.name), seed \(seed)")
            }
            // A run keeping no timelines gives the same report.
            #expect(suite.run() == report)
        }
    }

    @Test("a swiped carousel's items are drawn where its row's offset puts them: on screen whenever visible")
    func carouselItemsFollowTheirRow() throws {
        let seed: UInt64 = 2
        let scenario = try #require(SimulationScenario.builtIn(named: "carousels", seed: seed, duration: .seconds(15)))
        let timeline = ReplayTimeline(scenario: scenario, strategies: [])
        let itemRows = try #require(timeline.itemRows, "seed \(seed)")
        let rowOffsets = try #require(timeline.rowOffsets, "seed \(seed)")
        // What the page's rowShift does: the row's last change at or before the frame.
        func shift(_ item: Int, _ frame: Int) -> Double {
            guard itemRows[item] >= 0 else { return 0 }
            return rowOffsets[itemRows[item]].last { Int($0[0]) <= frame }![1]
        }
        var shifted = 0
        for (item, runs) in timeline.visibleRuns.enumerated() {
            for run in runs {
                for frame in run[0]...run[1] {
                    let left = timeline.items[item][0] - shift(item, frame)
                    let right = left + timeline.items[item][2]
                    #expect(
                        right > 0 && left < timeline.viewport[0],
                        "item \(item) frame \(frame) at \(left)...\(right), seed \(seed)")
                    if shift(item, frame) > 0 { shifted += 1 }
                }
            }
        }
        #expect(shifted > 0, "no swiped row was visible, seed \(seed)")
        // Elsewhere nothing shifts.
        let feed = try #require(SimulationScenario.builtIn(named: "feed", seed: seed, duration: .seconds(2)))
        #expect(ReplayTimeline(scenario: feed, strategies: []).itemRows == nil)
    }

    @Test("data landing exactly at a frame's time is there for that frame, later data from the next frame")
    func readyFrameBoundaries() async {
        await onHeavyTestThread {
            let frame = Duration.seconds(1) / 60
            let visibility = ScenarioVisibility(
                scenario: SimulationScenario.builtIn(named: "feed", seed: 1, duration: .seconds(1))!)
            #expect(ReplayTimeline.firstFrame(atOrAfter: frame * 3, from: 0, visibility) == 3)
            #expect(ReplayTimeline.firstFrame(atOrAfter: frame * 3 + .nanoseconds(1), from: 9, visibility) == 4)
            #expect(ReplayTimeline.firstFrame(atOrAfter: .zero, from: 5, visibility) == 0)
            #expect(ReplayTimeline.runs(of: [1, 2, 3, 7, 9, 10]) == [[1, 3], [7, 7], [9, 10]])
        }
    }

    @Test("each strategy's row says its wasted loads and how many of them are the window at the end")
    func theTableSplitsTheWaste() {
        let result = StrategyResult(
            name: "texture", blankCellFrames: 3, visibleCellFrames: 10, timesToContent: [], requests: 40,
            cancellations: 0, completedLoads: 30, wastedLoads: 17, wastedLoadsAtEnd: 11, wastedBytes: 0,
            completedBytes: 1, bytes: 1, peakCacheBytes: 1, blankCellFramesPerSecond: [3], bottomWait: .zero)
        let report = SimulationReport(seed: 1, scenarios: [.init(name: "feed", strategies: [result])])
        let table = SimulationHTMLReport(report: report, timelines: []).table(report.scenarios[0])
        #expect(table.contains("<td>17</td><td>11</td>"))
        #expect(table.contains("of them, at the end</th>"))
        // Every row has as many cells as the header
        let header = table.components(separatedBy: "</th>").count - 1
        #expect(header == 7)
        #expect(table.components(separatedBy: "</td>").count - 1 == header)
    }

    @Test("the page loads nothing from outside and cannot be broken out of by a name")
    func selfContainedAndEscaped() async {
        await onHeavyTestThread {
            let hostile = "</script><script>alert(1)</script>"
            let result = StrategyResult(
                name: hostile, blankCellFrames: 3, visibleCellFrames: 10, timesToContent: [], requests: 1,
                cancellations: 0, completedLoads: 1, wastedLoads: 0, wastedLoadsAtEnd: 0, wastedBytes: 0,
                completedBytes: 1, bytes: 1,
                peakCacheBytes: 1, blankCellFramesPerSecond: [3], bottomWait: .zero)
            let report = SimulationReport(seed: 1, scenarios: [.init(name: "feed<&>", strategies: [result])])
            let scenario = SimulationScenario.builtIn(named: "feed", seed: 1, duration: .seconds(1))!
            let timeline = ReplayTimeline(scenario: scenario, strategies: [(hostile, [:], 3)])
            let page = SimulationHTMLReport(report: report, timelines: [timeline]).html()
            #expect(!page.contains(hostile))
            #expect(page.contains("&lt;/script&gt;"))
            #expect(page.contains("feed&lt;&amp;&gt;"))
            #expect(page.components(separatedBy: "</script>").count == 3, "only the page's own two script elements end")
            // (The chart's `xmlns` names a namespace; it loads nothing.)
            for external in ["src=", "<link", "@import", "href=\"http", "url(http", "fetch(", "XMLHttpRequest"] {
                #expect(!page.contains(external), "\(external)")
            }
        }
    }
}
