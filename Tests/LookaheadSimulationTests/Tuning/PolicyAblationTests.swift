import Lookahead
import LookaheadTestSupport
import Testing

@testable import LookaheadSimulation

/// ``PolicyAblation``: each row is the shipped settings with one mechanism
/// switched, run as `lookahead tune` runs a setting.
@Suite(.queuedOnTheHeavyTestThread)
struct PolicyAblationTests {
    @Test func eachRowIsTheShippedRunWithItsMechanismSwitched() async {
        await onHeavyTestThread {
            // Given feed, seed 1
            let ablation = PolicyAblation(scenarios: ["feed"], seeds: [1])
            let cells = ablation.run()

            // Then the shipped row is the shipped settings' run, and every other row the run of its own settings
            let scenario = SimulationScenario.builtIn(named: "feed", seed: 1)!
            let simulator = Simulator(scenario: scenario)
            let shipped = AdaptiveSettings.shipped(maxConcurrentLoads: scenario.maxConcurrentLoads)
            for (row, mechanism) in PolicyAblation.mechanisms.enumerated() {
                let result = simulator.run(adaptive: mechanism.apply(shipped))
                #expect(cells[row][0].blankCellFrames == result.blankCellFrames, "\(mechanism.name)")
                #expect(cells[row][0].requests == result.requests, "\(mechanism.name)")
            }
            // And each row but the first changes its setting
            for mechanism in PolicyAblation.mechanisms.dropFirst() {
                #expect(mechanism.apply(shipped) != shipped, "\(mechanism.name)")
            }
            // And the table has a header, a rule and a line per mechanism
            #expect(ablation.markdown(cells).split(separator: "\n").count == PolicyAblation.mechanisms.count + 2)
        }
    }

    @Test func theShippedSettingsRunAsTheShippedStrategyOnEveryScenario() async {
        await onHeavyTestThread {
            // Given every built-in scenario, seed 3, its first 20 seconds
            for name in SimulationScenario.builtInNames {
                let scenario = SimulationScenario.builtIn(named: name, seed: 3, duration: .seconds(20))!
                let simulator = Simulator(scenario: scenario)

                // When the shipped settings run as `tune` and `ablate` run them
                let tuned = simulator.run(adaptive: .shipped(maxConcurrentLoads: scenario.maxConcurrentLoads))

                // Then they are `simulate`'s `adaptive`, frame for frame: the shipped row of the ablation is what ships
                let shipped = simulator.run(.adaptive)
                #expect(tuned.blankCellFrames == shipped.blankCellFrames, "\(name)")
                #expect(tuned.requests == shipped.requests, "\(name)")
                #expect(tuned.wastedLoads == shipped.wastedLoads, "\(name)")
            }
        }
    }

    @Test func theShippedFetcherHedgesAsTheRecommendedHedgingAnAppPasses() {
        // The hedging `adaptive`'s figures include is the one the README and the articles have an app pass
        let shipped = AdaptiveSettings.shipped(maxConcurrentLoads: 6)
        #expect(shipped.fetcherHedging == FetchHedging.recommended)
        #expect(shipped.hedgesDueSoonAtOnce(over: .unlimited))
        #expect(shipped.swiftCode.contains("hedging: .afterP90WithPrior(.milliseconds(34))"))
    }

    @Test func aScenarioIsRunAsAdjusted() async {
        await onHeavyTestThread {
            // Given feed, seed 1, over a 100 kbit/s link instead of an unlimited one
            let capped: @Sendable (inout SimulationScenario) -> Void = {
                $0.network.bandwidth = .bitsPerSecond(100_000)
            }
            let cells = PolicyAblation(scenarios: ["feed"], seeds: [1], adjust: capped).run()

            // Then its shipped row is the capped scenario's run, not the built-in one's
            var scenario = SimulationScenario.builtIn(named: "feed", seed: 1)!
            let shipped = AdaptiveSettings.shipped(maxConcurrentLoads: scenario.maxConcurrentLoads)
            let unlimited = Simulator(scenario: scenario).run(adaptive: shipped)
            capped(&scenario)
            let result = Simulator(scenario: scenario).run(adaptive: shipped)
            #expect(cells[0][0].blankCellFrames == result.blankCellFrames)
            #expect(result.blankCellFrames != unlimited.blankCellFrames)
        }
    }

    @Test func theReaderPaceRowSwitchesTheShippedFloorOffForTheFixedWindow() {
        let shipped = AdaptiveSettings.shipped(maxConcurrentLoads: 6)
        #expect(shipped.restingFloorScreens == 1)
        let row = PolicyAblation.mechanisms.first { $0.name == "no reader pace (a fixed window)" }
        #expect(row != nil)
        #expect(row.map { $0.apply(shipped).restingFloorScreens == nil } == true)
        #expect(row?.apply(shipped).restingLeadingScreens == shipped.restingLeadingScreens)
    }

    @Test func theAheadFirstRowOrdersBothSidesNearestFirst() {
        // The shipped settings order what is ahead first at rest; the row switches that alone
        let shipped = AdaptiveSettings.shipped(maxConcurrentLoads: 6)
        #expect(shipped.restingTrailingWeight == AdaptivePrefetchPolicy().restingTrailingWeight)
        #expect(shipped.makeAdaptivePolicy().restingTrailingWeight == 3)
        let row = PolicyAblation.mechanisms.first { $0.name == "no ahead-first at rest" }
        #expect(row?.apply(shipped).restingTrailingWeight == 1)
        #expect(row?.apply(shipped).with { $0.restingTrailingWeight = 3 } == shipped)
    }
}
