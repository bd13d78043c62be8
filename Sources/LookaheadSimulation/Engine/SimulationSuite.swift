/// Runs scenarios × strategies and gathers the report.
public struct SimulationSuite: Sendable {
    public var seed: UInt64
    public var scenarios: [SimulationScenario]
    public var strategies: [SimulationStrategy]
    /// Futures per plan for the causal reference, run beside the strategies
    /// on every scenario with a gesture model; `nil`: not run (it is slow).
    public var causalReferenceSamples: Int?

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

    /// The runs ``run(progress:)`` makes: each scenario with the strategies
    /// that run on it (``SimulationStrategy/runs(on:)``).
    public var runCount: Int {
        scenarios.reduce(0) { count, scenario in count + strategies.count { $0.runs(on: scenario.layout) } }
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
        run(keepingTimelines: false, progress: progress).report
    }

    /// Runs everything, keeping the replays if asked (none otherwise).
    public func run(
        keepingTimelines: Bool, progress: (Progress) -> Void = { _ in }
    ) -> (report: SimulationReport, timelines: [ReplayTimeline]) {
        var report = SimulationReport(seed: seed)
        var timelines: [ReplayTimeline] = []
        let total = runCount
        var completed = 0
        for scenario in scenarios {
            let simulator = Simulator(scenario: scenario)
            var results: [StrategyResult] = []
            var readyTimes: [[Int: Duration]] = []
            for strategy in strategies where strategy.runs(on: scenario.layout) {
                let (result, timing, ready) = simulator.runRecorded(strategy)
                results.append(result)
                if keepingTimelines { readyTimes.append(ready) }
                completed += 1
                progress(
                    Progress(
                        completed: completed, total: total, scenario: scenario.name, strategy: strategy, timing: timing)
                )
            }
            var reported = SimulationReport.Scenario(scenario: scenario, strategies: results)
            if let samples = causalReferenceSamples, let causal = simulator.runCausalReference(samples: samples) {
                reported.causalReference = causal
                if let bound = reported.lowerBound {
                    reported.findings += SimulationReport.Scenario.findings(for: [causal], lowerBound: bound)
                }
            }
            report.scenarios.append(reported)
            if keepingTimelines {
                let strands = zip(results, readyTimes).map { ($0.name, $1, $0.blankCellFrames) }
                timelines.append(ReplayTimeline(scenario: scenario, strategies: strands))
            }
        }
        return (report, timelines)
    }
}
