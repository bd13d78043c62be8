/// The results of a simulation: every scenario, every strategy.
///
/// Its `Codable` form is the `--json` output of `lookahead simulate`; it holds
/// no wall-clock figure, so the same seed gives byte-identical JSON.
public struct SimulationReport: Sendable, Codable, Hashable {
    public struct Scenario: Sendable, Codable, Hashable {
        public var name: String
        public var strategies: [StrategyResult]
        /// Strategies that beat the oracle, and by how much: a finding to look
        /// into (the oracle is a strong reference, not a proven optimum).
        public var findings: [String]
        /// Blank cell-frames no per-item strategy can go under (see ``LowerBound``).
        public var lowerBound: LowerBound?
        /// The causal reference's run, when asked for (`simulate --causal`):
        /// what planning against sampled futures of the gesture model leaves
        /// (``Simulator/runCausalReference(samples:)``).
        public var causalReference: StrategyResult?

        public init(
            name: String, strategies: [StrategyResult], findings: [String] = [], lowerBound: LowerBound? = nil
        ) {
            self.name = name
            self.strategies = strategies
            self.findings = findings
            self.lowerBound = lowerBound
        }
    }

    public var seed: UInt64
    public var scenarios: [Scenario]

    public init(seed: UInt64, scenarios: [Scenario] = []) {
        self.seed = seed
        self.scenarios = scenarios
    }
}

extension SimulationReport.Scenario {
    /// A scenario's results with its lower bound and its findings: how the
    /// simulator and the real replay both report a scenario.
    ///
    /// - Complexity: the lower bound's (see ``LowerBound/init(scenario:iterations:)``).
    public init(scenario: SimulationScenario, strategies: [StrategyResult]) {
        // With hedges allowed: `adaptive` may hedge (a setting `tune` searches).
        let lowerBound = LowerBound(scenario: scenario, allowsHedging: true)
        self.init(
            name: scenario.name, strategies: strategies,
            findings: Self.findings(for: strategies, lowerBound: lowerBound), lowerBound: lowerBound)
    }

    /// Compares every strategy with the oracle's blank cell-frames, and every
    /// per-item strategy with the lower bound (going under it would be a bug
    /// in the bound or in the simulator).
    static func findings(for results: [StrategyResult], lowerBound: LowerBound? = nil) -> [String] {
        var findings: [String] = []
        if let lowerBound {
            for result in results where result.blankCellFrames < lowerBound.blankCellFrames {
                // Pages carry many items a request: outside the bound's premises.
                if let strategy = SimulationStrategy(rawValue: result.name), strategy.loadsPages { continue }
                findings.append(
                    "\(result.name) goes under the lower bound: \(result.blankCellFrames) blank cell-frames "
                        + "against \(lowerBound.blankCellFrames) (a bug in the bound or the simulator)")
            }
        }
        guard let oracle = results.first(where: { $0.name == SimulationStrategy.oracle.rawValue }) else {
            return findings
        }
        return findings
            + results.compactMap { result in
                guard result.name != oracle.name, result.blankCellFrames < oracle.blankCellFrames else { return nil }
                return "\(result.name) beats the oracle: \(result.blankCellFrames) blank cell-frames "
                    + "against \(oracle.blankCellFrames) (\(oracle.blankCellFrames - result.blankCellFrames) fewer)"
            }
    }
}
