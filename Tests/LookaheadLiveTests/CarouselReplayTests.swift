#if Tools
import Lookahead
import LookaheadServer
import LookaheadSimulation
import Testing

@testable import LookaheadLive

/// The real replay of a feed of carousels (`simulate --real --scenario
/// carousels`) against the embedded feed server: the same driver, the same
/// visibility, both axes. No assertion is about timing.
@Suite("Real replay of carousels", .realTime, .timeLimit(.minutes(1)))
struct CarouselReplayTests {
    /// 12 carousel rows of 10 items on a 390 × 400 screen: the feed scrolls
    /// down 300 pt while row 1's carousel is swiped 500 pt, then rests.
    static func scenario() -> SimulationScenario {
        let rows = Array(
            repeating: CarouselFeedLayout.Row.carousel(height: 150, itemWidth: 120, itemCount: 10, spacing: 10),
            count: 12)
        var samples: [ScrollTrace.Sample] = []
        for frame in 0...30 {
            let time = Duration.milliseconds(frame * 20)
            samples.append(
                ScrollTrace.Sample(
                    time: time, offset: Double(frame) * 10, row: 1, rowOffset: Double(min(frame, 25)) * 20))
        }
        samples.append(ScrollTrace.Sample(time: .milliseconds(1_500), offset: 300))
        return SimulationScenario(
            name: "tiny-carousels", layout: .carousels(rows: rows), viewport: Size(width: 390, height: 400),
            frameRate: 60,
            network: NetworkModel(seed: 3, latency: .fixed(.milliseconds(2)), payload: .uniform(400...900)),
            maxConcurrentLoads: 4, trace: ScrollTrace(samples: samples))
    }

    @Test(
        "A feed of carousels replays for real: every visible item counted as the simulator counts it, loads landing",
        arguments: [SimulationStrategy.system, .texture, .adaptive])
    func carouselsReplayForReal(strategy: SimulationStrategy) async throws {
        // Given a tiny feed of carousels, one of them swiped while the feed scrolls
        let scenario = Self.scenario()
        // When it is replayed for real and simulated
        let real = try await RealReplay(scenario: scenario).run(strategy)
        let simulated = Simulator(scenario: scenario).run(strategy)
        // Then both axes' visible items are counted frame for frame as the simulator counts them
        #expect(real.result.visibleCellFrames == simulated.visibleCellFrames)
        #expect(real.result.blankCellFrames <= real.result.visibleCellFrames)
        // And the items asked for reached the server and arrived
        #expect(real.result.completedLoads > 0)
        #expect(real.fetchStatistics.loadsFailed == 0)
        // (rows scrolled away cancel their carousels' prefetches: a load
        // cancelled while its connection opens may never reach the server)
        let server = try #require(real.serverStatistics)
        #expect(server.requests <= real.result.requests, "\(strategy)")
        #expect(server.requests >= real.result.completedLoads, "\(strategy)")
    }
}
#endif
