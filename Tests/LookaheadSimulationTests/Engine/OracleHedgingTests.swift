import Lookahead
import LookaheadTestSupport
import Testing

@testable import LookaheadSimulation

/// The oracle's hedges: the model's choice, the simulator running what the
/// model predicts, and the bound and the oracle against every schedule of
/// small instances, hedging choices included.
@Suite(.queuedOnTheHeavyTestThread)
struct OracleHedgingTests {
    /// `rows` rows of random heights scrolled past a two-row viewport, long-tailed
    /// latencies drawn per attempt (so a hedge may land first), `slots`
    /// slots, a link that two payloads saturate, attempts failing at `failureRate`.
    func instance(seed: UInt64, slots: Int, rows: Int = 5, failureRate: Double = 0) -> SimulationScenario {
        var random = TraceRandom(seed: seed)
        let heights = (0..<rows).map { _ in Double(Int.random(in: 80...160, using: &random)) }
        let seconds = Double(Int.random(in: 10...20, using: &random)) / 10
        return SimulationScenario(
            name: "brute-hedged", layout: .list(rowHeights: heights), viewport: Size(width: 390, height: 200),
            network: NetworkModel(
                seed: seed, latency: .logNormal(median: .milliseconds(120), p99: .milliseconds(700)),
                payload: .uniform(5_000...40_000), bandwidth: .bitsPerSecond(1_000_000), failureRate: failureRate),
            maxConcurrentLoads: slots,
            trace: LowerBoundBruteForceTests().linearTrace(distance: heights.reduce(0, +) - 200, seconds: seconds))
    }

    func timelines(_ scenario: SimulationScenario) -> (plain: OracleTimeline, hedging: OracleTimeline) {
        let visibility = ScenarioVisibility(scenario: scenario)
        return (
            OracleTimeline(scenario: scenario, visibility: visibility),
            OracleTimeline(scenario: scenario, visibility: visibility, hedging: true)
        )
    }

