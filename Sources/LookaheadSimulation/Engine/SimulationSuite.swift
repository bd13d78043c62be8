/// Runs scenarios × strategies and gathers the report.
public struct SimulationSuite: Sendable {
    public var seed: UInt64
    public var scenarios: [SimulationScenario]
    public var strategies: [SimulationStrategy]

    public init(seed: UInt64, scenarios: [SimulationScenario], strategies: [SimulationStrategy]) {
        self.seed = seed
        self.scenarios = scenarios
        self.strategies = strategies
    }

    /// Checks every scenario: see ``SimulationScenario/validate()``.
    ///
    /// - Throws: ``SimulationConfigurationError`` for the first scenario out of range.
    public func validate() throws(SimulationConfigurationError) {
        for scenario in scenarios { try scenario.validate() }
    }

    /// One finished run, for progress reports.
    public struct Progress: Sendable {
        public var completed: Int
        public var total: Int
        public var scenario: String
        public var strategy: SimulationStrategy
        public var timing: SimulationTiming
    }

    /// Runs everything, calling `progress` after each run.
    public func run(progress: (Progress) -> Void = { _ in }) -> SimulationReport {
        var report = SimulationReport(seed: seed)
        let total = scenarios.count * strategies.count
        var completed = 0
        for scenario in scenarios {
            let simulator = Simulator(scenario: scenario)
            var results: [StrategyResult] = []
            for strategy in strategies {
                let (result, timing) = simulator.runTimed(strategy)
                results.append(result)
                completed += 1
                progress(
                    Progress(
                        completed: completed, total: total, scenario: scenario.name, strategy: strategy, timing: timing)
                )
            }
            report.scenarios.append(SimulationReport.Scenario(scenario: scenario, strategies: results))
        }
        return report
    }
}
