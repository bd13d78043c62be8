import Foundation
import Lookahead
import LookaheadTestSupport
import Testing

@testable import LookaheadSimulation

/// Failures of the lower bound found on traces and by the bound fuzzer
/// (`lookahead torture bound`), kept: each case a plan the simulator ran
/// under a bound that claimed no plan could.
@Suite(.queuedOnTheHeavyTestThread)
struct LowerBoundRegressionTests {
    /// Every per-item strategy and the oracle at or over the bound in `scenario`.
    func expectNothingUnderTheBound(in scenario: SimulationScenario, _ label: String) {
        let bound = LowerBound(scenario: scenario, allowsHedging: true)
        let simulator = Simulator(scenario: scenario)
        for strategy in SimulationStrategy.allCases where !strategy.loadsPages {
            let blank = simulator.run(strategy).blankCellFrames
            #expect(blank >= bound.blankCellFrames, "\(label), \(strategy): \(blank) < bound \(bound.blankCellFrames)")
        }
    }

    /// A human-like skimming trace (short pauses, strong flings, frequent
    /// reversals) on `fling`: the oracle hedged items whose second attempt
    /// is faster than their first without landing a frame sooner, holding
    /// slots for less time than the bound allowed (it kept a hedge only
    /// where it lands earlier). Before: bound 43, oracle 41.
    @Test func aSkimmingTraceOnFling() async throws {
        let path = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/traces/skimmer-oracle-under-bound.csv").path
        let trace = try ScrollTrace(contentsOfCSV: path)
        await onHeavyTestThread {
            var scenario = SimulationScenario.builtIn(named: "fling", seed: 1)!
            scenario.trace = trace
            expectNothingUnderTheBound(in: scenario, "skimmer trace, fling")
        }
    }

    /// Fuzzer instances with failing attempts: a hedge that lands first cuts
    /// the failed attempt it raced short, which the bound counted at its
    /// whole latency. Before: oracle 7 < bound 9, and 15 < 16.
    @Test(arguments: [UInt64(6_847_498_309_112_490_453), 6_453_436_345_309_893_867])
    func aHedgeCutsTheFailedAttemptItRacedShort(seed: UInt64) async {
        await onHeavyTestThread {
            expectNothingUnderTheBound(in: BoundFuzzer.instance(seed: seed), "fuzzer instance \(seed)")
        }
    }

    /// The fuzzer's short form: a few dozen instances of every style, and
    /// small ones against every list schedule (the long form is
    /// `lookahead torture bound --instances 3000`).
    @Test func theBoundFuzzerFindsNothingOnAShortRun() async {
        await onHeavyTestThread {
            let report = BoundFuzzer.run(instances: 30, seed: 0xB0_0D)
            #expect(report.instances + report.refused == 30)
            #expect(report.smallInstances >= 2)
            #expect(report.violations.isEmpty, "seed 0xB00D: \(report.violations)")
        }
    }
}
