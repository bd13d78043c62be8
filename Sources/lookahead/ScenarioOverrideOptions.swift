#if Tools
import ArgumentParser
import Lookahead
import LookaheadSimulation

/// The scenario settings `simulate`, `tune` and `ablate` let a user
/// override: the concurrency limit, the latency distribution, the link's
/// bandwidth, the viewport. Checked against the simulator's ranges before
/// anything is built from them.
struct ScenarioOverrideOptions: ParsableArguments {
    @Option(help: "Override the concurrency limit (tune: where its search starts).")
    var concurrency: Int?

    @Option(help: "Override the median latency, in milliseconds (with --latency-p99).")
    var latencyMedian: Double?

    @Option(help: "Override the 99th-percentile latency, in milliseconds (with --latency-median).")
    var latencyP99: Double?

    @Option(help: "A bandwidth cap shared by the loads in flight, in kilobits per second (1...10000000).")
    var bandwidth: Double?

    @Option(help: "Override the viewport, as WIDTHxHEIGHT in points (tune: for traces that do not record it).")
    var viewport: String?

    @Option(
        help: ArgumentHelp(
            "Start the first screen's loads this many milliseconds before the view shows it (0...10000).",
            discussion: "As an app calling prefetchFirstScreen on a tap's touch-down: every strategy and the bound."))
    var startLead: Double?

    func validate() throws {
        if let concurrency {
            try OptionRange.check(
                concurrency, "--concurrency", in: SimulationScenario.concurrencyLimits, "loads at once")
        }
        if (latencyMedian == nil) != (latencyP99 == nil) {
            throw ValidationError("--latency-median and --latency-p99 go together")
        }
        if let latencyMedian, let latencyP99 {
            let problem = latencyProblem(
                medianMilliseconds: latencyMedian, p99Milliseconds: latencyP99,
                names: ("--latency-median", "--latency-p99"), within: SimulationScenario.latencyLimits)
            if let problem { throw ValidationError(problem) }
        }
        if let bandwidth { try OptionRange.check(bandwidth, "--bandwidth", in: 1...10_000_000, "kbit/s") }
        if let startLead { try OptionRange.check(startLead, "--start-lead", in: 0...10_000, "ms") }
        if let viewport, Self.parseViewport(viewport) == nil {
            throw ValidationError(
                "--viewport takes WIDTHxHEIGHT, each above 0 and at most "
                    + "\(OptionRange.describe(SimulationScenario.maximumViewportSide)) points, e.g. 390x844; "
                    + "got '\(viewport)'")
        }
    }

    /// The latencies given, as durations.
    var latencies: (median: Duration, p99: Duration)? {
        guard let latencyMedian, let latencyP99 else { return nil }
        return (.microseconds(Int64(latencyMedian * 1_000)), .microseconds(Int64(latencyP99 * 1_000)))
    }

    /// `scenario` with the options given applied.
    func apply(to scenario: inout SimulationScenario) {
        if let concurrency { scenario.maxConcurrentLoads = concurrency }
        if let (median, p99) = latencies { scenario.network.latency = .logNormal(median: median, p99: p99) }
        if let bandwidth { scenario.network.bandwidth = .bitsPerSecond(bandwidth * 1_000) }
        if let viewport, let size = Self.parseViewport(viewport) { scenario.viewport = size }
        if let startLead { scenario.startLead = .microseconds(Int64(startLead * 1_000)) }
    }

    /// `WIDTHxHEIGHT` within the simulator's viewport limits, or `nil`.
    static func parseViewport(_ text: String) -> Size? {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false).map { Double($0) }
        guard parts.count == 2, let width = parts[0], let height = parts[1] else { return nil }
        let sides = 0...SimulationScenario.maximumViewportSide
        guard sides.contains(width), sides.contains(height), width > 0, height > 0 else { return nil }
        return Size(width: width, height: height)
    }
}
#endif
