import LookaheadTestSupport
import Testing

@testable import Lookahead
@testable import LookaheadSimulation

/// A view that scrolls sideways is planned as its transpose: the
/// coordinator handed `photos-sideways`' horizontal geometry — offsets,
/// viewport, content and frames in `x` — decides what it decides for
/// `photos` in `y`, frame for frame, so every figure is the same.
@Suite(.timeLimit(.minutes(5)))
struct SidewaysScenarioTests {
    @Test(arguments: [UInt64(1), 1_007])
    func aSidewaysPhotoGridLeavesWhatTheUprightOneLeaves(seed: UInt64) async throws {
        try await onHeavyTestThread {
            // Given the photo grid upright and on its side, on one seed and trace
            let upright = try #require(SimulationScenario.builtIn(named: "photos", seed: seed, duration: .seconds(8)))
            let sideways = try #require(
                SimulationScenario.builtIn(named: "photos-sideways", seed: seed, duration: .seconds(8)))
            #expect(sideways.axis == .horizontal)

            // When the coordinator's strategies run on each
            var blank: [SimulationStrategy: Int] = [:]
            for strategy in [SimulationStrategy.adaptive, .texture] {
                let a = Simulator(scenario: upright).run(strategy)
                let b = Simulator(scenario: sideways).run(strategy)

                // Then the blank cells, loads and waste are the same
                #expect(b.blankCellFrames == a.blankCellFrames, "seed \(seed), \(strategy)")
                #expect(b.wastedLoads == a.wastedLoads, "seed \(seed), \(strategy)")
                #expect(b.requests == a.requests, "seed \(seed), \(strategy)")
                blank[strategy] = b.blankCellFrames
            }
            // And the adaptive planner is ahead of Texture's window sideways as upright
            #expect(blank[.adaptive]! < blank[.texture]!, "seed \(seed): \(blank)")
        }
    }
}
