import Lookahead

/// One `lookahead tune` run: the fixed policies and the shipped adaptive one
/// as baselines, a search over the adaptive settings on the training traces,
/// and every score again on the held-out traces the search never saw.
public struct PolicyTuning: Sendable {
    /// The scenarios the search scores settings on.
    public var training: [SimulationScenario]
    /// The scenarios the recommendation is checked on.
    public var heldOut: [SimulationScenario]
    /// The waste budget; `nil` for ``defaultBudget(after:)`` of the best
    /// policy today (the fixed ones and the shipped adaptive one) on the
    /// training traces.
    public var maxWasteRatio: Double?

    /// Creates a tuning run.
    ///
    /// - Precondition: at least one training and one held-out scenario.
    public init(training: [SimulationScenario], heldOut: [SimulationScenario], maxWasteRatio: Double? = nil) {
        precondition(!training.isEmpty && !heldOut.isEmpty, "PolicyTuning: needs training and held-out traces")
        self.training = training
        self.heldOut = heldOut
        self.maxWasteRatio = maxWasteRatio
    }

    /// The name of the recommended settings' results.
    public static let recommendedName = "recommended"

    /// The fixed policies a recommendation is measured against.
    public static let fixedStrategies: [SimulationStrategy] = [.system, .nuke, .texture]

    /// One step of progress: what is being scored, and how far along.
    public struct Progress: Sendable {
        public var step: String
        public var completed: Int
        public var total: Int
    }

    /// Runs the baselines, the search and (if asked) the exhaustive reference.
    ///
    /// - Parameter exhaustive: also score every combination of settings on
    ///   the held-out traces, to say how far the recommendation is from the
    ///   best there is (slow: ``PolicyTuner/axes``' product of runs).
    public func run(exhaustive: Bool = false, progress: (Progress) -> Void = { _ in }) -> TuningReport {
        let concurrency = training[0].maxConcurrentLoads
        let shipped = AdaptiveSettings.shipped(maxConcurrentLoads: concurrency)
        // The app's own learned reach, from the training traces: a start of its own.
        let starts = Self.starts(shipped, ownReach: GestureReach.fitted(on: training))
        let baselines = Self.fixedStrategies + [.adaptive]
        let searchBound =
            starts.count * (1 + 3 * PolicyTuner.axes.reduce(0) { $0 + $1.variants(shipped).count - 1 })
        let exhaustiveCount = exhaustive ? PolicyTuner.axes.reduce(1) { $0 * $1.variants(shipped).count } : 0
        let total = 2 * baselines.count + 2 + searchBound + 1 + exhaustiveCount
        var completed = 0
        func advance(_ step: String) {
            completed += 1
            progress(Progress(step: step, completed: min(completed, total), total: total))
        }

        var rows: [TuningReport.Row] = []
        // Each held-out scenario's results, for the chart and the HTML report.
        var heldOutResults: [[StrategyResult]] = heldOut.map { _ in [] }
        for strategy in baselines {
            let train = Self.score(strategy, on: training)
            advance("\(strategy.rawValue) on the training traces")
            for (index, scenario) in heldOut.enumerated() {
                heldOutResults[index].append(Simulator(scenario: scenario).run(strategy))
            }
            advance("\(strategy.rawValue) on the held-out traces")
            let held = heldOutResults.reduce(PolicyTuner.Score.zero) { $0 + PolicyTuner.Score($1.last!) }
            rows.append(TuningReport.Row(name: strategy.rawValue, training: train, heldOut: held))
        }
        // By default, not measurably more wasteful than the best policy there is today.
        let bestToday = rows.min {
            ($0.training.blankCellFrames, $0.training.wastedLoads) < (
                $1.training.blankCellFrames, $1.training.wastedLoads
            )
        }!
        let budget = maxWasteRatio ?? Self.defaultBudget(after: bestToday.training)
        let tuner = PolicyTuner(maxWasteRatio: budget)
        let search = tuner.search(from: starts) { settings in
            defer { advance("searching: \(settings)") }
            return Self.score(settings, on: training)
        }
        let recommended = search.best.settings
        for (index, scenario) in heldOut.enumerated() {
            var result = Simulator(scenario: scenario).run(adaptive: recommended)
            result.name = Self.recommendedName
            heldOutResults[index].append(result)
        }
        let heldOutScore = heldOutResults.reduce(PolicyTuner.Score.zero) { $0 + PolicyTuner.Score($1.last!) }
        rows.append(TuningReport.Row(name: Self.recommendedName, training: search.best.score, heldOut: heldOutScore))
        advance("the recommendation on the held-out traces")
        let trainingBound = training.reduce(0) { $0 + LowerBound(scenario: $1, allowsHedging: true).blankCellFrames }
        advance("the lower bound on the training traces")
        var heldOutReport = SimulationReport(seed: training[0].network.seed)
        for (scenario, results) in zip(heldOut, heldOutResults) {
            heldOutReport.scenarios.append(SimulationReport.Scenario(scenario: scenario, strategies: results))
        }
        let heldOutBound = heldOutReport.scenarios.reduce(0) { $0 + ($1.lowerBound?.blankCellFrames ?? 0) }
        advance("the lower bound on the held-out traces")

        var reference: TuningReport.Exhaustive?
        if exhaustive {
            let all = tuner.exhaustive(from: shipped) { settings in
                defer { advance("exhaustive: \(settings)") }
                return Self.score(settings, on: heldOut)
            }
            // The fair comparison: the fewest blanks of any setting wasting no more than the recommendation did there.
            let recommendedWaste = heldOutScore.wasteRatio
            let comparable = all.evaluated.filter { $0.score.wasteRatio <= recommendedWaste }.min {
                ($0.score.blankCellFrames, $0.score.wastedLoads) < ($1.score.blankCellFrames, $1.score.wastedLoads)
            }
            reference = TuningReport.Exhaustive(
                best: all.best, bestAtRecommendedWaste: comparable, evaluated: all.evaluated.count)
        }
        var report = TuningReport(
            rows: rows, recommended: recommended, maxWasteRatio: budget, evaluated: search.evaluated.count,
            paretoFront: search.paretoFront, lowerBoundTraining: trainingBound, lowerBoundHeldOut: heldOutBound,
            exhaustive: reference, heldOutResults: heldOutReport,
            linkBitsPerSecond: {
                guard case .bitsPerSecond(let bits) = training[0].network.bandwidth else { return nil }
                return bits
            }())
        report.isCarouselFeed = training[0].makeCarouselFeed() != nil
        return report
    }

