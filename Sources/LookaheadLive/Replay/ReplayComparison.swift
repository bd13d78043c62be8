#if Tools
public import LookaheadSimulation

/// The simulator's and a real replay's blank ratios, side by side: does the
/// simulator tell the truth?
///
/// Its `Codable` form is `lookahead simulate --real --compare --json`.
public struct ReplayComparison: Sendable, Codable, Hashable {
    /// One strategy on one scenario.
    public struct Row: Sendable, Codable, Hashable {
        public var scenario: String
        public var strategy: String
        public var simulatedBlankRatio: Double
        public var realBlankRatio: Double
        /// `realBlankRatio / simulatedBlankRatio`: 1 when they agree, above 1
        /// when the real run left more blanks; `nil` when the simulator left none.
        public var ratio: Double?

        /// Creates a row; the ratio is derived.
        public init(scenario: String, strategy: String, simulatedBlankRatio: Double, realBlankRatio: Double) {
            self.scenario = scenario
            self.strategy = strategy
            self.simulatedBlankRatio = simulatedBlankRatio
            self.realBlankRatio = realBlankRatio
            ratio = simulatedBlankRatio > 0 ? realBlankRatio / simulatedBlankRatio : nil
        }
    }

    /// The rows, in the real report's order.
    public var rows: [Row]
    /// The simulator's report.
    public var simulated: SimulationReport
    /// The real replay's report.
    public var real: SimulationReport

    /// Pairs the two reports' results by scenario and strategy name; a result
    /// only one side has gets no row.
    ///
    /// - Complexity: O(results).
    public init(simulated: SimulationReport, real: SimulationReport) {
        var simulatedRatios: [String: Double] = [:]
        for scenario in simulated.scenarios {
            for result in scenario.strategies { simulatedRatios["\(scenario.name)/\(result.name)"] = result.blankRatio }
        }
        rows = real.scenarios.flatMap { scenario in
            scenario.strategies.compactMap { result in
                simulatedRatios["\(scenario.name)/\(result.name)"].map {
                    Row(
                        scenario: scenario.name, strategy: result.name, simulatedBlankRatio: $0,
                        realBlankRatio: result.blankRatio)
                }
            }
        }
        self.simulated = simulated
        self.real = real
    }
}
#endif
