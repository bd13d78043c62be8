#if Tools
import ArgumentParser
import Foundation
import LookaheadBenchmarks

/// `lookahead bench coordinator`: what a coordinator costs the main thread per
/// frame, under a fling with loads in flight.
struct BenchCoordinatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coordinator",
        abstract: "Time the coordinator's work per frame on the main thread (release build).",
        discussion: """
            A 4-column grid of 100,000 items, a list of seeded row heights and a feed of carousels, \
            each scrolled at 120 Hz in real time (drag, announced fling, rest, reversal) with real \
            20 ms loads in flight; the adaptive policy with hedging (and without its learned reach), \
            without hedging, and UIKit's window. \
            Reports the median, p90, p99 and max per frame, in microseconds. \
            Build in release: swift run -c release lookahead bench coordinator
            """
    )

    @Flag(help: "Print the results as JSON on standard output.")
    var json = false

    @Option(help: "Scroll cycles per workload and variant (about 5.3 s each), 1...100.")
    var cycles = 6

    @Option(
        help:
            "Only this workload (grid, list, nested, self-sizing; repeatable), or wake: the floor, a frame that only starts a task; the coordinators' by default."
    )
    var workload: [String] = []

    @Option(help: "The seed of the list's row heights.")
    var seed: UInt64 = 0x5EED_F00D

    func validate() throws {
        try OptionRange.check(cycles, "--cycles", in: 1...100, "scroll cycles")
        for name in workload where CoordinatorBenchmark.Workload(rawValue: name) == nil {
            throw ValidationError("--workload must be grid, list, nested, self-sizing or wake, got '\(name)'")
        }
    }

    @MainActor
    func run() async throws {
        StandardStreams.warnIfDebugBuild(release: "swift run -c release lookahead bench coordinator")
        let benchmark = CoordinatorBenchmark(
            cycles: cycles,
            workloads: workload.isEmpty
                ? CoordinatorBenchmark.Workload.coordinators
                : workload.compactMap(CoordinatorBenchmark.Workload.init),
            seed: seed)
        let report = await benchmark.run { step in StandardStreams.writeError(step + "\n") }
        if json {
            try StandardStreams.writeJSON(report)
        } else {
            StandardStreams.write(Self.table(report))
        }
    }

    /// The report as a table for a terminal.
    private static func table(_ report: CoordinatorBenchmark.Report) -> String {
        var lines = ["workload    variant             frames   median µs     p90 µs     p99 µs     max µs   loads"]
        for row in report.results {
            lines.append(
                row.workload.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0)
                    + row.variant.rawValue.padding(toLength: 18, withPad: " ", startingAt: 0)
                    + String(
                        format: "%7d %11.1f %10.1f %10.1f %10.1f %7d", row.frames, row.medianMicroseconds,
                        row.p90Microseconds, row.p99Microseconds, row.maxMicroseconds, row.loadsStarted))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
#endif
