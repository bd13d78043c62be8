// A randomized search for plans that go under the lower bound: short
// scenarios of every trace style, latency tail, failure rate, link and slot
// count, each run with every per-item strategy and the oracle, and small
// ones whose optimum is found by trying every list schedule. A plan under
// the bound means the bound's premises or its computation are wrong.

public import Lookahead

/// Looks for runs under ``LowerBound``, instead of waiting for one; see
/// ``run(instances:seed:progress:)``.
public enum BoundFuzzer {
    /// A run that left fewer blank cell-frames than the bound allows.
    public struct Violation: Sendable, Codable, Hashable {
        /// The instance's seed: ``instance(seed:)`` or ``smallInstance(seed:)`` rebuilds it.
        public var instanceSeed: UInt64
        /// Whether the instance is a small one, solved by brute force.
        public var isSmall: Bool
        /// The strategy's name, or `best list schedule`.
        public var strategy: String
        public var blankCellFrames: Int
        public var bound: Int
        /// The instance in words, to reproduce it.
        public var instance: String
    }

    /// What a search found.
    public struct Report: Sendable, Codable, Equatable {
        public var seed: UInt64 = 0
        /// Scenarios generated and checked, and those the simulator refused (not checked).
        public var instances = 0
        public var refused = 0
        /// Small instances whose every list schedule was run.
        public var smallInstances = 0
        /// Strategy runs and list schedules compared with the bound.
        public var runsChecked = 0
        public var violations: [Violation] = []
        /// The oracle's blank cell-frames over the bound's, summed over the
        /// instances where the bound is above zero (how tight it is).
        public var oracleBlankCellFrames = 0
        public var boundBlankCellFrames = 0
        public var seconds = 0.0
    }

    /// Checks `instances` scenarios from `seed` (every tenth of them also a
    /// small instance solved by brute force), calling `progress` with the
    /// instances done.
    public static func run(
        instances: Int, seed: UInt64, progress: (Int) -> Void = { _ in }
    ) -> Report {
        precondition(instances >= 1, "BoundFuzzer: instances must be at least 1, got \(instances)")
        let start = ContinuousClock.now
        var report = Report()
        report.seed = seed
        var seeds = SplitMix64(seed: seed)
        for done in 0..<instances {
            let instanceSeed = seeds.next()
            check(instance(seed: instanceSeed), seed: instanceSeed, isSmall: false, into: &report)
            if done % 10 == 0 {
                let smallSeed = seeds.next()
                check(smallInstance(seed: smallSeed), seed: smallSeed, isSmall: true, into: &report)
            }
            progress(done + 1)
        }
        report.seconds = (ContinuousClock.now - start) / .seconds(1)
        return report
    }

    /// A short scenario drawn from `seed`: a list or a grid, a trace of any
    /// style, a latency distribution with a tail from mild to heavy, failing
    /// attempts or none, an unlimited or a capped link, 1–8 slots.
    public static func instance(seed: UInt64) -> SimulationScenario {
        var random = SplitMix64(seed: seed)
        let viewport = Size(width: 390, height: (random.uniform(400...900)).rounded())
        let layout: SimulationScenario.Layout
        if random.chance(0.5) {
            let count = 60 + Int(random.next() % 240)
            layout = .list(rowHeights: (0..<count).map { _ in random.uniform(44...300).rounded() })
        } else {
            layout = .grid(
                columns: 2 + Int(random.next() % 4), itemCount: 100 + Int(random.next() % 500),
                spacing: Double(random.next() % 5), aspectRatio: random.uniform(0.6...1.5))
        }
        let median = random.uniform(15...300)
        let latency: NetworkModel.LatencyDistribution =
            random.chance(0.15)
            ? .fixed(.milliseconds(median))
            : .logNormal(median: .milliseconds(median), p99: .milliseconds(median * random.uniform(1.5...15)))
        let payload: NetworkModel.PayloadSizes =
            random.chance(0.5)
            ? .uniform(1_000...(2_000 + Int(random.next() % 200_000)))
            : .logNormal(median: 20_000 + Int(random.next() % 80_000), p99: 300_000 + Int(random.next() % 700_000))
        let bandwidth: NetworkModel.Bandwidth =
            random.chance(0.5) ? .unlimited : .bitsPerSecond(random.uniform(0.5...20) * 1_000_000)
        let failureRate = random.chance(0.5) ? 0 : random.uniform(0.01...0.3)
        let network = NetworkModel(
            seed: random.next(), latency: latency, payload: payload, bandwidth: bandwidth, failureRate: failureRate)
        var scenario = SimulationScenario(
            name: "fuzz", layout: layout, viewport: viewport, network: network,
            maxConcurrentLoads: 1 + Int(random.next() % 8),
            trace: ScrollTrace(samples: [ScrollTrace.Sample(time: .zero, offset: 0)]))
        let style = ScrollTraceGenerator.Style.allCases[
            Int(random.next() % UInt64(ScrollTraceGenerator.Style.allCases.count))]
        let contentHeight = scenario.makeLayout().contentSize.height
        scenario.trace = ScrollTraceGenerator(
            seed: random.next(), style: style, duration: .milliseconds(Int64(random.uniform(2_000...6_000))),
            contentHeight: contentHeight, viewportHeight: viewport.height
        ).makeTrace()
        return scenario
    }