    /// The fewest blank cell-frames of any list schedule with any hedges,
    /// each run in the simulator, and the fewest without hedges.
    ///
    /// Every ordered subset of the items, and for each every subset of its
    /// items whose attempt 1 lands before what attempt 0 alone gives (a
    /// hedge that cannot land first only costs a slot and the link), hedged
    /// as they start; each released all at once, just in time by the model
    /// without hedges, and just in time by the hedging model allowed only
    /// those hedges.
    func bestSchedules(_ scenario: SimulationScenario) -> (hedged: Int, plain: Int) {
        let simulator = Simulator(scenario: scenario)
        let visibility = ScenarioVisibility(scenario: scenario)
        let (plain, hedging) = timelines(scenario)
        var best = (hedged: visibility.visibleCellFrames, plain: visibility.visibleCellFrames)
        func run(_ releases: [(time: Duration, item: Int)], hedges: Set<Int>) {
            let blank = simulator.runOraclePlan(.searched(releases), hedging: hedges).result.blankCellFrames
            best.hedged = min(best.hedged, blank)
            if hedges.isEmpty { best.plain = min(best.plain, blank) }
        }
        LowerBoundBruteForceTests().forEachOrderedSubset(of: visibility.itemsByFirstAppearance) { order in
            let hedgeable = order.filter { hedging.items[$0]?.hedge != nil }
            for mask in 0..<(1 << hedgeable.count) {
                let hedges = Set(hedgeable.indices.filter { mask & (1 << $0) != 0 }.map { hedgeable[$0] })
                run(order.map { (.zero, $0) }, hedges: hedges)
                run(plain.releases(of: order), hedges: hedges)
                var allowed = hedging
                for item in allowed.items.indices where !hedges.contains(item) { allowed.items[item]?.hedge = nil }
                let (releases, sent) = allowed.hedgedReleases(of: order)
                run(releases, hedges: sent)
            }
        }
        return best
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func withTwoSlotsTheHedgedBoundIsUnderEveryScheduleAndTheOracleNearTheBest(seed: UInt64) async {
        await onHeavyTestThread {
            // Given four rows, two slots, a shared link and latencies drawn per attempt
            check(instance(seed: seed, slots: 2, rows: 4), seed: seed)
        }
    }

    /// Five rows: about 7 s a case in a debug build, so two seeds.
    @Test(arguments: [UInt64(2), 13])
    func withFiveRowsTheHedgedBoundIsUnderEveryScheduleAndTheOracleNearTheBest(seed: UInt64) async {
        await onHeavyTestThread {
            // Given five rows, two slots, a shared link and latencies drawn per attempt
            check(instance(seed: seed, slots: 2), seed: seed)
        }
    }

    @Test(arguments: [UInt64(7), 8, 9, 10, 11, 12])
    func withThreeSlotsAndFailingAttemptsTheHedgedBoundIsUnderEveryScheduleAndTheOracleNearTheBest(seed: UInt64) async {
        await onHeavyTestThread {
            // Given four rows, three slots, and attempts that fail (a hedge may race a failing first attempt)
            check(instance(seed: seed, slots: 3, rows: 4, failureRate: 0.2), seed: seed)
        }
    }

    func check(_ scenario: SimulationScenario, seed: UInt64) {
        // When every schedule runs, hedges included, and the bound and the oracle are computed
        let best = bestSchedules(scenario)
        let bound = LowerBound(scenario: scenario, allowsHedging: true)
        let oracle = Simulator(scenario: scenario).run(.oracle)

        // Then bound ≤ best schedule, and the oracle is about as good as every schedule
        #expect(
            bound.blankCellFrames <= best.hedged,
            "seed \(seed): bound \(bound.blankCellFrames), best schedule \(best.hedged) (without hedges \(best.plain))")
        // (the oracle's search is a heuristic: within 5 % of the best schedule)
        #expect(
            Double(oracle.blankCellFrames) <= Double(best.hedged) * 1.05,
            "seed \(seed): oracle \(oracle.blankCellFrames), best schedule \(best.hedged) (without hedges \(best.plain))"
        )
        // and no strategy goes under the bound
        LowerBoundBruteForceTests().expectNoStrategyUnder(bound, in: scenario, seed: seed)
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5])
    func theModelPredictsWhatTheSimulatorShowsForHedgedOrders(seed: UInt64) async {
        await onHeavyTestThread {
            // Given a random list scrolled over a shared link with three slots and long-tailed latencies
            let scenario = OracleTimelineTests().randomList(seed: seed, p99: .milliseconds(600))
            let visibility = ScenarioVisibility(scenario: scenario)
            let model = timelines(scenario).hedging
            let search = OracleSearch(timeline: model, deadlineOrder: visibility.itemsByFirstAppearance, budget: 0)

            // When the deadline order, filled, runs just in time with the model's hedges
            let order = model.filled(visibility.itemsByFirstAppearance, lookahead: 32)
            let (releases, hedges) = model.hedgedReleases(of: order)
            let run = Simulator(scenario: scenario).runOraclePlan(.searched(releases), hedging: hedges).result

            // Then some loads were hedged, and the simulator shows exactly what the model predicts
            #expect(!hedges.isEmpty, "seed \(seed): no hedge")
            let predicted = visibility.visibleCellFrames - search.predictedShown(order)
            #expect(
                run.blankCellFrames == predicted,
                "seed \(seed): simulated \(run.blankCellFrames), predicted \(predicted)")
        }
    }

    @Test func aHedgeThatLandsFirstIsSentAndShowsMore() async {
        await onHeavyTestThread {
            // Given one row on screen for a second, two slots, and a seed whose
            // attempt 1 for item 0 lands well before attempt 0
            let scenario = (UInt64(1)...).lazy.map { seed in
                SimulationScenario(
                    name: "one", layout: .list(rowHeights: [100]), viewport: Size(width: 390, height: 100),
                    network: NetworkModel(
                        seed: seed, latency: .logNormal(median: .milliseconds(100), p99: .milliseconds(900)),
                        payload: .fixed(bytes: 6_250), bandwidth: .bitsPerSecond(1_000_000)),
                    maxConcurrentLoads: 2,
                    trace: ScrollTrace(samples: [.init(time: .zero, offset: 0), .init(time: .seconds(1), offset: 0)]))
            }.first { $0.network.latency(forItem: 0, attempt: 1) * 2 < $0.network.latency(forItem: 0, attempt: 0) }!
            let (plain, hedging) = timelines(scenario)

            // When the model plans it with and without hedging, and the simulator runs both
            let hedged = hedging.hedgedReleases(of: [0])
            let alone = plain.hedgedReleases(of: [0])
            let simulator = Simulator(scenario: scenario)
            let withHedge = simulator.runOraclePlan(.searched(hedged.releases), hedging: hedged.hedged).result
            let without = simulator.runOraclePlan(.searched(alone.releases)).result

            // Then only the hedging model hedges, and the hedge shows the item sooner
            #expect(hedged.hedged == [0])
            #expect(alone.hedged.isEmpty)
            #expect(withHedge.blankCellFrames < without.blankCellFrames)
            #expect(withHedge.requests == 2)
        }
    }
}
