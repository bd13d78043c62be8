#if Tools
import LookaheadSimulation
import Testing

@testable import LookaheadLive

@Suite("Replay comparison", .timeLimit(.minutes(1)))
struct ReplayComparisonTests {
    @Test("Rows pair results by scenario and strategy, with real / simulated")
    func rowsPairResults() throws {
        // Given a simulated report with two strategies and a real one with one of them
        let scenario = ReplayTestScenario.make()
        let simulated = SimulationSuite(seed: 7, scenarios: [scenario], strategies: [.none, .system]).run()
        var realNone = try #require(simulated.scenarios.first?.strategies.first)
        realNone.blankRatio = (simulated.scenarios[0].strategies[0].blankRatio) * 1.5
        let real = SimulationReport(seed: 7, scenarios: [.init(name: scenario.name, strategies: [realNone])])
        // When they are compared
        let comparison = ReplayComparison(simulated: simulated, real: real)
        // Then there is one row, for `none`, with the ratio
        #expect(comparison.rows.count == 1)
        let row = try #require(comparison.rows.first)
        #expect(row.strategy == "none")
        #expect(row.scenario == "tiny")
        if simulated.scenarios[0].strategies[0].blankRatio > 0 {
            #expect(abs((row.ratio ?? 0) - 1.5) < 1e-9)
        } else {
            #expect(row.ratio == nil)
        }
    }

    @Test("A strategy the simulator left without blanks has no ratio")
    func zeroSimulatedBlanksHasNoRatio() {
        let row = ReplayComparison.Row(scenario: "s", strategy: "all", simulatedBlankRatio: 0, realBlankRatio: 0.1)
        #expect(row.ratio == nil)
    }
}
#endif