    /// A scenario small enough to try every list schedule of: four or five
    /// rows of random heights under a two-row viewport, a trace of any style
    /// over them (1–2 s), latencies of 30–600 ms, a link two payloads
    /// saturate or none, two or three slots, sometimes failing attempts.
    public static func smallInstance(seed: UInt64) -> SimulationScenario {
        var random = SplitMix64(seed: seed)
        let heights = (0..<(4 + Int(random.next() % 2))).map { _ in random.uniform(80...160).rounded() }
        let latencies = heights.map { _ in Duration.milliseconds(Int64(random.uniform(30...600))) }
        let network = NetworkModel(
            seed: random.next(), latency: .perItem(latencies), payload: .uniform(5_000...40_000),
            bandwidth: random.chance(0.7) ? .bitsPerSecond(1_000_000) : .unlimited,
            failureRate: random.chance(0.3) ? 0.2 : 0)
        let viewport = Size(width: 390, height: 200)
        let style = ScrollTraceGenerator.Style.allCases[
            Int(random.next() % UInt64(ScrollTraceGenerator.Style.allCases.count))]
        let trace = ScrollTraceGenerator(
            seed: random.next(), style: style, duration: .milliseconds(Int64(random.uniform(1_000...2_000))),
            contentHeight: heights.reduce(0, +), viewportHeight: viewport.height
        ).makeTrace()
        return SimulationScenario(
            name: "fuzz-small", layout: .list(rowHeights: heights), viewport: viewport, network: network,
            maxConcurrentLoads: 2 + Int(random.next() % 2), trace: trace)
    }

    /// Runs every per-item strategy, the oracle and, for a small instance,
    /// every list schedule, against the bound.
    static func check(_ scenario: SimulationScenario, seed: UInt64, isSmall: Bool, into report: inout Report) {
        do {
            try scenario.validate()
        } catch {
            report.refused += 1
            return
        }
        if isSmall { report.smallInstances += 1 } else { report.instances += 1 }
        let bound = LowerBound(scenario: scenario, allowsHedging: true).blankCellFrames
        let simulator = Simulator(scenario: scenario)
        func compare(_ strategy: String, _ blank: Int) {
            report.runsChecked += 1
            guard blank < bound else { return }
            report.violations.append(
                Violation(
                    instanceSeed: seed, isSmall: isSmall, strategy: strategy, blankCellFrames: blank, bound: bound,
                    instance: describe(scenario)))
        }
        for strategy in SimulationStrategy.allCases where !strategy.loadsPages {
            let blank = simulator.run(strategy).blankCellFrames
            compare(strategy.rawValue, blank)
            if strategy == .oracle, bound > 0 {
                report.oracleBlankCellFrames += blank
                report.boundBlankCellFrames += bound
            }
        }
        if isSmall { compare("best list schedule", bestListSchedule(scenario, simulator: simulator)) }
    }

    /// The fewest blank cell-frames of any list schedule (every ordered subset
    /// of the items, released at once or just in time), each run in the simulator.
    static func bestListSchedule(_ scenario: SimulationScenario, simulator: Simulator) -> Int {
        let visibility = ScenarioVisibility(scenario: scenario)
        let timeline = OracleTimeline(scenario: scenario, visibility: visibility)
        var best = visibility.visibleCellFrames
        func enumerate(_ order: [Int], _ rest: [Int]) {
            if !order.isEmpty {
                for plan in [OraclePlan.searched(order.map { (.zero, $0) }), .searched(timeline.releases(of: order))] {
                    best = min(best, simulator.runTimed(.oracle, plan: plan).result.blankCellFrames)
                }
            }
            for (index, item) in rest.enumerated() {
                var remaining = rest
                remaining.remove(at: index)
                enumerate(order + [item], remaining)
            }
        }
        enumerate([], visibility.itemsByFirstAppearance)
        return best
    }

    static func describe(_ scenario: SimulationScenario) -> String {
        let layout: String
        switch scenario.layout {
        case .list(let heights): layout = "list of \(heights.count) rows"
        case .grid(let columns, let count, _, _): layout = "grid of \(count) items, \(columns) columns"
        case .carousels(let rows): layout = "feed of \(rows.count) rows"
        }
        return "\(layout), viewport \(Int(scenario.viewport.height)) pt, \(scenario.maxConcurrentLoads) slots, "
            + "\(scenario.network.latency), \(scenario.network.bandwidth), failure rate "
            + "\(scenario.network.failureRate), trace \(scenario.trace.duration)"
    }
}
