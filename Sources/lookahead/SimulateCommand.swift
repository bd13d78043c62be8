public import ArgumentParser
import Foundation
import Lookahead
import LookaheadSimulation

/// `lookahead simulate`: every scenario × strategy, a table, `--json`, `--chart`.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Replay scroll traces over a modelled network and count the blank cells each strategy leaves.",
        discussion: """
            Scenarios: \(SimulationScenario.builtInNames.joined(separator: ", ")). \
            Strategies: \(SimulationStrategy.allCases.map(\.rawValue).joined(separator: ", ")). \
            The same seed gives byte-identical JSON.
            """
    )

    @Option(name: .customLong("scenario"), help: "Run only this scenario (repeatable; default: all).")
    var scenarioNames: [String] = []

    @Option(name: .customLong("strategy"), help: "Run only this strategy (repeatable; default: all).")
    var strategies: [SimulationStrategy] = []

    @Option(help: "The seed of traces, row heights and latencies.")
    var seed: UInt64 = 1

    @Flag(help: "Print the results as JSON on standard output.")
    var json = false

    @Option(help: "Write an SVG chart of blank ratio, waste and blank cells over time to this file.")
    var chart: String?

    @Option(help: "Replace every scenario's trace with this CSV file (time_ms,offset per line).")
    var trace: String?

    @Option(help: "Override the concurrency limit.")
    var concurrency: Int?

    @Option(help: "Override the median latency, in milliseconds (with --latency-p99).")
    var latencyMedian: Double?

    @Option(help: "Override the 99th-percentile latency, in milliseconds (with --latency-median).")
    var latencyP99: Double?

    @Option(help: "Override the viewport, as WIDTHxHEIGHT in points.")
    var viewport: String?

    @Option(help: "Override the trace duration of generated traces, in seconds.")
    var duration: Double?

    @Option(help: "Frames per second.")
    var frameRate: Double = 60

    func validate() throws {
        for name in scenarioNames where !SimulationScenario.builtInNames.contains(name) {
            throw ValidationError(
                "unknown scenario '\(name)'; choose from \(SimulationScenario.builtInNames.joined(separator: ", "))")
        }
        if let concurrency, concurrency < 1 { throw ValidationError("--concurrency must be at least 1") }
        if (latencyMedian == nil) != (latencyP99 == nil) {
            throw ValidationError("--latency-median and --latency-p99 go together")
        }
        if let latencyMedian, let latencyP99, !(latencyMedian > 0 && latencyP99 >= latencyMedian) {
            throw ValidationError("latencies must satisfy 0 < median <= p99")
        }
        if let duration, !(duration > 0) { throw ValidationError("--duration must be positive") }
        if !(frameRate > 0) { throw ValidationError("--frame-rate must be positive") }
        if let viewport, parseViewport(viewport) == nil {
            throw ValidationError("--viewport takes WIDTHxHEIGHT, e.g. 390x844; got '\(viewport)'")
        }
    }

    func parseViewport(_ text: String) -> Size? {
        let parts = text.lowercased().split(separator: "x").compactMap { Double($0) }
        guard parts.count == 2, parts[0] > 0, parts[1] > 0 else { return nil }
        return Size(width: parts[0], height: parts[1])
    }

    func makeScenarios() throws -> [SimulationScenario] {
        let replacement = try trace.map { path in
            do {
                return try ScrollTrace(contentsOfCSV: path)
            } catch {
                throw CommandError("\(path): \(error)")
            }
        }
        let names = scenarioNames.isEmpty ? SimulationScenario.builtInNames : scenarioNames
        return names.compactMap { name in
            guard
                var scenario = SimulationScenario.builtIn(
                    named: name, seed: seed, duration: duration.map { .milliseconds(Int64($0 * 1_000)) })
            else { return nil }
            if let replacement { scenario.trace = replacement }
            if let concurrency { scenario.maxConcurrentLoads = concurrency }
            if let latencyMedian, let latencyP99 {
                scenario.network.latency = .logNormal(
                    median: .microseconds(Int64(latencyMedian * 1_000)), p99: .microseconds(Int64(latencyP99 * 1_000)))
            }
            if let viewport, let size = parseViewport(viewport) { scenario.viewport = size }
            scenario.frameRate = frameRate
            return scenario
        }
    }

    func run() throws {
        let suite = SimulationSuite(
            seed: seed, scenarios: try makeScenarios(),
            strategies: strategies.isEmpty ? SimulationStrategy.allCases : strategies)
        let progress = ProgressBar(total: suite.scenarios.count * suite.strategies.count)
        var engineTimes: [String: Duration] = [:]
        let report = suite.run { step in
            engineTimes["\(step.scenario)/\(step.strategy.rawValue)"] = step.timing.engineTimePerFrame
            progress.update(completed: step.completed, label: "\(step.scenario) / \(step.strategy.rawValue)")
        }
        progress.finish()

        // Results first: a chart that cannot be written must not lose them.
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            StandardStreams.write(String(decoding: try encoder.encode(report), as: UTF8.self) + "\n")
        } else {
            StandardStreams.write(report.table(engineTimes: engineTimes))
        }
        if let chart {
            do {
                try SimulationChart(report: report).svg().write(toFile: chart, atomically: true, encoding: .utf8)
                StandardStreams.writeError("wrote \(chart)\n")
            } catch {
                throw CommandError("cannot write the chart to \(chart): \(error.localizedDescription)")
            }
        }
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
