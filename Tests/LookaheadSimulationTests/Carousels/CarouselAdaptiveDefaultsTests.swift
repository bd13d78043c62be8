import Lookahead
import Testing

@testable import LookaheadSimulation

/// The simulator's `adaptive` on a feed of carousels is what an app gets from
/// the library's nested planner with its defaults: the figures `simulate`
/// reports for it are the ones an app ships.
@Suite
struct CarouselAdaptiveDefaultsTests {
    @Test func theAdaptiveStrategyPlansAsTheNestedPlannerWithItsDefaults() throws {
        // Given the carousels scenario's feed (seed 1), the simulator's `adaptive` and an app's default planner
        let scenario = try #require(SimulationScenario.builtIn(named: "carousels", seed: 1, duration: .seconds(5)))
        let feed = try #require(scenario.makeCarouselFeed()).feed
        var simulated = try #require(NestedPlanning(strategy: .adaptive, feed: feed))
        var shipped = NestedPrefetchPlanner(layout: feed)

        // When both see loads of 120 ms, then the same frames: a read down the feed at 300 pt/s for 2 s, then a rest
        for _ in 0..<5 {
            simulated.observeLoadDuration(.milliseconds(120))
            shipped.observeLoadDuration(.milliseconds(120))
        }
        for frame in 0..<180 {
            let time = Duration.seconds(1) / 60 * frame
            let moving = frame < 120
            let y = 2.5 * Double(min(frame, 120)) * 2
            let scrollFrame = ScrollFrame(
                visibleRect: Rect(x: 0, y: y, width: 390, height: 844), velocity: moving ? 300 : 0, time: time)
            let simulatedUpdate = simulated.update(scrollFrame, carousels: [], loadQueue: LoadQueueState())
            let shippedUpdate = shipped.update(scrollFrame)

            // Then they ask for, and cancel, the same items on every frame
            #expect(simulatedUpdate == shippedUpdate, "frame \(frame)")
        }
        #expect(!shipped.prefetched.isEmpty)
    }
}
