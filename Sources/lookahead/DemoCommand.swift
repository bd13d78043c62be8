#if Tools
import ArgumentParser
import Foundation
import Logging
import LookaheadLive
import LookaheadSimulation

/// `lookahead demo`: Apple's prefetching sample, live in a terminal.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Show prefetching live: a grid of cells that turn from white to red as their data lands.",
        discussion: """
            Starts the feed server in-process on 127.0.0.1 (or uses --server) with injected latency and \
            scrolls a grid along a seeded scroll (--script) for --duration seconds, then prints a summary. The rows \
            just below the viewport are drawn dimmed: that is where prefetching happens. With --interactive: \
            j/k scroll a row, space flings, g/G scroll to the top/bottom (animated), q quits. Without a terminal on standard \
            output (or with --no-ui) it runs the scripted scroll without drawing and prints the summary.
            """
    )

    @Option(help: "The prefetching strategy: adaptive, system, texture (2.5 screens ahead, 1.5 behind) or none.")
    var strategy = DemoConfiguration.defaults.strategy.rawValue

    @Flag(help: "Show system beside --strategy: two grids, the same scroll, the same server, each blank count live.")
    var compare = false

    @Option(help: "The scripted scroll: skimming (drags, flicks, pauses), reading, photos, flinging or jumping.")
    var script = DemoConfiguration.defaults.script.rawValue

    @Option(
        help: """
            How long the scripted scroll runs, in seconds (default: 15; 40 for jumping, whose first jump comes \
            15–30 s in).
            """)
    var duration: Double?

    @OptionGroup(title: DemoCommand.latencyTitle)
    var latency: LatencyOptions

    @Flag(
        help: "Print what the simulator predicts for this run (each grid's blank ratio) instead of running it live."
    )
    var simulate = false

    @Flag(help: "Scroll with the keyboard instead of the script (j/k, space, g/G, q).")
    var interactive = false

    @Flag(help: "Do not draw the grid; run the scripted scroll and print the summary.")
    var noUI = false

    @Option(help: "Use the feed server at this URL instead of starting one.")
    var server: String?

    @Option(help: "The seed of the scripted scroll.")
    var seed = DemoConfiguration.defaults.seed

    @Option(help: "Frames per second.")
    var frameRate = DemoConfiguration.defaults.frameRate

    @Option(help: "The most loads that run at once.")
    var concurrency = DemoConfiguration.defaults.maxConcurrentLoads

    @Option(help: "How many items the embedded server serves.")
    var items = DemoConfiguration.defaults.itemCount

    @Option(help: "The log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel = DemoConfiguration.defaults.logLevel.rawValue

    @Option(help: "Write logs to this file (without it, logs go nowhere while the grid is drawn).")
    var logFile: String?

    /// The embedded server's latency without `--latency-median`, in milliseconds.
    static let defaultLatencies = (
        median: DemoConfiguration.defaults.latencyMedian / .milliseconds(1),
        p99: DemoConfiguration.defaults.latencyP99 / .milliseconds(1)
    )

    /// The heading of the latency options in `--help`, with their defaults.
    static let latencyTitle =
        "The embedded server's latency (default: \(OptionRange.describe(defaultLatencies.median)) ms median, "
        + "\(OptionRange.describe(defaultLatencies.p99)) ms p99)"

    var showsUI: Bool { !noUI && isatty(STDOUT_FILENO) != 0 && isatty(STDIN_FILENO) != 0 }

    func makeConfiguration() throws -> DemoConfiguration {
        let latencies = latency.milliseconds(defaults: Self.defaultLatencies)
        do {
            return try DemoConfiguration.parse(
                strategy: strategy, durationSeconds: duration, latencyMedianMilliseconds: latencies.median,
                latencyP99Milliseconds: latencies.p99, interactive: interactive, showsUI: showsUI,
                server: server, seed: seed, frameRate: frameRate, concurrency: concurrency, items: items,
                logLevel: logLevel, compare: compare, script: script)
        } catch {
            throw ValidationError(error.message)
        }
    }

    func validate() throws {
        if simulate && (interactive || server != nil) {
            throw ValidationError(
                "--simulate: simulates the scripted scroll on the demo's own network; drop "
                    + "--interactive and --server")
        }
        _ = try makeConfiguration()
    }

    func run() async throws {
        let configuration = try makeConfiguration()
        if simulate {
            let simulator = Simulator(scenario: configuration.simulatedScenario())
            for strategy in configuration.strategies {
                let result = simulator.run(strategy.simulationStrategy)
                StandardStreams.write(
                    "simulated: strategy \(strategy.rawValue), \(result.blankCellFrames) blank cell-frames of "
                        + "\(result.visibleCellFrames) visible (blank ratio "
                        + String(format: "%.2f%%", result.blankRatio * 100) + "), \(result.requests) loads\n")
            }
            return
        }
        let summaries = try await DemoRunner.run(configuration: configuration, showsUI: showsUI, logFile: logFile)
        for summary in summaries { StandardStreams.write(summary.text + "\n") }
        if summaries.count == 2, summaries[0].blankCellFrames > 0 {
            let ratio = Double(summaries[1].blankCellFrames) / Double(summaries[0].blankCellFrames)
            StandardStreams.write(
                "\(summaries[1].strategy.rawValue) had \(summaries[1].blankCellFrames) blank cell-frames against "
                    + "\(summaries[0].strategy.rawValue)'s \(summaries[0].blankCellFrames): "
                    + String(format: "%.2f×", ratio) + "\n")
        }
        if summaries.contains(where: \.wasInterrupted) { throw ExitCode(130) }
    }
}
#endif
