// What the metrics count as waste, and which of it the trace's end cut off:
// loads for items within reach of the last frame.

import Lookahead
import LookaheadTestSupport
import Testing

@testable import LookaheadSimulation

@Suite(.queuedOnTheHeavyTestThread) struct RunMetricsTests {
    let viewport = Size(width: 390, height: 844)

    @Test func wasteWithinReachOfTheLastFrameIsCountedAtTheEnd() {
        // Given five items loaded, only item 4 ever visible, items 1 and 2 within reach at the end
        var metrics = RunMetrics(
            keys: LoadKeys(strategy: .texture, itemCount: 5), duration: .seconds(20), itemBytes: { _ in 100 })
        for key in 0..<5 {
            metrics.markReady(key: key, arrival: .seconds(key + 1))
        }
        metrics.countVisible(4, isReady: true, appeared: true, at: .seconds(6))

        // When the run ends
        metrics.finish(at: .seconds(20), reach: [1, 2, 4])
        let result = metrics.result(name: "test", requests: 5, cancellations: 0, bytes: 500) { _ in 100 }

        // Then the four never shown are wasted, two of them at the end (item 4, in reach, was shown)
        #expect(result.wastedLoads == 4)
        #expect(result.wastedLoadsAtEnd == 2)
        #expect(result.wastedBytes == 400)
    }

    @Test func theReachIsThreeScreensAroundTheLastFrameOfAList() {
        // Given a list of 100 pt rows resting at 10,000 pt (rows 100...108 on screen)
        let trace = ScrollTrace(samples: [.init(time: .zero, offset: 10_000), .init(time: .seconds(1), offset: 10_000)])
        let subject = SimulationScenario(
            name: "reach", layout: .list(rowHeights: Array(repeating: 100, count: 1_000)), viewport: viewport,
            network: .feed(seed: 1), maxConcurrentLoads: 6, trace: trace)

        // When asked for the items within three screens of the last frame
        let reach = FrameVisibility(scenario: subject).items(within: 3, ofFrameAt: .seconds(1))

        // Then they are the rows crossing 10,000 − 2,532 ... 10,844 + 2,532 pt, and no others
        let top = 10_000 - 3 * 844.0
        let bottom = 10_844 + 3 * 844.0
        #expect(reach.sorted() == Array(Int((top / 100).rounded(.down))..<Int((bottom / 100).rounded(.up))))
    }

    @Test func inACarouselFeedTheReachRunsThreeScreensAlongEachCarouselToo() {
        // Given a cell over a carousel of 150 pt items 10 pt apart, swiped to 3,000 pt
        let samples = [0, 1].map {
            ScrollTrace.Sample(time: .seconds($0), offset: 0, row: 1, rowOffset: 3_000)
        }
        let subject = SimulationScenario(
            name: "reach",
            layout: .carousels(rows: [
                .cell(height: 100), .carousel(height: 200, itemWidth: 150, itemCount: 60, spacing: 10),
            ]), viewport: viewport, network: .feed(seed: 1), maxConcurrentLoads: 6, trace: ScrollTrace(samples: samples)
        )

        // When asked for the items within three screens of the last frame
        let reach = FrameVisibility(scenario: subject).items(within: 3, ofFrameAt: .seconds(1))

        // Then they are the cell and the carousel's items crossing 3,000 − 1,170 ... 3,390 + 1,170 pt
        // (items 11...28; flat indices 12...29)
        #expect(reach.sorted() == [0] + Array(12...29))
    }

    @Test func aRunsWasteAtTheEndIsTheWasteWithinReachOfItsLastFrame() async {
        await onHeavyTestThread {
            // Given a list of 1,000 rows scrolled down 5,000 pt in 5 s, then at rest for 2 s
            let samples = (0...420).map { frame in
                ScrollTrace.Sample(time: .seconds(1) / 60 * frame, offset: 1_000 * min(Double(frame) / 60, 5))
            }
            let subject = SimulationScenario(
                name: "reach", layout: .list(rowHeights: Array(repeating: 100, count: 1_000)), viewport: viewport,
                network: .feed(seed: 1), maxConcurrentLoads: 6, trace: ScrollTrace(samples: samples))

            // When texture and all run
            let simulator = Simulator(scenario: subject)
            let texture = simulator.run(.texture)
            let all = simulator.run(.all)

            // Then texture's waste is the window it holds ahead at the end, all of it;
            // all's is every row loaded and never shown (rows 0...58 were), of which
            // rows 59...83 (up to 8,376 pt, three screens below the end) are at the end
            #expect(texture.wastedLoads > 0 && texture.wastedLoadsAtEnd == texture.wastedLoads, "\(texture)")
            #expect(all.completedLoads > 84 && all.wastedLoads == all.completedLoads - 59, "\(all)")
            #expect(all.wastedLoadsAtEnd == 25, "\(all)")
        }
    }
}
