import Lookahead

/// What each mechanism of the adaptive policy buys on its own: the shipped
/// `adaptive` against the same settings with one mechanism switched, over
/// the built-in scenarios and several seeds (`lookahead ablate`).
///
/// A mechanism on by default is switched off (its row says what the
/// shipped policy would lose without it); one off by default is switched on
/// (what it would change if shipped). Every run is ``Simulator/run(adaptive:)``,
/// so a row differs from the shipped one by its setting alone.
public struct PolicyAblation: Sendable {
    /// One mechanism and how its row changes the shipped settings.
    public struct Mechanism: Sendable {
        /// What the row is called in the table.
        public let name: String
        /// The shipped settings with this mechanism switched.
        public let apply: @Sendable (AdaptiveSettings) -> AdaptiveSettings
    }

    /// The shipped row first, then each mechanism switched.
    public static let mechanisms: [Mechanism] = [
        Mechanism(name: "shipped") { $0 },
        Mechanism(name: "no landing zone") { $0.with { $0.yieldsToLandingZone = false } },
        Mechanism(name: "no announced landings") { $0.with { $0.announcesLandings = false } },
        Mechanism(name: "no deadlines") { $0.with { $0.datesPrefetches = false } },
        Mechanism(name: "no hedging of prefetches due soon") { $0.with { $0.hedgesDuePrefetches = false } },
        Mechanism(name: "no hedging") { $0.with { $0.hedgesSlowLoads = false } },
        Mechanism(name: "no first-screen prior") { $0.with { $0.hedgePriorMilliseconds = nil } },
        Mechanism(name: "no reader pace (a fixed window)") { $0.with { $0.restingFloorScreens = nil } },
        Mechanism(name: "no ahead-first at rest") { $0.with { $0.restingTrailingWeight = 1 } },
        Mechanism(name: "no learned reach") { $0.with { $0.gestureReach = nil } },
        Mechanism(name: "learned reach fitted on feed's traces only") {
            $0.with { $0.gestureReach = .fitted(onBuiltIn: "feed") }
        },
        Mechanism(name: "learned reach fitted on photos' traces only") {
            $0.with { $0.gestureReach = .fitted(onBuiltIn: "photos") }
        },
        Mechanism(name: "no learned reach, a deeper window (4 / 2.4 screens)") {
            $0.with {
                $0.gestureReach = nil
                $0.restingLeadingScreens = 4
                $0.restingTrailingScreens = 2.4
            }
        },
    ]

    /// The scenarios run, in order.
    public let scenarios: [String]
    /// The seeds run; the sums are over them.
    public let seeds: [UInt64]
    /// Changes each built-in scenario before it runs (a link capped, say).
    let adjust: @Sendable (inout SimulationScenario) -> Void

    /// Creates an ablation over `scenarios` (built-in names) and `seeds`,
    /// each scenario changed by `adjust` first.
    ///
    /// - Precondition: every scenario is a built-in one, and there is a seed.
    public init(
        scenarios: [String] = SimulationScenario.builtInNames, seeds: [UInt64],
        adjust: @escaping @Sendable (inout SimulationScenario) -> Void = { _ in }
    ) {
        precondition(
            scenarios.allSatisfy(SimulationScenario.builtInNames.contains), "PolicyAblation: unknown scenario")
        precondition(!seeds.isEmpty, "PolicyAblation: no seeds")
        self.scenarios = scenarios
        self.seeds = seeds
        self.adjust = adjust
    }

    /// One cell of the table: sums over the seeds.
    public struct Cell: Hashable, Sendable {
        /// Blank cell-frames.
        public var blankCellFrames = 0
        /// Completed loads never shown.
        public var wastedLoads = 0
        /// Loads started, hedges and retries included.
        public var requests = 0
    }

    /// Runs every mechanism on every scenario and seed: `cells[mechanism][scenario]`.
    ///
    /// - Complexity: mechanisms × scenarios × seeds simulator runs.
    public func run(progress: (Int, Int) -> Void = { _, _ in }) -> [[Cell]] {
        var cells = Array(repeating: Array(repeating: Cell(), count: scenarios.count), count: Self.mechanisms.count)
        let total = scenarios.count * seeds.count
        var done = 0
        for (column, name) in scenarios.enumerated() {
            for seed in seeds {
                var scenario = SimulationScenario.builtIn(named: name, seed: seed)!
                adjust(&scenario)
                let simulator = Simulator(scenario: scenario)
                let shipped = AdaptiveSettings.shipped(maxConcurrentLoads: scenario.maxConcurrentLoads)
                for (row, mechanism) in Self.mechanisms.enumerated() {
                    let result = simulator.run(adaptive: mechanism.apply(shipped))
                    cells[row][column].blankCellFrames += result.blankCellFrames
                    cells[row][column].wastedLoads += result.wastedLoads
                    cells[row][column].requests += result.requests
                }
                done += 1
                progress(done, total)
            }
        }
        return cells
    }

    /// The table in Markdown: blank cell-frames (and wasted loads) per
    /// scenario, each switched row with its change against the shipped one.
    public func markdown(_ cells: [[Cell]]) -> String {
        var lines = ["| mechanism | " + scenarios.joined(separator: " | ") + " |"]
        lines.append("|---|" + String(repeating: "---|", count: scenarios.count))
        for (row, mechanism) in Self.mechanisms.enumerated() {
            let values = cells[row].indices.map { column -> String in
                let cell = cells[row][column]
                let base = cells[0][column]
                let text = "\(cell.blankCellFrames) / \(cell.wastedLoads)"
                guard row > 0, base.blankCellFrames > 0 else { return text }
                let change = Double(cell.blankCellFrames - base.blankCellFrames) / Double(base.blankCellFrames)
                return text + " (\(change >= 0 ? "+" : "")\(Int((change * 100).rounded())) %)"
            }
            lines.append("| \(mechanism.name) | " + values.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension AdaptiveSettings {
    /// These settings with `change` applied.
    func with(_ change: (inout AdaptiveSettings) -> Void) -> AdaptiveSettings {
        var settings = self
        change(&settings)
        return settings
    }
}
