#if Tools
import ArgumentParser
import Foundation
import Lookahead
import LookaheadSimulation

/// `lookahead tune`: the adaptive policy's settings for your own app, from
/// your own scroll traces and load times.
struct TuneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tune",
        abstract: "Recommend prefetching settings for your app from recorded scroll traces.",
        discussion: """
            Replays each trace (recorded with ScrollTraceRecorder, or any time_ms,offset CSV) under UIKit's \
            window, Nuke's, Texture's and the shipped adaptive policy, then searches the adaptive policy's \
            settings (margin, resting window, reach, landing zone, concurrency) for the fewest blank cell-frames \
            within a waste budget. Part of the traces is held out: the recommendation is scored on traces the \
            search never saw, next to the lower bound. Without --trace it tunes on a built-in scenario's \
            generated traces (seeds --seed…+2 to search, +3 and +4 held out). Prints the recommendation as \
            Swift code to paste.
            """
    )

    @Option(help: "A recorded scroll trace (CSV); repeat for several. A third of them (at least one) is held out.")
    var trace: [String] = []

    @Option(help: "Without --trace: the built-in scenario whose generated traces to tune on.")
    var scenario = "feed"

    @Option(help: "The seed of the built-in traces and of the network model.")
    var seed: UInt64 = 1

    @Option(help: "Without --trace: the length of each generated trace, in seconds (1...3600).")
    var duration: Double?

    @Option(help: "A latency profile (JSON, LatencyProfile) recorded in the app: its median and 99th percentile.")
    var latencyProfile: String?

    @OptionGroup var overrides: ScenarioOverrideOptions

    @Option(
        help: """
            For traces without metadata: the list, list:ROW_HEIGHT or grid:COLUMNS (square cells), \
            with --items (default: the scenario's).
            """)
    var layout: String?

    @Option(help: "With --layout: how many items the list has (1...10000000).")
    var items = 10_000

    @Option(
        help:
            "The waste budget: completed loads never seen per completed load, 0...1 (default: the best baseline's, plus two standard errors)."
    )
    var maxWaste: Double?

    @Flag(help: "Also score every combination of settings on the held-out traces (slow) and compare.")
    var exhaustive = false

    @OptionGroup var output: ReportOutputOptions

    func validate() throws {
        if SimulationScenario.builtIn(named: scenario, seed: seed, duration: .seconds(1)) == nil {
            throw ValidationError(
                "unknown scenario '\(scenario)'; choose from \(SimulationScenario.builtInNames.joined(separator: ", "))"
            )
        }
        if let duration { try OptionRange.check(duration, "--duration", in: 1...3_600, "seconds") }
        if latencyProfile != nil, overrides.latencyMedian != nil || overrides.latencyP99 != nil {
            throw ValidationError("--latency-profile and --latency-median/--latency-p99 are alternatives: give one")
        }
        if let maxWaste { try OptionRange.check(maxWaste, "--max-waste", in: 0...1, "") }
        try OptionRange.check(items, "--items", in: 1...10_000_000, "items")
        if let layout, Self.parseLayout(layout, items: items) == nil {
            throw ValidationError(
                "--layout takes list:ROW_HEIGHT (points above 0, at most 100000) or grid:COLUMNS (1...100); "
                    + "got '\(layout)'")
        }
    }

    func run() throws {
        let (training, heldOut) = try makeScenarios()
        let progress = ProgressBar(total: 100)
        let tuning = PolicyTuning(training: training, heldOut: heldOut, maxWasteRatio: maxWaste)
        let report = tuning.run(exhaustive: exhaustive) { step in
            progress.update(completed: step.completed * 100 / max(step.total, 1), label: step.step)
        }
        progress.finish()
        if output.json {
            try output.writeJSON(report)
        } else {
            StandardStreams.write(report.text())
        }
        // The chart and the page show the held-out traces.
        try output.writeChart(of: report.heldOutResults)
        try output.writeHTMLReport(
            of: report.heldOutResults, title: "Lookahead tuning: the held-out traces",
            initialPair: ("system", PolicyTuning.recommendedName)
        ) { tuning.heldOutTimelines(recommended: report.recommended) }
    }

    /// The training and held-out scenarios: the recorded traces (a third held
    /// out, or the last 30 % of a single one), or a built-in scenario's seeds.
    func makeScenarios() throws -> (training: [SimulationScenario], heldOut: [SimulationScenario]) {
        let length = duration.map { Duration.milliseconds(Int64($0 * 1_000)) }
        guard let base = SimulationScenario.builtIn(named: scenario, seed: seed, duration: length) else {
            throw ValidationError("unknown scenario '\(scenario)'")
        }
        let latency = try latencies()
        var scenarios: [SimulationScenario] = []
        var split: Int
        if trace.isEmpty {
            for offset in 0..<5 {
                guard
                    let generated = SimulationScenario.builtIn(
                        named: scenario, seed: seed + UInt64(offset), duration: length)
                else { continue }
                scenarios.append(configured(generated, latency: latency))
            }
            split = 3
        } else {
            var recordings: [(name: String, recording: RecordedTrace)] = []
            for path in trace {
                do {
                    recordings.append(
                        (URL(fileURLWithPath: path).lastPathComponent, try RecordedTrace(contentsOfCSV: path)))
                } catch {
                    throw CommandError("\(path): \(error)")
                }
            }
            if recordings.count == 1 {
                let (name, whole) = recordings[0]
                let (first, second) = Self.split(whole.trace, at: 0.7)
                var before = whole
                before.trace = first
                var after = whole
                after.trace = second
                recordings = [(name + " (first 70%)", before), (name + " (last 30%)", after)]
            }
            // Every third trace (at least the last one) is held out; the order given is kept within each part.
            let heldOut = Set(recordings.indices.filter { $0 % 3 == 2 }).union(
                recordings.count < 3 ? [recordings.count - 1] : [])
            let ordered =
                recordings.indices.filter { !heldOut.contains($0) } + recordings.indices.filter { heldOut.contains($0) }
            split = recordings.count - heldOut.count
            for index in ordered {
                let (name, recording) = recordings[index]
                var scenario = configured(base, latency: latency)
                scenario.name = name
                scenario.trace = recording.trace
                // What the recording says of the screen and the list wins over the options.
                if let viewport = recording.viewport { scenario.viewport = viewport }
                if let layout = recording.layout ?? layout.flatMap({ Self.parseLayout($0, items: items) }) {
                    scenario.layout = layout
                }
                scenarios.append(scenario)
            }
        }
        for scenario in scenarios {
            do {
                try scenario.validate()
            } catch {
                throw ValidationError("\(scenario.name): \(error.message)")
            }
        }
        return (Array(scenarios[..<split]), Array(scenarios[split...]))
    }

    /// `--layout`: `list:ROW_HEIGHT` or `grid:COLUMNS` of `items` items.
    static func parseLayout(_ text: String, items: Int) -> SimulationScenario.Layout? {
        let parts = text.lowercased().split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        switch parts[0] {
        case "list":
            guard let height = Double(parts[1]), height.isFinite, height > 0, height <= 100_000 else { return nil }
            return .list(rowHeights: Array(repeating: height, count: items))
        case "grid":
            guard let columns = Int(parts[1]), (1...100).contains(columns) else { return nil }
            return .grid(columns: columns, itemCount: items, spacing: 2, aspectRatio: 1)
        default:
            return nil
        }
    }

    /// `scenario` with the network, concurrency and viewport options applied.
    func configured(_ scenario: SimulationScenario, latency: (Duration, Duration)?) -> SimulationScenario {
        var scenario = scenario
        overrides.apply(to: &scenario)
        if let (median, p99) = latency { scenario.network.latency = .logNormal(median: median, p99: p99) }
        return scenario
    }

    /// The latency distribution's median and 99th percentile, from the options or the profile.
    func latencies() throws -> (Duration, Duration)? {
        if let latencies = overrides.latencies { return latencies }
        guard let latencyProfile else { return nil }
        let profile: LatencyProfile
        do {
            profile = try JSONDecoder().decode(
                LatencyProfile.self, from: Data(contentsOf: URL(fileURLWithPath: latencyProfile)))
        } catch {
            throw CommandError("--latency-profile \(latencyProfile): not a latency profile (\(error))")
        }
        guard let median = profile.milliseconds(atQuantile: 0.5), let p99 = profile.milliseconds(atQuantile: 0.99)
        else {
            throw CommandError("--latency-profile \(latencyProfile): needs at least one load")
        }
        let problem = latencyProblem(
            medianMilliseconds: median, p99Milliseconds: p99, names: ("its median", "its 99th percentile"),
            within: SimulationScenario.latencyLimits)
        if let problem { throw CommandError("--latency-profile \(latencyProfile): \(problem)") }
        return (.microseconds(Int64(median * 1_000)), .microseconds(Int64(p99 * 1_000)))
    }

    /// `trace` cut at `fraction` of its duration: the part before, and the part after starting at zero.
    static func split(_ trace: ScrollTrace, at fraction: Double) -> (ScrollTrace, ScrollTrace) {
        let cut = trace.duration * fraction
        let before = trace.samples.filter { $0.time <= cut }
        let after =
            [ScrollTrace.Sample(time: .zero, offset: trace.offset(at: cut))]
            + trace.samples.filter { $0.time > cut }.map { ScrollTrace.Sample(time: $0.time - cut, offset: $0.offset) }
        return (ScrollTrace(samples: before.isEmpty ? [trace.samples[0]] : before), ScrollTrace(samples: after))
    }
}
#endif
