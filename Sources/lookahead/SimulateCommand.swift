#if Tools
public import ArgumentParser
import Foundation
import Logging
import Lookahead
import LookaheadLive
import LookaheadSimulation

/// `lookahead simulate`: every scenario × strategy, a table, `--json`, `--chart`;
/// with `--real`, the same in real time against the feed server.
struct SimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Replay scroll traces over a modelled network and count the blank cells each strategy leaves.",
        discussion: """
            Scenarios: \(SimulationScenario.builtInNames.joined(separator: ", ")); when named, \
            \(SimulationScenario.extraNames.joined(separator: ", ")). \
            Strategies: \(SimulationStrategy.allCases.map(\.rawValue).joined(separator: ", ")). \
            The same seed gives byte-identical JSON. \
            With --real, each strategy is replayed in real time (a run takes the trace's duration) against \
            the feed server on 127.0.0.1 (or --server), which is asked for the simulator's latency and payload \
            size of every request, through the HTTP loader and AsyncFetcher; defaults: scenario feed, every \
            strategy but oracle (which needs the future), --duration 20. --compare also runs the simulator on \
            the same scenario, duration and seed and prints both blank ratios side by side.
            """
    )

    @Option(name: .customLong("scenario"), help: "Run only this scenario (repeatable; default: all).")
    var scenarioNames: [String] = []

    @Option(name: .customLong("strategy"), help: "Run only this strategy (repeatable; default: all).")
    var strategies: [SimulationStrategy] = []

    @Option(help: "The seed of traces, row heights and latencies.")
    var seed: UInt64 = 1

    @OptionGroup var output: ReportOutputOptions

    @Option(help: "Replace every scenario's trace with this CSV file (time_ms,offset per line).")
    var trace: String?

    @OptionGroup var overrides: ScenarioOverrideOptions

    @Option(help: "Override the trace duration of generated traces, in seconds.")
    var duration: Double?

    @Option(help: "Frames per second.")
    var frameRate: Double = 60

    @Flag(
        help: """
            Instead of every strategy: adaptive against UIKit's prefetching under each plausible window \
            (6/10 rows, one and two screens, one item), per scenario.
            """)
    var uikitBracket = false

    @Option(
        help: ArgumentHelp(
            "Also run the causal reference with this many sampled futures per plan (1...1000; slow: 32 is a good start).",
            discussion:
                "A planner that knows the gesture model but not the trace: adaptive / causal says what is policy."
        ))
    var causal: Int?

    @Flag(help: "Replay in real time against the feed server (defaults: --scenario feed, --duration 20).")
    var real = false

    @Flag(help: "With --real: also simulate the same runs and print simulated and real blank ratios side by side.")
    var compare = false

    @Option(help: "With --real: use the feed server at this URL instead of starting one per strategy.")
    var server: String?

    @Option(help: "With --real: the log level.")
    var logLevel: Logger.Level = .warning

    /// Checks every option against its range (see ``OptionRange``), before
    /// anything is built from them.
    func validate() throws {
        if let causal { try OptionRange.check(causal, "--causal", in: 1...1_000, "futures per plan") }
        let known = SimulationScenario.builtInNames + SimulationScenario.extraNames
        for name in scenarioNames where !known.contains(name) {
            throw ValidationError("unknown scenario '\(name)'; choose from \(known.joined(separator: ", "))")
        }
        let maximumSeconds = SimulationScenario.maximumDuration / .seconds(1)
        if let duration {
            guard duration.isFinite, duration > 0, duration <= maximumSeconds else {
                throw ValidationError(
                    "--duration must be above 0 and at most \(OptionRange.describe(maximumSeconds)) seconds (24 h), "
                        + "got \(duration)")
            }
        }
        try OptionRange.check(frameRate, "--frame-rate", in: SimulationScenario.frameRates, "frames per second")
        // Generated traces last at most 120 s unless --duration says otherwise.
        let frames = (duration ?? 120) * frameRate
        if frames > Double(SimulationScenario.maximumFrameCount) {
            throw ValidationError(
                "--duration \(OptionRange.describe(duration ?? 120)) s at --frame-rate \(OptionRange.describe(frameRate)) "
                    + "is \(Int(frames)) frames, more than the \(SimulationScenario.maximumFrameCount) accepted "
                    + "(a day at 60 Hz)")
        }
        if !real {
            if compare { throw ValidationError("--compare compares a real replay with the simulator: add --real") }
            if server != nil { throw ValidationError("--server is the feed server of a real replay: add --real") }
        }
        if let server, URL(string: server)?.host == nil {
            throw ValidationError("--server takes a URL such as http://127.0.0.1:8080; got '\(server)'")
        }
        if real, strategies == [.oracle] {
            throw ValidationError(
                "the oracle cannot be replayed for real (it needs the future trace); choose another --strategy")
        }
    }

    func makeScenarios() throws -> [SimulationScenario] {
        let replacement = try trace.map { path in
            do {
                return try ScrollTrace(contentsOfCSV: path)
            } catch {
                throw CommandError("\(path): \(error)")
            }
        }
        let names = scenarioNames.isEmpty ? (real ? ["feed"] : SimulationScenario.builtInNames) : scenarioNames
        // A real run takes the trace's duration per strategy: 20 s unless asked.
        let seconds = duration ?? (real ? 20 : nil)
        return names.compactMap { name in
            guard
                var scenario = SimulationScenario.builtIn(
                    named: name, seed: seed, duration: seconds.map { .milliseconds(Int64($0 * 1_000)) })
            else { return nil }
            if let replacement {
                scenario.trace = replacement
                // The generator's gestures did not draw this trace: no causal reference plans as if they had.
                scenario.gestures = nil
            }
            overrides.apply(to: &scenario)
            scenario.frameRate = frameRate
            return scenario
        }
    }

    /// The scenarios, each checked against the simulator's ranges (a trace
    /// file can still be too long for the frame rate, say).
    func makeValidatedScenarios() throws -> [SimulationScenario] {
        let scenarios = try makeScenarios()
        for scenario in scenarios {
            do {
                try scenario.validate()
            } catch {
                throw ValidationError(error.message + (trace.map { " (--trace \($0))" } ?? ""))
            }
        }
        return scenarios
    }

    func run() async throws {
        if real {
            try await runReal()
            return
        }
        if uikitBracket {
            try runUIKitBracket()
            return
        }
        var suite = SimulationSuite(
            seed: seed, scenarios: try makeValidatedScenarios(),
            strategies: strategies.isEmpty ? SimulationStrategy.allCases : strategies)
        suite.causalReferenceSamples = causal
        let progress = ProgressBar(total: suite.runCount)
        var engineTimes: [String: Duration] = [:]
        let (report, timelines) = suite.run(keepingTimelines: output.htmlReport != nil) { step in
            engineTimes["\(step.scenario)/\(step.strategy.rawValue)"] = step.timing.engineTimePerFrame
            progress.update(completed: step.completed, label: "\(step.scenario) / \(step.strategy.rawValue)")
        }
        progress.finish()

        // Results first: a chart that cannot be written must not lose them.
        if output.json {
            try output.writeJSON(report)
        } else {
            StandardStreams.write(report.table(engineTimes: engineTimes))
        }
        try output.writeChart(of: report)
        try output.writeHTMLReport(of: report) { timelines }
    }

    /// `--uikit-bracket`: `adaptive` against `system` under every window UIKit might have.
    func runUIKitBracket() throws {
        let brackets = try makeValidatedScenarios().compactMap { scenario in
            StandardStreams.writeError("uikit bracket: \(scenario.name)\n")
            return UIKitBracket(scenario: scenario)
        }
        if output.json {
            try output.writeJSON(brackets)
            return
        }
        let windows = UIKitWindow.allCases
        var lines = [
            "seed \(seed): blank cell-frames; UIKit's window bracketed (system under each), against adaptive",
            (["scenario"] + windows.map(\.rawValue) + ["adaptive", "bound", "UIKit / adaptive"])
                .joined(separator: " | "),
        ]
        for bracket in brackets {
            let advantage = bracket.advantage
            lines.append(
                ([bracket.scenario] + bracket.rows.map { "\($0.blankCellFrames)" } + [
                    "\(bracket.adaptiveBlankCellFrames)", "\(bracket.lowerBound)",
                    String(format: "%.2f–%.2f×", advantage.lowerBound, advantage.upperBound),
                ]).joined(separator: " | "))
        }
        lines.append("")
        lines.append("swiftui, its rows appearing ahead of visibility (screens):")
        lines.append(
            (["scenario"] + UIKitBracket.swiftUIAppearingScreens.map { String(format: "%.1f", $0) } + ["adaptive"])
                .joined(separator: " | "))
        for bracket in brackets {
            lines.append(
                ([bracket.scenario] + bracket.swiftUI.map { "\($0.blankCellFrames)" } + [
                    "\(bracket.adaptiveBlankCellFrames)"
                ]).joined(separator: " | "))
        }
        StandardStreams.write(lines.joined(separator: "\n") + "\n")
    }

    /// `--real`: each scenario × strategy replayed in real time, then the same
    /// table or JSON as the simulator's, or with `--compare` both side by side.
    func runReal() async throws {
        let scenarios = try makeValidatedScenarios()
        var chosen = strategies.isEmpty ? SimulationStrategy.allCases : strategies
        if chosen.contains(.oracle) {
            StandardStreams.writeError("note: oracle is not replayed for real (it needs the future trace); skipped\n")
            chosen.removeAll { $0 == .oracle }
        }
        var logger = Logger(label: "lookahead.simulate") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = logLevel
        let serverURL = server.flatMap { URL(string: $0) }
        let runs = scenarios.count * chosen.count
        let progress = ProgressBar(total: runs * 100)
        var report = SimulationReport(seed: seed)
        var notes: [String] = []
        var done = 0
        for scenario in scenarios {
            let replay = RealReplay(scenario: scenario, server: serverURL, logger: logger)
            let seconds = scenario.trace.duration / .seconds(1)
            var results: [StrategyResult] = []
            for strategy in chosen where strategy.runs(on: scenario.layout) {
                let label = "\(scenario.name) / \(strategy.rawValue), real time"
                progress.update(completed: done * 100, label: "\(label) 0/\(Int(seconds.rounded())) s")
                let outcome: RealReplayResult
                do {
                    outcome = try await replay.run(strategy) { step in
                        progress.update(
                            completed: done * 100 + Int(step.fraction * 100),
                            label: "\(label) \(Int((step.fraction * seconds).rounded()))/\(Int(seconds.rounded())) s")
                    }
                } catch {
                    progress.finish()
                    throw CommandError("real replay of \(scenario.name) / \(strategy.rawValue): \(error)")
                }
                results.append(outcome.result)
                done += 1
                if outcome.lateFrames > 0 {
                    notes.append(
                        "\(scenario.name) / \(strategy.rawValue): \(outcome.lateFrames) of \(outcome.frames) frames "
                            + "started late (latest by \(String(format: "%.1f", outcome.maxFrameLateness / .milliseconds(1))) ms); "
                            + "counted at their scheduled time")
                }
            }
            report.scenarios.append(SimulationReport.Scenario(scenario: scenario, strategies: results))
        }
        progress.finish()
        for note in notes { StandardStreams.writeError("note: \(note)\n") }

        if compare {
            let simulated = SimulationSuite(seed: seed, scenarios: scenarios, strategies: chosen).run()
            let comparison = ReplayComparison(simulated: simulated, real: report)
            if output.json {
                try output.writeJSON(comparison)
            } else {
                StandardStreams.write("real replay" + report.table(engineTimes: [:]))
                StandardStreams.write(comparison.table())
            }
        } else if output.json {
            try output.writeJSON(report)
        } else {
            StandardStreams.write("real replay" + report.table(engineTimes: [:]))
        }
        try output.writeChart(of: report)
        try output.writeHTMLReport(of: report) { [] }
    }
}

extension SimulationStrategy: ExpressibleByArgument {}

/// A failure while running a command (as opposed to bad arguments): printed
/// as `Error: …` without the usage text.
struct CommandError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
#endif
