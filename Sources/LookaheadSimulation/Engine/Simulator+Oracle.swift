import Lookahead

// How the simulator runs the oracle: every plan it has, the searched ones
// included, run for real; the best one is the oracle's result.

extension Simulator {
    /// The model steps ``OracleSearch`` may spend on `itemCount` items:
    /// some forty rounds of its moves (a round costs about 3.5 n² steps), at
    /// most 800 million (seconds in a release build).
    static func oracleSearchBudget(itemCount: Int) -> Int {
        min(800_000_000, 300 * itemCount * itemCount)
    }

    /// Runs the oracle's plans and keeps the one with the fewest blank
    /// cell-frames (then the fewest requests): knowing the future includes
    /// knowing which plan works out.
    ///
    /// The plans: the fixed ones of ``OraclePlan`` and the release orders
    /// ``OracleSearch`` finds from the lower bound's relaxation, released
    /// just in time (and the best two also all at once); then the same
    /// search on a model that hedges (``OracleTimeline``'s `hedging`: attempt
    /// 1 sent with attempt 0 where it lands first and shows more), its
    /// orders released just in time with those hedges (an eighth of the
    /// search budget: a hedging model's step costs about twice a plain one's,
    /// and on `photos` seed 4 the plain search stops by itself after 190 of
    /// its 800 million steps while the hedged one would use 300 million, 30 s).
    /// The oracle knows every attempt's latency draw, so it hedges the loads
    /// a hedge speeds up, where a strategy hedges on a threshold; without
    /// its own hedges a hedging `adaptive` beat it by up to 26 % (`feed`).
    func runOracle() -> (result: StrategyResult, timing: SimulationTiming, readyTimes: [Int: Duration]) {
        var problem = LowerBoundProblem(scenario: scenario)
        let solution = problem.solve(iterations: 400)
        let visibility = ScenarioVisibility(scenario: scenario)
        let budget = Self.oracleSearchBudget(itemCount: visibility.frames.count)
        let timeline = OracleTimeline(scenario: scenario, visibility: visibility)
        var search = OracleSearch(timeline: timeline, deadlineOrder: visibility.itemsByFirstAppearance, budget: budget)
        let orders = search.candidates(from: solution).prefix(4)
        // Each order just in time, and the best two also all at once (loads
        // then share the link, which the model does not see but sometimes pays).
        let justInTime = orders.map { OraclePlan.searched(timeline.releases(of: $0)) }
        let atOnce = orders.prefix(2).map { order in
            OraclePlan.searched(timeline.releases(of: order).map { (.zero, $0.item) })
        }
        var runs = (OraclePlan.fixedPlans + justInTime + atOnce).map {
            runOraclePlan($0, relaxationShownFrom: solution.shownFrom)
        }
        let hedging = OracleTimeline(scenario: scenario, visibility: visibility, hedging: true)
        var hedgedSearch = OracleSearch(
            timeline: hedging, deadlineOrder: visibility.itemsByFirstAppearance, budget: budget / 8)
        for order in hedgedSearch.candidates(from: solution).prefix(4) {
            let (releases, hedged) = hedging.hedgedReleases(of: order)
            runs.append(runOraclePlan(.searched(releases), hedging: hedged))
        }
        return runs.min {
            ($0.result.blankCellFrames, $0.result.requests) < ($1.result.blankCellFrames, $1.result.requests)
        }!
    }

    /// Runs one of the oracle's plans, the loads of `hedged` items hedged as
    /// they start (through the scheduler's hedge, as a strategy's are).
    func runOraclePlan(
        _ plan: OraclePlan, hedging hedged: Set<Int> = [], relaxationShownFrom: [Int: Int] = [:]
    ) -> (result: StrategyResult, timing: SimulationTiming, readyTimes: [Int: Duration]) {
        var run = SimulationRun(scenario: scenario, strategy: .oracle, oraclePlan: plan)
        run.relaxationShownFrom = relaxationShownFrom
        run.driver.loader.hedgesAtStart = hedged
        return Self.drive(&run)
    }
}
