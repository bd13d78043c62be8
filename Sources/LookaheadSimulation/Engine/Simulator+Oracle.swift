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
    /// just in time (and the best two also all at once).
    func runOracle() -> (result: StrategyResult, timing: SimulationTiming, readyTimes: [Int: Duration]) {
        var problem = LowerBoundProblem(scenario: scenario)
        let solution = problem.solve(iterations: 400)
        let visibility = ScenarioVisibility(scenario: scenario)
        let timeline = OracleTimeline(scenario: scenario, visibility: visibility)
        var search = OracleSearch(
            timeline: timeline, deadlineOrder: visibility.itemsByFirstAppearance,
            budget: Self.oracleSearchBudget(itemCount: visibility.frames.count))
        let orders = search.candidates(from: solution).prefix(4)
        // Each order just in time, and the best two also all at once (loads
        // then share the link, which the model does not see but sometimes pays).
        let justInTime = orders.map { OraclePlan.searched(timeline.releases(of: $0)) }
        let atOnce = orders.prefix(2).map { order in
            OraclePlan.searched(timeline.releases(of: order).map { (.zero, $0.item) })
        }
        let searched = justInTime + atOnce
        let runs = (OraclePlan.fixedPlans + searched).map {
            runTimed(.oracle, plan: $0, relaxationShownFrom: solution.shownFrom)
        }
        return runs.min {
            ($0.result.blankCellFrames, $0.result.requests) < ($1.result.blankCellFrames, $1.result.requests)
        }!
    }
}
