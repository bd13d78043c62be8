#if Tools
import ArgumentParser
import Foundation
import LookaheadBenchmarks

/// `lookahead bench planner`: the cost of one planner update on 10k and 1M
/// items, `.system` and `.adaptive`, and of recording a frame of a trace.
struct BenchPlannerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "planner",
        abstract:
            "Time one PrefetchPlanner update (a frame of steady scrolling) on lists of 10k and 1M items, and the trace recorder.",
        discussion: """
            Reports the median and 99th percentile per update and median(1M) / median(10k): \
            a ratio near 1 means the cost follows the window, not the list. \
            Build in release: swift run -c release lookahead bench planner
            """
    )

    @Flag(help: "Print the results as JSON on standard output.")
    var json = false

    @Option(help: "The seed of the generated row heights.")
    var seed: UInt64 = 0x5EED_F00D

    @Option(help: "Frames timed per list (after a warm-up of a tenth as many), 100...10000000.")
    var frames = 20_000

    func validate() throws {
        try OptionRange.check(frames, "--frames", in: 100...10_000_000, "frames")
    }

    func run() throws {
        StandardStreams.warnIfDebugBuild(release: "swift run -c release lookahead bench planner")
        let report = PlannerBenchmark(seed: seed, frames: frames, warmUpFrames: frames / 10).run { step in
            StandardStreams.writeError(step + "\n")
        }
        if json {
            try StandardStreams.writeJSON(report)
        } else {
            StandardStreams.write(Self.table(report))
        }
    }

    /// The report as a table for a terminal.
    private static func table(_ report: PlannerBenchmark.Report) -> String {
        var lines = ["list                  items     median ns        p99 ns"]
        for row in report.results {
            lines.append(
                row.name.padding(toLength: 16, withPad: " ", startingAt: 0)
                    + String(format: "%11d %13.0f %13.0f", row.items, row.medianNs, row.p99Ns))
        }
        lines.append(
            String(format: "median(1M) / median(10k): system %.2f, adaptive %.2f", report.ratio, report.adaptiveRatio))
        return lines.joined(separator: "\n") + "\n"
    }
}
#endif