    /// The waste budget when the user sets none: `baseline`'s waste ratio
    /// plus two standard errors of it (a proportion of its completed loads).
    ///
    /// The ratio measured on a few training traces is itself noisy: a budget
    /// at exactly that value rejects settings that waste no measurably more
    /// and keeps the one that happened to fit, which then wastes as much as
    /// the others on traces it has not seen while showing more blanks (on
    /// `fling`, seeds 1–3 trained and 4–5 held out: 4.6% on training, 11.1%
    /// held out for every candidate). Two standard errors is the usual line
    /// for "measurably": about 0.7 points on 3,000 completed loads at 5%.
    static func defaultBudget(after baseline: PolicyTuner.Score) -> Double {
        let ratio = baseline.wasteRatio
        let loads = Double(max(baseline.completedLoads, 1))
        return min(1, ratio + 2 * (ratio * (1 - ratio) / loads).squareRoot())
    }

    /// Where the search starts: the shipped settings, a narrow window
    /// (half a screen ahead, a quarter behind, a reach of 3 screens) — coordinate
    /// descent from one start can stop on a ridge the other reaches — and,
    /// given one unlike the shipped model, the app's own learned reach.
    static func starts(_ shipped: AdaptiveSettings, ownReach: GestureReach? = nil) -> [AdaptiveSettings] {
        var narrow = shipped
        narrow.restingLeadingScreens = 0.5
        narrow.restingTrailingScreens = 0.25
        narrow.maxReachScreens = 3
        guard let ownReach, ownReach != shipped.gestureReach else { return [shipped, narrow] }
        var own = shipped
        own.gestureReach = ownReach
        return [shipped, narrow, own]
    }

    /// A strategy's score summed over `scenarios`.
    static func score(_ strategy: SimulationStrategy, on scenarios: [SimulationScenario]) -> PolicyTuner.Score {
        scenarios.reduce(.zero) { $0 + PolicyTuner.Score(Simulator(scenario: $1).run(strategy)) }
    }

    /// The adaptive policy's score with `settings`, summed over `scenarios`.
    static func score(_ settings: AdaptiveSettings, on scenarios: [SimulationScenario]) -> PolicyTuner.Score {
        scenarios.reduce(.zero) { $0 + PolicyTuner.Score(Simulator(scenario: $1).run(adaptive: settings)) }
    }

    /// The held-out scenarios' replays for the HTML report: every baseline and
    /// the recommendation (named ``recommendedName``), run again with their
    /// arrival times.
    public func heldOutTimelines(recommended: AdaptiveSettings) -> [ReplayTimeline] {
        heldOut.map { scenario in
            let simulator = Simulator(scenario: scenario)
            var strands = (Self.fixedStrategies + [.adaptive]).map { strategy in
                let run = simulator.runRecorded(strategy)
                return (
                    name: strategy.rawValue, readyTimes: run.readyTimes, blankCellFrames: run.result.blankCellFrames
                )
            }
            let tuned = simulator.runRecorded(adaptive: recommended)
            strands.append((Self.recommendedName, tuned.readyTimes, tuned.result.blankCellFrames))
            return ReplayTimeline(scenario: scenario, strategies: strands)
        }
    }
}
